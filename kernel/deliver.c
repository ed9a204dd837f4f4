// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary delivery: which network namespaces get summaries, and
 * the multicast and unicast that reach them.  netlink.c hands over the
 * family at init, so that nothing here calls back into it.
 */
#include <linux/rcupdate.h>
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
 */
struct kst_net {
	bool subscribed;
};

static unsigned int kst_net_id __read_mostly;

static struct pernet_operations kst_net_ops = {
	.id	= &kst_net_id,
	.size	= sizeof(struct kst_net),
};

static struct kst_net *kst_net(struct net *net)
{
	return net_generic(net, kst_net_id);
}

void kst_deliver_net_subscribe(struct net *net)
{
	WRITE_ONCE(kst_net(net)->subscribed, true);
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
 * nothing.  GFP_ATOMIC: under rcu_read_lock(), and netlink_broadcast()
 * would yield() for a blocking allocation.  Nothing here disables
 * preemption: on PREEMPT_RT, RCU readers and the socket locks may sleep.
 * A net on the list stays usable until rcu_read_unlock(): cleanup_net()
 * unlists it and waits for a grace period before tearing it down.
 * Returns -ENOBUFS when some listener missed the message.
 */
int kst_deliver_multicast(struct sk_buff *skb)
{
	return kst_deliver_multicast_except(skb, NULL, 0);
}

/*
 * The same, but not to the socket @portid of @skip (NULL: to everyone).
 * Nobody else listening there is not nobody listening: that namespace
 * stays subscribed.
 */
int kst_deliver_multicast_except(struct sk_buff *skb, struct net *skip,
				 u32 portid)
{
	struct kst_net *kn;
	struct sk_buff *copy;
	struct net *net;
	u32 except;
	int err, ret = 0;

	rcu_read_lock();
	for_each_net_rcu(net) {
		kn = kst_net(net);
		if (!READ_ONCE(kn->subscribed))
			continue;
		copy = skb_clone(skb, GFP_ATOMIC);
		if (!copy) {
			ret = -ENOBUFS;
			continue;
		}
		except = net_eq(net, skip) ? portid : 0;
		err = genlmsg_multicast_netns(kst_deliver_family, net, copy,
					      except, KSTAT_NLGRP_SUMMARY,
					      GFP_ATOMIC);
		if (err == -ESRCH) {
			if (!except)
				WRITE_ONCE(kn->subscribed, false);
		} else if (err) {
			ret = -ENOBUFS;
		}
	}
	rcu_read_unlock();
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
