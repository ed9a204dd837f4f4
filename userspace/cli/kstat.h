/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarations shared by the files of the kstat CLI.
 *
 * An object is a function do_OBJECT(argc, argv) that gets the words after
 * its name and returns the exit status.  kstat.c lists the objects; the
 * counter sections' objects come from their struct cli_section (below).
 */
#ifndef KSTAT_CLI_KSTAT_H
#define KSTAT_CLI_KSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libkstat.h>

#include "utils.h"

/* Exit statuses. */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* runtime: kernel error, module missing, I/O */
#define EXIT_USAGE	2	/* bad command line */

/* Global options, set once by main(). */
struct kstat_opts {
	bool json;
	bool pretty;
	bool timestamp;		/* -t: wall-clock time before monitor lines
				 * and watch / top -b frames */
};
extern struct kstat_opts opts;

/* argv[0] of main(). */
extern const char *kstat_argv0;

/*
 * "FILE:LINE" of the batch file (-b) line being run into @buf, or NULL
 * outside a batch.  A helper run for that line gets it in the
 * environment (KSTAT_BATCH_ENV) and prefixes its errors with it.
 */
const char *kstat_batch_where(char *buf, size_t len);
#define KSTAT_BATCH_ENV "KSTAT_BATCH_LINE"

/*
 * helper.c: run the program @name (kstat-top, kstat-exporter) beside
 * this one, which has the object whose arguments are @argc, @argv built
 * in (argv[-1] is the object's word).  Returns the exit status.
 */
int run_helper(const char *name, int argc, char **argv);

/*
 * A counter section in the CLI: its object ("kstat NAME"), the bit it
 * travels under in samples, and its objects' printer for one sample
 * ("kstat -j monitor").  Each is defined in the section's own file as
 * "const struct cli_section cli_section_NAME = {"; the Makefile generates
 * CLI_SECTIONS from those definitions (cli-sections.gen.h), in the files'
 * order, and sections.c's table from that.  kstat.c's object table,
 * "kstat config set sections" and monitor take the sections from the
 * table, so a new section touches no file but its own.
 */
struct cli_section {
	const char *name;	/* its object's, and in "config set sections" */
	int (*func)(int argc, char **argv);	/* its object, or NULL */
	const char *help;	/* the object's line in "kstat help" */
	uint32_t bit;		/* the KSTAT_SECTION_* it travels under, or 0 */
	/* JSON only: the sample's objects of this section, under its keys */
	void (*print_sample)(const struct kstat_sample *s);
};

#include "cli-sections.gen.h"
#define CLI_SECTION_DECLARE(name) extern const struct cli_section cli_section_##name;
CLI_SECTIONS(CLI_SECTION_DECLARE)
#undef CLI_SECTION_DECLARE
#define CLI_SECTION_COUNT(name) + 1
enum { CLI_NR_SECTIONS = 0 CLI_SECTIONS(CLI_SECTION_COUNT) };
#undef CLI_SECTION_COUNT

/* The sections, in CLI_SECTIONS' order (sections.c). */
extern const struct cli_section *const cli_sections[CLI_NR_SECTIONS];
/* Every section's bit: "all". */
uint32_t cli_sections_all(void);

/* Objects that are not a section's. */
int do_stat(int argc, char **argv);
int do_interrupts(int argc, char **argv);
int do_softirqs(int argc, char **argv);
int do_watch(int argc, char **argv);
int do_top(int argc, char **argv);
int do_monitor(int argc, char **argv);
int do_record(int argc, char **argv);
int do_config(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_export(int argc, char **argv);
int do_report(int argc, char **argv);
int do_run(int argc, char **argv);
int do_compare(int argc, char **argv);

/* subscribe.c: run a subscription until *done, a signal or an error. */
struct pollfd;

/*
 * More file descriptors in sub_run()'s poll, for a command that serves
 * something besides printing samples (kstat export).  Callbacks get the
 * sub_run_opts arg.
 */
struct sub_poll_ops {
	unsigned int max_fds;
	/*
	 * Before each poll: fill up to max_fds entries and return how many;
	 * lower *timeout_ms (-1: none) when something is due.
	 */
	unsigned int (*fill)(struct pollfd *pfd, int *timeout_ms, void *arg);
	/*
	 * After each poll and dispatch (also on a timeout): handle the
	 * entries' revents.  Negative: stop and fail (after printing why).
	 */
	int (*ready)(const struct pollfd *pfd, unsigned int n, void *arg);
};

struct sub_run_opts {
	const struct kstat_sub_ops *ops;
	void *arg;
	/*
	 * What to subscribe to: fields 0 for the default stream, else a
	 * subscription of the command's own; and rcvbuf.  A command may
	 * change it and set *restart from a callback: sub_run() then
	 * subscribes again with it.
	 */
	struct kstat_sub_opts *sub;
	bool *restart;			/* or NULL */
	unsigned int delay_ms;		/* sleep after each dispatch */
	const bool *done;		/* set by the callbacks to stop */
	const struct sub_poll_ops *poll;	/* or NULL */
};

/*
 * A subscription of a command's own at @interval_ns (rounded to ms, at
 * most the kernel's 60 s: a longer frame takes several samples) with
 * @sections and @percpu: what watch and top ask for.
 */
void sub_own_at(struct kstat_sub_opts *o, uint64_t interval_ns,
		uint32_t sections, bool percpu);

int sub_run(const struct sub_run_opts *o);
/* CLOCK_BOOTTIME in ns, the clock of the samples' timestamps. */
uint64_t boottime_ns(void);
/* With -t, in text: "[2026-11-30T23:02:38.123456] " (local time, now). */
void print_timestamp(void);
/*
 * With -t, in text: the same time on a line of its own, before a table
 * (watch's frames, top -b's).
 */
void print_timestamp_line(void);
/* "cpu,irq" or "all" into KSTAT_SECTION_* bits; 0, or -1 if bad. */
int parse_sections(const char *arg, uint32_t *out);
/*
 * A sample interval: bare milliseconds, as the kernel takes it (the
 * kernel judges its range; the CLI only what fits its u32).
 */
extern const struct duration_spec summary_interval;
/*
 * @lost samples went missing: with @json the line {"lost":N,"reason":R}
 * on stdout (monitor), else a warning on stderr.
 */
void print_lost(uint64_t lost, enum kstat_lost_reason why, bool json);
/* The family went (0) or came back (1): a line for monitor and watch. */
void print_family_event(int present);
/* The same line, in JSON with @json (a recording's, whatever -j says). */
void print_family_line(int present, bool json);
/*
 * monitor.c: @s as kstat monitor prints it, one line (with @json, the
 * JSON object a recording holds too: docs/record-format.md).
 */
void print_monitor_sample(const struct kstat_sample *s, bool json);

/*
 * The libkstat handle, opened on first use so that commands that do not
 * talk to the kernel (help, -V) work without the module.  NULL after the
 * error was printed: return EXIT_FAIL.
 */
struct kstat_handle *kstat_handle(void);
/* The module went or came back: the next kstat_handle() connects again. */
void kstat_handle_drop(void);

/* "kstat: [FILE:LINE: ]message" on stderr (FILE:LINE in batch mode). */
void kstat_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A bad command line: the message, then a hint naming @object's help (or
 * the general help when @object is NULL).  Returns EXIT_USAGE.
 */
int usage_err(const char *object, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A failed libkstat call: "kstat: <what>: <why>", with the kernel's
 * extended-ACK message when it sent one.  Returns EXIT_FAIL.
 */
int kernel_err(const char *what);

/*
 * Run the command of @tab that argv[0] names for @object (the first entry
 * when argc is 0), with the words after it.
 */
int cmd_dispatch(const char *object, const struct cmd *tab,
		 int argc, char **argv);

/* "kstat OBJECT help": @text on stdout; EXIT_USAGE if argc is not 0. */
int show_help(const char *object, const char *text, int argc);

/* For the /proc printers, which have no JSON form: EXIT_USAGE if -j. */
int reject_json(const char *object);

#endif /* KSTAT_CLI_KSTAT_H */
