// SPDX-License-Identifier: GPL-2.0
/*
 * An overrun is repaired at once.  A subscription whose socket overflowed
 * (ENOBUFS; libnl's NLE_NOMEM) sends SUBSCRIBE again, whose snapshot
 * resyncs it without waiting for the next keyframe (about 10 s at the
 * defaults), and nlctrl's GETFAMILY, whose answer rejoins a family whose
 * NEWFAMILY the overrun swallowed, or reports one whose DELFAMILY it
 * swallowed.  The samples between the last one delivered and the
 * snapshot are reported lost (KSTAT_LOST_OVERRUN).  Before, the library
 * only counted the loss and waited.  A NETLINK_USERSOCK socket plays
 * the kernel: it multicasts to the subscription until it overflows, and
 * answers its requests.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "fake_kernel.h"

#define FAMILY	0x21
#define GROUP	3

/*
 * A subscription joined to family FAMILY's group GROUP by a NEWFAMILY,
 * answered with snapshot 100, then a socket buffer of 4 KiB (8 KiB of
 * accounting: a few messages).  0, or -errno.
 */
static int setup(struct fake *k, struct kstat_sub **subp, struct seen *w)
{
	struct kstat_sub *sub = kstat_sub_alloc(&ops, w);
	struct req r[8];
	int err, n, small = 4096;
	struct msg m;

	memset(w, 0, sizeof(*w));
	*subp = sub;
	err = fake_open(k, sub);
	if (err)
		return err;
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, KSTAT_FAMILY_VERSION, GROUP);
	fake_unicast(k, &m, 0);
	kstat_sub_dispatch(sub);
	n = fake_requests(k, r, 8);
	if (!req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE))
		return -ENOMSG;
	snapshot_msg(&m, 100);
	fake_unicast(k, &m, 0);
	kstat_sub_dispatch(sub);
	if (w->samples != 1)
		return -EPROTO;
	if (setsockopt(kstat_sub_fd(sub), SOL_SOCKET, SO_RCVBUF, &small,
		       sizeof(small)))
		return -errno;
	return 0;
}

/* Multicast deltas from 101 on until the socket overflows: the last seq. */
static uint64_t overflow(struct fake *k)
{
	struct msg m;
	uint64_t s;

	for (s = 101; s < 101 + 200; s++) {
		delta_msg(&m, s);
		fake_multicast(k, &m, GROUP);
	}
	return s - 1;
}

/* The family as it was: SUBSCRIBE's snapshot resyncs, nothing else. */
static void test_repair(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub *sub;
	const struct req *look, *subscribe;
	struct req r[16];
	struct seen w;
	uint64_t last;
	int err, n, before;
	struct msg m;

	err = setup(&k, &sub, &w);
	CHECK(!err, "joined by NEWFAMILY, snapshot 100 delivered, 4 KiB buffer (%s)",
	      strerror(-err));
	if (err)
		goto out;
	last = overflow(&k);
	before = w.samples;
	n = kstat_sub_dispatch(sub);
	while (n > 0)
		n = kstat_sub_dispatch(sub);
	n = fake_requests(&k, r, 16);
	look = req_find(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	subscribe = req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE);
	CHECK(look && subscribe &&
	      req_count(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE) == 1 &&
	      req_count(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY) == 1,
	      "after the overrun: one SUBSCRIBE and one GETFAMILY sent (%d requests)", n);
	if (!look || !subscribe)
		goto out;

	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, KSTAT_FAMILY_VERSION, GROUP);
	fake_unicast(&k, &m, look->seq);
	snapshot_msg(&m, last);
	fake_unicast(&k, &m, subscribe->seq);
	kstat_sub_dispatch(sub);
	CHECK(w.samples > before && w.delivered_seq[w.samples - 1] == last,
	      "the snapshot %llu is delivered at once (last delivered %llu)",
	      (unsigned long long)last,
	      (unsigned long long)w.delivered_seq[w.samples - 1]);
	/* the join's reload reported snapshot 100's seq: 100 "lost" */
	CHECK(w.lost - w.reload_lost > 0 &&
	      w.lost - w.reload_lost + (uint64_t)(w.samples - 1) == last - 100,
	      "every sample from 101 to %llu delivered or reported lost (%d delivered, %llu lost)",
	      (unsigned long long)last, w.samples - 1,
	      (unsigned long long)(w.lost - w.reload_lost));
	CHECK(w.nr_family == 2 && w.reloads == 1,
	      "the family as it was: no family callback, no reload (%d calls, %d reloads; the join's 2 and 1)",
	      w.nr_family, w.reloads);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* The overrun swallowed a reload's NEWFAMILY: the answer rejoins. */
static void test_missed_newfamily(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub *sub;
	const struct req *look;
	struct req r[16];
	struct seen w;
	int err, n;
	struct msg m;

	err = setup(&k, &sub, &w);
	if (err) {
		CHECK(0, "setup (%s)", strerror(-err));
		goto out;
	}
	overflow(&k);
	while (kstat_sub_dispatch(sub) > 0)
		;
	n = fake_requests(&k, r, 16);
	look = req_find(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	CHECK(look != NULL, "GETFAMILY sent after the overrun");
	if (!look)
		goto out;
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY + 1, KSTAT_FAMILY_VERSION,
			GROUP + 1);
	fake_unicast(&k, &m, look->seq);
	kstat_sub_dispatch(sub);
	n = fake_requests(&k, r, 16);
	CHECK(w.nr_family == 4 && w.family[2] == 0 && w.family[3] == 1 &&
	      req_find(r, n, FAMILY + 1, KSTAT_CMD_SUBSCRIBE),
	      "a new family id in the answer: gone, back, SUBSCRIBE to it (%d family calls)",
	      w.nr_family);
	snapshot_msg(&m, 4);
	fake_unicast(&k, &m, 0);
	delta_msg(&m, 5);
	fake_multicast(&k, &m, GROUP + 1);
	kstat_sub_dispatch(sub);
	CHECK(w.reloads == 2 && w.delivered_seq[w.samples - 1] == 5,
	      "its snapshot 4 and its multicast 5 on the new group follow a reload (%d reloads, last %llu)",
	      w.reloads, (unsigned long long)w.delivered_seq[w.samples - 1]);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* The overrun swallowed a DELFAMILY: GETFAMILY's ENOENT says it is gone. */
static void test_missed_delfamily(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub *sub;
	const struct req *look;
	struct req r[16];
	struct seen w;
	int err, n;
	struct msg m;

	err = setup(&k, &sub, &w);
	if (err) {
		CHECK(0, "setup (%s)", strerror(-err));
		goto out;
	}
	overflow(&k);
	while (kstat_sub_dispatch(sub) > 0)
		;
	n = fake_requests(&k, r, 16);
	look = req_find(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	if (!look) {
		CHECK(0, "GETFAMILY sent after the overrun");
		goto out;
	}
	error_msg(&m, -ENOENT, GENL_ID_CTRL, look->seq);
	fake_unicast(&k, &m, look->seq);
	kstat_sub_dispatch(sub);
	CHECK(w.nr_family == 3 && w.family[2] == 0,
	      "GETFAMILY answered ENOENT: ops->family(0) (%d calls)", w.nr_family);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_repair();
	test_missed_newfamily();
	test_missed_delfamily();
	return unit_exit();
}
