// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary producer.
 *
 * While the "summary" multicast group has listeners, a delayed work item
 * samples the counters every interval_ms and multicasts every `batch`
 * samples as one notification, so the cost of a sample is paid once
 * however many subscribers there are.  Nothing runs and nothing is
 * allocated while nobody listens: the producer starts when a subscriber
 * sends KSTAT_CMD_SUBSCRIBE (generic netlink has no multicast-bind hook
 * on 6.1) and stops at the first tick that finds the group empty.
 *
 * A sample is collected into a frame, built into messages from it, and
 * only then committed: the frame becomes the base of the next delta.  A
 * sample that fails on the way changes nothing, so every increment
 * reaches subscribers exactly once.  The last committed frame is also
 * what SUBSCRIBE answers with: a late joiner gets the whole state at
 * once, unicast, and the others pay nothing for it.
 *
 * Counts are extended to 64 bits (ext.h).  IRQ state is keyed by
 * descriptor, pinned with a reference (kstat_desc_hold()), never by IRQ
 * number or by an address that could be reused.
 *
 * Locks, always taken in this order:
 *   kstat_prod_lock  the producer and its frames;
 *   kstat_send_lock  taken before kstat_prod_lock is dropped, so messages
 *                    leave in the order their frames were taken, while
 *                    the producer's lock is free for the next request;
 *   kstat_ctl_lock   configuration and telemetry, held only for copies,
 *                    so CONFIG_GET and STATS_GET never wait for a sample.
 * Nothing here runs with preemption disabled: on PREEMPT_RT,
 * netlink_broadcast() and skb_clone() may sleep.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "kstat.h"
#include "ext.h"

static unsigned int interval_ms = 1000;
module_param(interval_ms, uint, 0444);
MODULE_PARM_DESC(interval_ms, "default summary interval in ms (>= 10)");

static unsigned int batch = 1;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "default samples per summary notification");

static unsigned int keyframe = 10;
module_param(keyframe, uint, 0444);
MODULE_PARM_DESC(keyframe, "default: a full sample every N batches");

static unsigned int sections = KSTAT_SECTION_ALL;
module_param(sections, uint, 0444);
MODULE_PARM_DESC(sections, "default sections: 1 cpu, 2 irq, 4 softirq");

static bool percpu;
module_param(percpu, bool, 0444);
MODULE_PARM_DESC(percpu, "default: per-CPU IRQ counts in summaries");

/*
 * Test-only: the tests prove with it that a failed sample changes no
 * count.  Root only; it costs one read per sample.
 */
static unsigned int fault_samples;
module_param(fault_samples, uint, 0600);
MODULE_PARM_DESC(fault_samples,
		 "testing: the next N samples fail as on ENOMEM (dropped)");

/*
 * Room for one part of a batch: what makes the skb's data, shared info
 * included, exactly 16 KiB, so that no allocation is rounded up.
 */
#define KSTAT_PART_SIZE \
	(SKB_WITH_OVERHEAD(16 * 1024) - NLMSG_HDRLEN - GENL_HDRLEN)

/* The counters of one sample, complete. */
struct kstat_frame {
	u64 seq;
	u64 ts;				/* CLOCK_BOOTTIME ns */
	u32 generation;
	unsigned long *online;		/* CPUs online at this sample */
	struct kstat_cputime *cpu;	/* per CPU id, then the total */
	struct irq_desc **desc;		/* per IRQ number, pinned, or NULL */
	u32 *irq_raw;			/* the kernel's 32-bit totals */
	u64 *irq_ext;			/* extended */
	u32 *softirq_raw;		/* [vec * nr_cpu_ids + cpu] */
	u64 softirq_ext[NR_SOFTIRQS];
	u32 *arch_raw;			/* [row * nr_cpu_ids + cpu] */
	u64 *arch_ext;
	u64 intr_sum;
};

/* Messages being built: a multicast batch, or a snapshot for one socket. */
struct kstat_builder {
	struct sk_buff_head parts;	/* finished parts */
	struct sk_buff *skb;		/* the part being filled */
	void *hdr;
	struct nlattr *sample;		/* the open sample nest in skb */
	u64 batch_seq;
	u32 portid, seq;		/* of the requester, for a snapshot */
	bool snapshot;
	size_t sample_bytes;
};

/* One sample being written into a builder. */
struct kstat_writer {
	struct kstat_builder *b;
	const struct kstat_frame *f;
	const struct kstat_frame *base;	/* what a delta is against */
	const unsigned long *irqs;	/* the IRQs to write */
	const struct kstat_config *cfg;
	bool key, announce;
	struct kstat_irq_snap *snap;	/* per-CPU reads of one IRQ */
	unsigned int nr;		/* IRQ numbers covered */
};

struct kstat_producer {
	struct kstat_config cfg;	/* in force for the last sample */
	u64 cfg_gen;			/* the config generation announced */
	unsigned long next_tick;	/* jiffies of the next sample */
	bool primed;			/* *last holds a committed sample */
	bool need_key;			/* the next sample must be full */
	unsigned int batches;		/* batches since the last keyframe */
	unsigned int in_batch;		/* samples in the open batch */
	struct kstat_builder batch;

	unsigned int nr;		/* IRQ numbers covered */
	struct kstat_frame frames[2];
	struct kstat_frame *cur, *last;
	unsigned long *changed;		/* IRQs that go into a delta */
	unsigned long *renewed;		/* descriptor differs from *last */
	struct kstat_irq_snap *snap;
};

/* What one tick or request did, for the telemetry. */
struct kstat_tick {
	bool sampled, failed, key;
	size_t bytes;
	u64 start_ns;
	unsigned int sent, undelivered;
};

static DEFINE_MUTEX(kstat_prod_lock);
static DEFINE_MUTEX(kstat_send_lock);
static DEFINE_MUTEX(kstat_ctl_lock);

/* Under kstat_prod_lock. */
static struct kstat_producer *kstat_prod;
static u64 kstat_next_seq;		/* never reused while loaded */
static u32 kstat_generation;

/* Under kstat_ctl_lock. */
static struct kstat_config kstat_cfg;
static u64 kstat_cfg_gen;		/* bumped by every CONFIG_SET */
static struct kstat_summary_stats kstat_stats;

static bool kstat_shutdown;		/* set once, by kstat_summary_exit() */

static void kstat_summary_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(kstat_work, kstat_summary_work);

/* ---- frames --------------------------------------------------------------- */

static void kstat_frame_free_irqs(struct kstat_frame *f)
{
	kvfree(f->desc);
	kvfree(f->irq_raw);
	kvfree(f->irq_ext);
}

static void kstat_frame_free(struct kstat_frame *f)
{
	kstat_frame_free_irqs(f);
	bitmap_free(f->online);
	kvfree(f->cpu);
	kvfree(f->softirq_raw);
	kvfree(f->arch_raw);
	kfree(f->arch_ext);
}

static int kstat_frame_alloc(struct kstat_frame *f)
{
	unsigned int n = kstat_nr_arch_counters;

	f->online = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	f->cpu = kvcalloc(nr_cpu_ids + 1, sizeof(*f->cpu), GFP_KERNEL);
	f->softirq_raw = kvcalloc(NR_SOFTIRQS * nr_cpu_ids, sizeof(u32),
				  GFP_KERNEL);
	f->arch_raw = kvcalloc(max(n, 1U) * nr_cpu_ids, sizeof(u32),
			       GFP_KERNEL);
	f->arch_ext = kcalloc(max(n, 1U), sizeof(u64), GFP_KERNEL);
	if (!f->online || !f->cpu || !f->softirq_raw || !f->arch_raw ||
	    !f->arch_ext)
		return -ENOMEM;
	return 0;
}

/* Grow a frame's IRQ arrays to @nr numbers, keeping the first @old. */
static int kstat_frame_resize(struct kstat_frame *f, unsigned int old,
			      unsigned int nr)
{
	struct kstat_frame n = { };

	n.desc = kvcalloc(nr, sizeof(*n.desc), GFP_KERNEL);
	n.irq_raw = kvcalloc(nr, sizeof(u32), GFP_KERNEL);
	n.irq_ext = kvcalloc(nr, sizeof(u64), GFP_KERNEL);
	if (!n.desc || !n.irq_raw || !n.irq_ext) {
		kstat_frame_free_irqs(&n);
		return -ENOMEM;
	}
	if (old) {
		memcpy(n.desc, f->desc, old * sizeof(*n.desc));
		memcpy(n.irq_raw, f->irq_raw, old * sizeof(u32));
		memcpy(n.irq_ext, f->irq_ext, old * sizeof(u64));
	}
	kstat_frame_free_irqs(f);
	f->desc = n.desc;
	f->irq_raw = n.irq_raw;
	f->irq_ext = n.irq_ext;
	return 0;
}

/* Cover IRQ numbers below @nr (nr_irqs only grows). */
static int kstat_producer_resize(struct kstat_producer *p, unsigned int nr)
{
	unsigned long *changed, *renewed;

	changed = bitmap_zalloc(nr, GFP_KERNEL);
	renewed = bitmap_zalloc(nr, GFP_KERNEL);
	if (!changed || !renewed ||
	    kstat_frame_resize(&p->frames[0], p->nr, nr) ||
	    kstat_frame_resize(&p->frames[1], p->nr, nr)) {
		bitmap_free(changed);
		bitmap_free(renewed);
		return -ENOMEM;	/* a frame that grew keeps its old part */
	}
	bitmap_free(p->changed);
	bitmap_free(p->renewed);
	p->changed = changed;
	p->renewed = renewed;
	p->nr = nr;
	return 0;
}

/* ---- producer memory ------------------------------------------------------ */

static void kstat_builder_init(struct kstat_builder *b)
{
	memset(b, 0, sizeof(*b));
	__skb_queue_head_init(&b->parts);
}

static void kstat_builder_purge(struct kstat_builder *b)
{
	__skb_queue_purge(&b->parts);
	kfree_skb(b->skb);
	b->skb = NULL;
}

/* Drop the references *last holds; *cur holds none between samples. */
static void kstat_producer_free(struct kstat_producer *p)
{
	unsigned int irq;

	for (irq = 0; p->last && irq < p->nr; irq++)
		if (p->last->desc[irq])
			kstat_desc_release(p->last->desc[irq]);
	kstat_builder_purge(&p->batch);
	kstat_frame_free(&p->frames[0]);
	kstat_frame_free(&p->frames[1]);
	bitmap_free(p->changed);
	bitmap_free(p->renewed);
	kvfree(p->snap);
	kfree(p);
}

static struct kstat_producer *kstat_producer_alloc(void)
{
	struct kstat_producer *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	kstat_builder_init(&p->batch);
	p->cur = &p->frames[0];
	p->last = &p->frames[1];
	p->snap = kvzalloc(sizeof(*p->snap) + nr_cpu_ids * sizeof(u32),
			   GFP_KERNEL);
	if (!p->snap || kstat_frame_alloc(&p->frames[0]) ||
	    kstat_frame_alloc(&p->frames[1]) ||
	    kstat_producer_resize(p, nr_irqs)) {
		kstat_producer_free(p);
		return NULL;
	}
	p->snap->percpu = (u32 *)(p->snap + 1);
	p->next_tick = jiffies;
	return p;
}

/* ---- collecting a sample into *cur ---------------------------------------- */

/*
 * Every IRQ number's descriptor and count.  A descriptor that is not the
 * one *last holds gets a reference of its own and restarts its count; it
 * is marked renewed, so that commit or drop settles the references.
 */
static void kstat_collect_irqs(struct kstat_producer *p, unsigned int nr)
{
	struct kstat_frame *c = p->cur, *l = p->last;
	struct irq_desc *desc;
	unsigned int irq;
	u32 raw;

	bitmap_zero(p->changed, p->nr);
	bitmap_zero(p->renewed, p->nr);
	rcu_read_lock();
	for (irq = 0; irq < p->nr; irq++) {
		desc = irq < nr ? kstat_irq_to_desc(irq) : NULL;
		c->desc[irq] = desc;
		if (!desc)
			continue;
		raw = kstat_desc_count(desc);
		c->irq_raw[irq] = raw;
		if (p->primed && desc == l->desc[irq]) {
			c->irq_ext[irq] = l->irq_ext[irq] +
					  (u32)(raw - l->irq_raw[irq]);
			if (c->irq_ext[irq] != l->irq_ext[irq])
				__set_bit(irq, p->changed);
			continue;
		}
		kstat_desc_hold(desc);
		c->irq_ext[irq] = raw;
		__set_bit(irq, p->changed);
	}
	rcu_read_unlock();
	/* A descriptor that came, went or was replaced: a new generation. */
	for (irq = 0; irq < p->nr; irq++)
		if (c->desc[irq] != (p->primed ? l->desc[irq] : NULL))
			__set_bit(irq, p->renewed);
}

static void kstat_collect_cpus(struct kstat_frame *c)
{
	struct kstat_cputime *total = &c->cpu[nr_cpu_ids];
	unsigned int cpu, i;

	memset(total, 0, sizeof(*total));
	for_each_possible_cpu(cpu) {
		kstat_cputime_read(cpu, &c->cpu[cpu]);
		for (i = 0; i < KSTAT_CT_NR; i++)
			total->ns[i] += c->cpu[cpu].ns[i];
	}
	bitmap_copy(c->online, cpumask_bits(cpu_online_mask), nr_cpu_ids);
}

/* One row of per-CPU u32 counters, extended from *last's. */
static u64 kstat_collect_row(const struct kstat_producer *p, u32 *now,
			     const u32 *before, u64 base)
{
	return p->primed ? kstat_ext_advance(base, now, before, nr_cpu_ids) :
			   kstat_ext_start(now, nr_cpu_ids);
}

static void kstat_collect_softirqs(struct kstat_producer *p)
{
	struct kstat_frame *c = p->cur, *l = p->last;
	unsigned int vec, cpu;
	const u32 *before;
	u32 *row;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		row = c->softirq_raw + vec * nr_cpu_ids;
		before = l->softirq_raw + vec * nr_cpu_ids;
		for_each_possible_cpu(cpu)
			row[cpu] = kstat_softirq_cpu(vec, cpu);
		c->softirq_ext[vec] = kstat_collect_row(p, row, before,
							l->softirq_ext[vec]);
	}
}

/*
 * The arch rows, and /proc/stat's "intr" total built from the same reads:
 * the IRQs' per-CPU sums (unsigned long, which does not wrap on 64-bit)
 * plus the extended arch rows that count in it.
 */
static void kstat_collect_arch(struct kstat_producer *p)
{
	struct kstat_frame *c = p->cur, *l = p->last;
	const struct kstat_arch_counter *a;
	unsigned int i, cpu;
	const u32 *before;
	u32 *row;

	c->intr_sum = 0;
	for_each_possible_cpu(cpu)
		c->intr_sum += kstat_cpu_irqs_sum(cpu);
	for (i = 0; i < kstat_nr_arch_counters; i++) {
		a = &kstat_arch_counters[i];
		row = c->arch_raw + i * nr_cpu_ids;
		before = l->arch_raw + i * nr_cpu_ids;
		for_each_possible_cpu(cpu)
			row[cpu] = kstat_arch_read(a, cpu);
		c->arch_ext[i] = kstat_collect_row(p, row, before,
						   l->arch_ext[i]);
		if (a->in_intr_sum)
			c->intr_sum += c->arch_ext[i];
	}
}

/* Read every counter into *cur; true when the generation changed. */
static int kstat_collect(struct kstat_producer *p, bool *new_gen)
{
	unsigned int nr = nr_irqs;
	int err;

	if (nr > p->nr) {
		err = kstat_producer_resize(p, nr);
		if (err)
			return err;
	}
	kstat_collect_irqs(p, nr);
	kstat_collect_cpus(p->cur);
	kstat_collect_softirqs(p);
	kstat_collect_arch(p);
	*new_gen = !bitmap_empty(p->renewed, p->nr) ||
		   (p->primed && !bitmap_equal(p->cur->online, p->last->online,
					       nr_cpu_ids));
	return 0;
}

/* *cur becomes the base of the next delta; *last's extra references go. */
static void kstat_commit(struct kstat_producer *p)
{
	unsigned int irq;

	for_each_set_bit(irq, p->renewed, p->nr)
		if (p->primed && p->last->desc[irq])
			kstat_desc_release(p->last->desc[irq]);
	swap(p->cur, p->last);
	p->primed = true;
}

/* A sample that will not be sent: forget *cur and what it pinned. */
static void kstat_discard(struct kstat_producer *p)
{
	unsigned int irq;

	for_each_set_bit(irq, p->renewed, p->nr)
		if (p->cur->desc[irq])
			kstat_desc_release(p->cur->desc[irq]);
}

/* ---- messages: parts, samples and items ----------------------------------- */

static int kstat_part_new(struct kstat_builder *b)
{
	b->skb = kstat_summary_msg_new(KSTAT_PART_SIZE, b->portid, b->seq,
				       &b->hdr);
	if (!b->skb)
		return -ENOMEM;
	/* KSTAT_A_PARTS is patched in once the batch is complete. */
	if (nla_put_u64_64bit(b->skb, KSTAT_A_BATCH_SEQ, b->batch_seq,
			      KSTAT_A_PAD) ||
	    nla_put_u32(b->skb, KSTAT_A_PART, skb_queue_len(&b->parts)) ||
	    nla_put_u32(b->skb, KSTAT_A_PARTS, 0) ||
	    (b->snapshot && nla_put_flag(b->skb, KSTAT_A_SNAPSHOT))) {
		kfree_skb(b->skb);
		b->skb = NULL;
		return -EMSGSIZE;
	}
	return 0;
}

static void kstat_part_finish(struct kstat_builder *b)
{
	genlmsg_end(b->skb, b->hdr);
	__skb_queue_tail(&b->parts, b->skb);
	b->skb = NULL;
}

/* Close the batch: every part learns how many there are. */
static void kstat_builder_finish(struct kstat_builder *b)
{
	struct nlattr *parts;
	struct sk_buff *skb;
	u32 n;

	if (b->skb)
		kstat_part_finish(b);
	n = skb_queue_len(&b->parts);
	skb_queue_walk(&b->parts, skb) {
		parts = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
					KSTAT_A_PARTS);
		if (!WARN_ON_ONCE(!parts))
			*(u32 *)nla_data(parts) = n;
	}
}

/* Open a sample nest (or the next piece of a split one). */
static int kstat_sample_open(struct kstat_writer *w)
{
	struct sk_buff *skb = w->b->skb;
	unsigned char *mark = skb_tail_pointer(skb);
	const struct kstat_frame *f = w->f;

	w->b->sample = nla_nest_start(skb, KSTAT_A_SAMPLE);
	if (!w->b->sample ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_SEQ, f->seq,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_TIMESTAMP, f->ts,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, KSTAT_A_SAMPLE_GENERATION, f->generation) ||
	    (w->key && nla_put_flag(skb, KSTAT_A_SAMPLE_KEYFRAME)) ||
	    ((w->key || w->announce) &&
	     kstat_config_fill(skb, KSTAT_A_SAMPLE_CONFIG, w->cfg))) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	return 0;
}

static void kstat_sample_close(struct kstat_writer *w)
{
	nla_nest_end(w->b->skb, w->b->sample);
	w->b->sample_bytes += nla_total_size(nla_len(w->b->sample));
}

typedef int (*kstat_put_fn)(struct kstat_writer *w, unsigned int idx);

/*
 * Add one item to the open sample.  When the part is full, close this
 * piece of the sample and carry on in a new part.
 */
static int kstat_sample_put(struct kstat_writer *w, kstat_put_fn put,
			    unsigned int idx)
{
	int err = put(w, idx);

	if (err != -EMSGSIZE)
		return err;
	kstat_sample_close(w);
	kstat_part_finish(w->b);
	err = kstat_part_new(w->b) ?: kstat_sample_open(w);
	return err ?: put(w, idx);
}

static int kstat_put_cpu(struct kstat_writer *w, unsigned int cpu)
{
	return kstat_cpu_fill(w->b->skb, KSTAT_A_SAMPLE_CPU,
			      cpu == nr_cpu_ids ? -1 : cpu, &w->f->cpu[cpu]);
}

static int kstat_put_softirq(struct kstat_writer *w, unsigned int vec)
{
	const struct kstat_sel sel = { };

	return kstat_softirq_fill(w->b->skb, KSTAT_A_SAMPLE_SOFTIRQ, vec,
				  w->f->softirq_ext[vec], &sel);
}

static int kstat_put_irq(struct kstat_writer *w, unsigned int irq)
{
	struct kstat_sel sel = {
		.flags = w->cfg->percpu ? KSTAT_F_PERCPU : 0,
		.cpu_first = 0,
		.cpu_last = nr_cpu_ids - 1,
	};

	/* Per-CPU counts are read as the message is built. */
	if (sel.flags && kstat_irq_snapshot(irq, &sel, w->snap))
		sel.flags = 0;	/* freed since: totals only */
	w->snap->irq = irq;
	w->snap->count = w->f->irq_ext[irq];
	return kstat_irq_fill(w->b->skb, KSTAT_A_SAMPLE_IRQ, w->snap, &sel);
}

static int kstat_put_arch(struct kstat_writer *w, unsigned int i)
{
	const struct kstat_arch_counter *c = &kstat_arch_counters[i];
	struct sk_buff *skb = w->b->skb;
	struct nlattr *nest;

	nest = nla_nest_start(skb, KSTAT_A_SAMPLE_ARCH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KSTAT_A_ARCH_NAME, c->name) ||
	    (w->key && nla_put_string(skb, KSTAT_A_ARCH_DESC, c->desc)) ||
	    nla_put_u64_64bit(skb, KSTAT_A_ARCH_COUNT, w->f->arch_ext[i],
			      KSTAT_A_ARCH_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int kstat_put_intr_sum(struct kstat_writer *w, unsigned int unused)
{
	return nla_put_u64_64bit(w->b->skb, KSTAT_A_SAMPLE_INTR_SUM,
				 w->f->intr_sum, KSTAT_A_SAMPLE_PAD);
}

static int kstat_write_cpus(struct kstat_writer *w)
{
	unsigned int cpu;
	int err;

	for_each_set_bit(cpu, w->f->online, nr_cpu_ids) {
		err = kstat_sample_put(w, kstat_put_cpu, cpu);
		if (err)
			return err;
	}
	return kstat_sample_put(w, kstat_put_cpu, nr_cpu_ids);
}

static int kstat_write_softirqs(struct kstat_writer *w)
{
	unsigned int vec;
	int err;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		if (!w->key &&
		    w->f->softirq_ext[vec] == w->base->softirq_ext[vec])
			continue;
		err = kstat_sample_put(w, kstat_put_softirq, vec);
		if (err)
			return err;
	}
	return 0;
}

static int kstat_write_irqs(struct kstat_writer *w)
{
	unsigned int irq, i, n = kstat_nr_arch_counters;
	int err;

	for_each_set_bit(irq, w->irqs, w->nr) {
		err = kstat_sample_put(w, kstat_put_irq, irq);
		if (err)
			return err;
	}
	for (i = 0; i < n; i++) {
		if (!w->key && w->f->arch_ext[i] == w->base->arch_ext[i])
			continue;
		err = kstat_sample_put(w, kstat_put_arch, i);
		if (err)
			return err;
	}
	return kstat_sample_put(w, kstat_put_intr_sum, 0);
}

/* One whole sample, in as many parts as it takes. */
static int kstat_write_sample(struct kstat_writer *w)
{
	u32 s = w->cfg->sections;
	int err = 0;

	if (!w->b->skb)
		err = kstat_part_new(w->b);
	if (!err) {
		err = kstat_sample_open(w);
		if (err == -EMSGSIZE) {
			kstat_part_finish(w->b);
			err = kstat_part_new(w->b) ?: kstat_sample_open(w);
		}
	}
	if (!err && (s & KSTAT_SECTION_CPU))
		err = kstat_write_cpus(w);
	if (!err && (s & KSTAT_SECTION_SOFTIRQ))
		err = kstat_write_softirqs(w);
	if (!err && (s & KSTAT_SECTION_IRQ))
		err = kstat_write_irqs(w);
	if (!err)
		kstat_sample_close(w);
	return err;
}

/* IRQs present in a frame, for a keyframe: into p->changed. */
static void kstat_frame_present(struct kstat_producer *p,
				const struct kstat_frame *f)
{
	unsigned int irq;

	bitmap_zero(p->changed, p->nr);
	for (irq = 0; irq < p->nr; irq++)
		if (f->desc[irq])
			__set_bit(irq, p->changed);
}

/* ---- taking a sample -------------------------------------------------------- */

static void kstat_ctl_read(struct kstat_config *cfg, u64 *gen)
{
	mutex_lock(&kstat_ctl_lock);
	*cfg = kstat_cfg;
	*gen = kstat_cfg_gen;
	mutex_unlock(&kstat_ctl_lock);
}

/* The open batch is lost: subscribers see a seq gap, then a keyframe. */
static void kstat_batch_drop(struct kstat_producer *p)
{
	kstat_builder_purge(&p->batch);
	p->in_batch = 0;
	p->need_key = true;
}

/* Test-only fault injection, see fault_samples. */
static int kstat_fault(void)
{
	unsigned int n = READ_ONCE(fault_samples);

	if (!n)
		return 0;
	WRITE_ONCE(fault_samples, n - 1);
	return -ENOMEM;
}

/*
 * Take one sample into the open batch; when the batch is full, move its
 * parts to @out, to be multicast once kstat_prod_lock is dropped.
 */
static void kstat_sample_take(struct kstat_producer *p,
			      struct sk_buff_head *out, struct kstat_tick *t)
{
	struct kstat_writer w = { .b = &p->batch, .snap = p->snap };
	struct kstat_config cfg;
	bool new_gen = false;
	u64 cfg_gen;
	int err;

	kstat_ctl_read(&cfg, &cfg_gen);
	w.key = !p->primed || p->need_key ||
		cfg.sections != p->cfg.sections ||
		cfg.percpu != p->cfg.percpu ||
		(!p->in_batch && !p->batches);
	w.announce = cfg_gen != p->cfg_gen;
	if (!p->in_batch)
		p->batch.batch_seq = kstat_next_seq;
	p->cur->seq = kstat_next_seq++;
	p->cur->ts = ktime_get_boottime_ns();
	p->batch.sample_bytes = 0;

	err = kstat_collect(p, &new_gen);
	if (err) {
		kstat_batch_drop(p);	/* *cur is incomplete: nothing pinned */
		t->failed = true;
		return;
	}
	p->cur->generation = kstat_generation + new_gen;
	w.key |= new_gen;
	w.f = p->cur;
	w.base = p->last;
	w.cfg = &cfg;
	w.nr = p->nr;
	w.irqs = p->changed;
	if (w.key)
		kstat_frame_present(p, p->cur);
	err = kstat_fault() ?: kstat_write_sample(&w);
	if (err) {
		kstat_discard(p);
		kstat_batch_drop(p);
		t->failed = true;
		return;
	}
	kstat_commit(p);
	kstat_generation = p->last->generation;
	p->cfg = cfg;
	p->cfg_gen = cfg_gen;
	p->need_key = false;
	t->key = w.key;
	t->bytes = p->batch.sample_bytes;
	if (++p->in_batch < cfg.batch)
		return;
	kstat_builder_finish(&p->batch);
	skb_queue_splice_tail_init(&p->batch.parts, out);
	p->in_batch = 0;
	p->batches = (p->batches + 1) % cfg.keyframe;
}

/* The last committed sample as a keyframe, for one requester. */
static int kstat_snapshot_build(struct kstat_producer *p, u32 portid, u32 seq,
				struct sk_buff_head *out)
{
	struct kstat_builder b;
	struct kstat_writer w = {
		.b = &b, .f = p->last, .base = p->last, .cfg = &p->cfg,
		.key = true, .snap = p->snap, .nr = p->nr, .irqs = p->changed,
	};
	int err;

	kstat_builder_init(&b);
	b.batch_seq = p->last->seq;
	b.portid = portid;
	b.seq = seq;
	b.snapshot = true;
	kstat_frame_present(p, p->last);
	err = kstat_write_sample(&w);
	if (err) {
		kstat_builder_purge(&b);
		return err;
	}
	kstat_builder_finish(&b);
	skb_queue_splice_tail_init(&b.parts, out);
	return 0;
}

/* ---- sending ---------------------------------------------------------------- */

/* Under kstat_send_lock: multicast a finished batch, in order. */
static void kstat_send_batch(struct sk_buff_head *parts, struct kstat_tick *t)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(parts))) {
		/* ENOBUFS: some listener's receive queue was full. */
		if (kstat_summary_multicast(skb))
			t->undelivered++;
		t->sent++;
	}
}

static void kstat_account(const struct kstat_tick *t)
{
	u64 ns = ktime_get_ns() - t->start_ns;

	mutex_lock(&kstat_ctl_lock);
	kstat_stats.messages += t->sent;
	kstat_stats.delivery_failures += t->undelivered;
	if (t->sent)
		kstat_stats.summaries++;
	if (t->sampled) {
		kstat_stats.samples++;
		if (t->failed)
			kstat_stats.alloc_failures++;
		else if (t->key)
			kstat_stats.keyframe_bytes = t->bytes;
		else
			kstat_stats.delta_bytes = t->bytes;
		/* The whole cost of a sample, multicast included. */
		kstat_stats.build_ns_last = ns;
		kstat_stats.build_ns_max = max(kstat_stats.build_ns_max, ns);
		kstat_stats.build_ns_total += ns;
	}
	kstat_stats.generation = kstat_generation;
	mutex_unlock(&kstat_ctl_lock);
}

/* ---- the work item and its control ------------------------------------------ */

static void kstat_set_running(bool running)
{
	mutex_lock(&kstat_ctl_lock);
	kstat_stats.running = running;
	mutex_unlock(&kstat_ctl_lock);
}

/* Under kstat_prod_lock. */
static void kstat_producer_stop(void)
{
	if (!kstat_prod)
		return;
	kstat_producer_free(kstat_prod);
	kstat_prod = NULL;
	kstat_set_running(false);
}

/* Under kstat_prod_lock: the next tick, on the interval's grid. */
static void kstat_schedule_next(struct kstat_producer *p)
{
	long delay;

	p->next_tick += msecs_to_jiffies(p->cfg.interval_ms);
	delay = (long)(p->next_tick - jiffies);
	if (delay < 0) {
		p->next_tick = jiffies;
		delay = 0;
	}
	mod_delayed_work(system_wq, &kstat_work, delay);
}

/* Under kstat_prod_lock: a sample now, and the next one scheduled. */
static void kstat_tick(struct kstat_producer *p, struct sk_buff_head *out,
		       struct kstat_tick *t)
{
	t->sampled = true;
	kstat_sample_take(p, out, t);
	kstat_schedule_next(p);
}

static void kstat_summary_work(struct work_struct *work)
{
	struct kstat_tick t = { .start_ns = ktime_get_ns() };
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	mutex_lock(&kstat_prod_lock);
	if (!kstat_prod) {
		mutex_unlock(&kstat_prod_lock);
		return;
	}
	/* Checked every tick: the last listener leaving stops us. */
	if (READ_ONCE(kstat_shutdown) || !kstat_summary_has_listeners()) {
		kstat_producer_stop();
		mutex_unlock(&kstat_prod_lock);
		return;
	}
	kstat_tick(kstat_prod, &out, &t);
	mutex_lock(&kstat_send_lock);
	mutex_unlock(&kstat_prod_lock);
	kstat_send_batch(&out, &t);
	mutex_unlock(&kstat_send_lock);
	kstat_account(&t);
}

/* Under kstat_prod_lock: run the producer, its first sample taken now. */
static int kstat_producer_start(struct sk_buff_head *out, struct kstat_tick *t)
{
	if (!kstat_prod) {
		kstat_prod = kstat_producer_alloc();
		if (!kstat_prod)
			return -ENOMEM;
		kstat_set_running(true);
	}
	if (!kstat_prod->primed)
		kstat_tick(kstat_prod, out, t);
	return 0;
}

/*
 * KSTAT_CMD_SUBSCRIBE from @portid in @net: start the producer if it is
 * idle, and answer with the current state (see the UAPI header).
 */
int kstat_summary_subscribe(struct net *net, u32 portid, u32 seq,
			    struct netlink_ext_ack *extack)
{
	struct kstat_tick t = { .start_ns = ktime_get_ns() };
	struct sk_buff_head out, snap;
	int err;

	__skb_queue_head_init(&out);
	__skb_queue_head_init(&snap);
	mutex_lock(&kstat_prod_lock);
	if (READ_ONCE(kstat_shutdown)) {
		NL_SET_ERR_MSG(extack, "kstat is being unloaded");
		err = -ESHUTDOWN;
	} else if (!kstat_summary_has_listeners()) {
		NL_SET_ERR_MSG(extack,
			       "join the \"summary\" multicast group first");
		err = -ENOTCONN;
	} else {
		err = kstat_producer_start(&out, &t);
	}
	/*
	 * No snapshot when there is no committed sample (the first failed:
	 * the next is a keyframe), or when the first sample, just taken, is
	 * multicast below as a keyframe: the sender gets it that way.
	 */
	if (!err && kstat_prod->primed && skb_queue_empty(&out))
		err = kstat_snapshot_build(kstat_prod, portid, seq, &snap);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack, "no memory for the summary state");
	mutex_lock(&kstat_send_lock);
	mutex_unlock(&kstat_prod_lock);
	/* Before any multicast: a tick's ESRCH must not undo it. */
	if (!err)
		kstat_summary_net_subscribe(net);
	kstat_send_batch(&out, &t);
	if (!err && kstat_summary_unicast(&snap, net, portid)) {
		NL_SET_ERR_MSG(extack,
			       "the receive buffer cannot take the summary state");
		err = -ENOBUFS;
	}
	mutex_unlock(&kstat_send_lock);
	__skb_queue_purge(&snap);
	if (t.sampled || t.sent)
		kstat_account(&t);
	return err;
}

void kstat_summary_get_config(struct kstat_config *cfg)
{
	mutex_lock(&kstat_ctl_lock);
	*cfg = kstat_cfg;
	mutex_unlock(&kstat_ctl_lock);
}

/*
 * Merge the fields in @mask (KSTAT_CFG_*) under the lock, so that two
 * writers of different fields both win.  Takes effect from the next
 * sample on, which announces it.  That sample comes within the new
 * interval: a tick the old, longer interval set (up to an hour away) is
 * brought forward, else summaries would stall until then.
 */
void kstat_summary_update_config(const struct kstat_config *val, u32 mask)
{
	unsigned long delay, due;

	mutex_lock(&kstat_ctl_lock);
	if (mask & KSTAT_CFG_INTERVAL)
		kstat_cfg.interval_ms = val->interval_ms;
	if (mask & KSTAT_CFG_BATCH)
		kstat_cfg.batch = val->batch;
	if (mask & KSTAT_CFG_KEYFRAME)
		kstat_cfg.keyframe = val->keyframe;
	if (mask & KSTAT_CFG_SECTIONS)
		kstat_cfg.sections = val->sections;
	if (mask & KSTAT_CFG_PERCPU)
		kstat_cfg.percpu = val->percpu;
	kstat_cfg_gen++;
	delay = msecs_to_jiffies(kstat_cfg.interval_ms);
	mutex_unlock(&kstat_ctl_lock);

	mutex_lock(&kstat_prod_lock);
	due = jiffies + delay;
	if (kstat_prod && !READ_ONCE(kstat_shutdown) &&
	    time_before(due, kstat_prod->next_tick)) {
		kstat_prod->next_tick = due;
		mod_delayed_work(system_wq, &kstat_work, delay);
	}
	mutex_unlock(&kstat_prod_lock);
}

void kstat_summary_get_stats(struct kstat_summary_stats *st)
{
	mutex_lock(&kstat_ctl_lock);
	*st = kstat_stats;
	mutex_unlock(&kstat_ctl_lock);
}

/* Module parameters out of range fall back to the documented defaults. */
void kstat_summary_init(void)
{
	kstat_cfg = (struct kstat_config) {
		.interval_ms = clamp(interval_ms, KSTAT_INTERVAL_MIN_MS,
				     KSTAT_INTERVAL_MAX_MS),
		.batch = clamp(batch, 1U, KSTAT_BATCH_MAX),
		.keyframe = clamp(keyframe, 1U, KSTAT_KEYFRAME_MAX),
		.sections = sections & KSTAT_SECTION_ALL ?: KSTAT_SECTION_ALL,
		.percpu = percpu,
	};
}

/*
 * After this, no work runs and nothing is sent: then unregister.  With
 * kstat_shutdown set, nobody schedules the work or starts the producer
 * again once kstat_prod_lock has been taken here.
 */
void kstat_summary_exit(void)
{
	WRITE_ONCE(kstat_shutdown, true);
	mutex_lock(&kstat_prod_lock);
	kstat_producer_stop();
	mutex_unlock(&kstat_prod_lock);
	cancel_delayed_work_sync(&kstat_work);
	/* A SUBSCRIBE may still be sending what it took before. */
	mutex_lock(&kstat_send_lock);
	mutex_unlock(&kstat_send_lock);
}
