// SPDX-License-Identifier: GPL-2.0
/*
 * What a callback may do (libkstat(3), "Callbacks"): call
 * kstat_unsubscribe(), after which no callback comes and the dispatch
 * frees the subscription on its way out (it used to touch the freed
 * memory on the next line: run under valgrind, UNIT_VALGRIND=1, or ASan,
 * test_memory.sh); call kstat_sub_break(), which ends the dispatch or
 * loop that called it and no other (it used to stay set, and every later
 * dispatch read one message); not call kstat_sub_dispatch() on its own
 * subscription (-EBUSY).  On hand-made summaries, fed directly or read
 * from a NETLINK_USERSOCK socket.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "fake_kernel.h"

/* What the callbacks do, and what they saw. */
struct act {
	struct seen w;
	struct kstat_sub *sub;
	int unsubscribe_at;		/* on this sample (1-based), 0: never */
	int break_at;			/* kstat_sub_break() on this sample */
	int unsubscribe_on_lost;
	int nested;			/* a dispatch from the callback */
	int nested_ret;
	int calls_after;		/* callbacks after unsubscribing */
	int gone;
};

static void act_sample(const struct kstat_sample *s, void *arg)
{
	struct act *a = arg;

	if (a->gone)
		a->calls_after++;
	on_sample(s, &a->w);
	if (a->nested && a->w.samples == 1)
		a->nested_ret = kstat_sub_dispatch(a->sub);
	if (a->break_at && a->w.samples == a->break_at)
		kstat_sub_break(a->sub);
	if (a->unsubscribe_at && a->w.samples == a->unsubscribe_at) {
		kstat_unsubscribe(a->sub);
		a->gone = 1;
	}
}

static void act_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	struct act *a = arg;

	if (a->gone)
		a->calls_after++;
	on_lost(n, why, &a->w);
	if (a->unsubscribe_on_lost) {
		kstat_unsubscribe(a->sub);
		a->gone = 1;
	}
}

static void act_family(int present, void *arg)
{
	struct act *a = arg;

	if (a->gone)
		a->calls_after++;
	on_family(present, &a->w);
}

static const struct kstat_sub_ops act_ops = {
	.sample = act_sample, .lost = act_lost, .family = act_family,
};

/* A subscription in sync up to seq 9 (keyframe 6), as synced_sub(). */
static struct kstat_sub *act_sub(struct act *a)
{
	struct act what = *a;		/* nothing done while syncing */
	struct msg m;
	uint64_t s;

	memset(a, 0, sizeof(*a));
	a->sub = kstat_sub_alloc(&act_ops, a);
	msg_start(&m, 6, 0, 1);
	for (s = 6; s <= 9; s++)
		piece(&m, s, s == 6);
	kstat_sub_feed(a->sub, &m.nlh);
	what.sub = a->sub;
	*a = what;
	return a->sub;
}

/* Unsubscribing from ops->sample in the middle of a batch of three. */
static void test_unsubscribe_in_sample(void)
{
	struct act a = { .unsubscribe_at = 1 };
	struct msg m;
	uint64_t s;

	act_sub(&a);
	msg_start(&m, 10, 0, 1);
	for (s = 10; s <= 12; s++)
		piece(&m, s, 0);
	kstat_sub_feed(a.sub, &m.nlh);	/* frees it on the way out */
	CHECK(a.w.samples == 1 && a.calls_after == 0,
	      "unsubscribed in the first of 3 samples: 1 delivered, %d callbacks after (got %d samples)",
	      a.calls_after, a.w.samples);
}

/* ... and from ops->lost: the sample after the gap never comes. */
static void test_unsubscribe_in_lost(void)
{
	struct act a = { .unsubscribe_on_lost = 1 };
	struct msg m;

	act_sub(&a);
	msg_start(&m, 12, 0, 1);	/* 10, 11 missing */
	piece(&m, 12, 1);
	piece(&m, 13, 0);
	kstat_sub_feed(a.sub, &m.nlh);
	CHECK(a.w.lost == 2 && a.w.samples == 0 && a.calls_after == 0,
	      "unsubscribed in ops->lost: no sample, no callback after (%d samples, %d after)",
	      a.w.samples, a.calls_after);
}

/* Queue @n deltas from seq 10 on the subscription's socket. */
static int queue_deltas(struct fake *k, int n)
{
	struct msg m;
	int i, err = 0;

	for (i = 0; i < n && !err; i++) {
		delta_msg(&m, 10 + i);
		err = fake_unicast(k, &m, 0);
	}
	return err;
}

static int connect_act(struct act *a, struct fake *k, int queued)
{
	int err;

	act_sub(a);
	err = fake_open(k, a->sub);
	if (!err)
		err = queue_deltas(k, queued);
	CHECK(!err, "a subscription on NETLINK_USERSOCK, %d samples queued (%s)",
	      queued, strerror(-err));
	return err;
}

/* From a dispatch: it returns, then the subscription is gone. */
static void test_unsubscribe_in_dispatch(void)
{
	struct act a = { .unsubscribe_at = 2 };
	struct fake k = { .fd = -1 };
	int n;

	if (connect_act(&a, &k, 5))
		return;
	n = kstat_sub_dispatch(a.sub);
	CHECK(n >= 0 && a.w.samples == 2 && a.calls_after == 0,
	      "unsubscribed in the second of 5 queued samples: dispatch returned %d, 2 delivered (%d), none after",
	      n, a.w.samples);
	fake_close(&k);
}

/* A break ends the dispatch that called it, not the next ones. */
static void test_break_once(void)
{
	struct act a = { .break_at = 1 };
	struct fake k = { .fd = -1 };
	int first, second;

	if (connect_act(&a, &k, 10))
		return;
	first = kstat_sub_dispatch(a.sub);
	second = kstat_sub_dispatch(a.sub);
	CHECK(first == 1, "a break in the first sample: that dispatch delivered 1 (%d)",
	      first);
	CHECK(second == 9 && a.w.samples == 10,
	      "the next dispatch is not broken: it delivered the other 9 (%d)",
	      second);
	kstat_unsubscribe(a.sub);
	fake_close(&k);
}

/* kstat_sub_loop() returns 0 after a break; a dispatch then reads on. */
static void test_break_loop(void)
{
	struct act a = { .break_at = 1 };
	struct fake k = { .fd = -1 };
	int ret, n;

	if (connect_act(&a, &k, 3))
		return;
	ret = kstat_sub_loop(a.sub);
	n = kstat_sub_dispatch(a.sub);
	CHECK(ret == 0 && n == 2 && a.w.samples == 3,
	      "a loop broken in its first sample returned %d; then a dispatch delivered %d (of 2)",
	      ret, n);
	kstat_unsubscribe(a.sub);
	fake_close(&k);
}

/* A loop whose callback unsubscribes returns 0, and frees it. */
static void test_unsubscribe_in_loop(void)
{
	struct act a = { .unsubscribe_at = 1 };
	struct fake k = { .fd = -1 };
	int ret;

	if (connect_act(&a, &k, 3))
		return;
	ret = kstat_sub_loop(a.sub);
	CHECK(ret == 0 && a.w.samples == 1 && a.calls_after == 0,
	      "unsubscribed in a loop's first sample: it returned %d, 1 delivered (%d)",
	      ret, a.w.samples);
	fake_close(&k);
}

/* A dispatch from a callback of the same subscription: -EBUSY. */
static void test_nested_dispatch(void)
{
	struct act a = { .nested = 1 };
	struct fake k = { .fd = -1 };
	int n;

	if (connect_act(&a, &k, 3))
		return;
	n = kstat_sub_dispatch(a.sub);
	CHECK(a.nested_ret == -EBUSY && n == 3 && a.w.samples == 3,
	      "kstat_sub_dispatch() from its own callback: %d (-EBUSY), the outer one went on (%d)",
	      a.nested_ret, n);
	kstat_unsubscribe(a.sub);
	fake_close(&k);
}

int main(void)
{
	test_unsubscribe_in_sample();
	test_unsubscribe_in_lost();
	test_unsubscribe_in_dispatch();
	test_break_once();
	test_break_loop();
	test_unsubscribe_in_loop();
	test_nested_dispatch();
	return unit_exit();
}
