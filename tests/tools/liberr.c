// SPDX-License-Identifier: GPL-2.0
/*
 * liberr: libkstat's errors across calls, against the running module.
 * A GET the kernel refuses (CPU_LAST far past nr_cpu_ids: EINVAL, "CPU
 * out of range") fails and explains itself in kstat_last_error(); each
 * call on the handle that succeeds after such a failure (CONFIG_GET,
 * STATS_GET, a GET) must leave it empty, not the old text.  A
 * subscription the kernel refuses (an interval of 5 ms) says so at its
 * first dispatch, with kstat_sub_last_error(); one that works delivers a
 * sample and leaves its error empty.  One line per call:
 *
 *   get -22 'CPU out of range'
 *   config_get 0 ''
 *   get -22 '...'
 *   stats_get 0 ''
 *   get -22 '...'
 *   get 0 ''
 *   sub_refused -22 '... interval below 10 ms'
 *   sub 1 ''                (the samples the first dispatch delivered)
 *
 * (ERR and the text as the library returned them: libkstat puts what it
 * was doing before the kernel's extack.)  Exit 0 when every call
 * returned.
 */
#include <poll.h>
#include <stdio.h>

#include <libkstat.h>

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)s;
	(void)arg;
}

static void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	(void)n;
	(void)why;
	(void)arg;
}

/* A GET of every CPU id up to 2^31-1: refused. */
static int bad_get(struct kstat_handle *h)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s = NULL;
	int err;

	q.sections = KSTAT_SECTION_CPU;
	q.flags = KSTAT_F_PERCPU;
	q.cpu_first = 0;
	q.cpu_last = 0x7fffffff;
	err = kstat_get(h, &q, &s);
	printf("get %d '%s'\n", err, kstat_last_error(h));
	if (!err)
		kstat_sample_free(s);
	return err;
}

/* Dispatch @sub until it delivers or fails, for at most 10 s. */
static int first_dispatch(struct kstat_sub *sub)
{
	struct pollfd pfd = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	int i, n;

	for (i = 0; i < 100; i++) {
		if (poll(&pfd, 1, 100) < 0)
			return -1;
		n = kstat_sub_dispatch(sub);
		if (n)
			return n;
	}
	return 0;
}

int main(void)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample, .lost = on_lost,
	};
	struct kstat_sub_opts opts = KSTAT_SUB_OPTS_INIT;
	struct kstat_sample *s = NULL;
	struct kstat_config cfg;
	struct kstat_stats st;
	struct kstat_handle *h;
	struct kstat_sub *sub = NULL;
	int err;

	err = kstat_open(&h);
	if (err) {
		fprintf(stderr, "liberr: kstat_open: %s\n", kstat_open_error());
		return 1;
	}
	bad_get(h);
	err = kstat_config_get(h, &cfg);
	printf("config_get %d '%s'\n", err, kstat_last_error(h));
	bad_get(h);
	err = kstat_stats_get(h, &st);
	printf("stats_get %d '%s'\n", err, kstat_last_error(h));
	bad_get(h);
	err = kstat_get(h, NULL, &s);
	printf("get %d '%s'\n", err, kstat_last_error(h));
	if (!err)
		kstat_sample_free(s);
	kstat_close(h);

	opts.fields = KSTAT_CONFIG_INTERVAL;
	opts.interval_ms = 5;
	err = kstat_subscribe(&ops, &opts, NULL, &sub);
	if (err) {
		printf("sub_refused %d '%s'\n", err, kstat_open_error());
	} else {
		err = first_dispatch(sub);
		printf("sub_refused %d '%s'\n", err, kstat_sub_last_error(sub));
		kstat_unsubscribe(sub);
	}
	opts.interval_ms = 1000;
	err = kstat_subscribe(&ops, &opts, NULL, &sub);
	if (err) {
		printf("sub %d '%s'\n", err, kstat_open_error());
		return 0;
	}
	err = first_dispatch(sub);
	printf("sub %d '%s'\n", err, kstat_sub_last_error(sub));
	kstat_unsubscribe(sub);
	return 0;
}
