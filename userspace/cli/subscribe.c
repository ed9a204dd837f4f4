// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop shared by kstat monitor, watch and export: subscribe, poll
 * the subscription's fd (and the command's own fds), dispatch, stop cleanly
 * on SIGINT/SIGTERM or when the command says it has seen enough.
 */
#define _GNU_SOURCE		/* ppoll() */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json_print.h"
#include "kstat.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/*
 * The stop signals stay blocked except inside ppoll(), so one that comes
 * between the check of stop_signal and the wait cannot be missed.
 */
static void catch_signals(sigset_t *orig)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, orig);
}

/*
 * Wait up to @ms for a stop signal (they are blocked but in ppoll()), and
 * take it.  With 0, one still pending: ppoll() that finds an fd ready
 * returns without delivering it (it restores the blocking mask first),
 * so while an fd stays ready (an overrun's POLLERR, a busy HTTP client)
 * the handler would never run.
 */
static void take_stop_signal(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000L };
	sigset_t set;
	int sig;

	stop_signals(&set);
	sig = sigtimedwait(&set, NULL, &ts);
	if (sig > 0)
		stop_signal = sig;
}

static int subscribe(const struct sub_run_opts *o, struct kstat_sub **sub)
{
	/* -ENOENT: "the kstat kernel module is not loaded (try: ...)" */
	if (kstat_subscribe(o->ops, o->sub, o->arg, sub)) {
		kstat_err("%s", kstat_open_error());
		return EXIT_FAIL;
	}
	/* Asked for a size and got less (SO_RCVBUF is capped): say so. */
	if (o->sub->rcvbuf > 0 && kstat_sub_rcvbuf(*sub) < o->sub->rcvbuf)
		fprintf(stderr, "kstat: warning: receive buffer %d bytes, not %d "
			"(net.core.rmem_max)\n", kstat_sub_rcvbuf(*sub), o->sub->rcvbuf);
	return EXIT_OK;
}

/* Wait for the subscription and the command's fds; -1 after an error. */
static int wait_fds(const struct sub_run_opts *o, struct pollfd *pfd,
		    unsigned int *n, const sigset_t *mask)
{
	struct timespec ts, *tsp = NULL;
	int timeout = -1;

	*n = o->poll ? o->poll->fill(pfd + 1, &timeout, o->arg) : 0;
	if (timeout >= 0) {
		ts.tv_sec = timeout / 1000;
		ts.tv_nsec = (timeout % 1000) * 1000000L;
		tsp = &ts;
	}
	if (ppoll(pfd, 1 + *n, tsp, mask) >= 0 || errno == EINTR)
		return 0;
	kstat_err("poll: %s", strerror(errno));
	return -1;
}


void sub_own_at(struct kstat_sub_opts *o, uint64_t interval_ns,
		uint32_t sections, bool percpu)
{
	uint64_t ms = (interval_ns + MSEC_NS / 2) / MSEC_NS;

	o->fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS |
		    KSTAT_CONFIG_PERCPU;
	o->interval_ms = ms > 60000 ? 60000 : (uint32_t)ms;
	o->sections = sections;
	o->percpu = percpu;
}

/* A dispatch failed: the library's text, and for the limits what to do. */
static void sub_error(const struct kstat_sub *sub, int err)
{
	const char *msg = kstat_sub_last_error(sub), *advice = NULL;

	if (err == -EINVAL && strstr(msg, "interval"))
		advice = "ask for a longer interval (kstat config shows min_interval_ms, the floor for users without CAP_NET_ADMIN), or run as root";
	else if (err == -EUSERS)
		advice = "end some of this user's subscriptions, or have an admin raise max-subscriptions (kstat config set max-subscriptions N)";
	if (advice)
		kstat_err("%s: %s", msg, advice);
	else
		kstat_err("%s", msg);
}

int sub_run(const struct sub_run_opts *o)
{
	unsigned int n, max = 1 + (o->poll ? o->poll->max_fds : 0);
	struct kstat_sub *sub;
	struct pollfd *pfd;
	sigset_t orig;
	int err = 0;

	if (subscribe(o, &sub))
		return EXIT_FAIL;
	pfd = calloc(max, sizeof(*pfd));
	if (!pfd) {
		kstat_unsubscribe(sub);
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	catch_signals(&orig);
	pfd[0] = (struct pollfd){ .fd = kstat_sub_fd(sub), .events = POLLIN };
	while (!stop_signal && !*o->done) {
		if (o->restart && *o->restart) {
			*o->restart = false;
			kstat_unsubscribe(sub);
			if (subscribe(o, &sub)) {
				sub = NULL;
				err = -1;
				break;
			}
			pfd[0].fd = kstat_sub_fd(sub);
		}
		pfd[0].revents = 0;
		err = wait_fds(o, pfd, &n, &orig);
		if (err < 0)
			break;
		take_stop_signal(0);
		if (stop_signal)
			break;
		if (pfd[0].revents)
			err = kstat_sub_dispatch(sub);
		if (err < 0) {
			sub_error(sub, err);
			break;
		}
		if (o->poll && !stop_signal) {
			err = o->poll->ready(pfd + 1, n, o->arg);
			if (err < 0)
				break;
		}
		fflush(stdout);
		if (o->delay_ms)	/* a deliberately slow reader */
			take_stop_signal(o->delay_ms);
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	free(pfd);
	if (sub)
		kstat_unsubscribe(sub);
	fflush(stdout);
	return err < 0 ? EXIT_FAIL : EXIT_OK;
}

uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* "[2026-11-30T23:02:38.123456]": the local time now, as ip -t prints it. */
static void format_timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "[%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06ld]", ts.tv_nsec / 1000);
}

void print_timestamp(void)
{
	char buf[64];

	if (!opts.timestamp || opts.json)
		return;
	format_timestamp(buf, sizeof(buf));
	print_string(PRINT_FP, NULL, "%s ", buf);
}

void print_timestamp_line(void)
{
	char buf[64];

	if (!opts.timestamp || opts.json)
		return;
	format_timestamp(buf, sizeof(buf));
	print_string(PRINT_FP, NULL, "%s\n", buf);
}

/*
 * The module went (rmmod) or came back and we subscribed again: one line,
 * "family kstat gone" / "family kstat back", or with -j
 * {"event":"family","present":false,"timestamp_ns":...} (CLOCK_BOOTTIME).
 */
void print_family_event(int present)
{
	print_family_line(present, opts.json);
}

void print_family_line(int present, bool json)
{
	new_json_obj(json, false);
	open_json_object(NULL);
	print_timestamp();
	print_string(PRINT_JSON, "event", NULL, "family");
	print_string(PRINT_FP, NULL, "family %s", KSTAT_FAMILY_NAME);
	print_bool(PRINT_JSON, "present", NULL, present);
	print_string(PRINT_FP, NULL, " %s", present ? "back" : "gone");
	print_u64(PRINT_JSON, "timestamp_ns", NULL, boottime_ns());
	close_json_object();
	print_nl();
	delete_json_obj();
	fflush(stdout);
}

void print_lost(uint64_t lost, enum kstat_lost_reason why, bool json)
{
	if (json) {
		new_json_obj(true, false);
		open_json_object(NULL);
		print_u64(PRINT_JSON, "lost", NULL, lost);
		print_string(PRINT_JSON, "reason", NULL, kstat_lost_reason_name(why));
		close_json_object();
		delete_json_obj();
		return;
	}
	fflush(stdout);
	fprintf(stderr, "kstat: warning: lost %" PRIu64 " sample%s (%s)\n",
		lost, lost == 1 ? "" : "s", kstat_lost_reason_name(why));
}
