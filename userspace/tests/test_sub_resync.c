// SPDX-License-Identifier: GPL-2.0
/*
 * How a subscription resyncs, on hand-made messages: SUBSCRIBE's snapshot
 * replaces the state and the multicast pieces it already holds are
 * dropped; an older snapshot is ignored; copies of samples (another
 * namespace's) are dropped without loss; the family going and coming
 * back (nlctrl's DELFAMILY / NEWFAMILY) is reported, and the first
 * sample of the new module is preceded by one KSTAT_LOST_RELOAD.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "summary_msg.h"

/* A part of SUBSCRIBE's answer: a batch flagged KSTAT_A_SNAPSHOT. */
static void snapshot_start(struct msg *m, uint64_t seq, uint32_t part,
			   uint32_t parts)
{
	msg_start(m, seq, part, parts);
	put(m, KSTAT_A_SNAPSHOT, NULL, 0);
}

/* One whole snapshot of keyframe @seq. */
static void feed_snapshot(struct kstat_sub *sub, uint64_t seq)
{
	struct msg m;

	snapshot_start(&m, seq, 0, 1);
	piece(&m, seq, 1);
	kstat_sub_feed(sub, &m.nlh);
}

/* A snapshot of keyframe @seq in two parts, the sample split over both. */
static void feed_snapshot2(struct kstat_sub *sub, uint64_t seq)
{
	struct msg m;
	uint32_t part;

	for (part = 0; part < 2; part++) {
		snapshot_start(&m, seq, part, 2);
		piece(&m, seq, 1);
		kstat_sub_feed(sub, &m.nlh);
	}
}

/* One multicast part holding samples @first..@last, all deltas. */
static void feed_batch(struct kstat_sub *sub, uint64_t first, uint64_t last)
{
	struct msg m;
	uint64_t s;

	msg_start(&m, first, 0, 1);
	for (s = first; s <= last; s++)
		piece(&m, s, 0);
	kstat_sub_feed(sub, &m.nlh);
}

/* Were exactly @n samples delivered, with the seqs in @want? */
static int delivered(const struct seen *w, const uint64_t *want, int n)
{
	int i;

	if (w->samples != n)
		return 0;
	for (i = 0; i < n; i++)
		if (w->delivered_seq[i] != want[i] || w->delivered_intr[i] != want[i])
			return 0;
	return 1;
}

/*
 * Joined while the producer runs: deltas first (not usable, not a loss),
 * then the snapshot 20, then the multicast batch 18..21 that was open
 * when it was taken: 18..20 are in the snapshot, 21 applies on top.
 */
static void test_snapshot_then_deltas(void)
{
	static const uint64_t want[] = { 20, 21, 22, 23 };
	struct seen w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&ops, &w);

	feed_batch(sub, 16, 17);
	feed_snapshot(sub, 20);
	CHECK(w.samples == 1 && w.delivered_seq[0] == 20,
	      "the snapshot is delivered at once (%d samples)", w.samples);
	feed_batch(sub, 18, 21);
	feed_batch(sub, 22, 23);
	CHECK(delivered(&w, want, 4) && w.lost == 0,
	      "snapshot 20, then 18..21 and 22..23: 21..23 applied on top, "
	      "18..20 dropped (%d delivered, %llu lost)", w.samples,
	      (unsigned long long)w.lost);
	kstat_unsubscribe(sub);
}

/* A snapshot in several parts is one keyframe. */
static void test_snapshot_parts(void)
{
	static const uint64_t want[] = { 30, 31 };
	struct kstat_sub *sub;
	struct seen w = { 0 };

	sub = kstat_sub_alloc(&ops, &w);
	feed_snapshot2(sub, 30);
	feed_batch(sub, 29, 31);
	CHECK(delivered(&w, want, 2) && w.lost == 0,
	      "a snapshot in 2 parts, then 29..31: 30 and 31 delivered "
	      "(%d samples, %llu lost)", w.samples, (unsigned long long)w.lost);
	kstat_unsubscribe(sub);
}

/*
 * The first subscriber gets the multicast keyframe S and the snapshot S;
 * a snapshot older than our state changes nothing.
 */
static void test_old_snapshot(void)
{
	static const uint64_t want[] = { 6, 7, 8, 9, 10, 11 };
	struct kstat_sub *sub;
	struct seen w;

	sub = synced_sub(&w);
	feed_snapshot(sub, 9);
	feed_snapshot2(sub, 8);		/* an older one, in two parts */
	feed_batch(sub, 10, 11);
	CHECK(delivered(&w, want, 6) && w.lost == 0,
	      "in sync up to 9, snapshots 9 and 8 ignored, 10..11 applied "
	      "(%d delivered, %llu lost)", w.samples, (unsigned long long)w.lost);
	kstat_unsubscribe(sub);
}

/*
 * Copies of samples (a socket listening to all namespaces gets one per
 * namespace) are dropped: whole batches again, parts interleaved with
 * the other namespace's, and an old sample is no longer a reload.
 */
static void test_duplicates(void)
{
	static const uint64_t want[] = { 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	struct kstat_sub *sub;
	struct msg a[2], b[2];
	struct seen w;
	int i;

	sub = synced_sub(&w);
	feed_batch(sub, 10, 11);
	feed_batch(sub, 10, 11);
	/* batch 12..14 in 2 parts, 13 split: [12 13a] [13b 14], twice */
	for (i = 0; i < 2; i++) {
		struct msg *m = i ? b : a;

		msg_start(&m[0], 12, 0, 2);
		piece(&m[0], 12, 0);
		piece(&m[0], 13, 0);
		msg_start(&m[1], 12, 1, 2);
		piece(&m[1], 13, 0);
		piece(&m[1], 14, 0);
	}
	kstat_sub_feed(sub, &a[0].nlh);
	kstat_sub_feed(sub, &b[0].nlh);
	kstat_sub_feed(sub, &a[1].nlh);
	kstat_sub_feed(sub, &b[1].nlh);
	feed_batch(sub, 3, 4);		/* old: not a reload, still in sync */
	feed_batch(sub, 15, 15);
	CHECK(delivered(&w, want, 10) && w.lost == 0,
	      "copies of 10..11, of 12..14 interleaved, and old 3..4 dropped; "
	      "10..15 once each (%d delivered, %llu lost)", w.samples,
	      (unsigned long long)w.lost);
	kstat_unsubscribe(sub);
}

/* ---- the family going and coming back ---- */

static struct nlattr *nest_start(struct msg *m, uint16_t type)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->nlh.nlmsg_len);

	a->nla_type = NLA_F_NESTED | type;
	m->nlh.nlmsg_len += NLA_HDRLEN;
	return a;
}

static void nest_end(struct msg *m, struct nlattr *a)
{
	a->nla_len = m->buf + m->nlh.nlmsg_len - (char *)a;
}

/* nlctrl's notification: @cmd for family @name, with a "summary" group. */
static void ctrl_msg(struct msg *m, uint8_t cmd, const char *name, int grp)
{
	struct genlmsghdr *g;
	struct nlattr *groups, *one;
	uint16_t id = 0x21;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = GENL_ID_CTRL;
	g = NLMSG_DATA(&m->nlh);
	g->cmd = cmd;
	g->version = 2;
	put(m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	put(m, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	put_u32(m, CTRL_ATTR_VERSION, KSTAT_FAMILY_VERSION);
	if (grp < 0)
		return;
	groups = nest_start(m, CTRL_ATTR_MCAST_GROUPS);
	one = nest_start(m, 1);
	put_u32(m, CTRL_ATTR_MCAST_GRP_ID, grp);
	put(m, CTRL_ATTR_MCAST_GRP_NAME, "summary", 8);
	nest_end(m, one);
	nest_end(m, groups);
}

static void feed_ctrl(struct kstat_sub *sub, uint8_t cmd, const char *name)
{
	struct msg m;

	ctrl_msg(&m, cmd, name, cmd == CTRL_CMD_NEWFAMILY ? 5 : -1);
	kstat_sub_feed(sub, &m.nlh);
}

/*
 * rmmod, modprobe: gone, back, the snapshot 3 of the new module (seq
 * restarted) resyncs; its 3 samples before ours are reported once, as
 * KSTAT_LOST_RELOAD.  Other families and nlctrl's other commands (its
 * DELMCAST_GRP has KSTAT_CMD_SUMMARY_NTF's number) are not ours.
 */
static void test_reload(void)
{
	struct kstat_sub *sub;
	struct seen w;

	sub = synced_sub(&w);
	feed_ctrl(sub, CTRL_CMD_DELFAMILY, "kstatx");
	feed_ctrl(sub, CTRL_CMD_DELMCAST_GRP, "kstat");
	feed_ctrl(sub, CTRL_CMD_DELFAMILY, "kstat");
	CHECK(w.nr_family == 1 && w.family[0] == 0,
	      "DELFAMILY kstat: ops->family(0), once (%d calls)", w.nr_family);
	feed_ctrl(sub, CTRL_CMD_NEWFAMILY, "kstat");
	CHECK(w.nr_family == 2 && w.family[1] == 1,
	      "NEWFAMILY kstat: ops->family(1) (%d calls)", w.nr_family);
	feed_snapshot(sub, 3);
	feed_batch(sub, 2, 4);
	CHECK(w.reloads == 1 && w.reload_lost == 3 && w.lost == 3,
	      "one KSTAT_LOST_RELOAD of the new module's 3 samples before "
	      "the snapshot (%d reports, %llu lost)", w.reloads,
	      (unsigned long long)w.lost);
	CHECK(w.samples == 6 && w.delivered_seq[4] == 3 &&
	      w.delivered_seq[5] == 4,
	      "then the snapshot 3 and the sample 4 (%d delivered)", w.samples);
	kstat_unsubscribe(sub);
}

/*
 * A kernel without snapshots: the new module's first keyframe (seq 0)
 * resyncs; KSTAT_LOST_RELOAD reports 0.  A NEWFAMILY whose DELFAMILY
 * went missing is a reload too.
 */
static void test_reload_no_snapshot(void)
{
	struct kstat_sub *sub;
	struct seen w;
	struct msg m;

	sub = synced_sub(&w);
	feed_ctrl(sub, CTRL_CMD_NEWFAMILY, "kstat");
	CHECK(w.nr_family == 2 && w.family[0] == 0 && w.family[1] == 1,
	      "NEWFAMILY without DELFAMILY: gone, then back (%d calls)",
	      w.nr_family);
	msg_start(&m, 0, 0, 1);
	piece(&m, 0, 1);
	piece(&m, 1, 0);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(w.reloads == 1 && w.lost == 0 && w.samples == 6 &&
	      w.delivered_seq[4] == 0,
	      "keyframe 0 of the new module: a reload of 0 lost, 0 and 1 "
	      "delivered (%d reports, %d delivered)", w.reloads, w.samples);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_snapshot_then_deltas();
	test_snapshot_parts();
	test_old_snapshot();
	test_duplicates();
	test_reload();
	test_reload_no_snapshot();
	return unit_exit();
}
