// SPDX-License-Identifier: GPL-2.0
/*
 * The recording writer: see recording.h and docs/record-format.md.
 *
 * Every line goes through the one print path (json_print.h), pointed at
 * the recording's file for that line only, so a line of a recording is
 * byte for byte what kstat -j monitor prints for the same sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kstat.h"
#include "print.h"
#include "recording.h"

/* The format's version: the header's "kstat_record". */
#define RECORDING_VERSION 1

/* Point the print path at the recording for one line. */
static bool line_begin(struct recording *r, FILE **old)
{
	if (r->err)
		return false;
	errno = 0;	/* line_end() tells the stream's error from a stale one */
	*old = json_print_output(r->f);
	return true;
}

/* The line is whole: flush it, so a kill loses at most the next one. */
static void line_end(struct recording *r, FILE *old)
{
	json_print_output(old);
	if (fflush(r->f) == EOF || ferror(r->f))
		r->err = errno ? errno : EIO;
}

/* Open an existing @path as @mode says: its fd, or -1 with errno set. */
static int open_existing(const char *path, enum recording_mode mode)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	if (!S_ISREG(st.st_mode))	/* /dev/null, a FIFO: as it is */
		return open(path, O_WRONLY | O_CLOEXEC);
	if (mode == RECORDING_APPEND)
		return open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (mode == RECORDING_REPLACE)
		return open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	errno = EEXIST;
	return -1;
}

int recording_open(struct recording *r, const char *path,
		   int (*read_identity)(struct kstat_sample **out),
		   enum recording_mode mode)
{
	int fd;

	*r = (struct recording){ .path = path, .read_identity = read_identity };
	if (!strcmp(path, "-")) {
		r->f = stdout;
		return 0;
	}
	/* Created here, or one that existed: only ours may be removed. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	r->created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open_existing(path, mode);
	if (fd < 0 && errno == EEXIST) {
		kstat_err("\"%s\" exists: add \"append\" to add to it, or give another name",
			  path);
		return -1;
	}
	if (fd >= 0)
		r->f = fdopen(fd, "w");
	if (!r->f) {
		kstat_err("cannot create \"%s\": %s: give a writable file", path,
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		if (r->created)
			unlink(path);
		return -1;
	}
	return 0;
}

/* CLOCK_REALTIME - CLOCK_BOOTTIME now: a sample's wall-clock time. */
static int64_t realtime_offset_ns(void)
{
	struct timespec rt;
	int64_t bt = (int64_t)boottime_ns();

	clock_gettime(CLOCK_REALTIME, &rt);
	return (int64_t)rt.tv_sec * 1000000000LL + rt.tv_nsec - bt;
}

static void print_header_sections(uint32_t sections)
{
	size_t i;

	open_json_array("sections");
	for (i = 0; i < CLI_NR_SECTIONS; i++)
		if (cli_sections[i]->bit & sections)
			print_string(PRINT_JSON, NULL, NULL, cli_sections[i]->name);
	close_json_array();
}

static void print_header_command(char *const *command)
{
	if (!command) {
		print_null(PRINT_JSON, "command", NULL, NULL);
		return;
	}
	open_json_array("command");
	for (; *command; command++)
		print_string(PRINT_JSON, NULL, NULL, *command);
	close_json_array();
}

void recording_header(struct recording *r, const struct recording_header *h)
{
	int64_t offset = realtime_offset_ns();
	struct utsname u;
	FILE *old;

	if (!line_begin(r, &old))
		return;
	if (uname(&u))
		memset(&u, 0, sizeof(u));	/* never fails on Linux */
	new_json_obj(true, false);
	open_json_object(NULL);
	print_uint(PRINT_JSON, "kstat_record", NULL, RECORDING_VERSION);
	print_string(PRINT_JSON, "tool", NULL, "kstat " KSTAT_VERSION);
	print_string(PRINT_JSON, "host", NULL, u.nodename);
	print_string(PRINT_JSON, "kernel", NULL, u.release);
	print_string(PRINT_JSON, "machine", NULL, u.machine);
	print_uint(PRINT_JSON, "nr_cpus", NULL, nr_possible_cpus());
	/* Before 1970 only on a clock set wrong: no offset, not a wrong one. */
	if (offset >= 0)
		print_u64(PRINT_JSON, "realtime_offset_ns", NULL, (uint64_t)offset);
	else
		print_null(PRINT_JSON, "realtime_offset_ns", NULL, NULL);
	if (h->interval_ms)
		print_uint(PRINT_JSON, "interval_ms", NULL, h->interval_ms);
	else
		print_null(PRINT_JSON, "interval_ms", NULL, NULL);
	print_header_sections(h->sections);
	print_bool(PRINT_JSON, "percpu", NULL, h->percpu);
	print_header_command(h->command);
	close_json_object();
	delete_json_obj();
	line_end(r, old);
}

/* {"generation": G, "timestamp_ns": T, "irqs": [...], "arch": [...]} */
static void print_identity(const struct kstat_sample *id)
{
	struct irq_cols w = { .t = PRINT_JSON, .actions_sep = ",",
			       .no_actions = "" };
	const struct kstat_irq *q;
	const struct kstat_arch *a;
	size_t i;

	new_json_obj(true, false);
	open_json_object(NULL);
	print_uint(PRINT_JSON, "generation", NULL, id->generation);
	print_u64(PRINT_JSON, "timestamp_ns", NULL, id->timestamp_ns);
	/* /proc/interrupts' first column is as wide as this (kstat report) */
	print_uint(PRINT_JSON, "nr_irqs", NULL, id->kernel_nr_irqs);
	open_json_array("irqs");
	for (i = 0; i < id->nr_irqs; i++) {
		q = kstat_sample_irq(id, i);
		open_json_object(NULL);
		print_uint(PRINT_JSON, "irq", NULL, q->irq);
		print_irq_labels(q->has_meta ? q : NULL, &w);
		close_json_object();
	}
	close_json_array();
	open_json_array("arch");
	for (i = 0; i < id->nr_arch; i++) {
		a = kstat_sample_arch(id, i);
		open_json_object(NULL);
		print_string(PRINT_JSON, "name", NULL, a->name);
		if (a->desc)
			print_string(PRINT_JSON, "desc", NULL, a->desc);
		else
			print_null(PRINT_JSON, "desc", NULL, NULL);
		close_json_object();
	}
	close_json_array();
	close_json_object();
	delete_json_obj();
}

/*
 * Must an identity line come before @s?  The GET that reads it may already
 * see a newer generation than a sample the kernel took just before: that
 * line stands for both, so samples of either generation need no other
 * (else each late sample would read the identity again).
 */
static bool identity_due(const struct recording *r, const struct kstat_sample *s)
{
	return !r->have_identity ||
	       (s->generation != r->identity_gen &&
		s->generation != r->asked_gen);
}

/* Is it time to see whether the labels changed under one generation? */
static bool identity_check_due(const struct recording *r,
			       const struct kstat_sample *s)
{
	return s->timestamp_ns - r->identity_ns >= RECORDING_IDENTITY_CHECK_NS;
}

/* The labels of two identity lines: what follows their "irqs" key. */
static bool same_labels(const char *a, const char *b)
{
	const char *la = a ? strstr(a, "\"irqs\"") : NULL;
	const char *lb = b ? strstr(b, "\"irqs\"") : NULL;

	return la && lb && !strcmp(la, lb);
}

/* @id's identity line, malloc'd (NULL: out of memory). */
static char *render_identity(const struct kstat_sample *id)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *old;

	if (!mem)
		return NULL;
	old = json_print_output(mem);
	print_identity(id);
	json_print_output(old);
	if (fclose(mem)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void write_identity(struct recording *r, const struct kstat_sample *s)
{
	bool due = identity_due(r, s);
	struct kstat_sample *id;
	char *line;

	if (!due && !identity_check_due(r, s))
		return;
	/* Not readable now: the next sample asks again. */
	if (r->read_identity(&id))
		return;
	line = render_identity(id);
	r->identity_ns = s->timestamp_ns;
	if (!line) {
		r->err = ENOMEM;
	} else if (due || !same_labels(line, r->identity_line)) {
		errno = 0;
		if (!r->err && fputs(line, r->f) == EOF)
			r->err = errno ? errno : EIO;
		if (!r->err && fflush(r->f) == EOF)
			r->err = errno ? errno : EIO;
		r->have_identity = true;
		r->identity_gen = id->generation;
		r->asked_gen = s->generation;
		free(r->identity_line);
		r->identity_line = line;
		line = NULL;
	}
	free(line);
	kstat_sample_free(id);
}

void recording_sample(struct recording *r, const struct kstat_sample *s)
{
	FILE *old;

	write_identity(r, s);
	if (!line_begin(r, &old))
		return;
	print_monitor_sample(s, true);
	line_end(r, old);
	r->samples++;
}

void recording_lost(struct recording *r, uint64_t lost,
		    enum kstat_lost_reason why)
{
	FILE *old;

	r->lost += lost;
	/* Counts restarted with the module, and the generation with them. */
	if (why == KSTAT_LOST_RELOAD)
		r->have_identity = false;
	if (!line_begin(r, &old))
		return;
	print_lost(lost, why, true);
	line_end(r, old);
}

void recording_family(struct recording *r, int present)
{
	FILE *old;

	r->have_identity = false;
	/* The module (and its GET) went: the next GET connects again. */
	kstat_handle_drop();
	if (!line_begin(r, &old))
		return;
	print_family_line(present, true);
	line_end(r, old);
}

void recording_end(struct recording *r, const struct recording_status *st)
{
	FILE *old;

	if (!line_begin(r, &old))
		return;
	new_json_obj(true, false);
	open_json_object(NULL);
	open_json_object("end");
	print_u64(PRINT_JSON, "timestamp_ns", NULL, boottime_ns());
	print_u64(PRINT_JSON, "samples", NULL, r->samples);
	print_u64(PRINT_JSON, "lost", NULL, r->lost);
	if (st->ran && st->exited)
		print_int(PRINT_JSON, "status", NULL, st->code);
	else
		print_null(PRINT_JSON, "status", NULL, NULL);
	if (st->ran && !st->exited)
		print_int(PRINT_JSON, "signal", NULL, st->code);
	else
		print_null(PRINT_JSON, "signal", NULL, NULL);
	close_json_object();
	close_json_object();
	delete_json_obj();
	line_end(r, old);
}

int recording_close(struct recording *r, bool discard)
{
	int err = r->err;

	free(r->identity_line);
	r->identity_line = NULL;

	if (r->f == stdout) {
		/* main() closes stdout and reports its errors. */
		if (err)
			kstat_err("cannot write the recording: %s", strerror(err));
		return err ? -1 : 0;
	}
	if (fclose(r->f) && !err)
		err = errno ? errno : EIO;
	r->f = NULL;
	if (err)
		kstat_err("cannot write \"%s\": %s: free some space, or record to another file",
			  r->path, strerror(err));
	if (discard && r->created && unlink(r->path) && errno != ENOENT)
		kstat_err("cannot remove \"%s\": %s", r->path, strerror(errno));
	return err ? -1 : 0;
}
