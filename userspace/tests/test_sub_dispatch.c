// SPDX-License-Identifier: GPL-2.0
/*
 * A subscription against a fake kernel (fake_kernel.h): what it asks on
 * joining (SUBSCRIBE, with a config nest for a subscription of its own;
 * CONFIG_GET when it must learn the default stream's sections; then a
 * GET dump of the same sections and percpu), the GET's sample first
 * (from_get) with the stream's samples after it (one older than it
 * dropped, one newer held back until it), the kernel's refusals as
 * -errno with its text, at most 16 messages a dispatch, and callbacks
 * that unsubscribe or break.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "fake_kernel.h"

static struct req r[32];

/* The default stream: SUBSCRIBE, CONFIG_GET, then the GET it names. */
static void test_default_stream(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = fake_sub(&k, &w, NULL, 1);
	const struct req *sq, *cq, *gq;
	struct msg m;
	int n, ret;

	n = sub ? fake_requests(&k, r, 32) : 0;
	sq = req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE);
	cq = req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET);
	CHECK(n == 2 && sq && cq && sq < cq && !req_attr(sq, 0, KSTAT_A_CONFIG),
	      "default stream: SUBSCRIBE without config, then CONFIG_GET (%d requests)", n);
	if (n != 2)
		exit(unit_exit());
	fake_config_answer(&k, FAMILY, cq->seq, KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ, 1);
	ret = drain(sub);
	n = fake_requests(&k, r, 32);
	gq = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	CHECK(ret == 0 && n == 1 && gq && (gq->flags & NLM_F_DUMP) &&
	      req_u32(gq, 0, KSTAT_A_SECTIONS) == 3 &&
	      req_u32(gq, 0, KSTAT_A_FLAGS) == KSTAT_F_PERCPU &&
	      !req_attr(gq, 0, KSTAT_A_CPU_FIRST) && !req_attr(gq, 0, KSTAT_A_IRQ_FIRST),
	      "then a GET dump of the stream's sections (0x%x) with percpu",
	      gq ? req_u32(gq, 0, KSTAT_A_SECTIONS) : 0);
	if (!gq)
		exit(unit_exit());

	/* samples before the GET's answer: 100 older than it, 101 newer */
	sample_msg(&m, 100, 500, 1);
	fake_multicast(&k, &m, GROUP);
	sample_msg(&m, 101, 1500, 2);
	fake_multicast(&k, &m, GROUP);
	ret = drain(sub);
	CHECK(ret == 0 && !w.log[0], "samples before the state: held back (%d, \"%s\")",
	      ret, w.log);
	fake_get_answer(&k, FAMILY, gq->seq, 1000, 3);
	ret = drain(sub);
	CHECK(ret == 2 && !strcmp(w.log, "G1000 S101 "),
	      "the GET's sample first, then the newer one; the older dropped, no loss: \"%s\"",
	      w.log);
	w.log[0] = '\0';
	sample_msg(&m, 102, 2500, 4);
	fake_multicast(&k, &m, GROUP);
	sample_msg(&m, 105, 5500, 5);
	fake_multicast(&k, &m, GROUP);
	ret = drain(sub);
	CHECK(ret == 2 && !strcmp(w.log, "S102 L2gap S105 "),
	      "then the stream, a gap counted: \"%s\"", w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* A subscription of its own: its config in SUBSCRIBE, GET at once. */
static void test_own(void)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct fake k;
	struct seen w;
	struct kstat_sub *sub;
	const struct req *sq, *gq;
	struct msg m;
	int n, ret;

	o.fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.interval_ms = 250;
	o.sections = KSTAT_SECTION_SOFTIRQ;
	o.percpu = 0;
	sub = fake_sub(&k, &w, &o, 1);
	n = sub ? fake_requests(&k, r, 32) : 0;
	sq = req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE);
	gq = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	CHECK(n == 2 && sq && gq &&
	      req_u32(sq, KSTAT_A_CONFIG, KSTAT_A_CONFIG_INTERVAL_MS) == 250 &&
	      req_u32(sq, KSTAT_A_CONFIG, KSTAT_A_CONFIG_SECTIONS) == KSTAT_SECTION_SOFTIRQ &&
	      req_u32(sq, KSTAT_A_CONFIG, KSTAT_A_CONFIG_PERCPU) == 0 &&
	      !req_attr(sq, KSTAT_A_CONFIG, KSTAT_A_CONFIG_BATCH) &&
	      req_u32(gq, 0, KSTAT_A_SECTIONS) == KSTAT_SECTION_SOFTIRQ &&
	      !req_attr(gq, 0, KSTAT_A_FLAGS),
	      "own: SUBSCRIBE with interval, sections, percpu; a GET of them, no CONFIG_GET");
	if (!gq)
		exit(unit_exit());
	fake_get_answer(&k, FAMILY, gq->seq, 10, 0);
	sample_msg(&m, 0, 20, 1);
	fake_send(&k, &m, 0);
	ret = drain(sub);
	CHECK(ret == 2 && !strcmp(w.log, "G10 S0 "),
	      "its samples come unicast, from seq 0: \"%s\"", w.log);

	/* another process sends it a sample: not the kernel's, dropped */
	{
		struct fake impostor;

		if (!fake_open(&impostor)) {
			impostor.peer = k.peer;
			sample_msg(&m, 1, 30, 1);
			fake_send(&impostor, &m, 0);
			close(impostor.fd);
		}
		ret = drain(sub);
		CHECK(ret == 0 && !strcmp(w.log, "G10 S0 "),
		      "a sample from another port than the kernel's: dropped (%d)", ret);
	}

	/* the kernel refuses a later SUBSCRIBE: -errno, its text */
	error_msg(&m, -EUSERS, sq->seq,
		  "too many subscriptions for this user (limits max-subscriptions)");
	fake_send(&k, &m, sq->seq);
	ret = kstat_sub_dispatch(sub);
	CHECK(ret == -EUSERS &&
	      strstr(kstat_sub_last_error(sub), "limits max-subscriptions"),
	      "SUBSCRIBE refused: %d, \"%s\"", ret, kstat_sub_last_error(sub));
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* The GET refused (outside the initial netns): -EPERM with the text. */
static void test_get_refused(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *gq;
	struct msg m;
	int n, ret;

	o.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.sections = KSTAT_SECTION_CPU;
	sub = fake_sub(&k, &w, &o, 1);
	n = sub ? fake_requests(&k, r, 32) : 0;
	gq = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!gq)
		exit(unit_exit());
	done_msg(&m, -EPERM, "kstat answers in the initial network namespace only (config netns)");
	fake_send(&k, &m, gq->seq);
	ret = drain(sub);
	CHECK(ret == -EPERM && strstr(kstat_sub_last_error(sub), "initial network namespace"),
	      "a GET refused at its end: %d, \"%s\"", ret, kstat_sub_last_error(sub));
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* A started subscription that has its state: the stream from @seq on. */
static struct kstat_sub *ready(struct fake *k, struct seen *w)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *gq;
	int n;

	o.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.sections = KSTAT_SECTION_IRQ;
	sub = fake_sub(k, w, &o, 1);
	n = sub ? fake_requests(k, r, 32) : 0;
	gq = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!gq || fake_get_answer(k, FAMILY, gq->seq, 1, 0) || drain(sub) != 1)
		exit(unit_exit());
	w->log[0] = '\0';
	w->samples = 0;
	return sub;
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1;
}

/* 40 samples queued: 16 a dispatch, the fd readable while some are left. */
static void test_bounded(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = ready(&k, &w);
	int i, n, calls = 0, total = 0, bounded = 1;
	struct msg m;

	for (i = 0; i < 40; i++) {
		sample_msg(&m, i, 10 + i, i);
		fake_send(&k, &m, 0);
	}
	n = kstat_sub_dispatch(sub);
	CHECK(n == KSTAT_SUB_DISPATCH_READS && readable(kstat_sub_fd(sub)),
	      "the first dispatch delivers %d of 40 and leaves the rest (%d)",
	      KSTAT_SUB_DISPATCH_READS, n);
	total = n;
	while ((n = kstat_sub_dispatch(sub)) > 0 && ++calls < 10) {
		bounded &= n <= KSTAT_SUB_DISPATCH_READS;
		total += n;
	}
	CHECK(n == 0 && bounded && total == 40 && w.lost == 0 && !readable(kstat_sub_fd(sub)),
	      "all 40 in bounded dispatches, none lost (%d, lost %llu)", total,
	      (unsigned long long)w.lost);

	/* a callback breaks: the dispatch returns after that sample */
	for (i = 40; i < 45; i++) {
		sample_msg(&m, i, 10 + i, i);
		fake_send(&k, &m, 0);
	}
	w.break_at = w.samples + 2;
	n = kstat_sub_dispatch(sub);
	CHECK(n == 2 && readable(kstat_sub_fd(sub)), "kstat_sub_break() from a callback: 2 delivered (%d)", n);
	w.break_at = 0;
	/* kstat_sub_loop() until a callback breaks it */
	w.break_at = w.samples + 3;
	n = kstat_sub_loop(sub);
	CHECK(n == 0 && w.samples == 45, "kstat_sub_loop() ends at kstat_sub_break() (%d, %d samples)",
	      n, w.samples);
	/* a callback unsubscribes: freed on the dispatch's way out */
	for (i = 45; i < 48; i++) {
		sample_msg(&m, i, 10 + i, i);
		fake_send(&k, &m, 0);
	}
	w.unsubscribe_at = w.samples + 1;
	n = kstat_sub_dispatch(sub);
	CHECK(n == 1, "kstat_unsubscribe() from a callback: the dispatch ends (%d)", n);
	close(k.fd);
}

int main(void)
{
	test_default_stream();
	test_own();
	test_get_refused();
	test_bounded();
	return unit_exit();
}
