/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading what kstat wrote: a recording (docs/record-format.md, JSON
 * Lines), for kstat report and kstat compare, and the one JSON object of
 * `kstat -j run`, for kstat compare.  json-c parses; nothing here prints.
 *
 * A recording is read line by line, one event per line:
 *
 *	struct rec_reader *r;
 *	struct rec_event ev;
 *	int ret;
 *
 *	if (rec_open("rec.jsonl", &r))			// "-": stdin
 *		die(rec_error(r));			// r is always set
 *	while ((ret = rec_next(r, &ev)) > 0)
 *		if (ev.kind == REC_SAMPLE)
 *			use(ev.header, ev.sample);
 *	if (ret < 0)
 *		die(rec_error(r));			// "FILE:LINE: why"
 *	rec_close(r);
 *
 * Samples are struct kstat_sample as the library's, so the CLI's printers
 * print them: arrays of the reader's own element structs, which the
 * kstat_sample_*() macros step through by the sizes the sample carries
 * (as sample.h's struct sample_copy).  What a sample holds:
 * - counts as recorded (absolute, 64-bit); per-CPU arrays turned into
 *   the library's sparse lists (non-zero counts only), and flags has
 *   KSTAT_F_PERCPU when the sample carries per-CPU detail;
 * - IRQ descriptions (chip, hwirq, name = the recorded "type", actions,
 *   has_meta, KSTAT_F_META) from the identity line in force (the last
 *   before the sample: the writer's GET may see a newer generation than
 *   the sample it stands for); an IRQ it does not name has none; arch
 *   rows' desc from the identity line too;
 * - the online bitmap: the CPUs of the sample's per-CPU "cpu" rows, or
 *   when it has none, every CPU id below the header's nr_cpus (a
 *   recording does not say which CPUs were offline otherwise);
 * - cpu_total, intr_sum; kernel_nr_irqs from the identity line's
 *   "nr_irqs", else the header's (0 without either: the key came after
 *   version 1's first writers); no arch_unread.
 * A sample lives until the next rec_next() unless taken with
 * rec_sample_take(), then until rec_sample_free(): a compare keeps the
 * first and last sample of each segment that way.
 *
 * Errors: rec_open() and rec_next() return a negative errno and
 * rec_error() says why, naming FILE:LINE for a bad line.  A partial last
 * line (no '\n', or not JSON and nothing after it) is what a recorder
 * killed mid-write leaves: not an error, but a REC_CUT_SHORT event.  A
 * recording without an end line was cut short too: rec_ended() says
 * whether it had one.  A header of a greater format version than
 * REC_FORMAT_VERSION is refused (-EPROTO), naming the version.
 */
#ifndef KSTAT_CLI_RECREAD_H
#define KSTAT_CLI_RECREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

/* The format version this reader reads (docs/record-format.md). */
#define REC_FORMAT_VERSION 1

/* A header line: what a segment's samples are. */
struct rec_header {
	unsigned int version;		/* "kstat_record" */
	unsigned int segment;		/* 1 for the first header, 2 ... */
	unsigned long line;		/* its line in the file */
	const char *tool, *host, *kernel, *machine;	/* NULL if absent */
	uint32_t nr_cpus;		/* the span of per-CPU arrays */
	uint32_t kernel_nr_irqs;	/* "nr_irqs", the kernel's; 0 absent
					 * (the identity line's comes first) */
	int64_t realtime_offset_ns;	/* wall clock = timestamp_ns + this */
	int64_t interval_ms;		/* -1: null (run without interval) */
	uint32_t sections;		/* KSTAT_SECTION_* */
	bool percpu;
	const char *const *command;	/* NULL: null */
	size_t nr_command;
};

enum rec_kind {
	REC_HEADER,	/* a header: a new segment begins */
	REC_IDENTITY,	/* the IRQs' identity changed (generation) */
	REC_SAMPLE,
	REC_LOST,	/* samples the recorder missed */
	REC_FAMILY,	/* the module went or came back */
	REC_END,	/* the end line: the recording ended cleanly */
	REC_CUT_SHORT,	/* the last line was partial: ignored, then EOF */
	REC_OTHER,	/* a line of a kind this reader does not know */
};

/* The lost, family and end lines. */
struct rec_lost {
	uint64_t lost;
	const char *reason;	/* "gap", "overrun", ... "reload" */
	bool reload;		/* counts restarted: never subtract across */
};

struct rec_family {
	bool present;
	uint64_t timestamp_ns;
};

struct rec_end {
	uint64_t timestamp_ns, samples, lost;
	bool has_status, has_signal;	/* false: null */
	int status, signal;
};

struct rec_event {
	enum rec_kind kind;
	unsigned long line;		/* its line in the file */
	/* the header in force (NULL only before the first header) */
	const struct rec_header *header;
	const struct kstat_sample *sample;	/* REC_SAMPLE */
	uint32_t generation;		/* REC_IDENTITY */
	struct rec_lost lost;		/* REC_LOST */
	struct rec_family family;	/* REC_FAMILY */
	struct rec_end end;		/* REC_END */
};

struct rec_reader;

/*
 * Open @path ("-": stdin) to read.  0, or -errno with rec_error(*@r)
 * saying why; *@r is set either way (rec_close() it).
 */
int rec_open(const char *path, struct rec_reader **r);
/*
 * The next event into *@ev: 1, 0 at the end of the file, -errno on a
 * bad line (-EINVAL), an I/O error, a refused version (-EPROTO) or no
 * memory.  Strings and the sample in *@ev live until the next call.
 */
int rec_next(struct rec_reader *r, struct rec_event *ev);
/* Why the last call failed: "FILE:LINE: what is wrong". */
const char *rec_error(const struct rec_reader *r);
/* Had the file an end line (so far)? */
bool rec_ended(const struct rec_reader *r);
/* Was its last line partial (after rec_next() returned 0)? */
bool rec_cut_short(const struct rec_reader *r);
void rec_close(struct rec_reader *r);

/*
 * Keep the sample of the last REC_SAMPLE event past the next rec_next():
 * the same pointer, now the caller's, freed with rec_sample_free() (which
 * takes NULL).  Its header and IRQ descriptions live as long as it does.
 */
const struct kstat_sample *rec_sample_take(struct rec_reader *r);
void rec_sample_free(const struct kstat_sample *s);
/* The header a taken (or current) sample was recorded under. */
const struct rec_header *rec_sample_header(const struct kstat_sample *s);

/* ---- `kstat -j run` output ---- */

/* How an IRQ row of a run compares with the start (state). */
enum rec_irq_state {
	REC_IRQ_SAME,	/* there at both ends: count is the change */
	REC_IRQ_NEW,	/* came during the run: count is all of it */
	REC_IRQ_GONE,	/* went during the run: count unknown (0 here) */
};

/*
 * One `kstat -j run` object.  Its rows (only those that changed) are the
 * sample @delta, whose counts are the changes while the command ran:
 * cpu rows (the total as cpu_total), IRQs (ascending by number, with
 * their descriptions; irq_state[i] is the state of the i-th), arch rows
 * (with desc) and softirqs, per-CPU lists with "percpu".  timestamp_ns is
 * end_ns.
 */
struct rec_run {
	const char *const *command;
	size_t nr_command;
	bool has_status, has_signal;
	int status, signal;
	uint64_t start_ns, end_ns;
	int64_t realtime_offset_ns;
	const char *host, *kernel;
	uint32_t nr_cpus;
	bool percpu;
	const struct kstat_sample *delta;
	const enum rec_irq_state *irq_state;
};

/*
 * Read the `kstat -j run` output in @path ("-": stdin; one object, also
 * pretty-printed).  0, or -errno with a message "FILE: why" in @err.
 */
int rec_run_read(const char *path, struct rec_run **out, char *err,
		 size_t err_len);
void rec_run_free(struct rec_run *run);

/* What a file holds, from its first line: for compare's arguments. */
enum rec_file_type {
	REC_FILE_RECORDING,	/* a header first */
	REC_FILE_RUN,		/* a `kstat -j run` object */
	REC_FILE_UNKNOWN,
};
/* -errno if it cannot be read (message in @err); not for "-" (stdin). */
int rec_file_type(const char *path, char *err, size_t err_len);

#endif /* KSTAT_CLI_RECREAD_H */
