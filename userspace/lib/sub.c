// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: subscriptions to the "summary" multicast group, or to a
 * stream of the subscriber's own (kstat_subscribe_opts(): SUBSCRIBE with
 * KSTAT_A_CONFIG, summaries unicast to it, each with its stream's id).
 *
 * Each notification is one part of a batch (KSTAT_A_BATCH_SEQ, PART i of
 * PARTS n) and carries sample nests; a sample split over parts repeats its
 * SEQ in every piece.  Pieces are applied to the state as they arrive and
 * a sample is handed to the callback once complete: when a piece of the
 * next sample starts, or when the batch's last part ends.
 *
 * Anything missed (a seq gap, an incomplete batch, a socket overrun) is
 * reported through ops->lost, and the state is not trusted again until a
 * keyframe has rebuilt it.  An overrun is repaired at once: SUBSCRIBE
 * again (its snapshot is a keyframe) and look the family up again (the
 * overrun may have swallowed nlctrl's notification of a reload).  For a
 * stream of our own the kernel sends the overrun member a snapshot
 * itself: only the lookup is ours.  A sample counts as lost when a message that
 * held a piece of it is missing; at a part boundary the pieces cannot
 * tell whether a sample continues, so the sample just before a missing
 * part, or the first just after it, counts too.  With one message per
 * batch, each message the kernel drops costs exactly its batch's samples.
 */
#include <errno.h>
#include <inttypes.h>
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
	int brk;			/* kstat_sub_break(): ends this loop */
	int busy;			/* in dispatch, loop or feed: callbacks
					 * may run, and unsubscribing waits
					 */
	int dead;			/* unsubscribed by a callback */
	int delivered;			/* samples delivered by this dispatch */
	int err;			/* for dispatch to return, errmsg set */
	uint64_t lost;
	int rcvbuf;			/* granted, see sub_set_rcvbuf() */
	int rcvbuf_forced;		/* ... with SO_RCVBUFFORCE */
	int rcvbuf_fixed;		/* the program chose its size: kept */
	int64_t rcvbuf_need;		/* for the largest burst seen */
	int rcvbuf_warned;		/* that the need is not met, once */
	char errmsg[256];

	/*
	 * A stream of our own (kstat_subscribe_opts()): SUBSCRIBE carries
	 * its options, no group is joined, and the kernel resyncs an overrun
	 * itself.  @stream: the id of the last summary's stream.
	 */
	int own;
	struct kstat_sub_opts opts;
	uint32_t stream;

	/* the family: its id for SUBSCRIBE, and whether it is there */
	int family;
	int group;			/* its "summary" group, joined */
	int present;
	int refused;			/* family refused_id: another version */
	int refused_id;
	uint32_t lookup_seq;		/* nlmsg_seq of our GETFAMILY, 0: none */
	/* an overrun to repair: SUBSCRIBE and GETFAMILY again */
	int repair_wanted;
	int repair_armed;		/* an answer or a multicast came since
					 * the last repair: never a storm
					 */
	uint32_t repair_seq;		/* nlmsg_seq of its SUBSCRIBE */
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
	int been_synced;		/* since the module's start: a jump in
					 * seq is then a loss
					 */
	int overrun;			/* ENOBUFS not yet accounted for */
	unsigned int futile;		/* overruns since the last sample */
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
	if (sub->ops.lost && !sub->dead)
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
	if (sub->ops.sample && !sub->dead)
		sub->ops.sample(&sub->st.s, sub->arg);
	sub->delivered++;
	sub->futile = 0;
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
		sub->been_synced = 1;
	}
	sub->pending = 1;
	sub->st.s.seq = p->seq;
	sub->st.s.timestamp_ns = p->ts;
	sub->st.s.generation = p->gen;
	sub->st.s.keyframe = p->key;
	sub->st.s.stream = sub->stream;
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
	/*
	 * Past what we had (an overrun's repair): the samples in between
	 * never reach the consumer, who had a stream; before the first
	 * keyframe of this module there was none to lose.
	 */
	if (sub->been_synced && !sub->reloaded && sub->have_seq &&
	    seq > sub->next_seq)
		report_lost(sub, seq - sub->next_seq,
			    sub->overrun ? KSTAT_LOST_OVERRUN : KSTAT_LOST_GAP);
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
static void sub_burst(struct kstat_sub *sub, uint32_t parts);
static void sub_enter(struct kstat_sub *sub);
static int sub_leave(struct kstat_sub *sub);
static int summary_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh);

/*
 * One notification message.  Exposed (internally) so tests and the
 * parse-cost benchmark can feed recorded messages without a socket.  A
 * callback may unsubscribe meanwhile: the subscription is then freed
 * on the way out.
 */
int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	int err;

	sub_enter(sub);
	err = summary_feed(sub, nlh);
	sub_leave(sub);
	return err;
}

/*
 * The stream of a summary (KSTAT_A_SUMMARY_STREAM, absent or 0 for the
 * default stream): 1 if it is not of the kind we asked for (a multicast
 * reaching a socket with a stream of its own through a group another
 * part of the program joined), else 0 with its id noted for the samples.
 */
static int summary_stream(struct kstat_sub *sub, const struct nlattr *a)
{
	uint32_t id = 0;

	if (a && kstat_get_u32(a, &id))
		return -EBADMSG;
	if ((id != 0) != (sub->own != 0))
		return 1;
	sub->stream = id;
	return 0;
}

static int summary_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
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

	err = summary_stream(sub, tb[KSTAT_A_SUMMARY_STREAM]);
	if (err < 0)
		goto bad;
	if (err > 0)
		return 0;	/* another stream's */
	snap = tb[KSTAT_A_SNAPSHOT] != NULL;
	sub_burst(sub, parts);
	if (!snap || part + 1 == parts)
		sub->repair_armed = 1;
	if (snap ? snapshot_part(sub, batch_seq, part) :
		   part_seen(sub, batch_seq, part))
		goto done;
	part_begin(sub, batch_seq, part, parts);
	kattr_for_each(a, head, len, rem) {
		if (sub->dead)
			return 0;	/* unsubscribed by a callback */
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
static int sub_request(struct kstat_sub *sub, uint32_t *seq);

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

/* What nlctrl says of a family: in its notifications and its replies. */
struct ctrl_family {
	uint16_t id;
	int has_version;
	uint32_t version;
	int group;			/* "summary", -1: none */
};

/* nlctrl's message of family "kstat" into @f: 1, or 0 for another. */
static int ctrl_parse(const struct nlmsghdr *nlh, struct ctrl_family *f)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *a, *name = NULL, *groups = NULL;
	int rem, len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

	memset(f, 0, sizeof(*f));
	kattr_for_each(a, (const struct nlattr *)((const char *)g + GENL_HDRLEN),
		       len, rem) {
		if (kattr_type(a) == CTRL_ATTR_FAMILY_NAME)
			name = a;
		else if (kattr_type(a) == CTRL_ATTR_FAMILY_ID &&
			 kattr_len(a) == sizeof(f->id))
			memcpy(&f->id, kattr_data(a), sizeof(f->id));
		else if (kattr_type(a) == CTRL_ATTR_VERSION &&
			 kattr_len(a) == sizeof(f->version)) {
			memcpy(&f->version, kattr_data(a), sizeof(f->version));
			f->has_version = 1;
		} else if (kattr_type(a) == CTRL_ATTR_MCAST_GROUPS) {
			groups = a;
		}
	}
	f->group = groups ? ctrl_summary_group(groups) : -1;
	return name && attr_is(name, KSTAT_FAMILY_NAME);
}

/* Gone: nothing arrives until it is back, and then counters restart. */
static void family_gone(struct kstat_sub *sub)
{
	if (!sub->present)
		return;
	sub->present = 0;
	sub->synced = 0;
	sub->been_synced = 0;
	sub->have_seq = 0;
	sub->reloaded = 1;
	sub->snap = SNAP_NONE;
	batch_reset(sub);
	if (sub->ops.family && !sub->dead)
		sub->ops.family(0, sub->arg);
}

/*
 * A module of another wire format in place of ours: we do not join it.
 * Said once (the loss callback, then kstat_sub_dispatch()'s -EPROTO
 * with what to install); a module of our version is joined when it
 * comes (its NEWFAMILY).
 */
static void family_refuse(struct kstat_sub *sub, const struct ctrl_family *f)
{
	if (sub->refused && sub->refused_id == f->id)
		return;
	sub->refused = 1;
	sub->refused_id = f->id;
	if (!f->has_version)
		snprintf(sub->errmsg, sizeof(sub->errmsg),
			 "the kstat module loaded since gives no protocol version: install the kstat module of this libkstat's release");
	else
		kstat_version_text("the kstat module loaded since", f->version,
				   sub->errmsg, sizeof(sub->errmsg));
	if (!sub->err)
		sub->err = -EPROTO;
	report_lost(sub, 0, KSTAT_LOST_VERSION);
}

/*
 * Back, maybe under another id and group: check its wire format, join
 * it and subscribe again.  Its snapshot (or its next keyframe) resyncs
 * us.
 */
static void family_back(struct kstat_sub *sub, const struct ctrl_family *f)
{
	int err = 0;

	family_gone(sub);		/* a reload whose DELFAMILY we missed */
	if (!f->has_version || f->version != KSTAT_FAMILY_VERSION) {
		family_refuse(sub, f);
		return;
	}
	sub->refused = 0;
	sub->family = f->id;
	sub->group = f->group;
	sub->present = 1;
	if (sub->sk && sub->own) {
		err = sub_request(sub, &sub->sub_seq);	/* the same options */
	} else if (sub->sk && f->group < 0) {
		snprintf(sub->errmsg, sizeof(sub->errmsg),
			 "the kstat family came back without a \"%s\" group",
			 KSTAT_MCGRP_SUMMARY_NAME);
		err = -ENOENT;
	} else if (sub->sk) {
		err = sub_join(sub, f->group);
		if (!err)
			err = sub_request(sub, &sub->sub_seq);
	}
	if (err && !sub->err)
		sub->err = err;
	if (sub->ops.family && !sub->dead)
		sub->ops.family(1, sub->arg);
}

/*
 * The answer to our GETFAMILY after an overrun: the family as we know
 * it (nothing missed), or one whose NEWFAMILY the overrun swallowed.
 */
static void family_found(struct kstat_sub *sub, const struct ctrl_family *f)
{
	if (sub->present && f->id == sub->family && f->group == sub->group &&
	    f->has_version && f->version == KSTAT_FAMILY_VERSION)
		return;
	family_back(sub, f);
}

/*
 * CTRL_CMD_NEWFAMILY / DELFAMILY of "kstat", notified or answering our
 * GETFAMILY; other families are not ours.
 */
static int ctrl_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct ctrl_family f;

	if (g->cmd != CTRL_CMD_NEWFAMILY && g->cmd != CTRL_CMD_DELFAMILY)
		return 0;
	if (!ctrl_parse(nlh, &f))
		return 0;
	if (sub->lookup_seq && nlh->nlmsg_seq == sub->lookup_seq) {
		sub->lookup_seq = 0;
		sub->repair_armed = 1;
		family_found(sub, &f);
	} else if (g->cmd == CTRL_CMD_DELFAMILY) {
		family_gone(sub);
		sub->refused = 0;
	} else {
		family_back(sub, &f);
	}
	return 0;
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	struct kstat_sub *sub = arg;

	/* inside a dispatch, which frees the subscription if it must */
	summary_feed(sub, nlmsg_hdr(msg));
	return sub->dead ? NL_STOP : NL_OK;
}

/*
 * An error answer.  To our GETFAMILY: ENOENT, the family is gone (the
 * DELFAMILY went missing).  To an overrun's SUBSCRIBE: nothing to
 * report (its snapshot did not fit, or the module is going); the next
 * keyframe or overrun resyncs.  To our SUBSCRIBE otherwise, when it
 * failed: kstat_sub_dispatch() returns the error, with the kernel's
 * text.  While the module unloads (ESHUTDOWN, or ENOENT once it is
 * gone) the failure is no news: its DELFAMILY tells, and its NEWFAMILY
 * makes us subscribe again.
 */
static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct kstat_sub *sub = arg;
	const char *ext;

	(void)nla;
	if (sub->lookup_seq && e->msg.nlmsg_seq == sub->lookup_seq) {
		sub->lookup_seq = 0;
		sub->repair_armed = 1;
		if (e->error == -ENOENT) {
			family_gone(sub);
			sub->refused = 0;
		}
		return NL_SKIP;
	}
	if (sub->repair_seq && e->msg.nlmsg_seq == sub->repair_seq) {
		sub->repair_armed = 1;
		return NL_SKIP;
	}
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
	sub->repair_armed = 1;
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
 * A stream of our own: KSTAT_A_CONFIG with the fields asked for (an
 * empty nest takes every default: still a stream of our own).
 */
static int put_opts(struct nl_msg *msg, const struct kstat_sub_opts *o)
{
	struct nlattr *nest = nla_nest_start(msg, KSTAT_A_CONFIG);

	if (!nest ||
	    ((o->fields & KSTAT_CONFIG_INTERVAL) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_INTERVAL_MS, o->interval_ms)) ||
	    ((o->fields & KSTAT_CONFIG_BATCH) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_BATCH, o->batch)) ||
	    ((o->fields & KSTAT_CONFIG_KEYFRAME) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_KEYFRAME, o->keyframe)) ||
	    ((o->fields & KSTAT_CONFIG_SECTIONS) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_SECTIONS, o->sections)) ||
	    ((o->fields & KSTAT_CONFIG_PERCPU) &&
	     nla_put_u8(msg, KSTAT_A_CONFIG_PERCPU, !!o->percpu)))
		return -NLE_NOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * SUBSCRIBE from the socket that joined, not the request handle: its
 * snapshot then arrives in order with the multicast, and
 * kstat_sub_dispatch() reads it.  No NLM_F_ACK: the snapshot says it
 * worked, an error is answered all the same, and an ACK would only take
 * room in a small receive buffer (and count as a drop there).  Its
 * nlmsg_seq into *@seq, to know its answer.
 */
static int sub_request(struct kstat_sub *sub, uint32_t *seq)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret = -NLE_NOMEM;

	if (msg && genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, sub->family, 0,
			       0, KSTAT_CMD_SUBSCRIBE,
			       KSTAT_FAMILY_VERSION) &&
	    (!sub->own || put_opts(msg, &sub->opts) == 0)) {
		ret = nl_send_auto(sub->sk, msg);
		*seq = nlmsg_hdr(msg)->nlmsg_seq;
	}
	nlmsg_free(msg);
	if (ret >= 0)
		return 0;
	snprintf(sub->errmsg, sizeof(sub->errmsg), "cannot send SUBSCRIBE: %s",
		 nl_geterror(ret));
	return -EIO;
}

/*
 * nlctrl's GETFAMILY of "kstat", from the subscription's socket: the
 * answer (id, version, groups in one message) comes in order with the
 * rest, and sets sub->lookup_seq back to 0.
 */
static int sub_lookup(struct kstat_sub *sub)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret = -NLE_NOMEM;

	if (msg && genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0,
			       0, CTRL_CMD_GETFAMILY, 1) &&
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME) == 0) {
		ret = nl_send_auto(sub->sk, msg);
		sub->lookup_seq = nlmsg_hdr(msg)->nlmsg_seq;
	}
	nlmsg_free(msg);
	if (ret >= 0)
		return 0;
	sub->lookup_seq = 0;
	snprintf(sub->errmsg, sizeof(sub->errmsg),
		 "cannot look up the kstat family: %s", nl_geterror(ret));
	return -EIO;
}

/* The synchronous lookup at kstat_subscribe(): its answer, or error. */
struct lookup_wait {
	struct kstat_sub *sub;
	struct ctrl_family f;
	int found, err, done;
};

static int lookup_msg(struct nl_msg *msg, void *arg)
{
	struct lookup_wait *w = arg;
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);

	/* nlctrl's notifications before it: the answer is newer */
	if (nlh->nlmsg_seq != w->sub->lookup_seq ||
	    nlh->nlmsg_type != GENL_ID_CTRL ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NL_OK;
	w->found = ctrl_parse(nlh, &w->f);
	w->done = 1;
	return NL_STOP;
}

static int lookup_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct lookup_wait *w = arg;

	(void)nla;
	if (e->msg.nlmsg_seq != w->sub->lookup_seq)
		return NL_SKIP;
	w->err = e->error < 0 ? e->error : -EPROTO;
	w->done = 1;
	return NL_STOP;
}

static int sub_lookup_wait(struct kstat_sub *sub, struct ctrl_family *f)
{
	struct lookup_wait w = { .sub = sub };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);
	int err = cb ? sub_lookup(sub) : -ENOMEM;

	if (!err) {
		nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, lookup_msg, &w);
		nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
		nl_cb_err(cb, NL_CB_CUSTOM, lookup_err, &w);
	}
	while (!err && !w.done)
		if (nl_recvmsgs(sub->sk, cb) < 0 && !w.done)
			err = -EIO;
	if (cb)
		nl_cb_put(cb);
	sub->lookup_seq = 0;
	if (!err && (w.err == -ENOENT || (!w.err && !w.found)))
		err = -ENOENT;
	else if (!err && w.err)
		err = w.err;
	*f = w.f;
	return err;
}

/*
 * Join nlctrl's "notify" first (a reload from then on is announced),
 * then look the family up, check its wire format and join its
 * "summary" group: the same checks as at every rejoin.
 */
static int sub_join_groups(struct kstat_sub *sub)
{
	struct ctrl_family f;
	int notify, err;

	notify = genl_ctrl_resolve_grp(sub->sk, "nlctrl", "notify");
	if (notify < 0)
		return -ENOENT;
	if (nl_socket_add_membership(sub->sk, notify) < 0)
		return -EPERM;
	err = sub_lookup_wait(sub, &f);
	if (err)
		return err;
	if (!f.has_version || f.version != KSTAT_FAMILY_VERSION) {
		if (kstat_version_text("the kstat module", f.version,
				       sub->errmsg, sizeof(sub->errmsg)) == 0)
			snprintf(sub->errmsg, sizeof(sub->errmsg),
				 "the kstat module gives no protocol version");
		return -EPROTO;
	}
	sub->family = f.id;
	sub->group = f.group;
	if (sub->own)
		return 0;	/* unicast: no group to join */
	if (f.group < 0)
		return -ENOENT;
	return sub_join(sub, f.group);
}

/*
 * The receive buffer: SO_RCVBUFFORCE first (CAP_NET_ADMIN may pass
 * net.core.rmem_max), else SO_RCVBUF (capped there; never asked for
 * when a forced buffer is there, which it could only shrink).  Records
 * what the kernel granted, as a request size (it reports twice that).
 */
static int sub_set_rcvbuf(struct kstat_sub *sub, int want)
{
	int fd = nl_socket_get_fd(sub->sk), got = 0;
	socklen_t len = sizeof(got);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)) == 0)
		sub->rcvbuf_forced = 1;
	else if (sub->rcvbuf_forced ||
		 setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)))
		return sub->rcvbuf_forced ? -EPERM : -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len))
		return -errno;
	sub->rcvbuf = got / 2;
	return 0;
}

/* One line of advice for the user: the program's callback, or stderr. */
static void sub_warn(struct kstat_sub *sub, const char *msg)
{
	if (sub->dead)
		return;
	if (sub->ops.warning)
		sub->ops.warning(msg, sub->arg);
	else
		fprintf(stderr, "libkstat: warning: %s\n", msg);
}

/*
 * A batch of @parts messages comes at once (a keyframe above all, and
 * the snapshot that answers SUBSCRIBE): the socket must hold it while
 * the reader wakes up.  The kernel accounts each full part's buffer,
 * KSTAT_PART_TRUESIZE, against twice the requested size, and queues a
 * message while what is queued does not exceed that: an empty queue
 * takes one part whatever its size, the other parts - 1 need room.
 * Asking for (parts - 1) * KSTAT_PART_TRUESIZE leaves room for two such
 * bursts (a snapshot and a multicast keyframe, or a keyframe and what
 * follows it before the reader is done).  Grow the buffer to that,
 * unless the program chose its size; when it is not granted, say so
 * once, with what to grant.
 */
static void sub_burst(struct kstat_sub *sub, uint32_t parts)
{
	int64_t need = ((int64_t)parts - 1) * KSTAT_PART_TRUESIZE;
	char msg[320];

	if (need > INT32_MAX)
		need = INT32_MAX;
	if (need <= sub->rcvbuf_need)
		return;
	sub->rcvbuf_need = need;
	if (!sub->sk || need <= sub->rcvbuf)
		return;
	if (!sub->rcvbuf_fixed)
		sub_set_rcvbuf(sub, (int)need);
	if (sub->rcvbuf >= need || sub->rcvbuf_warned)
		return;
	sub->rcvbuf_warned = 1;
	snprintf(msg, sizeof(msg),
		 sub->rcvbuf_fixed ?
		 "the summaries come in bursts of %u messages of %d KiB; the receive buffer holds %d bytes, as asked for, and needs %" PRId64 ": ask for %" PRId64 " or more, or 0 for the library's choice (until then, keyframes may be lost)" :
		 "the summaries come in bursts of %u messages of %d KiB; the receive buffer holds %d bytes and needs %" PRId64 ": raise net.core.rmem_max to %" PRId64 " or more, or grant CAP_NET_ADMIN (until then, keyframes may be lost)",
		 parts, KSTAT_PART_TRUESIZE / 1024, sub->rcvbuf, need, need);
	sub_warn(sub, msg);
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
	int err = sub_socket(sub), got = 0;
	socklen_t len = sizeof(got);

	if (err)
		return err;
	if (nl_connect(sub->sk, protocol) < 0)
		return -EIO;
	nl_socket_set_nonblocking(sub->sk);
	if (getsockopt(nl_socket_get_fd(sub->sk), SOL_SOCKET, SO_RCVBUF, &got,
		       &len) == 0)
		sub->rcvbuf = got / 2;
	*port = nl_socket_get_local_port(sub->sk);
	return 0;
}

void kstat_sub_set_peer(struct kstat_sub *sub, uint32_t port)
{
	nl_socket_set_peer_port(sub->sk, port);
}

static int sub_open(struct kstat_handle *h, const struct kstat_sub_ops *ops,
		    size_t cputime_size, const struct kstat_sub_opts *opts,
		    void *arg, int rcvbuf, struct kstat_sub **subp)
{
	struct kstat_sub *sub;
	int err, one = 1;

	*subp = NULL;
	sub = sub_alloc(ops, sizeof(*ops), cputime_size, arg);
	if (!sub)
		return -ENOMEM;
	if (opts)
		kstat_sub_set_opts(sub, opts);
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
	sub->rcvbuf_fixed = rcvbuf > 0;
	if (err) {
		snprintf(sub->errmsg, sizeof(sub->errmsg),
			 "cannot set the receive buffer: %s", strerror(-err));
		goto fail;
	}
	err = sub_join_groups(sub);
	if (err)
		goto fail;
	nl_socket_set_nonblocking(sub->sk);

	/* Joined (or, for a stream of our own, nothing to join): subscribe. */
	err = sub_request(sub, &sub->sub_seq);
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
	return kstat_subscribe_opts_sz(h, ops, ops_size, cputime_size, NULL,
				       arg, rcvbuf, subp);
}

int kstat_subscribe_opts_sz(struct kstat_handle *h,
			    const struct kstat_sub_ops *ops, size_t ops_size,
			    size_t cputime_size,
			    const struct kstat_sub_opts *opts, void *arg,
			    int rcvbuf, struct kstat_sub **subp)
{
	struct kstat_sub_opts in;
	struct kstat_sub_ops known;
	const unsigned char *p = (const void *)ops;
	size_t i;
	int err;

	*subp = NULL;
	kstat_clear_error(h);
	if (kstat_cputime_size_check(h, cputime_size))
		return -EINVAL;
	if (opts) {
		err = kstat_sub_opts_take(h, opts, &in);
		if (err)
			return err;
	}
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
	return sub_open(h, &known, cputime_size, opts ? &in : NULL, arg,
			rcvbuf, subp);
}

void kstat_sub_set_opts(struct kstat_sub *sub, const struct kstat_sub_opts *o)
{
	sub->own = 1;
	sub->opts = *o;
}

uint32_t kstat_sub_stream(const struct kstat_sub *sub)
{
	return sub->own ? sub->stream : 0;
}

int kstat_sub_rcvbuf(const struct kstat_sub *sub)
{
	return sub->rcvbuf;
}

static void sub_free(struct kstat_sub *sub)
{
	kstat_state_free(&sub->st);
	if (sub->cb)
		nl_cb_put(sub->cb);
	if (sub->sk)
		nl_socket_free(sub->sk);
	free(sub);
}

/*
 * From a callback, the subscription is only marked: no callback comes
 * after it, and the dispatch (or loop) that called it frees it on its
 * way out.
 */
void kstat_unsubscribe(struct kstat_sub *sub)
{
	if (!sub)
		return;
	if (sub->busy) {
		sub->dead = 1;
		return;
	}
	sub_free(sub);
}

/* Entering the library's reading (where callbacks run), and leaving it. */
static void sub_enter(struct kstat_sub *sub)
{
	sub->busy++;
}

/*
 * Leaving the outermost: a break ends here (it applies to one loop or
 * dispatch), and an unsubscribe from a callback frees.  1 if freed.
 */
static int sub_leave(struct kstat_sub *sub)
{
	if (--sub->busy)
		return 0;
	sub->brk = 0;
	if (!sub->dead)
		return 0;
	sub_free(sub);
	return 1;
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

const char *kstat_lost_reason_name(enum kstat_lost_reason why)
{
	switch (why) {
	case KSTAT_LOST_GAP:		return "gap";
	case KSTAT_LOST_OVERRUN:	return "overrun";
	case KSTAT_LOST_PARTIAL:	return "partial";
	case KSTAT_LOST_RELOAD:		return "reload";
	case KSTAT_LOST_VERSION:	return "version";
	}
	return "unknown";
}

/* From a callback: ends the dispatch or loop that called it. */
void kstat_sub_break(struct kstat_sub *sub)
{
	if (sub->busy)
		sub->brk = 1;
}

/*
 * After an overrun, once the queue is read: SUBSCRIBE again (the
 * snapshot resyncs at once, not at the next keyframe) and look the
 * family up again (the overrun may have swallowed nlctrl's DELFAMILY
 * or NEWFAMILY).  At most one repair until an answer or a multicast
 * comes: a buffer too small for the snapshot must not make every read
 * ask the kernel for another.  A failed send is tried again at the
 * next dispatch.
 */
static void sub_repair(struct kstat_sub *sub)
{
	if (!sub->repair_wanted || !sub->repair_armed || !sub->sk || sub->dead)
		return;
	if (sub_lookup(sub))
		return;
	/*
	 * The kernel resyncs a member of a stream of its own by itself, the
	 * one whose SUBSCRIBE answer did not fit too.
	 */
	if (sub->present && !sub->own && sub_request(sub, &sub->repair_seq))
		return;
	sub->repair_wanted = 0;
	sub->repair_armed = 0;
}

/*
 * Overrun after overrun, and not one sample between them: the buffer
 * cannot hold what this stream sends at once (its snapshot, its
 * keyframes), and every repair would be lost the same way.  Say so,
 * with the size to ask for, rather than loop: -ENOBUFS, for good.
 */
static int sub_too_small(struct kstat_sub *sub)
{
	/* what a batch's parts said it needs, else the default's size */
	int64_t need = sub->rcvbuf_need > 0 ? sub->rcvbuf_need :
		       KSTAT_SUB_RCVBUF_DEFAULT;

	snprintf(sub->errmsg, sizeof(sub->errmsg),
		 "the receive buffer (%d bytes) cannot hold one sample of this stream: %u overruns and no sample; %s %" PRId64 " bytes or more%s",
		 sub->rcvbuf, sub->futile,
		 sub->rcvbuf_fixed ? "ask for" : "raise net.core.rmem_max to",
		 need, sub->rcvbuf_fixed ? " (or leave the size to the library)" : "");
	return -ENOBUFS;
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
		sub->repair_wanted = 1;
		return ++sub->futile < KSTAT_SUB_FUTILE_OVERRUNS ? 0 :
		       sub_too_small(sub);
	}
	if (ret == -NLE_AGAIN)
		return -EAGAIN;
	if (ret < 0 && !sub->dead) {
		snprintf(sub->errmsg, sizeof(sub->errmsg), "netlink: %s",
			 nl_geterror(ret));
		return -EIO;
	}
	return 0;
}

static int sub_dispatch(struct kstat_sub *sub)
{
	int err, reads = 0;

	sub->delivered = 0;
	do {
		err = sub_receive(sub);
	} while (!err && !sub->brk && !sub->dead &&
		 ++reads < KSTAT_SUB_DISPATCH_READS);
	sub_repair(sub);
	if (!err && sub->err) {		/* noted by the repair's sends */
		err = sub->err;
		sub->err = 0;
	}
	if (err && err != -EAGAIN && !sub->dead)
		return err;
	return sub->delivered;
}

int kstat_sub_dispatch(struct kstat_sub *sub)
{
	int ret;

	if (sub->busy)
		return -EBUSY;		/* from one of its own callbacks */
	sub_enter(sub);
	ret = sub_dispatch(sub);
	sub_leave(sub);
	return ret;
}

int kstat_sub_loop(struct kstat_sub *sub)
{
	struct pollfd pfd = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	int err = 0;

	if (sub->busy)
		return -EBUSY;
	sub_enter(sub);
	while (!sub->brk && !sub->dead && err >= 0) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		err = sub_dispatch(sub);
	}
	sub_leave(sub);
	return err < 0 ? err : 0;
}
