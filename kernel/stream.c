// SPDX-License-Identifier: GPL-2.0
/*
 * kstat stream members: the sockets a stream of a reader's own unicasts
 * to.  summary.c keeps the streams and their producers; here are who
 * belongs to which, the limits on how many, and the unicast that reaches
 * them.
 *
 * A member is a socket: (netns, portid), with the uid that owns it.  A
 * socket is a member of one set at most, so the sockets are hashed by
 * (netns, portid) and a second SUBSCRIBE moves the member.  Netlink tells
 * us when a socket closes (NETLINK_URELEASE); the member leaves then,
 * and a unicast that finds the socket gone (ECONNREFUSED) removes it too.
 *
 * One spinlock, kst_mem_lock, guards every set and the hash.  It is held
 * only to link, unlink and copy: the unicast runs with it dropped, on
 * references taken under it, because on PREEMPT_RT a unicast may sleep.
 * The release notifier takes it too; notifier chains may run under RCU.
 */
#include <linux/hashtable.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "kst.h"

struct kst_member {
	struct list_head node;		/* in set->list */
	struct hlist_node hnode;	/* in kst_mem_hash */
	struct kst_members *set;	/* NULL once it has left */
	struct net *net;		/* a reference of its own */
	u32 portid;
	kuid_t uid;
	bool resync;			/* missed a message: a snapshot next */
	refcount_t ref;			/* the set's, and each sender's */
};

static DEFINE_SPINLOCK(kst_mem_lock);
static DEFINE_HASHTABLE(kst_mem_hash, 8);

static u32 kst_mem_key(const struct net *net, u32 portid)
{
	return hash_32(portid ^ hash_ptr(net, 32), 32);
}

static struct kst_member *kst_member_find(const struct net *net, u32 portid)
{
	struct kst_member *m;

	hash_for_each_possible(kst_mem_hash, m, hnode,
			       kst_mem_key(net, portid))
		if (m->portid == portid && net_eq(m->net, net))
			return m;
	return NULL;
}

/* Not under kst_mem_lock: the last put takes kst_nets_lock (deliver.c). */
static void kst_member_put(struct kst_member *m)
{
	if (!refcount_dec_and_test(&m->ref))
		return;
	kst_deliver_net_unhold(m->net);
	put_net(m->net);
	kfree(m);
}

/* Under kst_mem_lock: @m leaves its set; the set's reference is the caller's. */
static void kst_member_unlink(struct kst_member *m)
{
	struct kst_members *set = m->set;

	list_del(&m->node);
	hash_del(&m->hnode);
	m->set = NULL;
	if (!--set->count && set->emptied)
		set->emptied(set);
}

void kst_members_init(struct kst_members *set,
		      void (*emptied)(struct kst_members *set))
{
	INIT_LIST_HEAD(&set->list);
	set->count = 0;
	set->closed = false;
	set->emptied = emptied;
}

/*
 * Under kst_mem_lock: members of @uid and of @net, in every set, but
 * @self (a socket being moved takes no new place).
 */
static void kst_members_count(kuid_t uid, const struct net *net,
			      const struct kst_member *self,
			      unsigned int *by_uid, unsigned int *by_net)
{
	struct kst_member *m;
	unsigned int bkt;

	*by_uid = 0;
	*by_net = 0;
	hash_for_each(kst_mem_hash, bkt, m, hnode) {
		if (m == self)
			continue;
		*by_uid += uid_eq(m->uid, uid);
		*by_net += net_eq(m->net, net);
	}
}

static int kst_members_check(const struct kst_member *self, kuid_t uid,
			     const struct net *net,
			     const struct kst_limits *lim,
			     struct netlink_ext_ack *extack)
{
	unsigned int by_uid, by_net;

	kst_members_count(uid, net, self, &by_uid, &by_net);
	if (by_uid >= lim->max_members_user) {
		kst_limits_err(extack, KSTAT_A_LIMITS_MAX_MEMBERS_USER);
		return -EUSERS;
	}
	if (by_net >= lim->max_members_net) {
		kst_limits_err(extack, KSTAT_A_LIMITS_MAX_MEMBERS_NET);
		return -EUSERS;
	}
	return 0;
}

/*
 * The socket (@net, @portid) joins @set, leaving the set it was in, if
 * any.  @lim: the counts to hold it to (NULL: none, a privileged
 * reader).  0 when it joined, 1 when it was a member of @set already.
 */
int kst_members_add(struct kst_members *set, struct net *net, u32 portid,
		    kuid_t uid, const struct kst_limits *lim,
		    struct netlink_ext_ack *extack)
{
	struct kst_member *m, *old, *moved = NULL;
	int err = 0;

	/* the sender's, charged to its memory cgroup */
	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m) {
		NL_SET_ERR_MSG(extack, "no memory for a stream member");
		return -ENOMEM;
	}
	/* A member outside the initial netns holds a namespace's slot. */
	err = kst_deliver_net_hold(net, extack);
	if (err) {
		kfree(m);
		return err;
	}
	spin_lock(&kst_mem_lock);
	old = kst_member_find(net, portid);
	if (old && old->set == set) {
		old->resync = false;	/* it gets a snapshot now */
		err = 1;
		goto out;
	}
	if (WARN_ON_ONCE(set->closed)) {
		err = -ESHUTDOWN;
		goto out;
	}
	if (lim) {
		err = kst_members_check(old, uid, net, lim, extack);
		if (err)
			goto out;
	}
	if (old) {
		kst_member_unlink(old);
		moved = old;	/* put once unlocked: its last put may sleep */
	}
	m->net = get_net(net);
	m->portid = portid;
	m->uid = uid;
	m->set = set;
	refcount_set(&m->ref, 1);
	list_add_tail(&m->node, &set->list);
	hash_add(kst_mem_hash, &m->hnode, kst_mem_key(net, portid));
	set->count++;
	m = NULL;
out:
	spin_unlock(&kst_mem_lock);
	if (moved)
		kst_member_put(moved);
	if (m) {
		kst_deliver_net_unhold(net);
		kfree(m);
	}
	return err;
}

/* The socket leaves its set: -ENOENT when it is in none. */
int kst_members_remove(struct net *net, u32 portid)
{
	struct kst_member *m;

	spin_lock(&kst_mem_lock);
	m = kst_member_find(net, portid);
	if (m)
		kst_member_unlink(m);
	spin_unlock(&kst_mem_lock);
	if (!m)
		return -ENOENT;
	kst_member_put(m);
	return 0;
}

/* Only this socket, in @set: for the ECONNREFUSED of a unicast. */
static void kst_member_drop(struct kst_member *m)
{
	bool was = false;

	spin_lock(&kst_mem_lock);
	if (m->set) {
		kst_member_unlink(m);
		was = true;
	}
	spin_unlock(&kst_mem_lock);
	if (was)
		kst_member_put(m);
}

unsigned int kst_members_nr(const struct kst_members *set)
{
	unsigned int n;

	spin_lock(&kst_mem_lock);
	n = set->count;
	spin_unlock(&kst_mem_lock);
	return n;
}

/* Any member that needs a snapshot at this sample? */
bool kst_members_need_resync(struct kst_members *set)
{
	struct kst_member *m;
	bool any = false;

	spin_lock(&kst_mem_lock);
	list_for_each_entry(m, &set->list, node)
		any |= m->resync;
	spin_unlock(&kst_mem_lock);
	return any;
}

/*
 * Close an empty set for good: true when it was empty, and nobody can
 * join it or kick its owner any more.
 */
bool kst_members_close(struct kst_members *set)
{
	bool empty;

	spin_lock(&kst_mem_lock);
	empty = !set->count;
	set->closed = empty;
	spin_unlock(&kst_mem_lock);
	return empty;
}

/* Every member leaves (module unload). */
void kst_members_purge(struct kst_members *set)
{
	struct kst_member *m;

	for (;;) {
		spin_lock(&kst_mem_lock);
		m = list_first_entry_or_null(&set->list, struct kst_member,
					     node);
		if (m)
			kst_member_unlink(m);
		set->closed = true;
		spin_unlock(&kst_mem_lock);
		if (!m)
			return;
		kst_member_put(m);
	}
}

/* A reference to each member (at most @max), and whether it resyncs. */
static unsigned int kst_members_grab(struct kst_members *set,
				     struct kst_member **v, bool *resync,
				     unsigned int max, bool have_snap,
				     const struct net *skip, u32 skip_portid)
{
	struct kst_member *m;
	unsigned int n = 0;

	spin_lock(&kst_mem_lock);
	list_for_each_entry(m, &set->list, node) {
		if (n == max)
			break;
		if (m->portid == skip_portid && net_eq(m->net, skip))
			continue;
		refcount_inc(&m->ref);
		resync[n] = m->resync && have_snap;
		if (resync[n])
			m->resync = false;
		v[n++] = m;
	}
	spin_unlock(&kst_mem_lock);
	return n;
}

/* A full queue: the member's next message is a snapshot. */
static void kst_member_missed(struct kst_member *m)
{
	spin_lock(&kst_mem_lock);
	m->resync = true;
	spin_unlock(&kst_mem_lock);
}

/* The socket's SUBSCRIBE answer was lost: a snapshot at the next tick. */
void kst_members_resync(struct net *net, u32 portid)
{
	struct kst_member *m;

	spin_lock(&kst_mem_lock);
	m = kst_member_find(net, portid);
	if (m)
		m->resync = true;
	spin_unlock(&kst_mem_lock);
}

/* Clones of @parts, in order, to one socket; bytes sent, or an error. */
static long kst_member_send(struct kst_member *m, struct sk_buff_head *parts)
{
	struct sk_buff *skb, *clone;
	long bytes = 0;
	int err;

	skb_queue_walk(parts, skb) {
		clone = skb_clone(skb, GFP_KERNEL);
		if (!clone)
			return -ENOBUFS;
		bytes += skb->len;
		err = genlmsg_unicast(m->net, clone, m->portid);
		if (err)
			return err;
	}
	return bytes;
}

/*
 * Unicast @parts to every member of @set but the socket (@skip,
 * @skip_portid); to a member that missed a message, @snap instead when
 * given (the stream's last sample, whole).  The skbs stay the caller's:
 * each member gets clones.
 */
void kst_members_send(struct kst_members *set, struct sk_buff_head *parts,
		      struct sk_buff_head *snap, const struct net *skip,
		      u32 skip_portid, struct kst_members_sent *sent)
{
	unsigned int max = kst_members_nr(set), n, i;
	struct kst_member **v;
	bool *resync;
	long ret;

	if (!max || (skb_queue_empty(parts) && !snap))
		return;
	v = kmalloc_array(max, sizeof(*v) + sizeof(*resync), GFP_KERNEL);
	if (!v) {
		sent->failures += max;
		return;
	}
	resync = (bool *)(v + max);
	n = kst_members_grab(set, v, resync, max, snap, skip, skip_portid);
	for (i = 0; i < n; i++) {
		if (!resync[i] && skb_queue_empty(parts))
			continue;
		ret = kst_member_send(v[i], resync[i] ? snap : parts);
		if (ret >= 0) {
			sent->bytes += ret;
			sent->resyncs += resync[i];
		} else if (ret == -ECONNREFUSED) {
			kst_member_drop(v[i]);	/* its socket is gone */
		} else {
			sent->failures++;
			kst_member_missed(v[i]);
		}
		kst_member_put(v[i]);
	}
	kfree(v);
}

/* A generic netlink socket closed: if it was a member, it leaves. */
static int kst_mem_release(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	kst_members_remove(n->net, n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block kst_mem_nb = {
	.notifier_call = kst_mem_release,
};

int kst_members_init_module(void)
{
	return netlink_register_notifier(&kst_mem_nb);
}

void kst_members_exit_module(void)
{
	netlink_unregister_notifier(&kst_mem_nb);
}
