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
 * Streams.  The default stream (id 0) has the configuration CONFIG_SET
 * changes and is multicast to the "summary" group, as it always was.  A
 * reader may instead SUBSCRIBE with a configuration of its own: readers
 * asking the same one share a stream, whose config never changes, and
 * whose messages are unicast to its members (stream.c), clones of the
 * same skbs, each carrying KSTAT_A_SUMMARY_STREAM.  Each stream has its
 * own producer (frames, sequence numbers, keyframes) and work item; a
 * stream whose last member leaves is kicked, stops and is freed at once.
 * Ticks fall on one grid of milliseconds for all streams: the work that
 * runs a tick samples every stream due at it from one collection (each
 * section read once, kst_collect()), and their own works find nothing
 * due.
 * Why unicast: a multicast group cannot say who is in it, so the kernel
 * could neither resync one reader nor count members for the limits.
 *
 * Locks, always taken in this order:
 *   kst_prod_lock  the streams, their producers and frames;
 *   kst_send_lock  taken before kst_prod_lock is dropped, so messages
 *                  leave in the order their frames were taken, while
 *                  the producer's lock is free for the next request;
 *   kst_ctl_lock   configuration, limits, telemetry and the list of
 *                  streams (changed under both), held only for copies,
 *                  so CONFIG_GET and STATS_GET never wait for a sample.
 * Nothing here runs with preemption disabled: on PREEMPT_RT,
 * netlink_broadcast() and skb_clone() may sleep.
 */
#include <linux/jiffies.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>
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
	u64 next_ms;			/* ... its point on the grid */
	bool primed;			/* *last holds a committed sample */
	u32 tracked;			/* KSTAT_SECTION_* *last holds */
	bool need_key;			/* the next sample must be full */
	unsigned int batches;		/* batches since the last keyframe */
	unsigned int in_batch;		/* samples in the open batch */
	struct kst_builder batch;
	/*
	 * The last committed sample, whole, as sent to nobody (portid 0):
	 * built at the first SUBSCRIBE or resync that needs it, dropped when
	 * *last changes.  Each requester gets clones (or copies patched with
	 * its portid and seq), so a storm of SUBSCRIBEs builds it once.
	 */
	struct sk_buff_head snap;
	struct kst_frame frames[2];
	struct kst_frame *cur, *last;
};

/* One stream of summaries: the default one, or a reader's own. */
struct kst_stream {
	u32 id;				/* 0: the default stream */
	bool own;			/* a reader's own: unicast to members */
	struct list_head node;		/* in kst_streams, the default first */
	struct kst_config cfg;		/* own streams: fixed at creation */
	struct kst_producer *prod;	/* NULL while idle */
	struct delayed_work work;
	struct kst_members members;	/* own streams */
	/*
	 * Own streams: what they allocate is charged to the memory cgroup
	 * of the reader that made them (a reference), with gfp; made by a
	 * reader without CAP_NET_ADMIN, a stream counts toward its
	 * owner's max-streams until it is freed.
	 */
	struct mem_cgroup *memcg;
	gfp_t gfp;
	kuid_t owner;
	bool limited;
	/* an emptied stream's work runs within this and frees it */
	unsigned long linger;		/* jiffies */
	unsigned long next_tick;	/* the producer's, for the linger */
	u64 next_seq;			/* never reused while it lives */
	u32 generation;
	/* under kst_ctl_lock */
	u64 samples, bytes, resyncs;
};

/* What one tick or request did, for the telemetry. */
struct kst_tick {
	bool sampled, failed, key;
	size_t bytes;
	u64 start_ns;
	unsigned int sent, undelivered;
	u64 bytes_sent, resyncs;
};

static DEFINE_MUTEX(kst_prod_lock);
static DEFINE_MUTEX(kst_send_lock);
static DEFINE_MUTEX(kst_ctl_lock);

static void kst_summary_work(struct work_struct *work);

/* Under kst_prod_lock (and kst_ctl_lock to change the list). */
static struct kst_stream kst_default;
static LIST_HEAD(kst_streams);
static u32 kst_next_id = 1;

/* Under kst_ctl_lock. */
static struct kst_config kst_cfg;
static u64 kst_cfg_gen;			/* bumped by every CONFIG_SET */
static struct kst_limits kst_limits;
static struct kst_summary_stats kst_stats;	/* the default stream's */

static bool kst_shutdown;		/* set once, by kst_summary_exit() */

/*
 * Own streams' work runs here, unbound like the default's (which stays
 * on system_unbound_wq): destroy_workqueue() at unload waits for a work
 * that has just freed its own stream.
 */
static struct workqueue_struct *kst_wq;

static struct workqueue_struct *kst_stream_wq(const struct kst_stream *s)
{
	return s->own ? kst_wq : system_unbound_wq;
}

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

static int kst_frame_alloc(struct kst_frame *f, gfp_t gfp)
{
	unsigned int i;

	f->state = kcalloc(kst_nr_sections, sizeof(*f->state), gfp);
	if (!f->state)
		return -ENOMEM;
	for (i = 0; i < kst_nr_sections; i++) {
		f->state[i] = kst_sections[i]->state_alloc(gfp);
		if (!f->state[i])
			return -ENOMEM;
	}
	return 0;
}

static void kst_producer_free(struct kst_producer *p)
{
	kst_builder_purge(&p->batch);
	__skb_queue_purge(&p->snap);
	/* Sections out of the config have no committed state (untrack). */
	kst_frame_free(p->last, p->primed ? p->tracked : 0);
	kst_frame_free(p->cur, 0);
	kfree(p);
}

/* Under the stream's memory cgroup (kst_charge()). */
static struct kst_producer *kst_producer_alloc(u32 stream, gfp_t gfp)
{
	struct kst_producer *p;

	p = kzalloc(sizeof(*p), gfp);
	if (!p)
		return NULL;
	kst_builder_init(&p->batch, stream);
	__skb_queue_head_init(&p->snap);
	p->cur = &p->frames[0];
	p->last = &p->frames[1];
	if (kst_frame_alloc(&p->frames[0], gfp) ||
	    kst_frame_alloc(&p->frames[1], gfp)) {
		kst_producer_free(p);
		return NULL;
	}
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
static void kst_untrack(struct kst_producer *p, u32 sections, gfp_t gfp)
{
	u32 drop = p->tracked & ~sections;
	const struct kst_section *s;
	unsigned int i;

	p->tracked &= sections;
	if (drop)
		__skb_queue_purge(&p->snap);
	for (i = 0; i < kst_nr_sections; i++) {
		s = kst_sections[i];
		if (!kst_wanted(s, drop))
			continue;
		s->state_free(p->last->state[i], p->primed);
		/* NULL on failure: kst_collect() allocates it when wanted */
		p->last->state[i] = s->state_alloc(gfp);
	}
}

/*
 * One stream's part in a tick: the sample it takes and what it sends.
 * Streams due at one tick take their samples from one collection.
 */
struct kst_take {
	struct kst_stream *s;
	struct kst_config cfg;
	u64 cfg_gen;
	struct kst_sample_head h;
	bool new_gen;			/* a section was renewed */
	int err;			/* its collection failed */
	struct sk_buff_head out;	/* finished batches */
	struct sk_buff_head snap;	/* for members that overran */
	struct kst_tick t;
};

/* Streams of one tick, and room for one section's targets. */
struct kst_takes {
	struct kst_take *tk;		/* [n] */
	struct kst_target *tg;		/* [n] */
	unsigned int *of;		/* [n]: the take of each target */
	unsigned int n;
	void *mem;			/* the three arrays, or NULL: */
	struct kst_target tg1;		/* ... one take, without one */
	unsigned int of1;
};

/*
 * Section @i of every take whose config wants it, in one collection:
 * the counters are read once for all of them.  A take whose state
 * cannot be had, or whose collection fails, lets go of what it took.
 */
static void kst_collect_section(struct kst_takes *ts, unsigned int i)
{
	const struct kst_section *sec = kst_sections[i];
	struct kst_producer *p;
	struct kst_take *tk;
	unsigned int k, m = 0;
	int err;

	for (k = 0; k < ts->n; k++) {
		tk = &ts->tk[k];
		p = tk->s->prod;
		if (tk->err || !kst_wanted(sec, tk->cfg.sections))
			continue;
		if (!p->cur->state[i]) {	/* kst_take_states() failed */
			kst_discard_sections(p, i, tk->cfg.sections);
			tk->err = -ENOMEM;
			continue;
		}
		ts->tg[m] = (struct kst_target) {
			.cur = p->cur->state[i],
			.last = kst_last_state(p, i),
			.cfg = &tk->cfg,
			.memcg = tk->s->memcg,
			.gfp = tk->s->gfp,
		};
		ts->of[m++] = k;
	}
	if (!m)
		return;
	err = sec->collect(ts->tg, m);
	for (k = 0; k < m; k++) {
		tk = &ts->tk[ts->of[k]];
		if (err) {
			kst_discard_sections(tk->s->prod, i, tk->cfg.sections);
			tk->err = err;
		} else {
			tk->new_gen |= ts->tg[k].renewed;
		}
	}
}

/*
 * What @s allocates from here to kst_uncharge() is charged to the
 * memory cgroup of the reader that made it (own streams, with
 * __GFP_ACCOUNT), whoever's task or worker runs it.
 */
static struct mem_cgroup *kst_charge(const struct kst_stream *s)
{
	return set_active_memcg(s->memcg);
}

static void kst_uncharge(struct mem_cgroup *old)
{
	set_active_memcg(old);
}

/*
 * @tk's states for this tick: sections it no longer wants let go, those
 * it wants allocated where an earlier tick could not (NULL when this
 * one cannot either: kst_collect_section() fails the take).
 */
static void kst_take_states(struct kst_take *tk)
{
	struct kst_producer *p = tk->s->prod;
	struct mem_cgroup *old = kst_charge(tk->s);
	const struct kst_section *sec;
	unsigned int i;

	kst_untrack(p, tk->cfg.sections, tk->s->gfp);
	for (i = 0; i < kst_nr_sections; i++) {
		sec = kst_sections[i];
		if (kst_wanted(sec, tk->cfg.sections) && !p->cur->state[i])
			p->cur->state[i] = sec->state_alloc(tk->s->gfp);
	}
	kst_uncharge(old);
}

/*
 * Read the counters of every take's sections into its *cur: only the
 * sections some stream due now wants, each once for all of them.
 */
static void kst_collect(struct kst_takes *ts)
{
	unsigned int i, k;

	for (k = 0; k < ts->n; k++)
		kst_take_states(&ts->tk[k]);
	for (i = 0; i < kst_nr_sections; i++)
		kst_collect_section(ts, i);
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
	__skb_queue_purge(&p->snap);	/* of the frame before */
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

/* The config of @s's next sample, and its generation (announced). */
static void kst_stream_cfg(const struct kst_stream *s, struct kst_config *cfg,
			   u64 *gen)
{
	if (s->own) {
		*cfg = s->cfg;
		*gen = 0;
		return;
	}
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
static void kst_age_base(struct kst_stream *s)
{
	struct kst_producer *p = s->prod;
	struct mem_cgroup *old;

	/* Monotonic, not boot time: counters stand still in a suspend. */
	if (!p->primed || ktime_get_ns() - p->base_ns <=
			  (u64)KSTAT_HORIZON_MS * NSEC_PER_MSEC)
		return;
	old = kst_charge(s);
	kst_untrack(p, 0, s->gfp);
	kst_uncharge(old);
	p->primed = false;
	p->need_key = true;
}

/* Under kst_prod_lock: @tk's sample is taken now, at @ts (boot time). */
static void kst_take_begin(struct kst_take *tk, u64 ts)
{
	struct kst_stream *s = tk->s;
	struct kst_producer *p = s->prod;
	struct kst_sample_head *h = &tk->h;

	kst_stream_cfg(s, &tk->cfg, &tk->cfg_gen);
	/* The next attempt is one interval away, whatever this one does. */
	p->interval_ms = tk->cfg.interval_ms;
	if (!p->in_batch)
		p->batch.batch_seq = s->next_seq;
	p->cur->seq = s->next_seq++;
	p->cur->ts = ts;
	kst_age_base(s);
	h->key = !p->primed || p->need_key ||
		 tk->cfg.sections != p->cfg.sections ||
		 tk->cfg.percpu != p->cfg.percpu ||
		 (!p->in_batch && !p->batches);
	h->announce = tk->cfg_gen != p->cfg_gen;
	h->cfg = &tk->cfg;
	tk->t.sampled = true;
}

/*
 * Under kst_prod_lock, once collected: the sample into the open batch;
 * when the batch is full, its parts to tk->out, to be sent once
 * kst_prod_lock is dropped.
 */
static void kst_take_end(struct kst_take *tk)
{
	struct kst_stream *s = tk->s;
	struct kst_producer *p = s->prod;
	struct kst_sample_head *h = &tk->h;
	int err;

	if (tk->err) {
		kst_batch_drop(p);	/* *cur is incomplete: nothing pinned */
		tk->t.failed = true;
		return;
	}
	p->cur->generation = s->generation + tk->new_gen;
	h->key |= tk->new_gen;
	h->seq = p->cur->seq;
	h->ts = p->cur->ts;
	h->generation = p->cur->generation;
	err = kst_fault() ?: kst_write_sample(&p->batch, h, p->cur, p->last);
	/*
	 * Committed even when it cannot be sent: a dropped sample makes the
	 * next one a keyframe, which needs no base, and the counters are
	 * extended from this reading, not from an older one (see
	 * KSTAT_HORIZON_MS).
	 */
	kst_commit(p, tk->cfg.sections);
	s->generation = p->last->generation;
	p->cfg = tk->cfg;
	p->cfg_gen = tk->cfg_gen;
	if (err) {
		kst_batch_drop(p);
		tk->t.failed = true;
		return;
	}
	p->need_key = false;
	tk->t.key = h->key;
	tk->t.bytes = p->batch.sample_bytes;
	if (++p->in_batch < tk->cfg.batch)
		return;
	kst_builder_finish(&p->batch);
	skb_queue_splice_tail_init(&p->batch.parts, &tk->out);
	p->in_batch = 0;
	p->batches = (p->batches + 1) % tk->cfg.keyframe;
}

/* The last committed sample as a keyframe, for one requester. */
static int kst_snapshot_build(struct kst_producer *p, u32 stream,
			      struct sk_buff_head *out)
{
	const struct kst_frame *f = p->last;
	const struct kst_sample_head h = {
		.seq = f->seq, .ts = f->ts, .generation = f->generation,
		.key = true, .cfg = &p->cfg,
	};
	struct kst_builder b;
	int err;

	kst_builder_init(&b, stream);
	b.batch_seq = f->seq;
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

/*
 * Under kst_prod_lock: clones of the last committed sample, whole, built
 * once per committed sample however many ask (see kst_producer.snap).
 * -ENODATA when there is no committed sample.
 */
static int kst_snap_get(struct kst_stream *s, struct sk_buff_head *out)
{
	struct kst_producer *p = s->prod;
	struct sk_buff *skb, *clone;
	int err;

	if (!p || !p->primed)
		return -ENODATA;
	if (skb_queue_empty(&p->snap)) {
		err = kst_snapshot_build(p, s->id, &p->snap);
		if (err)
			return err;
	}
	skb_queue_walk(&p->snap, skb) {
		clone = skb_clone(skb, GFP_KERNEL);
		if (!clone) {
			__skb_queue_purge(out);
			return -ENOMEM;
		}
		__skb_queue_tail(out, clone);
	}
	return 0;
}

/*
 * The snapshot as the answer to one request: copies, each message's
 * header carrying the requester's portid and seq, as a reply would.
 */
static int kst_snap_reply(struct sk_buff_head *snap, u32 portid, u32 seq)
{
	struct sk_buff_head copies;
	struct sk_buff *skb, *copy;

	__skb_queue_head_init(&copies);
	while ((skb = __skb_dequeue(snap))) {
		copy = skb_copy(skb, GFP_KERNEL);
		consume_skb(skb);
		if (!copy) {
			__skb_queue_purge(snap);
			__skb_queue_purge(&copies);
			return -ENOMEM;
		}
		nlmsg_hdr(copy)->nlmsg_pid = portid;
		nlmsg_hdr(copy)->nlmsg_seq = seq;
		__skb_queue_tail(&copies, copy);
	}
	skb_queue_splice_tail_init(&copies, snap);
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
		t->bytes_sent += skb->len;
		/* ENOBUFS: some listener's receive queue was full. */
		if (kst_deliver_multicast_except(skb, skip, portid))
			t->undelivered++;
		t->sent++;
	}
}

/*
 * Under kst_send_lock: @parts to @s's readers but the socket (@skip,
 * @portid); for an own stream, @snap to its members that missed a
 * message.  Consumes both.
 */
static void kst_send(struct kst_stream *s, struct sk_buff_head *parts,
		     struct sk_buff_head *snap, struct net *skip, u32 portid,
		     struct kst_tick *t)
{
	struct kst_members_sent sent = { };

	if (!s->own) {
		kst_send_batch_except(parts, t, skip, portid);
		return;
	}
	kst_members_send(&s->members, parts,
			 skb_queue_empty(snap) ? NULL : snap, skip, portid,
			 &sent);
	t->sent += skb_queue_len(parts);
	t->undelivered += sent.failures;
	t->bytes_sent += sent.bytes;
	t->resyncs += sent.resyncs;
	__skb_queue_purge(parts);
	__skb_queue_purge(snap);
}

/* The default stream's figures are the producer's telemetry too. */
static void kst_account_default(const struct kst_tick *t)
{
	u64 ns = ktime_get_ns() - t->start_ns;

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
	kst_stats.generation = kst_default.generation;
}

/* While @s cannot be freed: its work, or under kst_send_lock. */
static void kst_account(struct kst_stream *s, const struct kst_tick *t)
{
	mutex_lock(&kst_ctl_lock);
	if (t->sampled && !t->failed)
		s->samples++;
	s->bytes += t->bytes_sent;
	s->resyncs += t->resyncs;
	if (!s->own)
		kst_account_default(t);
	mutex_unlock(&kst_ctl_lock);
}

/* ---- the work item and its control ------------------------------------------ */

static void kst_set_running(struct kst_stream *s, bool running)
{
	if (s->own)
		return;
	mutex_lock(&kst_ctl_lock);
	kst_stats.running = running;
	mutex_unlock(&kst_ctl_lock);
}

/* Under kst_prod_lock. */
static void kst_producer_stop(struct kst_stream *s)
{
	if (!s->prod)
		return;
	kst_producer_free(s->prod);
	s->prod = NULL;
	kst_set_running(s, false);
	/* Nobody listens: the next start subscribes namespaces afresh. */
	if (s == &kst_default)
		kst_deliver_nets_clear();
}

/*
 * Under kst_prod_lock: the next tick, drawn to the interval's grid.  The
 * grids are of milliseconds since boot, the same for every stream, so
 * streams whose intervals are multiples of one another tick together and
 * share a collection: 250 ms and 1000 ms meet every second.  A stream
 * starts off the grid (its first sample is taken at the SUBSCRIBE that
 * starts it), and a late tick leaves it: then each interval is
 * stretched or shrunk by at most a quarter of one toward the nearest
 * grid point, so that samples stay an interval apart within a quarter
 * and a stream is on the grid within two ticks.  A tick more than half
 * an interval late does not make up for the ones it missed.
 * @from_ms: the point just served, 0 if none.
 */
static unsigned long kst_grid_next(u64 from_ms, u32 interval_ms,
				   u64 *next_ms, unsigned long *tick)
{
	u64 j = get_jiffies_64(), now_ms = jiffies64_to_msecs(j);
	u64 target, grid;
	unsigned long delay;
	s64 pull;

	if (!from_ms || from_ms + interval_ms < now_ms + interval_ms / 2)
		from_ms = now_ms;
	target = from_ms + interval_ms;
	grid = div_u64(target + interval_ms / 2, interval_ms) * interval_ms;
	pull = clamp_t(s64, (s64)(grid - target), -(s64)(interval_ms / 4),
		       interval_ms / 4);
	*next_ms = target + pull;
	delay = msecs_to_jiffies(*next_ms - now_ms);
	*tick = (unsigned long)j + delay;
	return delay;
}

static void kst_schedule_next(struct kst_stream *s, struct kst_producer *p)
{
	unsigned long delay = kst_grid_next(p->next_ms, p->interval_ms,
					    &p->next_ms, &p->next_tick);

	WRITE_ONCE(s->next_tick, p->next_tick);
	mod_delayed_work(kst_stream_wq(s), &s->work, delay);
}

/* Under kst_prod_lock: @s's work at its next tick, as scheduled. */
static void kst_schedule_at(struct kst_stream *s)
{
	long left;

	if (!s->prod)
		return;
	left = (long)(s->prod->next_tick - jiffies);
	mod_delayed_work(kst_stream_wq(s), &s->work, max(left, 0L));
}

/*
 * Under kst_prod_lock: is @s's next sample due now?  A stream's grid
 * point may round to a jiffy after another's with the same point; one
 * jiffy of slack keeps them in one tick.
 */
static bool kst_stream_due(const struct kst_stream *s)
{
	return s->prod && time_before_eq(s->prod->next_tick, jiffies + 1);
}

/* Under kst_prod_lock: has @s anyone to send to (not closing it)? */
static bool kst_stream_has_readers(const struct kst_stream *s)
{
	return s->own ? kst_members_nr(&s->members) > 0 :
			kst_deliver_has_listeners();
}

/*
 * Under kst_prod_lock: the streams besides @s due at this tick, at most
 * @max of them into @tk (@tk NULL: only counted).  Returns how many it
 * found, never more than @max when it fills @tk: the array was sized by
 * an earlier count, and more may be due since (an allocation slept, a
 * stream gained a reader); those tick at their own work.
 */
static unsigned int kst_due_others(const struct kst_stream *s,
				   struct kst_take *tk, unsigned int max)
{
	struct kst_stream *o;
	unsigned int n = 0;

	list_for_each_entry(o, &kst_streams, node) {
		if (o == s || !kst_stream_due(o) || !kst_stream_has_readers(o))
			continue;
		if (tk) {
			if (n == max)
				break;
			tk[n].s = o;
		}
		n++;
	}
	return n;
}

static void kst_take_init(struct kst_take *tk, struct kst_stream *s,
			  u64 start_ns)
{
	tk->s = s;
	__skb_queue_head_init(&tk->out);
	__skb_queue_head_init(&tk->snap);
	tk->t.start_ns = start_ns;
}

/* @tk alone, with no allocation: a SUBSCRIBE's, or without memory. */
static void kst_takes_one(struct kst_takes *ts, struct kst_take *tk)
{
	ts->tk = tk;
	ts->tg = &ts->tg1;
	ts->of = &ts->of1;
	ts->n = 1;
	ts->mem = NULL;
}

/*
 * Under kst_prod_lock: the streams of one tick, @s first.  Without
 * memory for more, @s alone in @one (the others tick on their own).
 */
static void kst_takes_get(struct kst_takes *ts, struct kst_stream *s,
			  struct kst_take *one)
{
	unsigned int n = 1 + kst_due_others(s, NULL, 0), k;
	u64 now = ktime_get_ns();

	kst_takes_one(ts, one);
	memset(one, 0, sizeof(*one));
	ts->mem = n > 1 ? kcalloc(n, sizeof(*ts->tk) + sizeof(*ts->tg) +
				  sizeof(*ts->of), GFP_KERNEL) : NULL;
	if (ts->mem) {
		ts->tk = ts->mem;
		ts->tg = (struct kst_target *)(ts->tk + n);
		ts->of = (unsigned int *)(ts->tg + n);
		ts->n = 1 + kst_due_others(s, ts->tk + 1, n - 1);
	}
	ts->tk[0].s = s;
	for (k = 0; k < ts->n; k++)
		kst_take_init(&ts->tk[k], ts->tk[k].s, now);
}

/*
 * Under kst_prod_lock: a sample now for every stream of @ts, from one
 * collection, and each one's next tick scheduled.  A member of an own
 * stream that missed a message gets the sample just taken, whole.
 */
static void kst_tick(struct kst_takes *ts)
{
	u64 now = ktime_get_boottime_ns();
	struct kst_take *tk;
	unsigned int k;

	for (k = 0; k < ts->n; k++)
		kst_take_begin(&ts->tk[k], now);
	kst_collect(ts);
	for (k = 0; k < ts->n; k++) {
		tk = &ts->tk[k];
		kst_take_end(tk);
		kst_schedule_next(tk->s, tk->s->prod);
		if (tk->s->own && kst_members_need_resync(&tk->s->members))
			kst_snap_get(tk->s, &tk->snap);
	}
}

/* Under kst_ctl_lock: one tick's whole time, for every stream. */
static void kst_account_tick(u64 start_ns)
{
	kst_stats.ticks++;
	kst_stats.tick_ns_total += ktime_get_ns() - start_ns;
}

/*
 * Under kst_send_lock: what each stream of @ts took, sent, and
 * accounted (before the lock is dropped: a stream may then go).
 */
static void kst_takes_send(struct kst_takes *ts)
{
	struct kst_take *tk;
	unsigned int k;

	for (k = 0; k < ts->n; k++) {
		tk = &ts->tk[k];
		kst_send(tk->s, &tk->out, &tk->snap, NULL, 0, &tk->t);
		kst_account(tk->s, &tk->t);
	}
	mutex_lock(&kst_ctl_lock);
	kst_account_tick(ts->tk[0].t.start_ns);
	mutex_unlock(&kst_ctl_lock);
}

/* ---- streams of a reader's own ---------------------------------------------- */

/*
 * Under kst_mem_lock (stream.c): the last member left.  The stream
 * lives on until its next tick or for the floor (s->linger), whichever
 * comes first; then its work frees it if nobody joined meanwhile.  So a
 * reader that moves between configurations finds their streams still
 * there, and each stream a user makes, which costs a collection, holds
 * one of the user's max-streams for that long: one user starts at most
 * max-streams collections per floor, however fast it churns.
 */
static void kst_stream_emptied(struct kst_members *set)
{
	struct kst_stream *s = container_of(set, struct kst_stream, members);
	long left = (long)(READ_ONCE(s->next_tick) - jiffies);

	mod_delayed_work(kst_wq, &s->work,
			 clamp_t(long, left, 0, s->linger));
}

/* An own stream, stopped and unlisted, freed. */
static void kst_stream_put(struct kst_stream *s)
{
	mem_cgroup_put(s->memcg);
	kfree(s);
}

/* Under kst_prod_lock: the own stream of @cfg, or NULL. */
static struct kst_stream *kst_stream_find(const struct kst_config *cfg)
{
	struct kst_stream *s;

	list_for_each_entry(s, &kst_streams, node)
		if (s->own && kst_config_eq(&s->cfg, cfg))
			return s;
	return NULL;
}

/*
 * Under kst_prod_lock: the own streams @uid made while limited (without
 * CAP_NET_ADMIN), alive or lingering.
 */
static unsigned int kst_streams_of(kuid_t uid)
{
	const struct kst_stream *s;
	unsigned int n = 0;

	list_for_each_entry(s, &kst_streams, node)
		n += s->limited && uid_eq(s->owner, uid);
	return n;
}

/*
 * Under kst_prod_lock, in @sub's SUBSCRIBE: a new own stream, idle and
 * without members, charged to the sender's memory cgroup.
 */
static struct kst_stream *kst_stream_new(const struct kst_config *cfg,
					 const struct kst_sub *sub,
					 const struct kst_limits *lim)
{
	struct kst_stream *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	s->own = true;
	s->cfg = *cfg;
	s->memcg = get_mem_cgroup_from_mm(current->mm);
	s->gfp = GFP_KERNEL_ACCOUNT;
	s->owner = sub->uid;
	s->limited = !sub->priv;
	s->linger = msecs_to_jiffies(lim->min_interval_ms);
	INIT_DELAYED_WORK(&s->work, kst_summary_work);
	kst_members_init(&s->members, kst_stream_emptied);
	s->id = kst_next_id++;
	if (!kst_next_id)	/* 0 is the default's */
		kst_next_id = 1;
	mutex_lock(&kst_ctl_lock);
	list_add_tail(&s->node, &kst_streams);
	mutex_unlock(&kst_ctl_lock);
	return s;
}

/*
 * Under kst_prod_lock, @s closed or never joined: unlisted, stopped and
 * freed.  Its work may be running (this is it, or a kick it just got),
 * but it can no longer be queued once its members are closed.  A
 * SUBSCRIBE may still be sending to it: kst_send_lock waits for that.
 */
static void kst_stream_free(struct kst_stream *s)
{
	mutex_lock(&kst_ctl_lock);
	list_del(&s->node);
	mutex_unlock(&kst_ctl_lock);
	kst_producer_stop(s);
	cancel_delayed_work(&s->work);
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_send_lock);
	kst_stream_put(s);
}

/*
 * Under kst_prod_lock: has @s nobody to send to?  Then the default one
 * stops (and starts again at the next SUBSCRIBE), an own one is freed.
 */
static bool kst_stream_idle(struct kst_stream *s)
{
	if (READ_ONCE(kst_shutdown)) {
		kst_producer_stop(s);
		return true;
	}
	if (!s->own) {
		if (kst_deliver_has_listeners())
			return false;
		kst_producer_stop(s);
		return true;
	}
	if (!kst_members_close(&s->members))
		return false;
	kst_stream_free(s);
	return true;
}

/*
 * A stream's work: its tick, shared with every other stream due at the
 * same time.  Those need not run their own work for it: theirs finds
 * its tick taken (not due) and is already queued for the next.
 */
static void kst_summary_work(struct work_struct *work)
{
	struct kst_stream *s = container_of(to_delayed_work(work),
					    struct kst_stream, work);
	struct kst_take one;
	struct kst_takes ts;

	mutex_lock(&kst_prod_lock);
	/* Checked every tick: the last listener leaving stops us. */
	if (kst_stream_idle(s)) {
		mutex_unlock(&kst_prod_lock);
		return;
	}
	/* A linger's kick (kst_stream_emptied()), and it was joined again. */
	if (!kst_stream_due(s)) {
		kst_schedule_at(s);
		mutex_unlock(&kst_prod_lock);
		return;
	}
	kst_takes_get(&ts, s, &one);
	kst_tick(&ts);
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_prod_lock);
	kst_takes_send(&ts);
	mutex_unlock(&kst_send_lock);
	kfree(ts.mem);
}

/*
 * Under kst_prod_lock: run the producer, its first sample taken now, by
 * @s alone, into @tk.  A running producer whose samples fail retries at
 * its next tick, not at every SUBSCRIBE: one attempt per interval,
 * however many ask.
 */
static int kst_producer_start(struct kst_stream *s, struct kst_take *tk)
{
	struct kst_takes ts;
	struct mem_cgroup *old;

	if (s->prod)
		return 0;
	old = kst_charge(s);
	s->prod = kst_producer_alloc(s->id, s->gfp);
	kst_uncharge(old);
	if (!s->prod)
		return -ENOMEM;
	kst_set_running(s, true);
	kst_takes_one(&ts, tk);
	kst_tick(&ts);
	return 0;
}

/*
 * Under kst_prod_lock: the default stream for @sub.  The sender must
 * listen to "summary" (see the UAPI header).
 */
static int kst_join_default(const struct kst_sub *sub,
			    struct netlink_ext_ack *extack)
{
	if (!kst_deliver_has_listeners()) {
		NL_SET_ERR_MSG(extack,
			       "join the \"summary\" multicast group first");
		return -ENOTCONN;
	}
	return 0;
}

/* The config @sub asks: its fields, the default stream's for the rest. */
static void kst_sub_config(const struct kst_sub *sub, struct kst_config *cfg,
			   struct kst_limits *lim)
{
	mutex_lock(&kst_ctl_lock);
	*cfg = kst_cfg;
	*lim = kst_limits;
	mutex_unlock(&kst_ctl_lock);
	if (sub->mask & KST_CFG_INTERVAL)
		cfg->interval_ms = sub->cfg.interval_ms;
	if (sub->mask & KST_CFG_BATCH)
		cfg->batch = sub->cfg.batch;
	if (sub->mask & KST_CFG_KEYFRAME)
		cfg->keyframe = sub->cfg.keyframe;
	if (sub->mask & KST_CFG_SECTIONS)
		cfg->sections = sub->cfg.sections;
	if (sub->mask & KST_CFG_PERCPU)
		cfg->percpu = sub->cfg.percpu;
}

/*
 * Under kst_prod_lock: the own stream for @sub, found or made, with the
 * sender a member of it (moved from any other).  The limits hold for
 * unprivileged senders only.
 */
static int kst_join_own(const struct kst_sub *sub, struct kst_stream **sp,
			struct netlink_ext_ack *extack)
{
	struct kst_stream *s;
	struct kst_config cfg;
	struct kst_limits lim;
	bool made = false;
	int err;

	kst_sub_config(sub, &cfg, &lim);
	/* An interval left out is the default's: no faster than it. */
	if (!sub->priv && (sub->mask & KST_CFG_INTERVAL) &&
	    cfg.interval_ms < lim.min_interval_ms) {
		kst_limits_err(extack, KSTAT_A_LIMITS_MIN_INTERVAL_MS);
		return -EINVAL;
	}
	s = kst_stream_find(&cfg);
	if (!s) {
		if (!sub->priv && kst_streams_of(sub->uid) >= lim.max_streams) {
			kst_limits_err(extack, KSTAT_A_LIMITS_MAX_STREAMS);
			return -EBUSY;
		}
		s = kst_stream_new(&cfg, sub, &lim);
		if (!s) {
			NL_SET_ERR_MSG(extack, "no memory for a stream");
			return -ENOMEM;
		}
		made = true;
	}
	err = kst_members_add(&s->members, sub->net, sub->portid, sub->uid,
			      sub->priv ? NULL : &lim, extack);
	if (err < 0 && made)
		kst_stream_free(s);
	*sp = s;
	return err < 0 ? err : 0;
}

/*
 * Under kst_send_lock: the snapshot as the answer to @sub.  A member of
 * an own stream that cannot take it stays, as one that missed a message:
 * the next tick resyncs it (a refusal would be lost in the same full
 * queue, and the reader would wait in silence).  The default stream's
 * SUBSCRIBE fails; its reader asks again.
 */
static int kst_answer(const struct kst_sub *sub, struct sk_buff_head *snap,
		      struct netlink_ext_ack *extack)
{
	if (!kst_snap_reply(snap, sub->portid, sub->seq) &&
	    !kst_deliver_unicast(snap, sub->net, sub->portid))
		return 0;
	if (sub->own) {
		kst_members_resync(sub->net, sub->portid);
		return 0;
	}
	NL_SET_ERR_MSG(extack,
		       "the receive buffer cannot take the summary state");
	return -ENOBUFS;
}

/*
 * KSTAT_CMD_SUBSCRIBE: join the default stream or one of the sender's
 * own, start its producer if it is idle, and answer with the current
 * state (see the UAPI header).
 */
int kst_summary_subscribe(const struct kst_sub *sub,
			  struct netlink_ext_ack *extack)
{
	struct kst_stream *s = &kst_default;
	struct sk_buff_head snap;
	u64 start_ns = ktime_get_ns();
	struct kst_take tk = { };
	bool have_snap;
	int err;

	__skb_queue_head_init(&snap);
	mutex_lock(&kst_prod_lock);
	if (READ_ONCE(kst_shutdown)) {
		NL_SET_ERR_MSG(extack, "kstat is being unloaded");
		err = -ESHUTDOWN;
	} else {
		err = sub->own ? kst_join_own(sub, &s, extack) :
				 kst_join_default(sub, extack);
	}
	if (err) {
		mutex_unlock(&kst_prod_lock);
		return err;
	}
	/*
	 * The answer is always a snapshot, even of a first sample just taken
	 * whose batch is sent below: that send then skips the sender, which
	 * has the sample already.  So nothing but its answer reaches the
	 * sender between its request and the ACK (the kernel's YNL library
	 * of Linux 6.12, cli.py's, fails on a notification there) and nobody
	 * gets a sample twice.  No snapshot when there is no committed
	 * sample (the first failed: the next is a keyframe).  The snapshot
	 * is built once per sample, not per request (kst_snap_get()).
	 */
	kst_take_init(&tk, s, start_ns);
	err = kst_producer_start(s, &tk);
	if (!err) {
		err = kst_snap_get(s, &snap);
		if (err == -ENODATA)
			err = 0;
	}
	if (err) {
		NL_SET_ERR_MSG(extack, "no memory for the summary state");
		if (sub->own)
			kst_members_remove(sub->net, sub->portid);
	}
	have_snap = !skb_queue_empty(&snap);
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_prod_lock);
	/* Before any multicast: a tick's ESRCH must not undo it. */
	if (!err && !sub->own)
		kst_deliver_net_subscribe(sub->net);
	kst_send(s, &tk.out, &tk.snap, have_snap ? sub->net : NULL,
		 sub->portid, &tk.t);
	if (have_snap)
		err = kst_answer(sub, &snap, extack);
	__skb_queue_purge(&snap);
	if (tk.t.sampled || tk.t.sent)
		kst_account(s, &tk.t);
	if (tk.t.sampled) {
		mutex_lock(&kst_ctl_lock);
		kst_account_tick(tk.t.start_ns);
		mutex_unlock(&kst_ctl_lock);
	}
	mutex_unlock(&kst_send_lock);
	return err;
}

/* KSTAT_CMD_UNSUBSCRIBE: the sender leaves its own stream. */
int kst_summary_unsubscribe(struct net *net, u32 portid,
			    struct netlink_ext_ack *extack)
{
	int err = kst_members_remove(net, portid);

	if (err)
		NL_SET_ERR_MSG(extack,
			       "this socket is in no stream of its own (the default stream is left by leaving the \"summary\" group)");
	return err;
}

void kst_summary_get_config(struct kst_config *cfg)
{
	mutex_lock(&kst_ctl_lock);
	*cfg = kst_cfg;
	mutex_unlock(&kst_ctl_lock);
}

/*
 * Merge the fields in @mask (KST_CFG_*) under the lock, so that two
 * writers of different fields both win.  Takes effect from the next
 * sample on, which announces it.  That sample comes within the new
 * interval: a tick the old, longer interval set (up to an hour away) is
 * brought forward, else summaries would stall until then.  Only the
 * default stream: an own stream's config never changes.
 */
void kst_summary_update_config(const struct kst_config *val, u32 mask)
{
	unsigned long delay, tick;
	struct kst_producer *p;
	u32 interval_ms;
	u64 next_ms;

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
	interval_ms = kst_cfg.interval_ms;
	mutex_unlock(&kst_ctl_lock);

	/* A shorter interval: its next tick, if sooner. */
	mutex_lock(&kst_prod_lock);
	p = kst_default.prod;
	delay = kst_grid_next(0, interval_ms, &next_ms, &tick);
	if (p && !READ_ONCE(kst_shutdown) && time_before(tick, p->next_tick)) {
		p->next_ms = next_ms;
		p->next_tick = tick;
		mod_delayed_work(system_unbound_wq, &kst_default.work, delay);
	}
	mutex_unlock(&kst_prod_lock);
}

void kst_summary_get_limits(struct kst_limits *lim)
{
	mutex_lock(&kst_ctl_lock);
	*lim = kst_limits;
	mutex_unlock(&kst_ctl_lock);
}

/* The fields of KSTAT_A_LIMITS given; from the next SUBSCRIBE on. */
int kst_summary_set_limits(struct nlattr **tb, struct netlink_ext_ack *extack)
{
	int err;

	mutex_lock(&kst_ctl_lock);
	err = kst_limits_parse(tb, &kst_limits, extack);
	mutex_unlock(&kst_ctl_lock);
	return err;
}

void kst_summary_get_stats(struct kst_summary_stats *st)
{
	mutex_lock(&kst_ctl_lock);
	*st = kst_stats;
	mutex_unlock(&kst_ctl_lock);
	st->listening = kst_deliver_has_listeners();
}

static void kst_stream_stats(const struct kst_stream *s,
			     struct kst_stream_stats *st)
{
	st->id = s->id;
	st->cfg = s->own ? s->cfg : kst_cfg;
	st->members = s->own ? kst_members_nr(&s->members) : 0;
	st->samples = s->samples;
	st->bytes = s->bytes;
	st->resyncs = s->resyncs;
}

/* Every stream's figures, the default first; *v is the caller's to free. */
int kst_summary_get_streams(struct kst_stream_stats **v, unsigned int *n)
{
	const struct kst_stream *s;
	unsigned int i = 0;

	mutex_lock(&kst_ctl_lock);
	list_for_each_entry(s, &kst_streams, node)
		i++;
	*v = kmalloc_array(i, sizeof(**v), GFP_KERNEL);
	if (!*v) {
		mutex_unlock(&kst_ctl_lock);
		return -ENOMEM;
	}
	*n = i;
	i = 0;
	list_for_each_entry(s, &kst_streams, node)
		kst_stream_stats(s, &(*v)[i++]);
	mutex_unlock(&kst_ctl_lock);
	return 0;
}

/* Module parameters out of range fall back to the documented defaults. */
int kst_summary_init(void)
{
	int err;

	kst_cfg = (struct kst_config) {
		.interval_ms = clamp(interval_ms, KSTAT_INTERVAL_MIN_MS,
				     KSTAT_INTERVAL_MAX_MS),
		.batch = clamp(batch, 1U, KSTAT_BATCH_MAX),
		.keyframe = clamp(keyframe, 1U, KSTAT_KEYFRAME_MAX),
		.sections = sections & KSTAT_SECTION_ALL ?: KSTAT_SECTION_ALL,
		.percpu = percpu,
	};
	kst_limits = (struct kst_limits) {
		.min_interval_ms = KST_LIMITS_MIN_INTERVAL_MS,
		.max_streams = KST_LIMITS_MAX_STREAMS,
		.max_members_user = KST_LIMITS_MAX_MEMBERS_USER,
		.max_members_net = KST_LIMITS_MAX_MEMBERS_NET,
	};
	kst_default.gfp = GFP_KERNEL;
	INIT_DELAYED_WORK(&kst_default.work, kst_summary_work);
	list_add(&kst_default.node, &kst_streams);
	kst_wq = alloc_workqueue("kst_streams", WQ_UNBOUND, 0);
	if (!kst_wq)
		return -ENOMEM;
	err = kst_members_init_module();
	if (err)
		destroy_workqueue(kst_wq);
	return err;
}

/* Under kst_prod_lock, at unload: every stream stopped, own ones unlisted. */
static void kst_streams_stop(struct list_head *own)
{
	struct kst_stream *s, *tmp;

	list_for_each_entry_safe(s, tmp, &kst_streams, node) {
		kst_producer_stop(s);
		if (s->own) {
			mutex_lock(&kst_ctl_lock);
			list_move_tail(&s->node, own);
			mutex_unlock(&kst_ctl_lock);
		}
	}
}

/*
 * After this, no work runs and nothing is sent: then unregister.  With
 * kst_shutdown set, nobody schedules the work or starts a producer
 * again once kst_prod_lock has been taken here.
 */
void kst_summary_exit(void)
{
	struct kst_stream *s, *tmp;
	LIST_HEAD(own);

	WRITE_ONCE(kst_shutdown, true);
	kst_members_exit_module();
	mutex_lock(&kst_prod_lock);
	kst_streams_stop(&own);
	mutex_unlock(&kst_prod_lock);
	list_for_each_entry(s, &own, node) {
		kst_members_purge(&s->members);
		cancel_delayed_work_sync(&s->work);
	}
	cancel_delayed_work_sync(&kst_default.work);
	/* Works that freed their own stream may still be returning. */
	destroy_workqueue(kst_wq);
	/*
	 * A tick or a SUBSCRIBE may still be sending what it took before,
	 * to any stream (a tick sends for every stream due with it): no
	 * stream is freed before that is done.
	 */
	mutex_lock(&kst_send_lock);
	mutex_unlock(&kst_send_lock);
	list_for_each_entry_safe(s, tmp, &own, node)
		kst_stream_put(s);
}
