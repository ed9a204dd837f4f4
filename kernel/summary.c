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
 * Samples are deltas: an IRQ, softirq or arch counter that did not change
 * since the previous sample is left out.  Every `keyframe` batches, and
 * whenever the generation changes (IRQ descriptors or online CPUs
 * changed), a sample is full, so a subscriber can join or resync.
 *
 * IRQ totals are extended to 64 bits here: the kernel's are 32-bit, and
 * (u32)(now - before) added to the 64-bit value is exact as long as fewer
 * than 2^32 interrupts of one IRQ happen between two samples.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "kstat.h"

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

/* Room for one part of a batch; bigger batches are split into parts. */
#define KSTAT_PART_SIZE		(16 * 1024)

/* The open batch and what the producer remembers between samples. */
struct kstat_producer {
	struct kstat_config cfg;	/* in force for this sample */
	unsigned long next_tick;	/* jiffies of the next sample */
	bool primed;			/* a previous sample exists */
	bool key;			/* this sample is a keyframe */
	u64 seq;			/* this sample's seq */
	u64 ts;				/* and its CLOCK_BOOTTIME ns */
	unsigned int in_batch;		/* samples in the open batch */
	unsigned int batches;		/* batches since the last keyframe */

	unsigned int nr;		/* IRQ numbers covered below */
	u32 *raw, *prev_raw;		/* the kernel's 32-bit totals */
	u64 *ext;			/* extended to 64 bits */
	unsigned long *present, *prev_present, *changed;
	struct kstat_irq_snap *snap;	/* per-CPU reads of one IRQ */

	u64 softirq_now[NR_SOFTIRQS], softirq_prev[NR_SOFTIRQS];
	u64 *arch_now, *arch_prev;

	struct sk_buff_head parts;	/* finished parts of the batch */
	struct sk_buff *skb;		/* the part being filled */
	void *hdr;
	struct nlattr *sample;		/* the open sample nest in skb */
	u64 batch_seq;
	size_t sample_bytes;
};

/* All of the following is serialised by kstat_summary_lock. */
static DEFINE_MUTEX(kstat_summary_lock);
static struct kstat_config kstat_cfg;
static bool kstat_cfg_changed;		/* announce it in the next sample */
static bool kstat_shutdown;
static struct kstat_summary_stats kstat_stats;
static struct kstat_producer *kstat_prod;
static u64 kstat_next_seq;		/* never reused while loaded */
static u32 kstat_fingerprint;		/* of the IRQ set and online CPUs */

static void kstat_summary_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(kstat_work, kstat_summary_work);

/* ---- producer memory ---------------------------------------------------- */

static void kstat_irq_arrays_free(struct kstat_producer *p)
{
	kvfree(p->raw);
	kvfree(p->prev_raw);
	kvfree(p->ext);
	bitmap_free(p->present);
	bitmap_free(p->prev_present);
	bitmap_free(p->changed);
}

/* Cover IRQ numbers below @nr, keeping what is known of the old ones. */
static int kstat_irq_arrays_resize(struct kstat_producer *p, unsigned int nr)
{
	struct kstat_producer n = { };

	n.raw = kvcalloc(nr, sizeof(u32), GFP_KERNEL);
	n.prev_raw = kvcalloc(nr, sizeof(u32), GFP_KERNEL);
	n.ext = kvcalloc(nr, sizeof(u64), GFP_KERNEL);
	n.present = bitmap_zalloc(nr, GFP_KERNEL);
	n.prev_present = bitmap_zalloc(nr, GFP_KERNEL);
	n.changed = bitmap_zalloc(nr, GFP_KERNEL);
	if (!n.raw || !n.prev_raw || !n.ext || !n.present || !n.prev_present ||
	    !n.changed) {
		kstat_irq_arrays_free(&n);
		return -ENOMEM;
	}
	if (p->nr) {
		memcpy(n.prev_raw, p->prev_raw, p->nr * sizeof(u32));
		memcpy(n.ext, p->ext, p->nr * sizeof(u64));
		bitmap_copy(n.prev_present, p->prev_present, p->nr);
	}
	kstat_irq_arrays_free(p);
	p->raw = n.raw;
	p->prev_raw = n.prev_raw;
	p->ext = n.ext;
	p->present = n.present;
	p->prev_present = n.prev_present;
	p->changed = n.changed;
	p->nr = nr;
	return 0;
}

static void kstat_producer_free(struct kstat_producer *p)
{
	__skb_queue_purge(&p->parts);
	kfree_skb(p->skb);
	kstat_irq_arrays_free(p);
	kvfree(p->snap);
	kfree(p->arch_now);
	kfree(p->arch_prev);
	kfree(p);
}

static struct kstat_producer *kstat_producer_alloc(void)
{
	struct kstat_producer *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	__skb_queue_head_init(&p->parts);
	p->snap = kvzalloc(sizeof(*p->snap) + nr_cpu_ids * sizeof(u32),
			   GFP_KERNEL);
	p->arch_now = kcalloc(kstat_nr_arch_counters + 1, sizeof(u64),
			      GFP_KERNEL);
	p->arch_prev = kcalloc(kstat_nr_arch_counters + 1, sizeof(u64),
			       GFP_KERNEL);
	if (!p->snap || !p->arch_now || !p->arch_prev ||
	    kstat_irq_arrays_resize(p, nr_irqs)) {
		kstat_producer_free(p);
		return NULL;
	}
	p->snap->percpu = (u32 *)(p->snap + 1);
	p->next_tick = jiffies;
	return p;
}

/* ---- collecting a sample ------------------------------------------------ */

/* Read every counter the sample may carry; note what changed. */
static int kstat_sample_collect(struct kstat_producer *p)
{
	unsigned int irq, vec, i, nr = nr_irqs;
	u32 fp;
	int err;

	if (nr > p->nr) {
		err = kstat_irq_arrays_resize(p, nr);
		if (err)
			return err;
	}
	fp = kstat_irq_scan(p->raw, p->present, nr);
	fp = jhash(cpumask_bits(cpu_online_mask),
		   BITS_TO_LONGS(nr_cpu_ids) * sizeof(long), fp);

	bitmap_zero(p->changed, p->nr);
	for_each_set_bit(irq, p->present, nr) {
		u64 before = p->ext[irq];

		if (test_bit(irq, p->prev_present))
			p->ext[irq] += (u32)(p->raw[irq] - p->prev_raw[irq]);
		else
			p->ext[irq] = p->raw[irq];
		if (p->ext[irq] != before || !test_bit(irq, p->prev_present))
			__set_bit(irq, p->changed);
	}
	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		p->softirq_now[vec] = kstat_softirq_total(vec);
	for (i = 0; i < kstat_nr_arch_counters; i++)
		p->arch_now[i] = kstat_arch_total(&kstat_arch_counters[i]);
	p->arch_now[kstat_nr_arch_counters] = kstat_intr_sum();

	if (fp != kstat_fingerprint) {
		kstat_fingerprint = fp;
		kstat_stats.generation++;
		p->key = true;
	}
	return 0;
}

/* Remember this sample as the base of the next delta. */
static void kstat_sample_commit(struct kstat_producer *p)
{
	swap(p->raw, p->prev_raw);
	swap(p->present, p->prev_present);
	memcpy(p->softirq_prev, p->softirq_now, sizeof(p->softirq_now));
	memcpy(p->arch_prev, p->arch_now,
	       (kstat_nr_arch_counters + 1) * sizeof(u64));
	p->primed = true;
}

/* ---- parts, samples and items ------------------------------------------- */

static int kstat_part_new(struct kstat_producer *p)
{
	p->skb = kstat_summary_msg_new(KSTAT_PART_SIZE, &p->hdr);
	if (!p->skb)
		return -ENOMEM;
	/* KSTAT_A_PARTS is patched in once the batch is complete. */
	if (nla_put_u64_64bit(p->skb, KSTAT_A_BATCH_SEQ, p->batch_seq,
			      KSTAT_A_PAD) ||
	    nla_put_u32(p->skb, KSTAT_A_PART, skb_queue_len(&p->parts)) ||
	    nla_put_u32(p->skb, KSTAT_A_PARTS, 0)) {
		kfree_skb(p->skb);
		p->skb = NULL;
		return -EMSGSIZE;
	}
	return 0;
}

static void kstat_part_finish(struct kstat_producer *p)
{
	genlmsg_end(p->skb, p->hdr);
	__skb_queue_tail(&p->parts, p->skb);
	p->skb = NULL;
}

/* Open a sample nest (or the next piece of a split one) in p->skb. */
static int kstat_sample_open(struct kstat_producer *p)
{
	struct sk_buff *skb = p->skb;
	unsigned char *mark = skb_tail_pointer(skb);

	p->sample = nla_nest_start(skb, KSTAT_A_SAMPLE);
	if (!p->sample ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_SEQ, p->seq,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u64_64bit(skb, KSTAT_A_SAMPLE_TIMESTAMP, p->ts,
			      KSTAT_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, KSTAT_A_SAMPLE_GENERATION,
			kstat_stats.generation) ||
	    (p->key && nla_put_flag(skb, KSTAT_A_SAMPLE_KEYFRAME)) ||
	    ((p->key || kstat_cfg_changed) &&
	     kstat_config_fill(skb, KSTAT_A_SAMPLE_CONFIG, &p->cfg))) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	return 0;
}

static void kstat_sample_close(struct kstat_producer *p)
{
	nla_nest_end(p->skb, p->sample);
	p->sample_bytes += nla_total_size(nla_len(p->sample));
}

typedef int (*kstat_put_fn)(struct kstat_producer *p, unsigned int idx);

/*
 * Add one item to the open sample.  When the part is full, close this
 * piece of the sample and carry on in a new part.
 */
static int kstat_sample_put(struct kstat_producer *p, kstat_put_fn put,
			    unsigned int idx)
{
	int err = put(p, idx);

	if (err != -EMSGSIZE)
		return err;
	kstat_sample_close(p);
	kstat_part_finish(p);
	err = kstat_part_new(p) ?: kstat_sample_open(p);
	return err ?: put(p, idx);
}

static int kstat_put_cpu(struct kstat_producer *p, unsigned int cpu)
{
	struct kstat_cputime ct;

	if (cpu == nr_cpu_ids) {
		kstat_cputime_read_total(&ct);
		return kstat_cpu_fill(p->skb, KSTAT_A_SAMPLE_CPU, -1, &ct);
	}
	kstat_cputime_read(cpu, &ct);
	return kstat_cpu_fill(p->skb, KSTAT_A_SAMPLE_CPU, cpu, &ct);
}

static int kstat_put_softirq(struct kstat_producer *p, unsigned int vec)
{
	const struct kstat_sel sel = { };

	/* the total read by kstat_sample_collect(), not read again */
	return kstat_softirq_fill(p->skb, KSTAT_A_SAMPLE_SOFTIRQ, vec,
				  p->softirq_now[vec], &sel);
}

static int kstat_put_irq(struct kstat_producer *p, unsigned int irq)
{
	struct kstat_sel sel = {
		.flags = p->cfg.percpu ? KSTAT_F_PERCPU : 0,
		.cpu_first = 0,
		.cpu_last = nr_cpu_ids - 1,
	};

	/* Per-CPU counts are read now; the total is the extended one. */
	if (sel.flags && kstat_irq_snapshot(irq, &sel, p->snap))
		sel.flags = 0;	/* freed since the scan: totals only */
	p->snap->irq = irq;
	p->snap->count = p->ext[irq];
	return kstat_irq_fill(p->skb, KSTAT_A_SAMPLE_IRQ, p->snap, &sel);
}

static int kstat_put_arch(struct kstat_producer *p, unsigned int i)
{
	const struct kstat_arch_counter *c = &kstat_arch_counters[i];
	struct sk_buff *skb = p->skb;
	struct nlattr *nest;

	nest = nla_nest_start(skb, KSTAT_A_SAMPLE_ARCH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KSTAT_A_ARCH_NAME, c->name) ||
	    (p->key && nla_put_string(skb, KSTAT_A_ARCH_DESC, c->desc)) ||
	    nla_put_u64_64bit(skb, KSTAT_A_ARCH_COUNT, p->arch_now[i],
			      KSTAT_A_ARCH_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int kstat_put_intr_sum(struct kstat_producer *p, unsigned int i)
{
	return nla_put_u64_64bit(p->skb, KSTAT_A_SAMPLE_INTR_SUM,
				 p->arch_now[i], KSTAT_A_SAMPLE_PAD);
}

static int kstat_sample_cpus(struct kstat_producer *p)
{
	unsigned int cpu;
	int err;

	for_each_online_cpu(cpu) {
		err = kstat_sample_put(p, kstat_put_cpu, cpu);
		if (err)
			return err;
	}
	return kstat_sample_put(p, kstat_put_cpu, nr_cpu_ids);
}

static int kstat_sample_softirqs(struct kstat_producer *p)
{
	unsigned int vec;
	int err;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		if (!p->key && p->softirq_now[vec] == p->softirq_prev[vec])
			continue;
		err = kstat_sample_put(p, kstat_put_softirq, vec);
		if (err)
			return err;
	}
	return 0;
}

static int kstat_sample_irqs(struct kstat_producer *p)
{
	unsigned long *which = p->key ? p->present : p->changed;
	unsigned int irq, i, n = kstat_nr_arch_counters;
	int err;

	for_each_set_bit(irq, which, p->nr) {
		err = kstat_sample_put(p, kstat_put_irq, irq);
		if (err)
			return err;
	}
	for (i = 0; i < n; i++) {
		if (!p->key && p->arch_now[i] == p->arch_prev[i])
			continue;
		err = kstat_sample_put(p, kstat_put_arch, i);
		if (err)
			return err;
	}
	return kstat_sample_put(p, kstat_put_intr_sum, n);
}

static int kstat_sample_fill(struct kstat_producer *p)
{
	u32 s = p->cfg.sections;
	int err;

	if (!p->skb) {
		err = kstat_part_new(p);
		if (err)
			return err;
	}
	err = kstat_sample_open(p);
	if (err == -EMSGSIZE) {
		kstat_part_finish(p);
		err = kstat_part_new(p) ?: kstat_sample_open(p);
	}
	if (!err && (s & KSTAT_SECTION_CPU))
		err = kstat_sample_cpus(p);
	if (!err && (s & KSTAT_SECTION_SOFTIRQ))
		err = kstat_sample_softirqs(p);
	if (!err && (s & KSTAT_SECTION_IRQ))
		err = kstat_sample_irqs(p);
	if (!err)
		kstat_sample_close(p);
	return err;
}

/* ---- batches -------------------------------------------------------------- */

static void kstat_batch_drop(struct kstat_producer *p)
{
	__skb_queue_purge(&p->parts);
	kfree_skb(p->skb);
	p->skb = NULL;
	p->in_batch = 0;
	p->primed = false;	/* subscribers see a seq gap: resync fully */
	kstat_stats.alloc_failures++;
}

static void kstat_batch_send(struct kstat_producer *p)
{
	struct sk_buff *skb;
	u32 n;
	struct nlattr *parts;

	if (p->skb)
		kstat_part_finish(p);
	n = skb_queue_len(&p->parts);
	/*
	 * Queue every part before any subscriber runs: woken by the first
	 * part, 64 subscribers would otherwise preempt us between parts.
	 * Clones of a built skb are all multicast needs, so GFP_ATOMIC.
	 */
	preempt_disable();
	while ((skb = __skb_dequeue(&p->parts))) {
		parts = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
					KSTAT_A_PARTS);
		if (!WARN_ON_ONCE(!parts))
			*(u32 *)nla_data(parts) = n;
		/* ENOBUFS: some listener's receive queue was full. */
		if (kstat_summary_multicast(skb, GFP_ATOMIC) == -ENOBUFS)
			kstat_stats.delivery_failures++;
		kstat_stats.messages++;
	}
	preempt_enable();
	kstat_stats.summaries++;
	p->in_batch = 0;
	p->batches = (p->batches + 1) % p->cfg.keyframe;
}

static void kstat_sample_take(struct kstat_producer *p)
{
	bool content_changed;
	u64 t0 = ktime_get_ns(), ns;
	int err;

	content_changed = p->cfg.sections != kstat_cfg.sections ||
			  p->cfg.percpu != kstat_cfg.percpu;
	p->cfg = kstat_cfg;
	if (!p->in_batch)
		p->batch_seq = kstat_next_seq;
	p->key = !p->primed || content_changed ||
		 (!p->in_batch && !p->batches);
	p->seq = kstat_next_seq++;
	p->ts = ktime_get_boottime_ns();
	p->sample_bytes = 0;

	err = kstat_sample_collect(p) ?: kstat_sample_fill(p);
	kstat_stats.samples++;
	if (err) {
		kstat_batch_drop(p);
		return;
	}
	kstat_sample_commit(p);
	kstat_cfg_changed = false;
	if (p->key)
		kstat_stats.keyframe_bytes = p->sample_bytes;
	else
		kstat_stats.delta_bytes = p->sample_bytes;

	if (++p->in_batch >= p->cfg.batch)
		kstat_batch_send(p);

	/* The whole cost of a sample, multicast to every listener included. */
	ns = ktime_get_ns() - t0;
	kstat_stats.build_ns_last = ns;
	kstat_stats.build_ns_max = max(kstat_stats.build_ns_max, ns);
	kstat_stats.build_ns_total += ns;
}

/* ---- the work item and its control ------------------------------------- */

static void kstat_producer_stop(void)
{
	if (!kstat_prod)
		return;
	kstat_producer_free(kstat_prod);
	kstat_prod = NULL;
	kstat_stats.running = false;
}

static void kstat_summary_work(struct work_struct *work)
{
	struct kstat_producer *p;
	long delay;

	mutex_lock(&kstat_summary_lock);
	p = kstat_prod;
	if (!p)
		goto out;
	/* Checked every tick: the last listener leaving stops us. */
	if (kstat_shutdown || !kstat_summary_has_listeners()) {
		kstat_producer_stop();
		goto out;
	}
	kstat_sample_take(p);

	/* Keep to the interval's grid rather than drift by build time. */
	p->next_tick += msecs_to_jiffies(p->cfg.interval_ms);
	delay = (long)(p->next_tick - jiffies);
	if (delay < 0) {
		p->next_tick = jiffies;
		delay = 0;
	}
	schedule_delayed_work(&kstat_work, delay);
out:
	mutex_unlock(&kstat_summary_lock);
}

int kstat_summary_kick(void)
{
	int err = 0;

	mutex_lock(&kstat_summary_lock);
	if (kstat_shutdown) {
		err = -ESHUTDOWN;
	} else if (!kstat_summary_has_listeners()) {
		err = -ENOTCONN;
	} else if (!kstat_prod) {
		kstat_prod = kstat_producer_alloc();
		if (kstat_prod) {
			kstat_stats.running = true;
			schedule_delayed_work(&kstat_work, 0);
		} else {
			err = -ENOMEM;
		}
	}
	mutex_unlock(&kstat_summary_lock);
	return err;
}

void kstat_summary_get_config(struct kstat_config *cfg)
{
	mutex_lock(&kstat_summary_lock);
	*cfg = kstat_cfg;
	mutex_unlock(&kstat_summary_lock);
}

/*
 * Takes effect from the next sample on, which announces it.  That sample
 * comes within the new interval: a tick the old, longer interval set
 * (up to an hour away) is brought forward, else summaries would stall
 * until then, and SUBSCRIBE, seeing the producer running, could not help.
 */
void kstat_summary_set_config(const struct kstat_config *cfg)
{
	unsigned long delay, due;

	mutex_lock(&kstat_summary_lock);
	kstat_cfg = *cfg;
	kstat_cfg_changed = true;
	delay = msecs_to_jiffies(cfg->interval_ms);
	due = jiffies + delay;
	if (kstat_prod && !kstat_shutdown &&
	    time_before(due, kstat_prod->next_tick)) {
		kstat_prod->next_tick = due;
		mod_delayed_work(system_wq, &kstat_work, delay);
	}
	mutex_unlock(&kstat_summary_lock);
}

void kstat_summary_get_stats(struct kstat_summary_stats *st)
{
	mutex_lock(&kstat_summary_lock);
	*st = kstat_stats;
	mutex_unlock(&kstat_summary_lock);
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

/* After this, no work runs and nothing is sent: then unregister. */
void kstat_summary_exit(void)
{
	mutex_lock(&kstat_summary_lock);
	kstat_shutdown = true;
	mutex_unlock(&kstat_summary_lock);

	cancel_delayed_work_sync(&kstat_work);

	mutex_lock(&kstat_summary_lock);
	kstat_producer_stop();
	mutex_unlock(&kstat_summary_lock);
}
