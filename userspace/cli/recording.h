/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording writer of kstat record (and kstat run -o): a file of JSON
 * Lines in the format of docs/record-format.md.  A header first, then
 * kstat -j monitor's lines (samples through monitor's own printer,
 * losses, family events) with an identity line before the first sample
 * and before each sample whose generation is new, and an end line when
 * the recording ends cleanly.
 *
 * The kernel's generation changes with the descriptors, not with their
 * actions: a driver that requests an IRQ whose descriptor exists changes
 * its labels alone.  So the identity is also read again when
 * RECORDING_IDENTITY_CHECK_NS of samples passed since it was read, and
 * written when it differs: one GET with descriptions every 10 s at most.
 *
 * Every line is flushed as soon as it is whole, so a recorder that is
 * killed loses at most the line it was writing.  The first write error
 * is kept: every later call does nothing and recording_close() reports it.
 */
#ifndef KSTAT_CLI_RECORDING_H
#define KSTAT_CLI_RECORDING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libkstat.h>

#define RECORDING_IDENTITY_CHECK_NS (10 * 1000000000ULL)

/* What the header says the samples will carry. */
struct recording_header {
	uint32_t interval_ms;		/* 0: none (null: before and after) */
	uint32_t sections;		/* KSTAT_SECTION_* */
	bool percpu;
	char *const *command;		/* NULL-terminated, or NULL */
};

/* How the recorded command ended (kstat run, record -- CMD). */
struct recording_status {
	bool ran;			/* false: no command (null, null) */
	bool exited;			/* exit status, else a signal */
	int code;			/* the status or the signal number */
};

struct recording {
	FILE *f;
	const char *path;		/* for messages; "-" is stdout */
	int err;			/* errno of the first write error, or 0 */
	bool created;			/* the file did not exist before */
	bool have_identity;		/* an identity line was written ... */
	uint32_t identity_gen;		/* ... for the GET of this generation */
	uint32_t asked_gen;		/* ... when a sample of this one came */
	uint64_t identity_ns;		/* ... and that sample's timestamp */
	char *identity_line;		/* ... that line (to compare), malloc'd */
	uint64_t samples, lost;
	/*
	 * Read the IRQs' identity (a GET with descriptions, KSTAT_F_META):
	 * 0 and *out (freed with kstat_sample_free()), or -1 when it could
	 * not be read (the sample is written without a new identity line).
	 */
	int (*read_identity)(struct kstat_sample **out);
};

/* What recording_open() does with a regular file that exists. */
enum recording_mode {
	RECORDING_REPLACE,	/* truncate it (kstat run -o, as ">" does) */
	RECORDING_NEW,		/* refuse it: a recording is not lost by a
				 * second command with the same name */
	RECORDING_APPEND,	/* append a new segment, header first */
};

/*
 * Open @path ("-": stdout; a device or FIFO is written as it is) as
 * @mode says: 0, or -1 after the error was printed.  @read_identity as
 * in struct recording.
 */
int recording_open(struct recording *r, const char *path,
		   int (*read_identity)(struct kstat_sample **out),
		   enum recording_mode mode);
void recording_header(struct recording *r, const struct recording_header *h);
/* A sample, with an identity line before it when its generation is new. */
void recording_sample(struct recording *r, const struct kstat_sample *s);
void recording_lost(struct recording *r, uint64_t lost,
		    enum kstat_lost_reason why);
/* The module went (0) or came back (1); the next sample gets an identity. */
void recording_family(struct recording *r, int present);
void recording_end(struct recording *r, const struct recording_status *st);
/*
 * Close the file: 0, or -1 after printing the first write error (or
 * fclose()'s).  With @discard the file is removed if recording_open()
 * created it (nothing worth keeping was recorded); one that existed
 * before (or a device: /dev/full) stays.
 */
int recording_close(struct recording *r, bool discard);

#endif /* KSTAT_CLI_RECORDING_H */
