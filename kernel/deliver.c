// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary delivery: which network namespaces get summaries, and
 * the multicast and unicast that reach them.  netlink.c hands over the
 * family at init, so that nothing here calls back into it.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/stringify.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "kst.h"

static const struct genl_family *kst_deliver_family;

/*
 * Which network namespaces get summaries: those that sent SUBSCRIBE,
 * until a multicast there finds nobody listening.  Netlink keeps one
 * listener set per protocol, not per namespace, so a namespace's
 * listeners are only seen to be gone by a multicast that reaches none.
 *
 * Any user can make namespaces, and each subscribed one costs a
 * netlink_broadcast() per part, which walks every generic netlink
 * multicast socket of every namespace.  So the subscribed namespaces
 * are a list, at most KSTAT_NETNS_MAX long besides the initial one, that
 * delivery walks under a mutex: it may copy with GFP_KERNEL and
 * reschedule between namespaces, neither of which an RCU walk of all
 * namespaces allows.  A SUBSCRIBE from a namespace not listed holds a
 * slot (admitting) from before it starts until it is answered, so the
 * bound is checked once, up front, and never breaks a SUBSCRIBE half way.
 *
 * A net on the list is alive: its pernet exit hook unlists it under
 * kst_nets_lock, and runs before genl's own (registered at boot, so
 * exited later) releases net->genl_sock.
 */
struct kst_net {
	struct list_head node;		/* on kst_nets while listed */
	struct net *net;
	bool listed;
	unsigned int admitting;		/* SUBSCRIBEs in flight from here */
	unsigned int members;		/* of own streams (stream.c) */
};

static LIST_HEAD(kst_nets);
static DEFINE_MUTEX(kst_nets_lock);
/* Under kst_nets_lock: nets but init_net that are listed or admitting. */
static unsigned int kst_nr_nets;

static unsigned int kst_net_id __read_mostly;

static struct kst_net *kst_net(struct net *net)
{
	return net_generic(net, kst_net_id);
}

/* Does @kn hold one of the KSTAT_NETNS_MAX slots?  init_net never does. */
static bool kst_net_counted(const struct kst_net *kn)
{
	return (kn->listed || kn->admitting || kn->members) &&
	       !net_eq(kn->net, &init_net);
}

/* Under kst_nets_lock: list or unlist @kn, @admitting more or fewer. */
static void kst_net_set(struct kst_net *kn, bool listed, int admitting)
{
	bool counted = kst_net_counted(kn);

	if (listed != kn->listed) {
		if (listed)
			list_add_tail(&kn->node, &kst_nets);
		else
			list_del(&kn->node);
		WRITE_ONCE(kn->listed, listed);
	}
	kn->admitting += admitting;
	kst_nr_nets += kst_net_counted(kn) - counted;
}

/*
 * Under kst_nets_lock: 0 when @kn holds a slot or may take one, else
 * -EUSERS, with the bound in @extack.
 */
static int kst_net_room(const struct kst_net *kn,
			struct netlink_ext_ack *extack)
{
	if (kst_net_counted(kn) || net_eq(kn->net, &init_net) ||
	    kst_nr_nets < KSTAT_NETNS_MAX)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "summaries go to at most " __stringify(KSTAT_NETNS_MAX)
		       " network namespaces besides the initial one");
	return -EUSERS;
}

static int __net_init kst_net_init(struct net *net)
{
	kst_net(net)->net = net;
	return 0;
}

/* No SUBSCRIBE is in flight: its socket would hold the net. */
static void __net_exit kst_net_exit(struct net *net)
{
	struct kst_net *kn = kst_net(net);

	mutex_lock(&kst_nets_lock);
	kst_net_set(kn, false, 0);
	mutex_unlock(&kst_nets_lock);
}

static struct pernet_operations kst_net_ops = {
	.init	= kst_net_init,
	.exit	= kst_net_exit,
	.id	= &kst_net_id,
	.size	= sizeof(struct kst_net),
};

/*
 * Before a SUBSCRIBE from @net: a slot for it, or -EUSERS when
 * KSTAT_NETNS_MAX other namespaces hold one.  Returns 1 when it took a
 * slot, to give back with kst_deliver_net_release() once the SUBSCRIBE
 * is answered, 0 when @net is listed already: a storm of SUBSCRIBEs from
 * a subscribed namespace takes no lock that delivery needs.
 */
int kst_deliver_net_admit(struct net *net, struct netlink_ext_ack *extack)
{
	struct kst_net *kn = kst_net(net);
	int ret;

	if (READ_ONCE(kn->listed))
		return 0;
	mutex_lock(&kst_nets_lock);
	ret = kst_net_room(kn, extack) ?: 1;
	if (ret > 0)
		kst_net_set(kn, kn->listed, 1);
	mutex_unlock(&kst_nets_lock);
	return ret;
}

/*
 * A member of an own stream in @net, from the socket's SUBSCRIBE: it
 * holds a slot as a listed namespace does, so that an unprivileged
 * user's namespaces are bounded whichever stream they read.  -EUSERS
 * when @net would take a new slot and none is left.
 */
int kst_deliver_net_hold(struct net *net, struct netlink_ext_ack *extack)
{
	struct kst_net *kn = kst_net(net);
	int ret = 0;

	bool counted;

	mutex_lock(&kst_nets_lock);
	ret = kst_net_room(kn, extack);
	if (!ret) {
		counted = kst_net_counted(kn);
		kn->members++;
		kst_nr_nets += kst_net_counted(kn) - counted;
	}
	mutex_unlock(&kst_nets_lock);
	return ret;
}

/* That member is gone (its reference to @net is still held). */
void kst_deliver_net_unhold(struct net *net)
{
	struct kst_net *kn = kst_net(net);
	bool counted;

	mutex_lock(&kst_nets_lock);
	counted = kst_net_counted(kn);
	kn->members--;
	kst_nr_nets -= counted && !kst_net_counted(kn);
	mutex_unlock(&kst_nets_lock);
}

/* A SUBSCRIBE that took a slot was answered; its net keeps it if listed. */
void kst_deliver_net_release(struct net *net)
{
	struct kst_net *kn = kst_net(net);

	mutex_lock(&kst_nets_lock);
	kst_net_set(kn, kn->listed, -1);
	mutex_unlock(&kst_nets_lock);
}

/*
 * Summaries go to @net from now on.  Under kst_send_lock, as every
 * multicast, the only other thing that unlists a namespace where someone
 * listens: one listed stays so until we return.  One that was listed at
 * admission and unlisted since (a multicast found nobody there: the
 * sender's queue was full) is listed again only if there is room.
 */
void kst_deliver_net_subscribe(struct net *net)
{
	struct kst_net *kn = kst_net(net);

	if (READ_ONCE(kn->listed))
		return;
	mutex_lock(&kst_nets_lock);
	if (!kst_net_room(kn, NULL))
		kst_net_set(kn, true, 0);
	mutex_unlock(&kst_nets_lock);
}

/*
 * Nobody listens in any namespace (the producer stops): none stays
 * subscribed, so that namespaces whose listeners left hold no slot
 * while nothing multicasts that would find them gone.
 */
void kst_deliver_nets_clear(void)
{
	struct kst_net *kn, *tmp;

	mutex_lock(&kst_nets_lock);
	list_for_each_entry_safe(kn, tmp, &kst_nets, node)
		kst_net_set(kn, false, 0);
	mutex_unlock(&kst_nets_lock);
}

/* @portid 0: a multicast; else a message for that socket alone. */
struct sk_buff *kst_deliver_msg_new(size_t size, u32 portid, u32 seq,
				    void **hdr)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, portid, seq, kst_deliver_family, 0,
			   KSTAT_CMD_SUMMARY_NTF);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/*
 * Consumes @skb.  One copy per subscribed namespace, each delivered
 * independently, so that a full receive queue in one costs the others
 * nothing.  Returns -ENOBUFS when some listener missed the message.
 */
int kst_deliver_multicast(struct sk_buff *skb)
{
	return kst_deliver_multicast_except(skb, NULL, 0);
}

/*
 * Under kst_nets_lock: one copy of @skb into @kn's namespace, but not to
 * the socket @except there (0: to all).  Nobody else listening there is
 * not nobody listening: that namespace stays subscribed.  The broadcast
 * does not wait for memory (GFP_NOWAIT): with a blocking allocation,
 * netlink_broadcast() yield()s whenever a listener's queue is half full,
 * and any user can join the group and never read.
 */
static int kst_deliver_net(struct kst_net *kn, struct sk_buff *skb,
			   u32 except)
{
	struct sk_buff *copy = skb_clone(skb, GFP_KERNEL);
	int err;

	if (!copy)
		return -ENOBUFS;
	err = genlmsg_multicast_netns(kst_deliver_family, kn->net, copy,
				      except, KSTAT_NLGRP_SUMMARY, GFP_NOWAIT);
	if (err == -ESRCH) {
		if (!except)
			kst_net_set(kn, false, 0);
		return 0;
	}
	return err ? -ENOBUFS : 0;
}

/*
 * The same, but not to the socket @portid of @skip (NULL: to everyone).
 * At most KSTAT_NETNS_MAX + 1 broadcasts, with a chance to reschedule
 * after each: nothing here disables preemption, and on PREEMPT_RT the
 * socket locks netlink_broadcast() takes may sleep.
 */
int kst_deliver_multicast_except(struct sk_buff *skb, struct net *skip,
				 u32 portid)
{
	struct kst_net *kn, *tmp;
	int ret = 0;

	mutex_lock(&kst_nets_lock);
	list_for_each_entry_safe(kn, tmp, &kst_nets, node) {
		if (kst_deliver_net(kn, skb, net_eq(kn->net, skip) ? portid : 0))
			ret = -ENOBUFS;
		cond_resched();
	}
	mutex_unlock(&kst_nets_lock);
	consume_skb(skb);
	return ret;
}

/* Send every part of @parts to one socket; stop at the first failure. */
int kst_deliver_unicast(struct sk_buff_head *parts, struct net *net,
			u32 portid)
{
	struct sk_buff *skb;
	int err;

	while ((skb = __skb_dequeue(parts))) {
		err = genlmsg_unicast(net, skb, portid);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Does the "summary" group have a listener?  Netlink keeps one listener
 * mask per protocol, shared by all network namespaces, so this is true
 * when any namespace listens: the producer runs while anyone does.
 */
bool kst_deliver_has_listeners(void)
{
	return genl_has_listeners(kst_deliver_family, &init_net,
				  KSTAT_NLGRP_SUMMARY);
}

/* Before the family is registered: nothing is delivered until then. */
int __init kst_deliver_init(const struct genl_family *family)
{
	kst_deliver_family = family;
	return register_pernet_subsys(&kst_net_ops);
}

void kst_deliver_exit(void)
{
	unregister_pernet_subsys(&kst_net_ops);
}
