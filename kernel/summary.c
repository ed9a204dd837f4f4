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
 * A sample is collected into a frame, one state per section (the table
 * kst_sections[]), built into messages from it (sample.c), and only then
 * committed: the frame becomes the base of the next delta.  A sample that
 * fails on the way changes nothing, so every increment reaches
 * subscribers exactly once.  The last committed frame is also what
 * SUBSCRIBE answers with: a late joiner gets the whole state at once,
 * unicast, and the others pay nothing for it.  What a section keeps, and
 * how it keys and extends its counts, is its own business (cpu.c,
 * softirq.c, irq.c, arch.c).
 *
 * Locks, always taken in this order:
 *   kst_prod_lock  the producer and its frames;
 *   kst_send_lock  taken before kst_prod_lock is dropped, so messages
 *                  leave in the order their frames were taken, while
 *                  the producer's lock is free for the next request;
 *   kst_ctl_lock   configuration and telemetry, held only for copies,
 *                  so CONFIG_GET and STATS_GET never wait for a sample.
 * Nothing here runs with preemption disabled: on PREEMPT_RT,
 * netlink_broadcast() and skb_clone() may sleep.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>

#include "kst.h"

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

/* The counters of one sample, complete: one state per section. */
struct kst_frame {
	u64 seq;
	u64 ts;				/* CLOCK_BOOTTIME ns */
	u32 generation;
	void **state;			/* one per section, as kst_sections[] */
};

struct kst_producer {
	struct kst_config cfg;		/* in force for the last sample */
	u64 cfg_gen;			/* the config generation announced */
	unsigned int interval_ms;	/* of the last attempt, failed or not */
	u64 base_ns;			/* CLOCK_MONOTONIC of *last's reading */
	unsigned long next_tick;	/* jiffies of the next sample */
	bool primed;			/* *last holds a committed sample */
	u32 tracked;			/* KSTAT_SECTION_* *last holds */
	bool need_key;			/* the next sample must be full */
	unsigned int batches;		/* batches since the last keyframe */
	unsigned int in_batch;		/* samples in the open batch */
	struct kst_builder batch;
	struct kst_frame frames[2];
	struct kst_frame *cur, *last;
};

/* What one tick or request did, for the telemetry. */
struct kst_tick {
	bool sampled, failed, key;
	size_t bytes;
	u64 start_ns;
	unsigned int sent, undelivered;
};

static DEFINE_MUTEX(kst_prod_lock);
static DEFINE_MUTEX(kst_send_lock);
static DEFINE_MUTEX(kst_ctl_lock);

/* Under kst_prod_lock. */
static struct kst_producer *kst_prod;
static u64 kst_next_seq;		/* never reused while loaded */
static u32 kst_generation;

/* Under kst_ctl_lock. */
static struct kst_config kst_cfg;
static u64 kst_cfg_gen;			/* bumped by every CONFIG_SET */
static struct kst_summary_stats kst_stats;

static bool kst_shutdown;		/* set once, by kst_summary_exit() */

static void kst_summary_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(kst_work, kst_summary_work);

/* ---- frames ----------------------------------------------------------- */

/*
 * @committed: KSTAT_SECTION_* whose state in @f is committed, holding
 * what it pinned; the others hold nothing of their own.
 */
static void kst_frame_free(struct kst_frame *f, u32 committed)
{
	const struct kst_section *s;
	unsigned int i;

	for (i = 0; f->state && i < kst_nr_sections; i++) {
		s = kst_sections[i];
		s->state_free(f->state[i], s->sections & committed);
	}
	kfree(f->state);
}

static int kst_frame_alloc(struct kst_frame *f)
{
	unsigned int i;

	f->state = kcalloc(kst_nr_sections, sizeof(*f->state), GFP_KERNEL);
	if (!f->state)
		return -ENOMEM;
	for (i = 0; i < kst_nr_sections; i++) {
		f->state[i] = kst_sections[i]->state_alloc();
		if (!f->state[i])
			return -ENOMEM;
	}
	return 0;
}

static void kst_producer_free(struct kst_producer *p)
{
	kst_builder_purge(&p->batch);
	/* Sections out of the config have no committed state (untrack). */
	kst_frame_free(p->last, p->primed ? p->tracked : 0);
	kst_frame_free(p->cur, 0);
	kfree(p);
}

static struct kst_producer *kst_producer_alloc(void)
{
	struct kst_producer *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	kst_builder_init(&p->batch);
	p->cur = &p->frames[0];
	p->last = &p->frames[1];
	if (kst_frame_alloc(&p->frames[0]) || kst_frame_alloc(&p->frames[1])) {
		kst_producer_free(p);
		return NULL;
	}
	p->next_tick = jiffies;
	return p;
}

/* ---- collect, commit, discard ----------------------------------------- */

/*
 * Only the sections of the config are collected: a section outside it
 * costs nothing per tick, and its renewals (IRQ descriptors coming and
 * going) force no keyframe.  A section that leaves the config lets go of
 * its committed state (and the descriptors it pins); one that comes back
 * starts again from the kernel's counters, in a keyframe.
 */
static bool kst_wanted(const struct kst_section *s, u32 sections)
{
	return s->sections & sections;
}

/* The committed state of section @i, or NULL if there is none. */
static void *kst_last_state(struct kst_producer *p, unsigned int i)
{
	return p->primed && kst_wanted(kst_sections[i], p->tracked) ?
	       p->last->state[i] : NULL;
}

/* A sample that will not be sent: its first @n sections let go. */
static void kst_discard_sections(struct kst_producer *p, unsigned int n,
				 u32 sections)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (kst_sections[i]->discard &&
		    kst_wanted(kst_sections[i], sections))
			kst_sections[i]->discard(p->cur->state[i]);
}

/*
 * Sections tracked but no longer wanted: free the committed state, with
 * what it pins, for a fresh one.  Nothing is collected into it until the
 * section is wanted again, and then from the start.
 */
static void kst_untrack(struct kst_producer *p, u32 sections)
{
	u32 drop = p->tracked & ~sections;
	const struct kst_section *s;
	unsigned int i;

	p->tracked &= sections;
	for (i = 0; i < kst_nr_sections; i++) {
		s = kst_sections[i];
		if (!kst_wanted(s, drop))
			continue;
		s->state_free(p->last->state[i], p->primed);
		/* NULL on failure: kst_collect() allocates it when wanted */
		p->last->state[i] = s->state_alloc();
	}
}

/* Read the counters of cfg->sections into *cur; *new_gen: one was renewed. */
static int kst_collect(struct kst_producer *p, const struct kst_config *cfg,
		       bool *new_gen)
{
	const struct kst_section *s;
	bool renewed;
	unsigned int i;
	int err = 0;

	*new_gen = false;
	kst_untrack(p, cfg->sections);
	for (i = 0; !err && i < kst_nr_sections; i++) {
		s = kst_sections[i];
		if (!kst_wanted(s, cfg->sections))
			continue;
		/* state_alloc() failed in kst_untrack() of an earlier tick */
		if (!p->cur->state[i])
			p->cur->state[i] = s->state_alloc();
		err = p->cur->state[i] ?
		      s->collect(p->cur->state[i], kst_last_state(p, i), cfg,
				 &renewed) : -ENOMEM;
		if (err) {
			kst_discard_sections(p, i, cfg->sections);
			break;
		}
		*new_gen |= renewed;
	}
	return err;
}

/* *cur, holding @sections, becomes the base of the next delta. */
static void kst_commit(struct kst_producer *p, u32 sections)
{
	unsigned int i;

	for (i = 0; i < kst_nr_sections; i++)
		if (kst_sections[i]->commit &&
		    kst_wanted(kst_sections[i], sections))
			kst_sections[i]->commit(p->cur->state[i],
						kst_last_state(p, i));
	swap(p->cur, p->last);
	p->primed = true;
	p->tracked = sections;
	p->base_ns = ktime_get_ns();
}

/* One whole sample of @f against @base, in as many parts as it takes. */
static int kst_write_sample(struct kst_builder *b,
			    const struct kst_sample_head *h,
			    const struct kst_frame *f,
			    const struct kst_frame *base)
{
	struct kst_writer w = { .b = b, .h = h };
	const struct kst_section *s;
	unsigned int i;
	int err;

	err = kst_sample_begin(&w);
	for (i = 0; !err && i < kst_nr_sections; i++) {
		s = kst_sections[i];
		if (h->cfg->sections & s->sections)
			err = s->write(&w, f->state[i], base->state[i]);
	}
	if (!err)
		kst_sample_end(&w);
	return err;
}

/* ---- taking a sample -------------------------------------------------------- */

static void kst_ctl_read(struct kst_config *cfg, u64 *gen)
{
	mutex_lock(&kst_ctl_lock);
	*cfg = kst_cfg;
	*gen = kst_cfg_gen;
	mutex_unlock(&kst_ctl_lock);
}

/* The open batch is lost: subscribers see a seq gap, then a keyframe. */
static void kst_batch_drop(struct kst_producer *p)
{
	kst_builder_purge(&p->batch);
	p->in_batch = 0;
	p->need_key = true;
}

/* Test-only fault injection, see fault_samples. */
static int kst_fault(void)
{
	unsigned int n = READ_ONCE(fault_samples);

	if (!n)
		return 0;
	WRITE_ONCE(fault_samples, n - 1);
	return -ENOMEM;
}

/*
 * The counters are extended by (u32)(now - before), exact while fewer
 * than 2^32 events of one counter happen between two readings.  Every
 * attempt that collects commits, so readings are at most an interval
 * apart (KSTAT_INTERVAL_MAX_MS); only failures to collect (no memory)
 * age the base.  One older than KSTAT_HORIZON_MS is not extended: the
 * producer starts its counts again from the kernel's, in a keyframe of
 * a new generation, rather than carry a count that may have wrapped.
 */
static void kst_age_base(struct kst_producer *p)
{
	/* Monotonic, not boot time: counters stand still in a suspend. */
	if (!p->primed || ktime_get_ns() - p->base_ns <=
			  (u64)KSTAT_HORIZON_MS * NSEC_PER_MSEC)
		return;
	kst_untrack(p, 0);
	p->primed = false;
	p->need_key = true;
}

/*
 * Take one sample into the open batch; when the batch is full, move its
 * parts to @out, to be multicast once kst_prod_lock is dropped.
 */
static void kst_sample_take(struct kst_producer *p,
			    struct sk_buff_head *out, struct kst_tick *t)
{
	struct kst_sample_head h = { };
	struct kst_config cfg;
	bool new_gen = false;
	u64 cfg_gen;
	int err;

	kst_ctl_read(&cfg, &cfg_gen);
	/* The next attempt is one interval away, whatever this one does. */
	p->interval_ms = cfg.interval_ms;
	if (!p->in_batch)
		p->batch.batch_seq = kst_next_seq;
	p->cur->seq = kst_next_seq++;
	p->cur->ts = ktime_get_boottime_ns();
	kst_age_base(p);
	h.key = !p->primed || p->need_key ||
		cfg.sections != p->cfg.sections ||
		cfg.percpu != p->cfg.percpu ||
		(!p->in_batch && !p->batches);
	h.announce = cfg_gen != p->cfg_gen;
	h.cfg = &cfg;

	err = kst_collect(p, &cfg, &new_gen);
	if (err) {
		kst_batch_drop(p);	/* *cur is incomplete: nothing pinned */
		t->failed = true;
		return;
	}
	p->cur->generation = kst_generation + new_gen;
	h.key |= new_gen;
	h.seq = p->cur->seq;
	h.ts = p->cur->ts;
	h.generation = p->cur->generation;
	err = kst_fault() ?: kst_write_sample(&p->batch, &h, p->cur, p->last);
	/*
	 * Committed even when it cannot be sent: a dropped sample makes the
	 * next one a keyframe, which needs no base, and the counters are
	 * extended from this reading, not from an older one (see
	 * KSTAT_HORIZON_MS).
	 */
	kst_commit(p, cfg.sections);
	kst_generation = p->last->generation;
	p->cfg = cfg;
	p->cfg_gen = cfg_gen;
	if (err) {
		kst_batch_drop(p);
		t->failed = true;
		return;
	}
	p->need_key = false;
	t->key = h.key;
	t->bytes = p->batch.sample_bytes;
	if (++p->in_batch < cfg.batch)
		return;
	kst_builder_finish(&p->batch);
	skb_queue_splice_tail_init(&p->batch.parts, out);
	p->in_batch = 0;
	p->batches = (p->batches + 1) % cfg.keyframe;
}

/* The last committed sample as a keyframe, for one requester. */
static int kst_snapshot_build(struct kst_producer *p, u32 portid, u32 seq,
			      struct sk_buff_head *out)
{
	const struct kst_frame *f = p->last;
	const struct kst_sample_head h = {
		.seq = f->seq, .ts = f->ts, .generation = f->generation,
		.key = true, .cfg = &p->cfg,
	};
	struct kst_builder b;
	int err;

	kst_builder_init(&b);
	b.batch_seq = f->seq;
	b.portid = portid;
	b.seq = seq;
	b.snapshot = true;
	err = kst_write_sample(&b, &h, f, f);
	if (err) {
		kst_builder_purge(&b);
		return err;
	}
	kst_builder_finish(&b);
	skb_queue_splice_tail_init(&b.parts, out);
	return 0;
}

/* ---- sending ---------------------------------------------------------------- */

/*
 * Under kst_send_lock: multicast a finished batch, in order, to every
 * listener but the socket @portid of @skip (NULL: to all).
 */
static void kst_send_batch_except(struct sk_buff_head *parts,
				  struct kst_tick *t, struct net *skip,
				  u32 portid)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(parts))) {
		/* ENOBUFS: some listener's receive queue was full. */
		if (kst_deliver_multicast_except(skb, skip, portid))
			t->undelivered++;
		t->sent++;
	}
}

static void kst_send_batch(struct sk_buff_head *parts, struct kst_tick *t)
{
	kst_send_batch_except(parts, t, NULL, 0);
}

static void kst_account(const struct kst_tick *t)
{
	u64 ns = ktime_get_ns() - t->start_ns;

	mutex_lock(&kst_ctl_lock);
	kst_stats.messages += t->sent;
	kst_stats.delivery_failures += t->undelivered;
	if (t->sent)
		kst_stats.summaries++;
	if (t->sampled) {
		kst_stats.samples++;
		if (t->failed)
			kst_stats.alloc_failures++;
		else if (t->key)
			kst_stats.keyframe_bytes = t->bytes;
		else
			kst_stats.delta_bytes = t->bytes;
		/* The whole cost of a sample, multicast included. */
		kst_stats.build_ns_last = ns;
		kst_stats.build_ns_max = max(kst_stats.build_ns_max, ns);
		kst_stats.build_ns_total += ns;
	}
	kst_stats.generation = kst_generation;
	mutex_unlock(&kst_ctl_lock);
}

/* ---- the work item and its control ------------------------------------------ */

static void kst_set_running(bool running)
{
	mutex_lock(&kst_ctl_lock);
	kst_stats.running = running;
	mutex_unlock(&kst_ctl_lock);
}

/* Under kst_prod_lock. */
static void kst_producer_stop(void)
{
	if (!kst_prod)
		return;
	kst_producer_free(kst_prod);
	kst_prod = NULL;
	kst_set_running(false);
	/* Nobody listens: the next start subscribes namespaces afresh. */
	kst_deliver_nets_clear();
}

/* Under kst_prod_lock: the next tick, on the interval's grid. */
static void kst_schedule_next(struct kst_producer *p)
{
	long delay;

	p->next_tick += msecs_to_jiffies(p->interval_ms);
	delay = (long)(p->next_tick - jiffies);
	if (delay < 0) {
		p->next_tick = jiffies;
		delay = 0;
	}
	mod_delayed_work(system_unbound_wq, &kst_work, delay);
}

/* Under kst_prod_lock: a sample now, and the next one scheduled. */
static void kst_tick(struct kst_producer *p, struct sk_buff_head *out,
		     struct kst_tick *t)
{
	t->sampled = true;
	kst_sample_take(p, out, t);
	kst_schedule_next(p);
}

static void kst_summary_work(struct work_struct *work)
{
	struct kst_tick t = { .start_ns = ktime_get_ns() };
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	mutex_lock(&kst_prod_lock);
	if (!kst_prod) {
		mutex_unlock(&kst_prod_lock);
		return;
	}
	/* Checked every tick: the last listener leaving stops us. */
	if (READ_ONCE(kst_shutdown) || !kst_deliver_has_listeners()) {
		kst_producer_stop();
		mutex_unlock(&kst_prod_lock);
		return;
	}
	kst_tick(kst_prod, &out, &t);
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_prod_lock);
	kst_send_batch(&out, &t);
	mutex_unlock(&kst_send_lock);
	kst_account(&t);
}

/*
 * Under kst_prod_lock: run the producer, its first sample taken now.  A
 * running producer whose samples fail retries at its next tick, not at
 * every SUBSCRIBE: one attempt per interval, however many ask.
 */
static int kst_producer_start(struct sk_buff_head *out, struct kst_tick *t)
{
	if (kst_prod)
		return 0;
	kst_prod = kst_producer_alloc();
	if (!kst_prod)
		return -ENOMEM;
	kst_set_running(true);
	kst_tick(kst_prod, out, t);
	return 0;
}

/*
 * KSTAT_CMD_SUBSCRIBE from @portid in @net: start the producer if it is
 * idle, and answer with the current state (see the UAPI header).
 */
int kst_summary_subscribe(struct net *net, u32 portid, u32 seq,
			  struct netlink_ext_ack *extack)
{
	struct kst_tick t = { .start_ns = ktime_get_ns() };
	struct sk_buff_head out, snap;
	int err;

	__skb_queue_head_init(&out);
	__skb_queue_head_init(&snap);
	mutex_lock(&kst_prod_lock);
	if (READ_ONCE(kst_shutdown)) {
		NL_SET_ERR_MSG(extack, "kstat is being unloaded");
		err = -ESHUTDOWN;
	} else if (!kst_deliver_has_listeners()) {
		NL_SET_ERR_MSG(extack,
			       "join the \"summary\" multicast group first");
		err = -ENOTCONN;
	} else {
		err = kst_producer_start(&out, &t);
	}
	/*
	 * The answer is always a snapshot, even of a first sample just taken
	 * whose batch is multicast below: that multicast then skips the
	 * sender, which has the sample already.  So nothing but its answer
	 * reaches the sender between its request and the ACK (the kernel's
	 * YNL library of Linux 6.12, cli.py's, fails on a notification
	 * there) and nobody gets a sample twice.  No snapshot when there is
	 * no committed sample (the first failed: the next is a keyframe).
	 */
	if (!err && kst_prod->primed)
		err = kst_snapshot_build(kst_prod, portid, seq, &snap);
	if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack, "no memory for the summary state");
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_prod_lock);
	/* Before any multicast: a tick's ESRCH must not undo it. */
	if (!err)
		kst_deliver_net_subscribe(net);
	kst_send_batch_except(&out, &t, skb_queue_empty(&snap) ? NULL : net,
			      portid);
	if (!err && kst_deliver_unicast(&snap, net, portid)) {
		NL_SET_ERR_MSG(extack,
			       "the receive buffer cannot take the summary state");
		err = -ENOBUFS;
	}
	mutex_unlock(&kst_send_lock);
	__skb_queue_purge(&snap);
	if (t.sampled || t.sent)
		kst_account(&t);
	return err;
}

void kst_summary_get_config(struct kst_config *cfg)
{
	mutex_lock(&kst_ctl_lock);
	*cfg = kst_cfg;
	mutex_unlock(&kst_ctl_lock);
}

/*
 * Merge the fields in @mask (KSTAT_CFG_*) under the lock, so that two
 * writers of different fields both win.  Takes effect from the next
 * sample on, which announces it.  That sample comes within the new
 * interval: a tick the old, longer interval set (up to an hour away) is
 * brought forward, else summaries would stall until then.
 */
void kst_summary_update_config(const struct kst_config *val, u32 mask)
{
	unsigned long delay, due;

	mutex_lock(&kst_ctl_lock);
	if (mask & KST_CFG_INTERVAL)
		kst_cfg.interval_ms = val->interval_ms;
	if (mask & KST_CFG_BATCH)
		kst_cfg.batch = val->batch;
	if (mask & KST_CFG_KEYFRAME)
		kst_cfg.keyframe = val->keyframe;
	if (mask & KST_CFG_SECTIONS)
		kst_cfg.sections = val->sections;
	if (mask & KST_CFG_PERCPU)
		kst_cfg.percpu = val->percpu;
	kst_cfg_gen++;
	delay = msecs_to_jiffies(kst_cfg.interval_ms);
	mutex_unlock(&kst_ctl_lock);

	mutex_lock(&kst_prod_lock);
	due = jiffies + delay;
	if (kst_prod && !READ_ONCE(kst_shutdown) &&
	    time_before(due, kst_prod->next_tick)) {
		kst_prod->next_tick = due;
		mod_delayed_work(system_unbound_wq, &kst_work, delay);
	}
	mutex_unlock(&kst_prod_lock);
}

void kst_summary_get_stats(struct kst_summary_stats *st)
{
	mutex_lock(&kst_ctl_lock);
	*st = kst_stats;
	mutex_unlock(&kst_ctl_lock);
	st->listening = kst_deliver_has_listeners();
}

/* Module parameters out of range fall back to the documented defaults. */
void kst_summary_init(void)
{
	kst_cfg = (struct kst_config) {
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
 * kst_shutdown set, nobody schedules the work or starts the producer
 * again once kst_prod_lock has been taken here.
 */
void kst_summary_exit(void)
{
	WRITE_ONCE(kst_shutdown, true);
	mutex_lock(&kst_prod_lock);
	kst_producer_stop();
	mutex_unlock(&kst_prod_lock);
	cancel_delayed_work_sync(&kst_work);
	/* A SUBSCRIBE may still be sending what it took before. */
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_send_lock);
}
