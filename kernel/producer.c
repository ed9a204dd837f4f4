// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary producer: one delayed work on the unbound workqueue,
 * ticking at the finest interval any reader asks for.  Its readers are
 * the default stream (the "summary" group, at the admin's config) and
 * the subscriptions (a socket's own interval, sections and per-CPU
 * choice, unicast to it).  At each tick it reads, once, the union of
 * what the readers due want, then fills each reader's sample from that
 * reading: one sample per distinct view, copied for each reader with its
 * own SEQ.  With no reader it stops and frees what it allocated.
 *
 * Locking: kst_prod.lock (a mutex) guards the producer's state, the
 * config and limits, the stats and every member's schedule; the tick
 * runs and sends under it.  The member list is under kst_members_lock
 * (a spinlock), held only to link, unlink and pick: a socket's release
 * (NETLINK_URELEASE) unlinks its member under it alone and drops the
 * list's reference; whoever puts the last reference frees the member.
 */
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "kst.h"

static int fail_ticks;
module_param(fail_ticks, int, 0644);
MODULE_PARM_DESC(fail_ticks,
		 "test only: the next N ticks fail their reading as if out of memory");

#define KST_SERVE_BATCH	32	/* members taken at once under the spinlock */
#define KST_NR_VIEWS	16	/* sections (3 bits) by percpu */

struct kst_member {
	struct list_head node;		/* empty once unlinked */
	refcount_t ref;			/* the list's, and a tick's */
	possible_net_t net;		/* a reference of its own */
	u32 portid;
	kuid_t uid;
	/* under kst_prod.lock */
	struct kst_view view;
	u32 interval_ms;
	u64 next_due;			/* CLOCK_MONOTONIC ns */
	u64 seq;
	u64 served;			/* the tick that served it last */
};

static LIST_HEAD(kst_members);
static DEFINE_SPINLOCK(kst_members_lock);
static unsigned int kst_nr_members;	/* under kst_members_lock */

static struct {
	struct mutex lock;		/* all of this, and members' schedules */
	struct delayed_work work;
	struct kst_config cfg;
	struct kst_limits lim;
	struct kst_stats st;
	bool running, closing;
	u64 next_tick;			/* when running */
	u32 tick_ms;
	u64 tick_no;
	/* the default stream */
	bool def_on;
	u64 def_next_due, def_seq;
	struct sk_buff_head def_queue;	/* samples waiting for a batch */
	u32 def_queued;
	/* this tick's: the reading, and the samples of each view */
	struct kst_reading *r;
	struct sk_buff_head parts[KST_NR_VIEWS];
	int built[KST_NR_VIEWS];	/* 0: not yet, 1: built, < 0: failed */
} kst_prod;

static u64 kst_ms(u32 ms)
{
	return (u64)ms * NSEC_PER_MSEC;
}

bool kst_netns_open(void)
{
	return READ_ONCE(kst_prod.cfg.netns);
}

static bool kst_listening(void)
{
	return genl_has_listeners(&kst_family, &init_net, KSTAT_NLGRP_SUMMARY);
}

static void kst_member_put(struct kst_member *m)
{
	if (refcount_dec_and_test(&m->ref)) {
		put_net(read_pnet(&m->net));
		kfree(m);
	}
}

/* Take @m off the list, if no one did; the list's reference goes. */
static void kst_member_unlink(struct kst_member *m)
{
	bool linked;

	spin_lock(&kst_members_lock);
	linked = !list_empty(&m->node);
	if (linked) {
		list_del_init(&m->node);
		kst_nr_members--;
	}
	spin_unlock(&kst_members_lock);
	if (linked)
		kst_member_put(m);
}

/* Under kst_prod.lock: outside init_net only while netns is open. */
static bool kst_member_live(const struct kst_member *m)
{
	return kst_prod.cfg.netns || net_eq(read_pnet(&m->net), &init_net);
}

/* Under kst_prod.lock: the next tick at @when. */
static void kst_schedule(u64 when)
{
	u64 now = ktime_get_ns();

	kst_prod.next_tick = when;
	mod_delayed_work(system_unbound_wq, &kst_prod.work,
			 when > now ? nsecs_to_jiffies(when - now) : 0);
}

/* Under kst_prod.lock: a reader is due at @due; start or hurry the tick. */
static void kst_kick(u64 due)
{
	if (kst_prod.closing)
		return;
	if (!kst_prod.running || due < kst_prod.next_tick)
		kst_schedule(due);
	kst_prod.running = true;
}

static void kst_default_stop(void)
{
	kst_prod.def_on = false;
	__skb_queue_purge(&kst_prod.def_queue);
	kst_prod.def_queued = 0;
}

/*
 * Under kst_prod.lock: the finest interval of the active readers, 0 if
 * none.  The default stream stops at the first tick that finds the
 * group empty.
 */
static u32 kst_tick_ms(void)
{
	struct kst_member *m;
	u32 ms = 0;

	if (kst_prod.def_on && !kst_listening())
		kst_default_stop();
	if (kst_prod.def_on)
		ms = kst_prod.cfg.interval_ms;
	spin_lock(&kst_members_lock);
	list_for_each_entry(m, &kst_members, node)
		if (kst_member_live(m) && (!ms || m->interval_ms < ms))
			ms = m->interval_ms;
	spin_unlock(&kst_members_lock);
	return ms;
}

/* A reader due at @next_due is served at the tick @t nearest to it. */
static bool kst_due(u64 next_due, u64 t, u64 tick)
{
	return next_due <= t + tick / 2;
}

static void kst_advance(u64 *next_due, u32 interval_ms, u64 t)
{
	*next_due += kst_ms(interval_ms);
	if (*next_due <= t)
		*next_due = t + kst_ms(interval_ms);
}

/* This tick's sample of view @v, built once; NULL when it failed. */
static struct sk_buff_head *kst_parts(const struct kst_view *v)
{
	unsigned int key = (v->sections & KST_ALL_SECTIONS) |
			   (v->flags & KSTAT_F_PERCPU) << 3;

	if (IS_ERR(kst_prod.r))
		return NULL;
	if (!kst_prod.built[key])
		kst_prod.built[key] = kst_sample_build(kst_prod.r, v,
						       &kst_prod.parts[key]) ?: 1;
	return kst_prod.built[key] > 0 ? &kst_prod.parts[key] : NULL;
}

/* A reader's own copy of @v's sample, numbered @seq, into @q. */
static int kst_copy(const struct kst_view *v, u64 seq, struct sk_buff_head *q)
{
	struct sk_buff_head *parts = kst_parts(v);
	struct sk_buff *skb, *c;

	if (!parts)
		return -ENOMEM;
	skb_queue_walk(parts, skb) {
		c = __pskb_copy(skb, 0, GFP_KERNEL);
		if (!c) {
			__skb_queue_purge(q);
			return -ENOMEM;
		}
		kst_sample_set_seq(c, seq);
		__skb_queue_tail(q, c);
	}
	return 0;
}

/*
 * To the group in the initial namespace, or in every namespace when
 * netns is open, each its own copy: a full listener in one costs the
 * others nothing.  Never waits for memory: with a blocking allocation,
 * netlink_broadcast() yields whenever a listener's queue is half full,
 * and anyone can join the group and never read.  -ENOBUFS when some
 * listener missed it.
 */
static int kst_multicast(struct sk_buff *skb)
{
	struct sk_buff *c;
	struct net *net;
	int err, ret = 0;

	if (!kst_prod.cfg.netns)
		return genlmsg_multicast_netns(&kst_family, &init_net, skb, 0,
					       KSTAT_NLGRP_SUMMARY, GFP_NOWAIT);
	rcu_read_lock();
	for_each_net_rcu(net) {
		c = skb_clone(skb, GFP_NOWAIT);
		err = c ? genlmsg_multicast_netns(&kst_family, net, c, 0,
						  KSTAT_NLGRP_SUMMARY,
						  GFP_NOWAIT) : -ENOBUFS;
		if (err && err != -ESRCH)
			ret = -ENOBUFS;
	}
	rcu_read_unlock();
	consume_skb(skb);
	return ret;
}

static void kst_flush_default(void)
{
	struct kst_stats *st = &kst_prod.st;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&kst_prod.def_queue))) {
		st->messages++;
		st->bytes += skb->len;
		if (kst_multicast(skb) == -ENOBUFS)
			st->delivery_failures++;
	}
	st->samples += kst_prod.def_queued;
	kst_prod.def_queued = 0;
}

/* The default stream's sample joins its batch; a full batch goes. */
static void kst_serve_default(u64 t)
{
	const struct kst_view v = {
		.sections = kst_prod.cfg.sections,
		.flags = kst_prod.cfg.percpu ? KSTAT_F_PERCPU : 0,
	};
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	if (kst_copy(&v, kst_prod.def_seq, &q)) {
		kst_prod.st.alloc_failures++;
	} else {
		skb_queue_splice_tail_init(&q, &kst_prod.def_queue);
		kst_prod.def_queued++;
	}
	kst_advance(&kst_prod.def_next_due, kst_prod.cfg.interval_ms, t);
	kst_prod.def_seq++;
	if (kst_prod.def_queued >= kst_prod.cfg.batch)
		kst_flush_default();
}

/* One member's sample; its seq moves on whether or not it got it. */
static void kst_serve_member(struct kst_member *m, u64 t)
{
	struct kst_stats *st = &kst_prod.st;
	struct sk_buff_head q;
	struct sk_buff *skb;
	unsigned int len;
	int err = 0;

	__skb_queue_head_init(&q);
	if (kst_copy(&m->view, m->seq, &q)) {
		st->alloc_failures++;
		goto advance;
	}
	while ((skb = __skb_dequeue(&q))) {
		len = skb->len;
		err = genlmsg_unicast(read_pnet(&m->net), skb, m->portid);
		if (err)
			break;
		st->messages++;
		st->bytes += len;
	}
	if (!err)
		st->samples++;
	else if (err == -ECONNREFUSED)	/* gone, and no URELEASE seen */
		kst_member_unlink(m);
	else	/* its buffer is full: this part and the rest are lost */
		st->delivery_failures += 1 + skb_queue_len(&q);
	__skb_queue_purge(&q);
advance:
	kst_advance(&m->next_due, m->interval_ms, t);
	m->seq++;
}

/*
 * Under kst_prod.lock.  Members are taken in batches under the
 * spinlock, each marked with the tick's number and held by a
 * reference: no array is sized by a count that may change.
 */
static void kst_serve_members(u64 t, u64 tick)
{
	struct kst_member *batch[KST_SERVE_BATCH], *m;
	unsigned int n, i;

	do {
		n = 0;
		spin_lock(&kst_members_lock);
		list_for_each_entry(m, &kst_members, node) {
			if (m->served == kst_prod.tick_no ||
			    !kst_member_live(m) ||
			    !kst_due(m->next_due, t, tick))
				continue;
			m->served = kst_prod.tick_no;
			refcount_inc(&m->ref);
			batch[n++] = m;
			if (n == KST_SERVE_BATCH)
				break;
		}
		spin_unlock(&kst_members_lock);
		for (i = 0; i < n; i++) {
			kst_serve_member(batch[i], t);
			kst_member_put(batch[i]);
		}
	} while (n == KST_SERVE_BATCH);
}

/* Under kst_prod.lock: the tick scheduled at @t, ticking every @tick ns. */
static void kst_tick(u64 t, u64 tick)
{
	struct kst_req req = {
		.cpu_last = nr_cpu_ids - 1, .irq_last = U32_MAX,
	};
	bool def_due = kst_prod.def_on &&
		       kst_due(kst_prod.def_next_due, t, tick);
	u64 start = ktime_get_ns(), ns;
	struct kst_member *m;
	unsigned int i;

	if (def_due) {
		req.view.sections = kst_prod.cfg.sections;
		req.view.flags = kst_prod.cfg.percpu ? KSTAT_F_PERCPU : 0;
	}
	spin_lock(&kst_members_lock);
	list_for_each_entry(m, &kst_members, node) {
		if (kst_member_live(m) && kst_due(m->next_due, t, tick)) {
			req.view.sections |= m->view.sections;
			req.view.flags |= m->view.flags;
		}
	}
	spin_unlock(&kst_members_lock);
	if (!req.view.sections)
		return;			/* nobody due at this tick */

	kst_prod.tick_no++;
	if (READ_ONCE(fail_ticks) > 0) {
		WRITE_ONCE(fail_ticks, READ_ONCE(fail_ticks) - 1);
		kst_prod.r = ERR_PTR(-ENOMEM);
	} else {
		kst_prod.r = kst_collect(&req, GFP_KERNEL);
	}
	if (!IS_ERR(kst_prod.r))
		kst_prod.st.ticks++;
	if (def_due)
		kst_serve_default(t);
	kst_serve_members(t, tick);

	for (i = 0; i < KST_NR_VIEWS; i++) {
		__skb_queue_purge(&kst_prod.parts[i]);
		kst_prod.built[i] = 0;
	}
	kst_reading_free(kst_prod.r);
	kst_prod.r = NULL;
	ns = ktime_get_ns() - start;
	kst_prod.st.tick_ns_total += ns;
	kst_prod.st.tick_ns_max = max(kst_prod.st.tick_ns_max, ns);
}

static void kst_work(struct work_struct *work)
{
	u64 now, t;

	mutex_lock(&kst_prod.lock);
	if (kst_prod.closing || !kst_prod.running)
		goto out;
	now = ktime_get_ns();
	if (now + 2 * TICK_NSEC < kst_prod.next_tick) {	/* run early */
		kst_schedule(kst_prod.next_tick);
		goto out;
	}
	kst_prod.tick_ms = kst_tick_ms();
	if (!kst_prod.tick_ms) {
		kst_prod.running = false;
		kst_default_stop();
		goto out;
	}
	t = kst_prod.next_tick;
	kst_tick(t, kst_ms(kst_prod.tick_ms));
	t += kst_ms(kst_prod.tick_ms);
	now = ktime_get_ns();
	kst_schedule(t > now ? t : now + kst_ms(kst_prod.tick_ms));
out:
	mutex_unlock(&kst_prod.lock);
}

/* ---- requests ----------------------------------------------------------- */

int kst_subscribe_default(struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&kst_prod.lock);
	if (kst_prod.closing) {
		NL_SET_ERR_MSG(extack, "kstat is being unloaded");
		err = -ESHUTDOWN;
	} else if (!kst_listening()) {
		NL_SET_ERR_MSG(extack,
			       "join the summary group first, or subscribe with a config");
		err = -ENOTCONN;
	} else if (!kst_prod.def_on) {
		kst_prod.def_on = true;
		kst_prod.def_next_due = ktime_get_ns() +
					kst_ms(kst_prod.cfg.interval_ms);
		kst_kick(kst_prod.def_next_due);
	}
	mutex_unlock(&kst_prod.lock);
	return err;
}

/*
 * Under kst_prod.lock: may @sub have (one more) subscription?  Its
 * socket's member, if any, comes back in @found with a reference: an
 * UNSUBSCRIBE on the same socket from another thread (parallel_ops)
 * may unlink it meanwhile.
 */
static int kst_sub_check(const struct kst_sub *sub, u32 interval_ms,
			 struct kst_member **found,
			 struct netlink_ext_ack *extack)
{
	unsigned int mine = 0;
	struct kst_member *m;

	if (!sub->priv && (sub->mask & KST_CFG_INTERVAL) &&
	    interval_ms < kst_prod.lim.min_interval_ms) {
		NL_SET_ERR_MSG(extack,
			       "interval below the limits' min-interval-ms");
		return -EINVAL;
	}
	*found = NULL;
	spin_lock(&kst_members_lock);
	list_for_each_entry(m, &kst_members, node) {
		if (net_eq(read_pnet(&m->net), sub->net) &&
		    m->portid == sub->portid) {
			refcount_inc(&m->ref);
			*found = m;
		} else if (uid_eq(m->uid, sub->uid)) {
			mine++;
		}
	}
	spin_unlock(&kst_members_lock);
	if (!*found && !sub->priv && mine >= kst_prod.lim.max_subscriptions) {
		NL_SET_ERR_MSG(extack,
			       "too many subscriptions for this user (limits max-subscriptions)");
		return -EUSERS;
	}
	return 0;
}

/*
 * A socket's own subscription, or its new terms: samples from one
 * interval on.  Its memory is charged to the subscriber.
 */
int kst_subscribe(const struct kst_sub *sub, struct netlink_ext_ack *extack)
{
	struct kst_member *nm, *m;
	u32 interval_ms;
	bool fresh;
	int err;

	if (sub->mask & (KST_CFG_BATCH | KST_CFG_NETNS)) {
		NL_SET_ERR_MSG(extack, "batch and netns are the default stream's");
		return -EINVAL;
	}
	nm = kzalloc(sizeof(*nm), GFP_KERNEL_ACCOUNT);
	if (!nm)
		return -ENOMEM;
	mutex_lock(&kst_prod.lock);
	interval_ms = sub->mask & KST_CFG_INTERVAL ? sub->cfg.interval_ms :
		      kst_prod.cfg.interval_ms;
	if (kst_prod.closing) {
		NL_SET_ERR_MSG(extack, "kstat is being unloaded");
		err = -ESHUTDOWN;
		goto out;
	}
	err = kst_sub_check(sub, interval_ms, &m, extack);
	if (err)
		goto out;
	fresh = !m;
	if (fresh) {
		m = nm;
		nm = NULL;
		INIT_LIST_HEAD(&m->node);
		refcount_set(&m->ref, 2);	/* the list's and ours */
		write_pnet(&m->net, get_net(sub->net));
		m->portid = sub->portid;
		m->uid = sub->uid;
	}
	m->interval_ms = interval_ms;
	m->view.sections = sub->mask & KST_CFG_SECTIONS ? sub->cfg.sections :
			   kst_prod.cfg.sections;
	m->view.flags = (sub->mask & KST_CFG_PERCPU ? sub->cfg.percpu :
			 kst_prod.cfg.percpu) ? KSTAT_F_PERCPU : 0;
	m->next_due = ktime_get_ns() + kst_ms(interval_ms);
	if (fresh) {	/* linked whole: the tick reads it at once */
		spin_lock(&kst_members_lock);
		list_add_tail(&m->node, &kst_members);
		kst_nr_members++;
		spin_unlock(&kst_members_lock);
	}
	kst_kick(m->next_due);
	kst_member_put(m);
out:
	mutex_unlock(&kst_prod.lock);
	kfree(nm);
	return err;
}

/* Also when the socket closes (extack NULL). */
int kst_unsubscribe(struct net *net, u32 portid,
		    struct netlink_ext_ack *extack)
{
	struct kst_member *m, *found = NULL;

	spin_lock(&kst_members_lock);
	list_for_each_entry(m, &kst_members, node) {
		if (net_eq(read_pnet(&m->net), net) && m->portid == portid) {
			found = m;
			list_del_init(&m->node);
			kst_nr_members--;
			break;
		}
	}
	spin_unlock(&kst_members_lock);
	if (!found) {
		NL_SET_ERR_MSG(extack, "no subscription from this socket");
		return -ENOENT;
	}
	kst_member_put(found);
	return 0;
}

void kst_config_get(struct kst_config *cfg, struct kst_limits *lim)
{
	mutex_lock(&kst_prod.lock);
	*cfg = kst_prod.cfg;
	*lim = kst_prod.lim;
	mutex_unlock(&kst_prod.lock);
}

/* Subscriptions keep what they asked; a shorter interval takes at once. */
void kst_config_set(const struct kst_config *cfg,
		    const struct kst_limits *lim, u32 mask)
{
	struct kst_config *c = &kst_prod.cfg;
	u64 due;

	mutex_lock(&kst_prod.lock);
	due = ktime_get_ns() + kst_ms(cfg->interval_ms);
	if (kst_prod.def_on && (mask & KST_CFG_INTERVAL) &&
	    due < kst_prod.def_next_due) {
		kst_prod.def_next_due = due;
		kst_kick(due);
	}
	kst_config_merge(c, &kst_prod.lim, cfg, lim, mask);
	if ((mask & KST_CFG_NETNS) && cfg->netns != c->netns) {
		/* read locklessly: kst_netns_open() */
		WRITE_ONCE(c->netns, cfg->netns);
		/* other namespaces' subscriptions are served again */
		if (c->netns)
			kst_kick(ktime_get_ns());
	}
	mutex_unlock(&kst_prod.lock);
}

void kst_stats_get(struct kst_stats *st)
{
	mutex_lock(&kst_prod.lock);
	*st = kst_prod.st;
	st->running = kst_prod.running;
	st->interval_ms = kst_prod.running ? kst_prod.tick_ms : 0;
	mutex_unlock(&kst_prod.lock);
	st->listening = kst_listening();
	st->generation = READ_ONCE(kst_generation);
	spin_lock(&kst_members_lock);
	st->subscriptions = kst_nr_members;
	spin_unlock(&kst_members_lock);
}

size_t kst_stats_size(void)
{
	return nla_total_size(0) + 8 * nla_total_size_64bit(sizeof(u64)) +
	       2 * nla_total_size(sizeof(u8)) + 3 * nla_total_size(sizeof(u32));
}

int kst_stats_fill(struct sk_buff *skb, const struct kst_stats *st)
{
	const u64 v[] = {
		st->ticks, st->tick_ns_total, st->tick_ns_max, st->samples,
		st->messages, st->bytes, st->delivery_failures,
		st->alloc_failures,
	};
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_STATS);
	unsigned int i;

	/* TICKS .. ALLOC_FAILURES are consecutive, in v[]'s order */
	static_assert(KSTAT_A_STATS_ALLOC_FAILURES - KSTAT_A_STATS_TICKS == 7);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (nla_put_u64_64bit(skb, KSTAT_A_STATS_TICKS + i, v[i],
				      KSTAT_A_STATS_PAD))
			return -EMSGSIZE;
	if (nla_put_u8(skb, KSTAT_A_STATS_RUNNING, st->running) ||
	    nla_put_u8(skb, KSTAT_A_STATS_LISTENING, st->listening) ||
	    nla_put_u32(skb, KSTAT_A_STATS_SUBSCRIPTIONS, st->subscriptions) ||
	    nla_put_u32(skb, KSTAT_A_STATS_INTERVAL_MS, st->interval_ms) ||
	    nla_put_u32(skb, KSTAT_A_STATS_GENERATION, st->generation))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* ---- a socket's release, init and exit ------------------------------------ */

static int kst_release(struct notifier_block *nb, unsigned long event,
		       void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    n->portid)
		kst_unsubscribe(n->net, n->portid, NULL);
	return NOTIFY_DONE;
}

static struct notifier_block kst_release_nb = {
	.notifier_call = kst_release,
};

int kst_members_init(void)
{
	return netlink_register_notifier(&kst_release_nb);
}

void kst_members_exit(void)
{
	netlink_unregister_notifier(&kst_release_nb);
}

void kst_producer_init(void)
{
	unsigned int i;

	mutex_init(&kst_prod.lock);
	INIT_DELAYED_WORK(&kst_prod.work, kst_work);
	kst_prod.cfg = kst_config_default;
	kst_prod.lim = kst_limits_default;
	__skb_queue_head_init(&kst_prod.def_queue);
	for (i = 0; i < KST_NR_VIEWS; i++)
		__skb_queue_head_init(&kst_prod.parts[i]);
}

/* Nothing ticks after this, and SUBSCRIBE starts nothing. */
void kst_producer_stop(void)
{
	mutex_lock(&kst_prod.lock);
	kst_prod.closing = true;
	mutex_unlock(&kst_prod.lock);
	cancel_delayed_work_sync(&kst_prod.work);
}

/* After the family and the notifier are gone. */
void kst_producer_exit(void)
{
	struct kst_member *m, *tmp;
	LIST_HEAD(gone);

	spin_lock(&kst_members_lock);
	list_splice_init(&kst_members, &gone);
	kst_nr_members = 0;
	spin_unlock(&kst_members_lock);
	list_for_each_entry_safe(m, tmp, &gone, node) {
		list_del_init(&m->node);
		kst_member_put(m);
	}
	kst_default_stop();
	mutex_destroy(&kst_prod.lock);
}
