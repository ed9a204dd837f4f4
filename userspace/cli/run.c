// SPDX-License-Identifier: GPL-2.0
/*
 * kstat run: run a command and show what changed while it ran.
 *
 * One GET before the command starts and one after it ended: exact,
 * kernel-timestamped readings with no polling in between.  What changed
 * is printed by delta.c after the command ended, so the command's own
 * output is untouched.  kstat stands between the command and the signals
 * a user or a harness sends it, as timeout(1) does: it passes them on
 * and exits with the command's status (128+N if a signal N killed it,
 * as shells report it).
 */
#define _GNU_SOURCE		/* signalfd, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "delta.h"
#include "irqlabels.h"
#include "kstat.h"
#include "print.h"
#include "recording.h"

static const char run_usage[] =
	"Usage: kstat run [ sections SECTION[,SECTION...] ] [ percpu ]\n"
	"                 [ interval TIME ] [ -o FILE ] -- CMD [ ARGS... ]\n"
	"       kstat run help\n"
	"\n"
	"Runs CMD and shows what changed while it ran: the counters are read\n"
	"by the kernel once before CMD starts and once after it ended (no\n"
	"polling in between), and the difference is printed after CMD ended, so\n"
	"CMD's own output is untouched.  SECTION is cpu, irq, softirq or all\n"
	"(the default); with percpu, the counts of each CPU id as well.\n"
	"Only what changed is shown, largest first.  IRQs are matched by\n"
	"identity (chip, hwirq, actions), not by number: an IRQ that came or\n"
	"went during the run (a module loaded or unloaded, a number given to\n"
	"another device) is shown with the state \"new\" (all of its count)\n"
	"or \"gone\" (its count unknown), never as a jump.\n"
	"\n"
	"With -o FILE, the run is recorded to FILE as well (the format of kstat\n"
	"record: docs/record-format.md): the reading before, with interval TIME\n"
	"(bare: milliseconds; needs -o) the samples of a subscription of its own\n"
	"at that interval while CMD runs, and the reading after.\n"
	"\n"
	"SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 sent to kstat are\n"
	"passed on to CMD; kstat waits for CMD.  Exit status: CMD's, or 128+N\n"
	"if CMD was killed by signal N; 127 if CMD was not found, 126 if it\n"
	"could not be run; 1 or 2 for kstat's own errors (then CMD is not run,\n"
	"or its status is lost with the error).\n"
	"\n"
	"Text: \"command\", \"status\" and \"elapsed\" lines, then a table per\n"
	"section, as kstat cpu show, irq show (with a STATE column) and softirq\n"
	"show print them, and the arch rows.  JSON (-j): one object with the keys\n"
	"\"command\", \"status\" (null if killed), \"signal\" (its number, else\n"
	"null), \"start_ns\" and \"end_ns\" (the readings' CLOCK_BOOTTIME),\n"
	"\"realtime_offset_ns\", \"host\", \"kernel\", \"nr_cpus\", \"percpu\",\n"
	"then \"cpu\" (rows, the total's \"cpu\" null), \"irq\" (with \"state\"),\n"
	"\"arch\" and \"softirq\", the arrays of kstat -j cpu/irq/softirq show.\n";

/* The signals passed on to the command. */
static const int forwarded[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2
};

struct run {
	uint32_t sections;
	bool percpu;
	uint64_t interval_ns;		/* 0: no samples in between */
	const char *out;		/* -o FILE, or NULL */
	char **cmd;			/* NULL-terminated */
	pid_t pid;
	int wstatus;
	/* with -o */
	struct recording rec;
	bool recording;
	struct kstat_sub *sub;		/* with interval, while CMD runs */
	bool joined;			/* the subscription's first sample came */
	bool rec_failed;		/* kstat failed, CMD went on */
};

/* ---- the command line ---- */

static const char *const run_words[] = {
	"sections", "percpu", "interval", "-o", NULL
};
enum { R_SECTIONS, R_PERCPU, R_INTERVAL, R_OUT };

/* Words before "--" into @r; EXIT_USAGE after the message. */
static int run_parse(int argc, char **argv, struct run *r)
{
	char why[EXPLAIN_LEN];
	int a, w, err;

	for (a = 0; a < argc && strcmp(argv[a], "--"); a++) {
		w = word_match(run_words, argv[a]);
		if (w < 0)
			return usage_err("run", "unexpected argument \"%s\" (the command goes after \"--\")",
					 argv[a]);
		if (w == R_PERCPU) {
			r->percpu = true;
			continue;
		}
		if (a + 1 >= argc || !strcmp(argv[a + 1], "--"))
			return usage_err("run", "\"%s\" needs a value", run_words[w]);
		a++;
		if (w == R_SECTIONS && parse_sections(argv[a], &r->sections))
			return usage_err("run", "bad sections \"%s\" (cpu, irq, softirq, all)",
					 argv[a]);
		if (w == R_INTERVAL) {
			err = parse_duration(argv[a], &summary_interval,
					     &r->interval_ns);
			if (err)
				return usage_err("run", "bad interval \"%s\" (%s)", argv[a],
						 duration_explain(why, sizeof(why), err,
								  &summary_interval));
		}
		if (w == R_OUT)
			r->out = argv[a];
	}
	if (a >= argc || a + 1 >= argc)
		return usage_err("run", "no command given (kstat run ... -- CMD [ARGS...])");
	if (r->interval_ns && !r->out)
		return usage_err("run", "interval records the samples in between: "
				 "add -o FILE");
	r->cmd = argv + a + 1;
	if (!r->sections)
		r->sections = cli_sections_all();
	return EXIT_OK;
}

/* ---- the readings ---- */

static int run_get(struct kstat_handle *h, const struct run *r,
		   struct kstat_sample **s)
{
	struct kstat_query q = KSTAT_QUERY_INIT;

	q.sections = r->sections;
	q.flags = KSTAT_F_META | (r->percpu ? KSTAT_F_PERCPU : 0);
	if (kstat_get(h, &q, s))
		return kernel_err("cannot read the counters");
	return EXIT_OK;
}

/* ---- the recording (-o) ---- */

/* The IRQs' identity, for the recording's identity lines. */
static int read_identity(struct kstat_sample **out)
{
	struct irq_labels l = { NULL };

	if (irq_labels_load(&l))
		return -1;
	*out = l.s;
	return 0;
}

/*
 * The subscription's samples go to the recording, but for its first,
 * the state on joining, read just after the reading before: that one is
 * already there.  After a module reload the library reads the state
 * again (from_get too): that one stays, the base of the counts after it.
 */
static void rec_on_sample(const struct kstat_sample *s, void *arg)
{
	struct run *r = arg;

	if (!r->joined) {
		r->joined = true;
		if (s->from_get)
			return;
	}
	recording_sample(&r->rec, s);
}

static void rec_on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	struct run *r = arg;

	recording_lost(&r->rec, lost, why);
}

static void rec_on_family(int present, void *arg)
{
	struct run *r = arg;

	recording_family(&r->rec, present);
}

static const struct kstat_sub_ops rec_ops = {
	.sample = rec_on_sample,
	.lost = rec_on_lost,
	.family = rec_on_family,
};

/* The header, the reading before, and with interval the subscription. */
static int rec_start(struct run *r, const struct kstat_sample *before)
{
	struct kstat_sub_opts so = KSTAT_SUB_OPTS_INIT;
	struct recording_header hdr = {
		.interval_ms = (uint32_t)(r->interval_ns / MSEC_NS),
		.sections = r->sections, .percpu = r->percpu, .command = r->cmd,
	};

	if (recording_open(&r->rec, r->out, read_identity,
			   RECORDING_REPLACE))
		return EXIT_FAIL;
	r->recording = true;
	recording_header(&r->rec, &hdr);
	recording_sample(&r->rec, before);
	if (!r->interval_ns)
		return EXIT_OK;
	sub_own_at(&so, r->interval_ns, r->sections, r->percpu);
	if (kstat_subscribe(&rec_ops, &so, r, &r->sub)) {
		kstat_err("%s", kstat_open_error());
		r->sub = NULL;
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * The subscription's fd is readable: its samples to the file.  A failed
 * subscription ends the samples in between, not the command: kstat
 * fails after the command ended.
 */
static void rec_dispatch(struct run *r)
{
	int err = kstat_sub_dispatch(r->sub);

	if (err >= 0)
		return;
	kstat_err("%s: the samples in between end here",
		  kstat_sub_last_error(r->sub));
	kstat_unsubscribe(r->sub);
	r->sub = NULL;
	r->rec_failed = true;
}

/*
 * The reading after and the end line; close the file.  @after NULL: the
 * run failed, and a file this run created is removed.  A failure sets
 * rec_failed: kstat still prints what it read, then fails.
 */
static void rec_finish(struct run *r, const struct kstat_sample *after)
{
	struct recording_status st = {
		.ran = after != NULL, .exited = WIFEXITED(r->wstatus),
		.code = WIFEXITED(r->wstatus) ? WEXITSTATUS(r->wstatus) :
						WTERMSIG(r->wstatus),
	};

	if (r->sub)
		kstat_unsubscribe(r->sub);
	r->sub = NULL;
	if (!r->recording)
		return;
	r->recording = false;
	if (after) {
		recording_sample(&r->rec, after);
		recording_end(&r->rec, &st);
	}
	if (recording_close(&r->rec, !after))
		r->rec_failed = true;
}

/* ---- the command ---- */

static void forwarded_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < ARRAY_SIZE(forwarded); i++)
		sigaddset(set, forwarded[i]);
	sigaddset(set, SIGCHLD);
}

/*
 * In the child: the signal mask and dispositions kstat had, then exec;
 * the errno of a failed exec goes up @errfd (close-on-exec: an exec that
 * worked closes it, and the parent reads nothing).
 */
static void __attribute__((noreturn))
child_exec(char **cmd, const sigset_t *orig, int errfd)
{
	int err;

	sigprocmask(SIG_SETMASK, orig, NULL);
	execvp(cmd[0], cmd);
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0)
		err = 0;	/* the parent sees the status 127 alone */
	_exit(127);
}

/*
 * Start the command; kstat_err() and the env(1) statuses if it cannot:
 * 127 not found, 126 not runnable, EXIT_FAIL for kstat's own failure.
 */
static int start_cmd(struct run *r, const sigset_t *orig)
{
	int fds[2], err = 0;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC)) {
		kstat_err("pipe: %s", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		kstat_err("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return EXIT_FAIL;
	}
	if (r->pid == 0)
		child_exec(r->cmd, orig, fds[1]);
	close(fds[1]);
	do
		n = read(fds[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n != sizeof(err))
		return EXIT_OK;		/* exec'd */
	waitpid(r->pid, NULL, 0);
	r->pid = 0;
	kstat_err("%s: %s", r->cmd[0], strerror(err));
	return err == ENOENT ? 127 : 126;
}

/* The status a shell would report for @wstatus. */
static int shell_status(int wstatus)
{
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return WEXITSTATUS(wstatus);
}

/*
 * A forwarded signal: pass it on, unless the terminal sent it (the
 * kernel, SI_KERNEL): the terminal sent it to the command too, being in
 * kstat's process group, and twice would be one too many for a command
 * that counts its Ctrl-Cs.
 */
static void pass_signal(const struct run *r,
			const struct signalfd_siginfo *si)
{
	if (si->ssi_code == SI_KERNEL)
		return;
	kill(r->pid, (int)si->ssi_signo);
}

/* Has the command ended?  Then its status in r->wstatus. */
static bool reap(struct run *r)
{
	pid_t p;

	do
		p = waitpid(r->pid, &r->wstatus, WNOHANG);
	while (p < 0 && errno == EINTR);
	return p == r->pid;
}

/*
 * Wait for the command, passing signals on; with interval, record the
 * subscription's samples meanwhile.  EXIT_OK when it ended.
 */
static int wait_cmd(struct run *r, int sigfd)
{
	struct signalfd_siginfo si;
	struct pollfd pfd[2];
	nfds_t n;
	ssize_t len;

	while (!reap(r)) {
		pfd[0] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		n = 1;
		if (r->sub)
			pfd[n++] = (struct pollfd){ .fd = kstat_sub_fd(r->sub),
						    .events = POLLIN };
		if (poll(pfd, n, -1) < 0 && errno != EINTR) {
			kstat_err("poll: %s", strerror(errno));
			return EXIT_FAIL;
		}
		if (n > 1 && pfd[1].revents)
			rec_dispatch(r);
		if (!(pfd[0].revents & POLLIN))
			continue;
		len = read(sigfd, &si, sizeof(si));
		if (len == sizeof(si) && si.ssi_signo != SIGCHLD)
			pass_signal(r, &si);
	}
	return EXIT_OK;
}

/* ---- the output ---- */

static void print_command(char **cmd)
{
	size_t i;

	open_json_array("command");
	print_string(PRINT_FP, NULL, "%s", "command:");
	for (i = 0; cmd[i]; i++)
		print_string(PRINT_ANY, NULL, " %s", cmd[i]);
	close_json_array();
	print_nl();
}

static uint64_t realtime_offset_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * SEC_NS + (uint64_t)ts.tv_nsec - boottime_ns();
}

static void print_run(const struct run *r, const struct kstat_delta *d)
{
	struct utsname u;
	bool killed = WIFSIGNALED(r->wstatus);

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	/* the recording's lines ended the command's JSON: start it again */
	new_json_obj(opts.json, opts.pretty);
	open_json_object(NULL);
	print_command(r->cmd);
	if (killed) {
		print_null(PRINT_JSON, "status", NULL, NULL);
		print_int(PRINT_ANY, "signal", "signal: %d", WTERMSIG(r->wstatus));
		print_string(PRINT_FP, NULL, " (%s)", strsignal(WTERMSIG(r->wstatus)));
	} else {
		print_int(PRINT_ANY, "status", "status: %d", WEXITSTATUS(r->wstatus));
		print_null(PRINT_JSON, "signal", NULL, NULL);
	}
	print_nl();
	print_u64(PRINT_JSON, "start_ns", NULL, d->start_ns);
	print_u64(PRINT_JSON, "end_ns", NULL, d->end_ns);
	print_float(PRINT_FP, NULL, "elapsed: %.3f s\n",
		    (double)(d->end_ns - d->start_ns) / 1e9);
	print_u64(PRINT_JSON, "realtime_offset_ns", NULL, realtime_offset_ns());
	print_string(PRINT_JSON, "host", NULL, u.nodename);
	print_string(PRINT_JSON, "kernel", NULL, u.release);
	print_uint(PRINT_JSON, "nr_cpus", NULL, d->nr_cpus);
	print_bool(PRINT_JSON, "percpu", NULL, d->percpu);
	print_string(PRINT_FP, NULL, "%s", "\n");
	print_delta(d);
	close_json_object();
}

/* ---- run ---- */

/*
 * The command between two readings.  The forwarded signals are blocked
 * from before the fork (none is lost, none kills kstat) and read from a
 * signalfd; the child unblocks them before its exec.
 */
static int run_between(struct run *r, struct kstat_handle *h,
		       struct kstat_sample **before, struct kstat_sample **after)
{
	sigset_t set, orig;
	int sigfd, ret;

	forwarded_set(&set);
	sigprocmask(SIG_BLOCK, &set, &orig);
	sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0) {
		kstat_err("signalfd: %s", strerror(errno));
		ret = EXIT_FAIL;
		goto out;
	}
	ret = run_get(h, r, before);
	if (!ret && r->out)
		ret = rec_start(r, *before);
	if (!ret)
		ret = start_cmd(r, &orig);
	if (!ret)
		ret = wait_cmd(r, sigfd);
	if (!ret)
		ret = run_get(h, r, after);
	rec_finish(r, ret ? NULL : *after);
	close(sigfd);
out:
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return ret;
}

static int run_cmd(int argc, char **argv)
{
	struct kstat_sample *before = NULL, *after = NULL;
	struct run r = { 0 };
	struct kstat_handle *h;
	struct kstat_delta d;
	int ret;

	ret = run_parse(argc, argv, &r);
	if (ret)
		return ret;
	h = kstat_handle();
	if (!h)
		return EXIT_FAIL;
	ret = run_between(&r, h, &before, &after);
	if (ret && r.pid > 0 && !reap(&r))
		kill(r.pid, SIGTERM);	/* kstat failed: do not leave it */
	if (!ret && delta_compute(&d, before, after,
				  sample_cpu_span(after))) {
		kstat_err("out of memory");
		ret = EXIT_FAIL;
	} else if (!ret) {
		print_run(&r, &d);
		delta_free(&d);
		ret = r.rec_failed ? EXIT_FAIL : shell_status(r.wstatus);
	}
	kstat_sample_free(before);
	kstat_sample_free(after);
	return ret;
}

static int run_help(int argc, char **argv)
{
	(void)argv;
	return show_help("run", run_usage, argc);
}

int do_run(int argc, char **argv)
{
	if (argc && is_prefix(argv[0], "help"))
		return run_help(argc - 1, argv + 1);
	return run_cmd(argc, argv);
}
