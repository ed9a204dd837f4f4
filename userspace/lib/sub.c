// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: subscriptions to the "summary" multicast group.
 *
 * Each notification is one part of a batch (KSTAT_A_BATCH_SEQ, PART i of
 * PARTS n) and carries sample nests; a sample split over parts repeats its
 * SEQ in every piece.  Pieces are applied to the state as they arrive and
 * a sample is handed to the callback once complete: when a piece of the
 * next sample starts, or when the batch's last part ends.
 *
 * Anything missed (a seq gap, an incomplete batch, a socket overrun) is
 * reported through ops->lost, and the state is not trusted again until a
 * keyframe has rebuilt it.  A sample counts as lost when a message that
 * held a piece of it is missing; at a part boundary the pieces cannot
 * tell whether a sample continues, so the sample just before a missing
 * part, or the first just after it, counts too.  With one message per
 * batch, each message the kernel drops costs exactly its batch's samples.
 */
#include <errno.h>
#include <stddef.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "libkstat.h"
#include "internal.h"

struct kstat_sub {
	struct nl_sock *sk;
	struct nl_cb *cb;
	struct kstat_sub_ops ops;
	void *arg;
	int brk;
	int delivered;			/* samples delivered by this dispatch */
	int err;			/* for dispatch to return, errmsg set */
	uint64_t lost;
	int rcvbuf;			/* granted, see sub_set_rcvbuf() */
	char errmsg[256];

	/* the family: its id for SUBSCRIBE, and whether it is there */
	int family;
	int present;
	int reloaded;			/* report KSTAT_LOST_RELOAD at resync */
	uint32_t sub_seq;		/* nlmsg_seq of our last SUBSCRIBE */
	enum { SNAP_NONE, SNAP_APPLY, SNAP_IGNORE } snap;

	/* the last multicast part taken, to drop copies of it */
	int have_part;
	uint64_t part_batch;
	uint32_t part_last;

	/* sequence and batch tracking */
	int have_seq;
	uint64_t next_seq;
	int synced;			/* state rebuilt by a keyframe */
	int overrun;			/* ENOBUFS not yet accounted for */
	int in_batch;
	int broken;			/* the next piece may continue a sample
					 * whose start went missing
					 */
	int skipping;			/* ignore pieces of sample skip_seq */
	uint64_t skip_seq;
	uint64_t batch_seq;
	uint32_t next_part, parts;

	/* the sample being assembled, and the state it applies to */
	int pending;			/* a sample has pieces applied */
	struct kstat_state st;
};

/* ---- sample boundaries, loss ---- */

static void report_lost(struct kstat_sub *sub, uint64_t n,
			enum kstat_lost_reason why)
{
	sub->lost += n;
	sub->synced = 0;
	if (sub->ops.lost)
		sub->ops.lost(n, why, sub->arg);
}

static void sample_finish(struct kstat_sub *sub)
{
	if (!sub->pending)
		return;
	sub->pending = 0;
	if (!sub->synced)
		return;
	kstat_state_finish(&sub->st);
	if (sub->ops.sample)
		sub->ops.sample(&sub->st.s, sub->arg);
	sub->delivered++;
}

/* The header of a sample piece: is it the pending sample, or a new one? */
struct piece {
	uint64_t seq, ts;
	uint32_t gen;
	int key;
	int has_seq;
};

/* A sample-header attribute into @p; 1 if @a is not one. */
static int piece_header_attr(const struct nlattr *a, struct piece *p)
{
	switch (kattr_type(a)) {
	case KSTAT_A_SAMPLE_SEQ:
		p->has_seq = 1;
		return kstat_get_u64(a, &p->seq);
	case KSTAT_A_SAMPLE_TIMESTAMP:
		return kstat_get_u64(a, &p->ts);
	case KSTAT_A_SAMPLE_GENERATION:
		return kstat_get_u32(a, &p->gen);
	case KSTAT_A_SAMPLE_KEYFRAME:
		p->key = 1;
		return 0;
	default:
		return 1;
	}
}

/*
 * The first sample after a reload: the new module's samples before it
 * (seq restarts at 0) are lost, and every counter restarted.  Reported
 * even when none were, so that a consumer knows of the restart.
 */
static void sample_begin(struct kstat_sub *sub, const struct piece *p)
{
	if (sub->reloaded) {
		sub->reloaded = 0;
		report_lost(sub, p->seq, KSTAT_LOST_RELOAD);
	} else if (sub->have_seq && p->seq > sub->next_seq) {
		report_lost(sub, p->seq - sub->next_seq,
			    sub->overrun ? KSTAT_LOST_OVERRUN : KSTAT_LOST_GAP);
	}
	sub->overrun = 0;
	sub->have_seq = 1;
	sub->next_seq = p->seq + 1;

	if (p->key) {
		kstat_state_reset(&sub->st);
		sub->synced = 1;
	}
	sub->pending = 1;
	sub->st.s.seq = p->seq;
	sub->st.s.timestamp_ns = p->ts;
	sub->st.s.generation = p->gen;
	sub->st.s.keyframe = p->key;
	sub->st.s.config_changed = 0;
	sub->st.s.sections = 0;
	sub->st.s.nr_irqs_changed = 0;
}

/* A sample we cannot complete: lost, unless we had not started yet. */
static void sample_skip(struct kstat_sub *sub, uint64_t seq)
{
	if (sub->have_seq && seq >= sub->next_seq)
		report_lost(sub, seq - sub->next_seq + 1,
			    sub->overrun ? KSTAT_LOST_OVERRUN : KSTAT_LOST_PARTIAL);
	sub->synced = 0;
	sub->overrun = 0;
	sub->have_seq = 1;
	sub->next_seq = seq + 1;
}

/*
 * Where a piece belongs: the pending sample, a new one, or nowhere (a
 * broken batch).  Returns 1 when its content must not be applied.
 */
static int piece_start(struct kstat_sub *sub, const struct piece *p)
{
	if (sub->pending && p->seq == sub->st.s.seq)
		return !sub->synced;
	if (sub->skipping && p->seq == sub->skip_seq)
		return 1;	/* more of the sample we gave up on */
	if (sub->have_seq && p->seq < sub->next_seq) {
		/*
		 * Had it: in the snapshot already, or a copy from another
		 * namespace.  Not a loss, and what follows begins here.
		 */
		sub->broken = 0;
		return 1;
	}
	sample_finish(sub);
	if (sub->broken) {
		/*
		 * The first piece of a part entered mid-batch: its sample
		 * may have begun in a part we never got.  Only this one:
		 * the samples after it in the part begin there.
		 */
		sub->broken = 0;
		sub->skipping = 1;
		sub->skip_seq = p->seq;
		if (!sub->have_seq || p->seq >= sub->next_seq)
			sample_skip(sub, p->seq);
		return 1;
	}
	sample_begin(sub, p);
	return !sub->synced;
}

/*
 * A sample piece: its header (which comes first, the UAPI says so), then
 * its content, applied by the sections unless the piece is to be skipped.
 */
static int sample_piece(struct kstat_sub *sub, const struct nlattr *nest)
{
	struct piece p = { 0 };
	const struct nlattr *a;
	int rem, err;

	kattr_for_each_nested(a, nest, rem) {
		if (kattr_type(a) > KSTAT_A_SAMPLE_KEYFRAME)
			break;		/* the content starts */
		if (kattr_type(a) == KSTAT_A_SAMPLE_PAD)
			continue;
		err = piece_header_attr(a, &p);
		if (err < 0)
			return err;
	}
	if (!p.has_seq)
		return -EBADMSG;
	if (rem > 0 && !kattr_ok(a, rem))
		return -EBADMSG;	/* trailing bytes, no content */
	if (rem <= 0) {
		piece_start(sub, &p);	/* a piece with a header only */
		return 0;
	}
	return kstat_state_apply(piece_start(sub, &p) ? NULL : &sub->st, a,
				 rem, p.key);
}

/* Drop the sample being assembled: some of its pieces never came. */
static void pending_drop(struct kstat_sub *sub)
{
	if (!sub->pending)
		return;
	sub->pending = 0;	/* its seq is already counted in next_seq */
	report_lost(sub, 1, sub->overrun ? KSTAT_LOST_OVERRUN :
					   KSTAT_LOST_PARTIAL);
	sub->overrun = 0;
}

/*
 * Check a part's place in its batch.  A batch that stops short loses
 * its open sample; one we enter after its first part (a lost part, or a
 * subscription that joined mid-batch) is skipped to its end.
 */
static void part_begin(struct kstat_sub *sub, uint64_t batch_seq,
		       uint32_t part, uint32_t parts)
{
	int continues = sub->in_batch && batch_seq == sub->batch_seq &&
			part == sub->next_part;

	if (!continues) {
		pending_drop(sub);
		sub->broken = part != 0;
		sub->skipping = 0;
	}
	sub->in_batch = 1;
	sub->batch_seq = batch_seq;
	sub->next_part = part + 1;
	sub->parts = parts;
}

/* Forget the batch being assembled: what comes next does not continue it. */
static void batch_reset(struct kstat_sub *sub)
{
	sub->pending = 0;
	sub->in_batch = 0;
	sub->broken = 0;
	sub->skipping = 0;
	sub->have_part = 0;
}

/*
 * SUBSCRIBE's answer, a keyframe with seq @seq, replaces the state,
 * unless we are in sync past it already (the first subscriber also gets
 * the multicast keyframe of that seq).  The multicast pieces up to @seq
 * that follow it are then dropped as old.
 */
static void snapshot_begin(struct kstat_sub *sub, uint64_t seq)
{
	if (sub->synced && seq < sub->next_seq) {
		sub->snap = SNAP_IGNORE;
		return;
	}
	sub->snap = SNAP_APPLY;
	batch_reset(sub);
	sub->synced = 0;
	sub->overrun = 0;
	sub->have_seq = 1;
	sub->next_seq = seq;		/* its sample is the next: no gap */
}

/*
 * Where a snapshot's part goes: 1 to drop it.  A part whose start we
 * never saw (part 0 lost) is dropped too: the multicast resyncs us.
 */
static int snapshot_part(struct kstat_sub *sub, uint64_t batch_seq,
			 uint32_t part)
{
	if (part == 0)
		snapshot_begin(sub, batch_seq);
	return sub->snap != SNAP_APPLY;
}

/*
 * A multicast part we took already: another namespace's copy of it
 * (a socket listening to all namespaces gets one from each).
 */
static int part_seen(struct kstat_sub *sub, uint64_t batch_seq, uint32_t part)
{
	if (sub->have_part && (batch_seq < sub->part_batch ||
			       (batch_seq == sub->part_batch &&
				part <= sub->part_last)))
		return 1;
	sub->have_part = 1;
	sub->part_batch = batch_seq;
	sub->part_last = part;
	return 0;
}

static int ctrl_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh);

/*
 * One notification message.  Exposed (internally) so tests and the
 * parse-cost benchmark can feed recorded messages without a socket.
 */
int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a, *tb[KSTAT_A_MAX + 1] = { 0 };
	struct nlattr *head;
	uint64_t batch_seq = 0;
	uint32_t part = 0, parts = 0;
	int rem, len, err = 0, snap;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return 0;
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		return ctrl_feed(sub, nlh);
	if (g->cmd != KSTAT_CMD_SUMMARY_NTF)
		return 0;	/* not a summary: not ours to judge */
	head = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	if (kstat_attrs_tile(head, len)) {
		err = -EBADMSG;
		goto bad;
	}
	kattr_for_each(a, head, len, rem)
		if (kattr_type(a) <= KSTAT_A_MAX)
			tb[kattr_type(a)] = a;
	if (!tb[KSTAT_A_BATCH_SEQ] || !tb[KSTAT_A_PART] || !tb[KSTAT_A_PARTS] ||
	    kstat_get_u64(tb[KSTAT_A_BATCH_SEQ], &batch_seq) ||
	    kstat_get_u32(tb[KSTAT_A_PART], &part) ||
	    kstat_get_u32(tb[KSTAT_A_PARTS], &parts) || part >= parts) {
		err = -EBADMSG;
		goto bad;
	}

	snap = tb[KSTAT_A_SNAPSHOT] != NULL;
	if (snap ? snapshot_part(sub, batch_seq, part) :
		   part_seen(sub, batch_seq, part))
		goto done;
	part_begin(sub, batch_seq, part, parts);
	kattr_for_each(a, head, len, rem) {
		if (kattr_type(a) != KSTAT_A_SAMPLE)
			continue;
		err = sample_piece(sub, a);
		if (err)
			goto bad;
	}
	if (part + 1 == parts) {
		sample_finish(sub);
		sub->in_batch = 0;
		sub->broken = 0;
		sub->skipping = 0;
	}
done:
	if (snap && part + 1 == parts)
		sub->snap = SNAP_NONE;
	return 0;
bad:
	/* a malformed notification: what it touched is lost, resync */
	snprintf(sub->errmsg, sizeof(sub->errmsg),
		 "malformed summary from the kernel: %s", strerror(-err));
	pending_drop(sub);
	sub->synced = 0;
	sub->in_batch = 0;
	sub->snap = SNAP_NONE;
	return err;
}

/* ---- the family going and coming back (nlctrl's "notify" group) ---- */

static int sub_join(struct kstat_sub *sub, int grp);
static int sub_request(struct kstat_sub *sub);

/* Is @a the string @str? */
static int attr_is(const struct nlattr *a, const char *str)
{
	size_t n = strlen(str) + 1;

	return kattr_len(a) >= (int)n && !memcmp(kattr_data(a), str, n);
}

/* The "summary" group's id among a family's CTRL_ATTR_MCAST_GROUPS. */
static int ctrl_summary_group(const struct nlattr *groups)
{
	const struct nlattr *g, *a;
	int rem, rem2, named, id;

	kattr_for_each_nested(g, groups, rem) {
		named = 0;
		id = -1;
		kattr_for_each_nested(a, g, rem2) {
			if (kattr_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
				named = attr_is(a, KSTAT_MCGRP_SUMMARY_NAME);
			else if (kattr_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				 kattr_len(a) == sizeof(uint32_t))
				memcpy(&id, kattr_data(a), sizeof(id));
		}
		if (named)
			return id;
	}
	return -1;
}

/* Gone: nothing arrives until it is back, and then counters restart. */
static void family_gone(struct kstat_sub *sub)
{
	if (!sub->present)
		return;
	sub->present = 0;
	sub->synced = 0;
	sub->have_seq = 0;
	sub->reloaded = 1;
	sub->snap = SNAP_NONE;
	batch_reset(sub);
	if (sub->ops.family)
		sub->ops.family(0, sub->arg);
}

/*
 * Back, maybe under another id and group: join it and subscribe again.
 * Its snapshot (or its next keyframe) resyncs us.
 */
static void family_back(struct kstat_sub *sub, int id, int grp)
{
	int err = 0;

	family_gone(sub);		/* a reload whose DELFAMILY we missed */
	sub->family = id;
	sub->present = 1;
	if (sub->sk && grp < 0) {
		snprintf(sub->errmsg, sizeof(sub->errmsg),
			 "the kstat family came back without a \"%s\" group",
			 KSTAT_MCGRP_SUMMARY_NAME);
		err = -ENOENT;
	} else if (sub->sk) {
		err = sub_join(sub, grp);
		if (!err)
			err = sub_request(sub);
	}
	if (err && !sub->err)
		sub->err = err;
	if (sub->ops.family)
		sub->ops.family(1, sub->arg);
}

/* CTRL_CMD_NEWFAMILY / DELFAMILY of "kstat"; other families are not ours. */
static int ctrl_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a, *name = NULL, *groups = NULL;
	int rem, len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	uint16_t id = 0;

	if (g->cmd != CTRL_CMD_NEWFAMILY && g->cmd != CTRL_CMD_DELFAMILY)
		return 0;
	kattr_for_each(a, (const struct nlattr *)((const char *)g + GENL_HDRLEN),
		       len, rem) {
		if (kattr_type(a) == CTRL_ATTR_FAMILY_NAME)
			name = a;
		else if (kattr_type(a) == CTRL_ATTR_FAMILY_ID &&
			 kattr_len(a) == sizeof(id))
			memcpy(&id, kattr_data(a), sizeof(id));
		else if (kattr_type(a) == CTRL_ATTR_MCAST_GROUPS)
			groups = a;
	}
	if (!name || !attr_is(name, KSTAT_FAMILY_NAME))
		return 0;
	if (g->cmd == CTRL_CMD_DELFAMILY)
		family_gone(sub);
	else
		family_back(sub, id, groups ? ctrl_summary_group(groups) : -1);
	return 0;
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	kstat_sub_feed(arg, nlmsg_hdr(msg));
	return NL_OK;
}

/*
 * The answer to our SUBSCRIBE, when it failed: kstat_sub_dispatch()
 * returns the error, with the kernel's text.  While the module unloads
 * (ESHUTDOWN, or ENOENT once it is gone) the failure is no news: its
 * DELFAMILY tells, and its NEWFAMILY makes us subscribe again.
 */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct kstat_sub *sub = arg;
	const char *ext;

	(void)nla;
	if (e->msg.nlmsg_seq != sub->sub_seq || e->error >= 0 ||
	    e->error == -ESHUTDOWN || e->error == -ENOENT || sub->err)
		return NL_SKIP;
	ext = kstat_extack(e);
	snprintf(sub->errmsg, sizeof(sub->errmsg),
		 "cannot subscribe to the summaries: %s",
		 ext ? ext : strerror(-e->error));
	sub->err = e->error;
	return NL_SKIP;
}

/*
 * A subscription without a socket yet; @size: what the caller's ops
 * hold, @cputime_size: the caller's sizeof(struct kstat_cputime).
 */
static struct kstat_sub *sub_alloc(const struct kstat_sub_ops *ops,
				   size_t size, size_t cputime_size, void *arg)
{
	struct kstat_sub *sub = calloc(1, sizeof(*sub));

	if (!sub)
		return NULL;
	memcpy(&sub->ops, ops, size);
	sub->st.cputime_size = cputime_size;
	sub->arg = arg;
	sub->present = 1;
	return sub;
}

struct kstat_sub *kstat_sub_alloc(const struct kstat_sub_ops *ops, void *arg)
{
	return sub_alloc(ops, sizeof(*ops), sizeof(struct kstat_cputime), arg);
}

struct kstat_sub *kstat_sub_alloc_sz(const struct kstat_sub_ops *ops,
				     size_t cputime_size, void *arg)
{
	if (kstat_cputime_size_check(NULL, cputime_size))
		return NULL;
	return sub_alloc(ops, sizeof(*ops), cputime_size, arg);
}

/* ---- the socket ---- */

/* Notifications carry no request's sequence number. */
static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int sub_join(struct kstat_sub *sub, int grp)
{
	if (nl_socket_add_membership(sub->sk, grp) == 0)
		return 0;
	snprintf(sub->errmsg, sizeof(sub->errmsg),
		 "cannot join the \"%s\" multicast group", KSTAT_MCGRP_SUMMARY_NAME);
	return -EPERM;
}

/*
 * SUBSCRIBE from the socket that joined, not the request handle: its
 * snapshot then arrives in order with the multicast, and
 * kstat_sub_dispatch() reads it.  No NLM_F_ACK: the snapshot says it
 * worked, an error is answered all the same, and an ACK would only take
 * room in a small receive buffer (and count as a drop there).
 */
static int sub_request(struct kstat_sub *sub)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret = -NLE_NOMEM;

	if (msg && genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, sub->family, 0,
			       0, KSTAT_CMD_SUBSCRIBE,
			       KSTAT_FAMILY_VERSION)) {
		ret = nl_send_auto(sub->sk, msg);
		sub->sub_seq = nlmsg_hdr(msg)->nlmsg_seq;
	}
	nlmsg_free(msg);
	if (ret >= 0)
		return 0;
	snprintf(sub->errmsg, sizeof(sub->errmsg), "cannot send SUBSCRIBE: %s",
		 nl_geterror(ret));
	return -EIO;
}

/* Resolve, then join: kstat's "summary" group and nlctrl's "notify". */
static int sub_join_groups(struct kstat_sub *sub)
{
	int grp, notify;

	grp = genl_ctrl_resolve_grp(sub->sk, KSTAT_FAMILY_NAME,
				    KSTAT_MCGRP_SUMMARY_NAME);
	notify = genl_ctrl_resolve_grp(sub->sk, "nlctrl", "notify");
	if (grp < 0 || notify < 0)
		return -ENOENT;
	if (nl_socket_add_membership(sub->sk, notify) < 0)
		return -EPERM;
	return sub_join(sub, grp);
}

/*
 * The receive buffer: SO_RCVBUFFORCE first (CAP_NET_ADMIN may pass
 * net.core.rmem_max), else SO_RCVBUF (capped there).  Records what the
 * kernel granted, as a request size (it reports twice that).
 */
static int sub_set_rcvbuf(struct kstat_sub *sub, int want)
{
	int fd = nl_socket_get_fd(sub->sk), got = 0;
	socklen_t len = sizeof(got);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)) &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)))
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len))
		return -errno;
	sub->rcvbuf = got / 2;
	return 0;
}

/* The socket, not yet connected, and the callbacks that read it. */
static int sub_socket(struct kstat_sub *sub)
{
	sub->sk = nl_socket_alloc();
	sub->cb = nl_cb_alloc(NL_CB_CUSTOM);
	if (!sub->sk || !sub->cb)
		return -ENOMEM;
	nl_socket_disable_seq_check(sub->sk);
	nl_cb_set(sub->cb, NL_CB_VALID, NL_CB_CUSTOM, on_msg, sub);
	nl_cb_set(sub->cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	nl_cb_err(sub->cb, NL_CB_CUSTOM, on_error, sub);
	return 0;
}

int kstat_sub_connect(struct kstat_sub *sub, int protocol, uint32_t *port)
{
	int err = sub_socket(sub);

	if (err)
		return err;
	if (nl_connect(sub->sk, protocol) < 0)
		return -EIO;
	nl_socket_set_nonblocking(sub->sk);
	*port = nl_socket_get_local_port(sub->sk);
	return 0;
}

static int sub_open(struct kstat_handle *h, const struct kstat_sub_ops *ops,
		    size_t cputime_size, void *arg, int rcvbuf,
		    struct kstat_sub **subp)
{
	struct kstat_sub *sub;
	int err, one = 1;

	*subp = NULL;
	sub = sub_alloc(ops, sizeof(*ops), cputime_size, arg);
	if (!sub)
		return -ENOMEM;
	sub->family = kstat_family_id(h);
	err = sub_socket(sub);
	if (err)
		goto fail;
	err = -EIO;
	if (genl_connect(sub->sk) < 0 || kstat_set_socket_options(sub->sk))
		goto fail;
	/*
	 * Without NETLINK_BROADCAST_ERROR the kernel's multicast reports
	 * success even when it had to drop a message for this socket, and
	 * the producer's delivery_failures would never count our overruns.
	 * Old kernels without the option still work: ignore a failure.
	 */
	(void)setsockopt(nl_socket_get_fd(sub->sk), SOL_NETLINK,
			 NETLINK_BROADCAST_ERROR, &one, sizeof(one));
	err = sub_set_rcvbuf(sub, rcvbuf > 0 ? rcvbuf : KSTAT_SUB_RCVBUF_DEFAULT);
	if (err) {
		snprintf(sub->errmsg, sizeof(sub->errmsg),
			 "cannot set the receive buffer: %s", strerror(-err));
		goto fail;
	}
	err = sub_join_groups(sub);
	if (err)
		goto fail;
	nl_socket_set_nonblocking(sub->sk);

	/* Joined: now the kernel's producer can see us. */
	err = sub_request(sub);
	if (err)
		goto fail;
	*subp = sub;
	return 0;
fail:
	/* the subscription goes: its explanation stays, on the handle */
	if (sub->errmsg[0])
		kstat_set_error(h, "%s", sub->errmsg);
	else if (err == -ENOENT)
		kstat_set_error(h, "the kstat kernel module is not loaded (try: modprobe kstat)");
	else
		kstat_set_error(h, "cannot subscribe: %s", strerror(-err));
	kstat_unsubscribe(sub);
	return err;
}

int kstat_subscribe_sz(struct kstat_handle *h, const struct kstat_sub_ops *ops,
		       size_t ops_size, size_t cputime_size, void *arg,
		       int rcvbuf, struct kstat_sub **subp)
{
	struct kstat_sub_ops known;
	const unsigned char *p = (const void *)ops;
	size_t i;

	*subp = NULL;
	if (kstat_cputime_size_check(h, cputime_size))
		return -EINVAL;
	/* sample and lost are required; what we do not know must be 0 */
	if (ops_size < offsetof(struct kstat_sub_ops, family)) {
		kstat_set_error(h, "struct kstat_sub_ops of %zu bytes is too small",
				ops_size);
		return -EINVAL;
	}
	for (i = sizeof(known); i < ops_size; i++) {
		if (p[i]) {
			kstat_set_error(h, "struct kstat_sub_ops has callbacks this libkstat does not know");
			return -E2BIG;
		}
	}
	memset(&known, 0, sizeof(known));
	memcpy(&known, ops, ops_size < sizeof(known) ? ops_size : sizeof(known));
	return sub_open(h, &known, cputime_size, arg, rcvbuf, subp);
}

int kstat_sub_rcvbuf(const struct kstat_sub *sub)
{
	return sub->rcvbuf;
}

void kstat_unsubscribe(struct kstat_sub *sub)
{
	if (!sub)
		return;
	kstat_state_free(&sub->st);
	if (sub->cb)
		nl_cb_put(sub->cb);
	if (sub->sk)
		nl_socket_free(sub->sk);
	free(sub);
}

int kstat_sub_fd(const struct kstat_sub *sub)
{
	return nl_socket_get_fd(sub->sk);
}

uint64_t kstat_sub_lost(const struct kstat_sub *sub)
{
	return sub->lost;
}

const char *kstat_sub_last_error(const struct kstat_sub *sub)
{
	return sub->errmsg;
}

void kstat_sub_break(struct kstat_sub *sub)
{
	sub->brk = 1;
}

/*
 * One nl_recvmsgs() round; an overrun is noted, not fatal.  An error a
 * callback noted (SUBSCRIBE refused, resubscribing failed) comes first:
 * ENOBUFS from SUBSCRIBE is not an overrun.
 */
static int sub_receive(struct kstat_sub *sub)
{
	int ret = nl_recvmsgs(sub->sk, sub->cb), err = sub->err;

	sub->err = 0;
	if (err)
		return err;
	if (ret == -NLE_NOMEM) {		/* ENOBUFS: we were overrun */
		sub->overrun = 1;
		return 0;
	}
	if (ret == -NLE_AGAIN)
		return -EAGAIN;
	if (ret < 0) {
		snprintf(sub->errmsg, sizeof(sub->errmsg), "netlink: %s",
			 nl_geterror(ret));
		return -EIO;
	}
	return 0;
}

int kstat_sub_dispatch(struct kstat_sub *sub)
{
	int err, reads = 0;

	sub->delivered = 0;
	do {
		err = sub_receive(sub);
	} while (!err && !sub->brk && ++reads < KSTAT_SUB_DISPATCH_READS);
	if (err && err != -EAGAIN)
		return err;
	return sub->delivered;
}

int kstat_sub_loop(struct kstat_sub *sub)
{
	struct pollfd pfd = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	int err = 0;

	sub->brk = 0;
	while (!sub->brk && err >= 0) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		err = kstat_sub_dispatch(sub);
	}
	return err < 0 ? err : 0;
}
