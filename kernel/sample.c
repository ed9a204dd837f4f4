// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary messages.  A batch of samples, or the snapshot a
 * subscriber gets, is built into parts: messages of one fixed room (their
 * unused room given back once the batch is finished), each carrying the
 * batch's seq, its index and the number of parts.  A sample
 * that does not fit in one part is split, each piece in its own
 * KSTAT_A_SAMPLE nest repeating the sample's head, so readers merge the
 * pieces by seq.  Sections put their items through kst_sample_put() and
 * never see a part boundary.
 */
#include <net/genetlink.h>

#include "kst.h"

/*
 * Room for one part: what makes the skb's data, shared info included,
 * exactly 16 KiB, so that no allocation is rounded up.
 */
#define KST_PART_SIZE \
	(SKB_WITH_OVERHEAD(16 * 1024) - NLMSG_HDRLEN - GENL_HDRLEN)

void kst_builder_init(struct kst_builder *b, u32 stream)
{
	memset(b, 0, sizeof(*b));
	b->stream = stream;
	__skb_queue_head_init(&b->parts);
}

void kst_builder_purge(struct kst_builder *b)
{
	__skb_queue_purge(&b->parts);
	kfree_skb(b->skb);
	b->skb = NULL;
}

static int kst_part_new(struct kst_builder *b)
{
	b->skb = kst_deliver_msg_new(KST_PART_SIZE, b->portid, b->seq,
				     &b->hdr);
	if (!b->skb)
		return -ENOMEM;
	/* KSTAT_A_PARTS is patched in once the batch is complete. */
	if (nla_put_u64_64bit(b->skb, KSTAT_A_BATCH_SEQ, b->batch_seq,
			      KSTAT_A_PAD) ||
	    nla_put_u32(b->skb, KSTAT_A_PART, skb_queue_len(&b->parts)) ||
	    nla_put_u32(b->skb, KSTAT_A_PARTS, 0) ||
	    (b->snapshot && nla_put_flag(b->skb, KSTAT_A_SNAPSHOT)) ||
	    (b->stream &&
	     nla_put_u32(b->skb, KSTAT_A_SUMMARY_STREAM, b->stream))) {
		kfree_skb(b->skb);
		b->skb = NULL;
		return -EMSGSIZE;
	}
	return 0;
}

static void kst_part_finish(struct kst_builder *b)
{
	genlmsg_end(b->skb, b->hdr);
	__skb_queue_tail(&b->parts, b->skb);
	b->skb = NULL;
}

/*
 * Give a finished part's unused room back, once.  netlink_unicast() and
 * netlink_broadcast() trim any skb less than half used (netlink_trim()),
 * and the clone each member or namespace gets shares the part's data, so
 * every clone would be copied into data of its own: a kmalloc() and a
 * copy per member, where this is one per part.  Without memory the part
 * stays as it is, and netlink trims the clones as before.
 */
static void kst_part_trim(struct sk_buff *skb)
{
	int room = skb_tailroom(skb);

	if (room * 2 >= skb->truesize)
		pskb_expand_head(skb, 0, -room, GFP_KERNEL);
}

/* Close the batch: every part learns how many there are. */
void kst_builder_finish(struct kst_builder *b)
{
	struct nlattr *parts;
	struct sk_buff *skb;
	u32 n;

	if (b->skb)
		kst_part_finish(b);
	n = skb_queue_len(&b->parts);
	skb_queue_walk(&b->parts, skb) {
		parts = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
					KSTAT_A_PARTS);
		if (!WARN_ON_ONCE(!parts))
			*(u32 *)nla_data(parts) = n;
		kst_part_trim(skb);
	}
}

/* Open a sample nest (or the next piece of a split one). */
static int kst_sample_open(struct kst_writer *w)
{
	const struct kst_sample_head *h = w->h;
	struct sk_buff *skb = w->b->skb;
	unsigned char *mark = skb_tail_pointer(skb);

	w->b->sample = nla_nest_start(skb, KSTAT_A_SAMPLE);
	if (!w->b->sample ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_SEQ, h->seq,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_TIMESTAMP, h->ts,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, KSTAT_A_SAMPLE_GENERATION, h->generation) ||
	    (h->key && nla_put_flag(skb, KSTAT_A_SAMPLE_KEYFRAME)) ||
	    ((h->key || h->announce) &&
	     kst_config_fill(skb, KSTAT_A_SAMPLE_CONFIG, h->cfg))) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	return 0;
}

static void kst_sample_close(struct kst_writer *w)
{
	nla_nest_end(w->b->skb, w->b->sample);
	w->b->sample_bytes += nla_total_size(nla_len(w->b->sample));
}

/* Start a sample, in the open part if its head fits there. */
int kst_sample_begin(struct kst_writer *w)
{
	int err = 0;

	w->b->sample_bytes = 0;
	if (!w->b->skb)
		err = kst_part_new(w->b);
	if (!err) {
		err = kst_sample_open(w);
		if (err == -EMSGSIZE) {
			kst_part_finish(w->b);
			err = kst_part_new(w->b) ?: kst_sample_open(w);
		}
	}
	return err;
}

void kst_sample_end(struct kst_writer *w)
{
	kst_sample_close(w);
}

/*
 * Add one item to the open sample.  When the part is full, close this
 * piece of the sample and carry on in a new part.
 */
int kst_sample_put(struct kst_writer *w, kst_item_fn put, const void *obj,
		   unsigned int idx)
{
	int err = put(w->b->skb, w, obj, idx);

	if (err != -EMSGSIZE)
		return err;
	kst_sample_close(w);
	kst_part_finish(w->b);
	err = kst_part_new(w->b) ?: kst_sample_open(w);
	return err ?: put(w->b->skb, w, obj, idx);
}
