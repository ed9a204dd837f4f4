// SPDX-License-Identifier: GPL-2.0
/*
 * kstat readings and the messages made of them.
 *
 * A reading is one collection of the counters a request (or the
 * producer's union of due readers) asks for, by every section it names.
 * Its objects are put by the sections' fills, from a cursor, until a
 * message is full: a GET reply, a dump's messages and a sample's parts
 * are all made this way, each message starting with the same header.
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>

#include "kst.h"

/* In the order of every message. */
static const struct kst_section *const kst_sections[KST_NR_SECS] = {
	[KST_SEC_CPU]		= &kst_cpu_section,
	[KST_SEC_IRQ]		= &kst_irq_section,
	[KST_SEC_SOFTIRQ]	= &kst_softirq_section,
};

/* A sample larger than this goes in parts (a message each). */
#define KST_PART_BYTES		SZ_32K

/* The online CPUs of the last reading, under kst_count_lock. */
static struct cpumask kst_online_last;

/* A generic netlink message of @payload bytes, headers included. */
size_t kst_msg_bytes(size_t payload)
{
	return nlmsg_total_size(genlmsg_msg_size(payload));
}

size_t kst_online_bytes(void)
{
	return DIV_ROUND_UP(nr_cpu_ids, 8);
}

/* The online CPUs now, as bytes; a change starts a new generation. */
static void kst_online_read(struct kst_reading *r)
{
	unsigned int cpu;

	mutex_lock(&kst_count_lock);
	if (!cpumask_equal(&kst_online_last, cpu_online_mask)) {
		cpumask_copy(&kst_online_last, cpu_online_mask);
		kst_generation_bump();
	}
	for_each_cpu(cpu, &kst_online_last)
		r->online[cpu / 8] |= 1 << (cpu % 8);
	mutex_unlock(&kst_count_lock);
}

void kst_reading_free(struct kst_reading *r)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(r))
		return;
	for (i = 0; i < KST_NR_SECS; i++)
		if (r->data[i])
			kst_sections[i]->release(r->data[i]);
	kfree(r->online);
	kfree(r);
}

/*
 * One reading of what @req asks, into memory from @gfp: the requester's
 * for a GET (GFP_KERNEL_ACCOUNT), the producer's for a tick.
 */
struct kst_reading *kst_collect(const struct kst_req *req, gfp_t gfp)
{
	struct kst_reading *r = kzalloc(sizeof(*r), gfp);
	unsigned int i;
	void *data;

	if (!r)
		return ERR_PTR(-ENOMEM);
	r->view = req->view;
	r->cpu_first = req->cpu_first;
	r->cpu_last = req->cpu_last;
	r->online = kzalloc(kst_online_bytes(), gfp);
	if (!r->online)
		goto nomem;
	r->ts = ktime_get_boottime_ns();
	kst_online_read(r);
	for (i = 0; i < KST_NR_SECS; i++) {
		if (!(req->view.sections & kst_sections[i]->bit))
			continue;
		data = kst_sections[i]->collect(r, req, gfp);
		if (IS_ERR(data)) {
			kst_reading_free(r);
			return data;
		}
		r->data[i] = data;
	}
	r->generation = READ_ONCE(kst_generation);
	return r;
nomem:
	kst_reading_free(r);
	return ERR_PTR(-ENOMEM);
}

/* What every message repeats: (SEQ, PART, PARTS,) TIMESTAMP, ... */
size_t kst_header_size(bool sample)
{
	size_t size = nla_total_size_64bit(sizeof(u64)) +
		      nla_total_size(sizeof(u32)) +
		      nla_total_size(kst_online_bytes());

	if (sample)
		size += nla_total_size_64bit(sizeof(u64)) +
			2 * nla_total_size(sizeof(u32));
	return size;
}

int kst_header_put(struct sk_buff *skb, const struct kst_reading *r,
		   const struct kst_sample_hdr *h)
{
	if (h && (nla_put_u64_64bit(skb, KSTAT_A_SEQ, h->seq, KSTAT_A_PAD) ||
		  nla_put_u32(skb, KSTAT_A_PART, h->part) ||
		  nla_put_u32(skb, KSTAT_A_PARTS, h->parts)))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, KSTAT_A_TIMESTAMP, r->ts, KSTAT_A_PAD) ||
	    nla_put_u32(skb, KSTAT_A_GENERATION, r->generation) ||
	    nla_put(skb, KSTAT_A_ONLINE_CPUS, kst_online_bytes(), r->online))
		return -EMSGSIZE;
	return 0;
}

/* What of @v was collected. */
static struct kst_view kst_view_of(const struct kst_reading *r,
				   const struct kst_view *v)
{
	return (struct kst_view) {
		.sections = v->sections & r->view.sections,
		.flags = v->flags & r->view.flags,
	};
}

/* Is section @i in view @v (and so collected)? */
static bool kst_in_view(const struct kst_reading *r,
			const struct kst_view *v, unsigned int i)
{
	return (v->sections & kst_sections[i]->bit) && r->data[i];
}

/* The exact bytes of @v's objects (not the header). */
size_t kst_size(const struct kst_reading *r, const struct kst_view *v)
{
	struct kst_view ev = kst_view_of(r, v);
	size_t size = 0;
	unsigned int i;

	for (i = 0; i < KST_NR_SECS; i++)
		if (kst_in_view(r, &ev, i))
			size += kst_sections[i]->size(r, r->data[i], &ev);
	return size;
}

/* The largest single object of @v. */
size_t kst_max_object(const struct kst_reading *r, const struct kst_view *v)
{
	struct kst_view ev = kst_view_of(r, v);
	size_t size = 0;
	unsigned int i;

	for (i = 0; i < KST_NR_SECS; i++)
		if (kst_in_view(r, &ev, i))
			size = max(size, kst_sections[i]->max_object(r, &ev));
	return size;
}

/*
 * Put @v's objects from @pos on: 0 when all are in, -EMSGSIZE when @skb
 * is full (@pos then at the next object).
 */
int kst_fill(struct sk_buff *skb, const struct kst_reading *r,
	     const struct kst_view *v, struct kst_pos *pos)
{
	struct kst_view ev = kst_view_of(r, v);
	int err;

	for (; pos->sec < KST_NR_SECS; pos->sec++) {
		if (kst_in_view(r, &ev, pos->sec)) {
			err = kst_sections[pos->sec]->fill(skb, r,
							   r->data[pos->sec],
							   &ev, pos);
			if (err)
				return err;
		}
		pos->step = 0;
		pos->idx = 0;
	}
	return 0;
}

/*
 * A notification of @payload bytes at most: a part's tailroom is exactly
 * that, whatever the allocator rounds to, so that parts are their size.
 */
static struct sk_buff *kst_part_new(size_t payload, void **hdr)
{
	size_t len = kst_msg_bytes(payload);
	struct sk_buff *skb = genlmsg_new(payload, GFP_KERNEL);

	if (!skb)
		return NULL;
	if (skb_tailroom(skb) > len)
		skb_reserve(skb, skb_tailroom(skb) - len);
	*hdr = genlmsg_put(skb, 0, 0, &kst_family, 0, KSTAT_CMD_SUMMARY_NTF);
	if (!*hdr) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

static void kst_patch_u32(struct sk_buff *skb, int type, u32 val)
{
	struct nlattr *a = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN, type);

	if (!WARN_ON_ONCE(!a))
		memcpy(nla_data(a), &val, sizeof(val));
}

/* A copy's SEQ: each reader's samples are numbered in its own stream. */
void kst_sample_set_seq(struct sk_buff *skb, u64 seq)
{
	struct nlattr *a = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
					   KSTAT_A_SEQ);

	if (!WARN_ON_ONCE(!a))
		memcpy(nla_data(a), &seq, sizeof(seq));
}

/*
 * One part from @pos on: as large as a part, or, when not even one
 * object fits there, as large as the largest object.
 */
static struct sk_buff *kst_part_build(const struct kst_reading *r,
				      const struct kst_view *v,
				      struct kst_pos *pos, u32 part,
				      size_t payload)
{
	const struct kst_sample_hdr h = { .part = part };
	struct kst_pos start = *pos;
	struct sk_buff *skb;
	void *hdr;
	int err;

	skb = kst_part_new(payload, &hdr);
	if (!skb)
		return ERR_PTR(-ENOMEM);
	err = kst_header_put(skb, r, &h) ?: kst_fill(skb, r, v, pos);
	if (err && !memcmp(&start, pos, sizeof(start))) {
		kfree_skb(skb);
		return NULL;			/* no object fitted */
	}
	genlmsg_end(skb, hdr);
	return skb;
}

/*
 * A sample of view @v: one message, or parts of whole objects when
 * larger than KST_PART_BYTES, into @parts.  SEQ is 0 (each reader's copy
 * gets its own: kst_sample_set_seq()); PARTS is set once all are built.
 */
int kst_sample_build(const struct kst_reading *r, const struct kst_view *v,
		     struct sk_buff_head *parts)
{
	size_t size = kst_header_size(true) + kst_size(r, v);
	size_t payload = KST_PART_BYTES - NLMSG_HDRLEN - GENL_HDRLEN;
	struct kst_pos pos = { };
	struct sk_buff *skb;
	u32 n = 0;

	if (size <= payload)
		payload = size;
	while (pos.sec < KST_NR_SECS) {
		skb = kst_part_build(r, v, &pos, n, payload);
		if (!skb)
			skb = kst_part_build(r, v, &pos, n,
					     kst_header_size(true) +
					     kst_max_object(r, v));
		if (IS_ERR_OR_NULL(skb)) {
			__skb_queue_purge(parts);
			/* NULL: an object larger than its bound, a bug */
			return WARN_ON_ONCE(!skb) ? -EMSGSIZE : PTR_ERR(skb);
		}
		__skb_queue_tail(parts, skb);
		n++;
	}
	skb_queue_walk(parts, skb)
		kst_patch_u32(skb, KSTAT_A_PARTS, n);
	return 0;
}
