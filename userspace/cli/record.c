// SPDX-License-Identifier: GPL-2.0
/*
 * kstat record: write the samples of a subscription to a file, in the
 * recording format of docs/record-format.md (recording.c writes it), for
 * kstat report and any script; optionally while a command runs.
 *
 * The subscription is record's own, with every setting given: what the
 * command line does not say is the default stream's value when it
 * starts, so the header's interval, sections and percpu hold for the
 * whole recording whatever an admin sets later.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "irqlabels.h"
#include "kstat.h"
#include "recording.h"

extern char **environ;

static const char record_usage[] =
	"Usage: kstat record FILE [ interval TIME ] [ sections SECTION[,SECTION...] ]\n"
	"                         [ percpu [ on | off ] ] [ count N ] [ duration TIME ]\n"
	"                         [ append ] [ -- COMMAND [ ARG ... ] ]\n"
	"       kstat record help\n"
	"\n"
	"Write every sample to FILE (\"-\": stdout) until N samples, until TIME\n"
	"has passed (duration), until COMMAND ends, or until interrupted,\n"
	"whichever comes first: JSON Lines, a header, then the\n"
	"lines of kstat -j monitor with the IRQs' identity (chip, hwirq, type,\n"
	"actions) before the first sample and whenever the IRQ set changes, and\n"
	"an end line when the recording ends cleanly (docs/record-format.md).\n"
	"Each line is written out when it is whole: a recorder that is killed\n"
	"leaves every line before the last.  An existing FILE is refused (a\n"
	"recording is not lost to a second command with the same name); with\n"
	"append, a new segment is added at its end, header first: readers\n"
	"never subtract counts across segments.  A device or FIFO (/dev/null)\n"
	"is written as it is.  percpu alone is percpu on.\n"
	"The subscription is record's own: interval, sections and percpu take\n"
	"the default stream's values (kstat config show) when not given, and\n"
	"keep them while it records.  SECTION is cpu, irq, softirq or all;\n"
	"TIME as in kstat config set (bare: milliseconds).\n"
	"With COMMAND: it starts once the first sample (the state before it)\n"
	"is written, the recording ends when it exits, and the end line holds\n"
	"its exit status or signal; kstat exits with its status (128 + N after\n"
	"signal N).  If the recording ends first (count, a signal), COMMAND is\n"
	"sent SIGTERM (SIGKILL 5 s later).  FILE cannot be \"-\" then.\n";

/* How long a COMMAND has to go after SIGTERM before it gets SIGKILL. */
#define CHILD_TERM_MS 5000
/* Without a pidfd (valgrind 3.19, a seccomp sandbox): a look this often. */
#define CHILD_CHECK_MS 100

struct record {
	struct recording rec;
	uint64_t count;			/* stop after this many samples (0: never) */
	uint64_t duration_ns;		/* stop after this long (0: never) */
	uint64_t deadline_ns;		/* CLOCK_BOOTTIME of that stop */
	bool append;			/* a new segment at FILE's end */
	char **command;			/* after "--", or NULL */
	pid_t child;			/* 0 until started */
	bool running;			/* the child, not yet waited for */
	int pidfd;			/* the running child's, or -1 */
	struct recording_status status;
	bool done;
	bool failed;			/* the message was printed */
};

/* The IRQs' identity: one GET with descriptions (irqlabels.c). */
static int read_identity(struct kstat_sample **out)
{
	struct irq_labels l = { NULL };

	if (irq_labels_load(&l))
		return -1;
	*out = l.s;
	return 0;
}

static void record_fail(struct record *r)
{
	r->failed = true;
	r->done = true;
}

/*
 * Start the command with the signals kstat blocks or ignores back at
 * their defaults: it must stop on Ctrl-C as it would without kstat.
 */
static int start_command(struct record *r)
{
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int err;

	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
					POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	fflush(stdout);
	err = posix_spawnp(&r->child, r->command[0], NULL, &attr, r->command,
			   environ);
	posix_spawnattr_destroy(&attr);
	if (err) {
		r->child = 0;
		kstat_err("cannot run \"%s\": %s", r->command[0], strerror(err));
		return -1;
	}
	r->running = true;
	/* -1: waitpid(WNOHANG) every CHILD_CHECK_MS instead */
	r->pidfd = pidfd_open(r->child, 0);
	return 0;
}

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct record *r = arg;

	/* One dispatch may deliver more than "count" asked for: drop them. */
	if (r->done)
		return;
	recording_sample(&r->rec, s);
	if (r->rec.err) {
		record_fail(r);
		return;
	}
	/* The first sample is the state before the command. */
	if (r->command && !r->child && start_command(r)) {
		record_fail(r);
		return;
	}
	if (r->count && r->rec.samples >= r->count)
		r->done = true;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct record *r = arg;

	if (r->done)
		return;
	recording_lost(&r->rec, lost, why);
	if (r->rec.err)
		record_fail(r);
}

static void on_family(int present, void *arg)
{
	struct record *r = arg;

	if (r->done)
		return;
	recording_family(&r->rec, present);
	if (r->rec.err)
		record_fail(r);
}

/* The child ended with wait status @st: into r->status. */
static void child_ended(struct record *r, int st)
{
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
	r->running = false;
	r->status.ran = true;
	r->status.exited = WIFEXITED(st);
	r->status.code = WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st);
}

/* Has the child ended?  Then it is waited for. */
static bool child_gone(struct record *r)
{
	int st;

	if (waitpid(r->child, &st, WNOHANG) != r->child)
		return false;
	child_ended(r, st);
	return true;
}

/* Lower *@timeout_ms (-1: none) to wake up at @when_ns (CLOCK_BOOTTIME). */
static void lower_timeout(int *timeout_ms, uint64_t when_ns)
{
	uint64_t now = boottime_ns();
	uint64_t ms = when_ns > now ? (when_ns - now + MSEC_NS - 1) / MSEC_NS : 0;

	if (*timeout_ms < 0 || (uint64_t)*timeout_ms > ms)
		*timeout_ms = (int)(ms < INT_MAX ? ms : INT_MAX);
}

/* sub_run()'s poll also watches the running command and the duration. */
static unsigned int fill_child(struct pollfd *pfd, int *timeout_ms, void *arg)
{
	struct record *r = arg;

	if (r->deadline_ns)
		lower_timeout(timeout_ms, r->deadline_ns);
	if (!r->running)
		return 0;
	if (r->pidfd < 0) {
		if (*timeout_ms < 0 || *timeout_ms > CHILD_CHECK_MS)
			*timeout_ms = CHILD_CHECK_MS;
		return 0;
	}
	pfd[0] = (struct pollfd){ .fd = r->pidfd, .events = POLLIN };
	return 1;
}

static int child_ready(const struct pollfd *pfd, unsigned int n, void *arg)
{
	struct record *r = arg;

	if (r->deadline_ns && boottime_ns() >= r->deadline_ns)
		r->done = true;
	/* Without a pidfd, this runs at least every CHILD_CHECK_MS. */
	if (r->running && (r->pidfd < 0 || (n && pfd[0].revents)) &&
	    child_gone(r))
		r->done = true;
	return 0;
}

/* Wait up to @ms for the child to end: false on a timeout or a signal. */
static bool child_wait(struct record *r, int ms)
{
	struct pollfd pfd = { .fd = r->pidfd, .events = POLLIN };
	int t;

	if (r->pidfd >= 0)
		return poll(&pfd, 1, ms) > 0;
	for (t = 0; t < ms; t += CHILD_CHECK_MS) {
		if (child_gone(r))
			return true;
		if (poll(NULL, 0, CHILD_CHECK_MS) < 0)
			return false;
	}
	return child_gone(r);
}

/*
 * The recording ended before the command: SIGTERM, then SIGKILL after
 * CHILD_TERM_MS, or at once on another signal (a second Ctrl-C), so
 * that a command ignoring SIGTERM cannot hold kstat.
 */
static void stop_child(struct record *r)
{
	int st;

	kill(r->child, SIGTERM);
	errno = 0;	/* EINTR after the wait: a signal cut it short */
	if (!child_wait(r, CHILD_TERM_MS) && r->running) {
		if (errno != EINTR)
			kstat_err("\"%s\" did not end %d s after SIGTERM: sending SIGKILL",
				  r->command[0], CHILD_TERM_MS / 1000);
		kill(r->child, SIGKILL);
	}
	if (!r->running)
		return;
	while (waitpid(r->child, &st, 0) < 0 && errno == EINTR)
		;
	child_ended(r, st);
}

/* What the subscription asks: the command line's, else the default's. */
static int fill_sub_opts(struct kstat_sub_opts *so)
{
	struct kstat_handle *h = kstat_handle();
	struct kstat_config cfg;

	if (!h)
		return -1;
	if (kstat_config_get(h, &cfg)) {
		kernel_err("cannot read the default stream's configuration");
		return -1;
	}
	if (!(so->fields & KSTAT_CONFIG_INTERVAL))
		so->interval_ms = cfg.interval_ms;
	if (!(so->fields & KSTAT_CONFIG_SECTIONS))
		so->sections = cfg.sections;
	if (!(so->fields & KSTAT_CONFIG_PERCPU))
		so->percpu = cfg.percpu;
	so->fields |= KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS |
		      KSTAT_CONFIG_PERCPU;
	return 0;
}

/* The words of record, and what each takes. */
static const char *const record_words[] = {
	"interval", "sections", "percpu", "count", "duration", "append", NULL
};
enum { R_INTERVAL, R_SECTIONS, R_PERCPU, R_COUNT, R_DURATION, R_APPEND };
/* A recording's length: bare milliseconds, as every TIME; at most a week. */
static const struct duration_spec record_duration = {
	.step_ns = MSEC_NS, .min_ns = MSEC_NS, .max_ns = 7 * 24 * 3600 * SEC_NS,
};

/* The value of keyword @w into @r or @so; EXIT_USAGE after the message. */
static int record_arg(int w, const char *val, struct record *r,
		      struct kstat_sub_opts *so)
{
	static const char *const onoff[] = { "on", "off", NULL };
	char why[EXPLAIN_LEN];
	uint64_t v;
	int err;

	if (w == R_INTERVAL) {
		err = parse_duration(val, &summary_interval, &v);
		if (err)
			return usage_err("record", "bad interval \"%s\" (%s)", val,
					 duration_explain(why, sizeof(why), err,
							  &summary_interval));
		so->interval_ms = (uint32_t)(v / MSEC_NS);
		so->fields |= KSTAT_CONFIG_INTERVAL;
	} else if (w == R_SECTIONS) {
		if (parse_sections(val, &so->sections))
			return usage_err("record", "bad sections \"%s\" (cpu, irq, softirq, all)", val);
		so->fields |= KSTAT_CONFIG_SECTIONS;
	} else if (w == R_PERCPU) {
		/* bare "percpu" is "percpu on", as kstat run takes it */
		err = val ? word_match(onoff, val) : 0;
		if (err < 0)
			return usage_err("record", "percpu is \"on\" or \"off\", not \"%s\"", val);
		so->percpu = err == 0;
		so->fields |= KSTAT_CONFIG_PERCPU;
	} else if (w == R_DURATION) {
		err = parse_duration(val, &record_duration, &r->duration_ns);
		if (err)
			return usage_err("record", "bad duration \"%s\" (%s)", val,
					 duration_explain(why, sizeof(why), err,
							  &record_duration));
	} else {
		err = parse_uint(val, 1, UINT32_MAX, &v);
		if (err)
			return usage_err("record", "bad count \"%s\" (%s)", val,
					 uint_explain(why, sizeof(why), err, 1,
						      UINT32_MAX));
		r->count = v;
	}
	return EXIT_OK;
}

/* The words after FILE, up to "--" and the command after it. */
static int record_args(int argc, char **argv, struct record *r,
		       struct kstat_sub_opts *so)
{
	const char *val;
	int a, w;

	for (a = 0; a < argc; a++) {
		if (!strcmp(argv[a], "--")) {
			if (a + 1 >= argc)
				return usage_err("record", "\"--\" needs a COMMAND after it");
			r->command = argv + a + 1;
			return EXIT_OK;
		}
		w = word_match(record_words, argv[a]);
		if (w < 0)
			return usage_err("record", "unexpected argument \"%s\"", argv[a]);
		if (w == R_APPEND) {
			r->append = true;
			continue;
		}
		val = a + 1 < argc && strcmp(argv[a + 1], "--") ? argv[a + 1] : NULL;
		/* percpu's value is optional: only "on" or "off" is taken */
		if (w == R_PERCPU && val && !is_prefix(val, "on") &&
		    !is_prefix(val, "off"))
			val = NULL;
		if (!val && w != R_PERCPU)
			return usage_err("record", "\"%s\" needs a value", record_words[w]);
		if (val)
			a++;
		if (record_arg(w, val, r, so))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * A failed recording is kept if it holds samples: of the command, when
 * there is one (a header and the state before a command that could not
 * start are not worth a file).
 */
static bool worth_keeping(const struct record *r)
{
	return r->rec.samples && (!r->command || r->child);
}

/* kstat's exit status: the command's, once the recording succeeded. */
static int record_status(const struct record *r)
{
	if (!r->command)
		return EXIT_OK;
	if (!r->status.ran) {
		kstat_err("the recording stopped before \"%s\" started", r->command[0]);
		return EXIT_FAIL;
	}
	return r->status.exited ? r->status.code : 128 + r->status.code;
}

static int record_to(const char *path, struct record *r, struct kstat_sub_opts *so)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample,
		.lost = on_lost,
		.family = on_family,
	};
	static const struct sub_poll_ops child_poll = {
		.max_fds = 1, .fill = fill_child, .ready = child_ready,
	};
	struct sub_run_opts o = { .ops = &ops, .arg = r, .done = &r->done,
				  .sub = so, .poll = &child_poll };
	struct recording_header hdr;
	int ret;

	if (fill_sub_opts(so))
		return EXIT_FAIL;
	if (recording_open(&r->rec, path, read_identity,
			   r->append ? RECORDING_APPEND : RECORDING_NEW))
		return EXIT_FAIL;
	if (r->duration_ns)
		r->deadline_ns = boottime_ns() + r->duration_ns;
	hdr = (struct recording_header){ .interval_ms = so->interval_ms,
					 .sections = so->sections,
					 .percpu = so->percpu,
					 .command = r->command };
	recording_header(&r->rec, &hdr);
	ret = r->rec.err ? EXIT_FAIL : sub_run(&o);
	if (r->running)
		stop_child(r);
	if (ret == EXIT_OK && !r->failed)
		recording_end(&r->rec, &r->status);
	if (ret == EXIT_OK && r->failed)
		ret = EXIT_FAIL;
	if (recording_close(&r->rec, ret != EXIT_OK && !worth_keeping(r)) ||
	    ret != EXIT_OK)
		return EXIT_FAIL;
	return record_status(r);
}

static int record_run(int argc, char **argv)
{
	struct kstat_sub_opts so = KSTAT_SUB_OPTS_INIT;
	struct record r = { .pidfd = -1 };
	const char *path;

	if (argc == 0)
		return usage_err("record", "no FILE given");
	path = argv[0];
	if (!*path)
		return usage_err("record", "FILE is empty (\"-\" is stdout)");
	if (record_args(argc - 1, argv + 1, &r, &so))
		return EXIT_USAGE;
	if (r.command && !strcmp(path, "-"))
		return usage_err("record", "FILE \"-\" (stdout) with a COMMAND would mix its output into the recording");
	return record_to(path, &r, &so);
}

int do_record(int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "help"))
		return show_help("record", record_usage, argc - 1);
	return record_run(argc, argv);
}
