// SPDX-License-Identifier: GPL-2.0
/*
 * The wire format is checked at every rejoin, not only by kstat_open():
 * a NEWFAMILY of "kstat" (or the answer to the library's own GETFAMILY)
 * of another protocol version is not joined.  ops->family(0) says the
 * module went, ops->lost(0, KSTAT_LOST_VERSION) says why, and
 * kstat_sub_dispatch() returns -EPROTO once, kstat_sub_last_error()
 * naming both versions and what to install.  A module of our version
 * loaded after it is joined as after any reload.  Before, the rejoin
 * never read the version and parsed the new protocol without a word.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "fake_kernel.h"

static int versions;		/* KSTAT_LOST_VERSION reports */

static void v_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	on_lost(n, why, arg);
	if (why == KSTAT_LOST_VERSION)
		versions++;
}

static const struct kstat_sub_ops v_ops = {
	.sample = on_sample, .lost = v_lost, .family = on_family,
};

static struct kstat_sub *v_sub(struct seen *w)
{
	struct kstat_sub *sub = kstat_sub_alloc(&v_ops, w);
	struct msg m;
	uint64_t s;

	memset(w, 0, sizeof(*w));
	versions = 0;
	msg_start(&m, 6, 0, 1);
	for (s = 6; s <= 9; s++)
		piece(&m, s, s == 6);
	kstat_sub_feed(sub, &m.nlh);
	return sub;
}

/* On recorded messages: refused, then a module of ours is joined. */
static void test_feed(void)
{
	struct kstat_sub *sub;
	char want[80];
	struct seen w;
	struct msg m;

	sub = v_sub(&w);
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, 0x22, KSTAT_FAMILY_VERSION + 1, 5);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(w.nr_family == 1 && w.family[0] == 0 && versions == 1,
	      "a module of version %d: gone (ops->family(0)), one KSTAT_LOST_VERSION, never back (%d family calls, %d reports)",
	      KSTAT_FAMILY_VERSION + 1, w.nr_family, versions);
	snprintf(want, sizeof(want), "protocol version %d, this libkstat version %d",
		 KSTAT_FAMILY_VERSION + 1, KSTAT_FAMILY_VERSION);
	CHECK(strstr(kstat_sub_last_error(sub), want) &&
	      strstr(kstat_sub_last_error(sub), "install"),
	      "the reason names both versions and what to install: \"%s\"",
	      kstat_sub_last_error(sub));
	kstat_sub_feed(sub, &m.nlh);	/* said once */
	CHECK(versions == 1, "the same module again: not reported again (%d)", versions);

	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, 0x23, -1, 5);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(versions == 2 && w.nr_family == 1,
	      "a module that gives no version: refused too (%d reports)", versions);

	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, 0x24, KSTAT_FAMILY_VERSION, 5);
	kstat_sub_feed(sub, &m.nlh);
	snapshot_msg(&m, 2);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(w.nr_family == 2 && w.family[1] == 1 && w.reloads == 1 &&
	      w.samples == 5 && w.delivered_seq[4] == 2,
	      "then a module of version %d: back, one reload, its snapshot delivered (%d family calls, %d samples)",
	      KSTAT_FAMILY_VERSION, w.nr_family, w.samples);
	kstat_unsubscribe(sub);
}

/* On a socket: kstat_sub_dispatch() returns -EPROTO, once. */
static void test_dispatch(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub *sub;
	char want[80];
	struct seen w;
	struct msg m;
	int err, ret, again;

	sub = v_sub(&w);
	err = fake_open(&k, sub);
	CHECK(!err, "a subscription on NETLINK_USERSOCK (%s)", strerror(-err));
	if (err)
		goto out;
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, 0x22, KSTAT_FAMILY_VERSION + 7, 5);
	fake_unicast(&k, &m, 0);
	ret = kstat_sub_dispatch(sub);
	again = kstat_sub_dispatch(sub);
	CHECK(ret == -EPROTO && again == 0 && versions == 1,
	      "NEWFAMILY of version %d: dispatch returned %d (-EPROTO), then %d",
	      KSTAT_FAMILY_VERSION + 7, ret, again);
	snprintf(want, sizeof(want), "protocol version %d,", KSTAT_FAMILY_VERSION + 7);
	CHECK(strstr(kstat_sub_last_error(sub), want) != NULL,
	      "kstat_sub_last_error(): \"%s\"", kstat_sub_last_error(sub));
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_feed();
	test_dispatch();
	return unit_exit();
}
