// SPDX-License-Identifier: GPL-2.0
/*
 * How a subscription counts lost samples when notification messages go
 * missing, on hand-made summaries: a sample is lost when a piece of it was
 * in a message that never came.  The kernel drops whole messages (one
 * Drops per skb in /proc/net/netlink), so with one message per batch a
 * drop costs exactly the batch's samples; a batch split into parts costs
 * the samples with a piece in the missing part, and complete samples in
 * the parts that did come are not lost (though nothing is delivered
 * before the next keyframe).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "summary_msg.h"

/*
 * Batch 10..13 in three parts.  @split11: part 0 ends inside sample 11
 * (parts [10 11a] [11b 12 13a] [13b]), else on a sample boundary
 * ([10 11] [12 13a] [13b]).  Part @drop never arrives.  Then keyframe
 * batch 14 in one part.
 */
static void batch_with_drop(struct kstat_sub *sub, int split11, int drop)
{
	struct msg m[3], k;
	int i;

	msg_start(&m[0], 10, 0, 3);
	piece(&m[0], 10, 0);
	piece(&m[0], 11, 0);
	msg_start(&m[1], 10, 1, 3);
	if (split11)
		piece(&m[1], 11, 0);
	piece(&m[1], 12, 0);
	piece(&m[1], 13, 0);
	msg_start(&m[2], 10, 2, 3);
	piece(&m[2], 13, 0);
	for (i = 0; i < 3; i++)
		if (i != drop)
			kstat_sub_feed(sub, &m[i].nlh);
	msg_start(&k, 14, 0, 1);
	piece(&k, 14, 1);
	kstat_sub_feed(sub, &k.nlh);
}

static void test_parts(void)
{
	/* lost samples for a dropped part 0, 1, 2; then with the split */
	/*
	 * Where a part ends on a sample boundary, the library cannot tell:
	 * the sample before a missing part (11 when part 1 is dropped) or
	 * the first after it (12 when part 0 is) may have a piece there,
	 * so it counts as lost.
	 */
	static const uint64_t want[2][3] = {
		{ 3, 3, 1 },	/* boundary: [10 11] [12 13a] [13b] */
		{ 2, 3, 1 },	/* split:    [10 11a] [11b 12 13a] [13b] */
	};
	/* delivered: 6..9, what came complete before the loss, 14 */
	static const int delivered[3] = { 5, 6, 8 };
	struct kstat_sub *sub;
	struct seen w;
	int split, drop;

	for (split = 0; split < 2; split++) {
		for (drop = 0; drop < 3; drop++) {
			sub = synced_sub(&w);
			batch_with_drop(sub, split, drop);
			CHECK(w.lost == want[split][drop] && kstat_sub_lost(sub) == w.lost,
			      "batch in 3 parts (%s), part %d dropped: %llu lost, want %llu",
			      split ? "sample 11 split" : "split on a boundary", drop,
			      (unsigned long long)w.lost,
			      (unsigned long long)want[split][drop]);
			CHECK(w.samples == delivered[drop] &&
			      w.delivered_seq[w.samples - 2] == (uint64_t)w.samples + 4 &&
			      w.delivered_seq[w.samples - 1] == 14,
			      "  delivered 6..%d, then keyframe 14 (%d samples, last %llu)",
			      w.samples + 4, w.samples,
			      (unsigned long long)w.delivered_seq[w.samples - 1]);
			kstat_unsubscribe(sub);
		}
	}
}

/*
 * One part per batch: every dropped message costs exactly its batch's
 * samples, whatever the batch size, and nothing else.
 */
static void test_whole_batches(void)
{
	static const int batch[] = { 1, 3 };
	struct kstat_sub *sub;
	struct seen w;
	uint64_t seq, dropped;
	int b, i, n;
	struct msg m;

	for (b = 0; b < 2; b++) {
		sub = synced_sub(&w);
		seq = 10;
		dropped = 0;
		for (i = 0; i < 40; i++) {
			msg_start(&m, seq, 0, 1);
			for (n = 0; n < batch[b]; n++)
				piece(&m, seq + n, i % 7 == 0 && n == 0);
			seq += batch[b];
			/* a run of three drops, a single one, two apart */
			if (i == 3 || i == 4 || i == 5 || i == 11 || i == 13) {
				dropped++;
				continue;
			}
			kstat_sub_feed(sub, &m.nlh);
		}
		CHECK(w.lost == dropped * batch[b],
		      "batch %d, one part each, %llu messages dropped: %llu samples lost",
		      batch[b], (unsigned long long)dropped,
		      (unsigned long long)w.lost);
		kstat_unsubscribe(sub);
	}
}

/* Joining in the middle of a batch is not a loss. */
static void test_join_mid_batch(void)
{
	struct kstat_sub *sub;
	struct seen w = { 0 };
	struct msg m;

	sub = kstat_sub_alloc(&ops, &w);
	msg_start(&m, 10, 1, 3);
	piece(&m, 11, 0);
	piece(&m, 12, 0);
	kstat_sub_feed(sub, &m.nlh);
	msg_start(&m, 10, 2, 3);
	piece(&m, 12, 0);
	piece(&m, 13, 0);
	kstat_sub_feed(sub, &m.nlh);
	msg_start(&m, 14, 0, 1);
	piece(&m, 14, 1);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(w.lost == 0 && w.samples == 1 && w.delivered_seq[0] == 14,
	      "joined mid-batch: %llu lost, %d delivered (the keyframe)",
	      (unsigned long long)w.lost, w.samples);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_parts();
	test_whole_batches();
	test_join_mid_batch();
	return unit_exit();
}
