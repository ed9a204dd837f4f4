// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop shared by kstat monitor and kstat watch: subscribe, poll
 * the subscription's fd, dispatch, stop cleanly on SIGINT/SIGTERM or when
 * the command says it has seen enough.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "kstat.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int sub_run(const struct sub_run_opts *o)
{
	struct kstat_handle *h = kstat_handle();
	struct kstat_sub *sub;
	struct pollfd pfd;
	int err;

	if (!h)
		return EXIT_FAIL;
	err = kstat_subscribe(h, o->ops, o->arg, o->rcvbuf, &sub);
	if (err == -ENOENT && !kstat_last_error(h)[0]) {
		kstat_err("the kstat kernel module is not loaded (try: modprobe kstat)");
		return EXIT_FAIL;
	}
	if (err)
		return kernel_err("cannot subscribe to the summaries");

	catch_signals();
	pfd = (struct pollfd){ .fd = kstat_sub_fd(sub), .events = POLLIN };
	while (!stop_signal && !*o->done) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			kstat_err("poll: %s", strerror(errno));
			break;
		}
		err = kstat_sub_dispatch(sub);
		if (err < 0) {
			kstat_err("%s", kstat_sub_last_error(sub));
			break;
		}
		fflush(stdout);
		if (o->delay_ms)	/* a deliberately slow reader */
			usleep(o->delay_ms * 1000);
	}
	kstat_unsubscribe(sub);
	fflush(stdout);
	return err < 0 ? EXIT_FAIL : EXIT_OK;
}

const char *lost_reason(enum kstat_lost_reason why)
{
	switch (why) {
	case KSTAT_LOST_GAP:		return "gap";
	case KSTAT_LOST_OVERRUN:	return "overrun";
	case KSTAT_LOST_PARTIAL:	return "partial";
	}
	return "unknown";
}
