// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: subscriptions.  One socket each, joined to nlctrl's "notify"
 * group (the module going and coming back) and, for the default stream,
 * to the family's "summary" group.  On joining it sends SUBSCRIBE, then
 * a GET dump of the same sections (after a CONFIG_GET when it must learn
 * them): the netlink idiom, dump then listen.  The dump's sample comes
 * first (from_get); a stream sample completed while it is read waits,
 * and one no newer than it is dropped as old (one newer that a later one
 * replaced meanwhile is reported lost).
 *
 * Samples are whole: a SUMMARY_NTF in parts is put together by SEQ over
 * PART / PARTS and delivered when its last part comes.  What is missing
 * is counted from the sequence numbers and said through ops->lost().
 */
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <linux/genetlink.h>

#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define ALL_SECTIONS (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ)
/*
 * A sample's parts, at most: each holds whole objects of up to 32 KiB,
 * so this is far past any machine's; more is a broken message, and
 * taking it would size the receive buffer for it.
 */
#define KSTAT_SUB_PARTS_MAX	65536

struct kstat_sub {
	struct nl_sock *sk;		/* NULL: fed by kstat_sub_feed() */
	struct kstat_buf buf;
	struct kstat_sub_ops ops;
	void *arg;
	struct kstat_sub_opts opts;	/* opts.fields: a subscription of
					 * its own; 0: the default stream */
	int busy, dead, brk;		/* in a dispatch; unsubscribed or
					 * broken from a callback */
	int delivered;			/* by this dispatch */
	uint64_t lost;
	char errmsg[256];

	/* the family, and what we asked it */
	int family, group;		/* id, its "summary" group */
	int present, ever;		/* there now; there since we began */
	int refused;			/* family id of a module refused, -1 */
	int reload;			/* lost(0, RELOAD) before the next */
	uint32_t sub_seq, cfg_seq, get_seq, lookup_seq;
	int cfg_pending, get_pending, lookup_pending;
	int congested;			/* overran, the queue not yet empty */

	/* the GET's sample, the one being put together, one held back */
	struct kstat_build *get, *cur, *held;
	int held_valid;
	uint64_t *replaced;		/* timestamps of held ones replaced */
	size_t nr_replaced, cap_replaced;
	uint64_t floor_ts;		/* the GET's reading: older is old */

	/* the stream */
	int have_seq, assembling, skipping;
	unsigned int overrun;		/* overruns whose loss is unseen */
	unsigned int overrun_msg;	/* as this message came */
	uint64_t next_seq, cur_seq;	/* put together, or skipped */
	uint32_t next_part, parts;
	unsigned int futile;		/* overruns since the last sample */

	/* the receive buffer, as asked (the kernel reports twice that) */
	int rcvbuf, rcvbuf_fixed, rcvbuf_forced, warned;
	int64_t need;			/* one sample, about: 0 unknown */
};

static void sub_warn(struct kstat_sub *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sub_warn(struct kstat_sub *sub, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sub->dead)
		return;
	if (sub->ops.warning)
		sub->ops.warning(msg, sub->arg);
	else
		fprintf(stderr, "libkstat: warning: %s\n", msg);
}

static int sub_error(struct kstat_sub *sub, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int sub_error(struct kstat_sub *sub, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sub->errmsg, sizeof(sub->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

static void report_lost(struct kstat_sub *sub, uint64_t n,
			enum kstat_lost_reason why)
{
	sub->lost += n;
	if (sub->ops.lost && !sub->dead)
		sub->ops.lost(n, why, sub->arg);
}

/*
 * Samples of the stream missed; none before the first state is given.
 * ENOBUFS comes before what was queued when the kernel dropped, so the
 * first loss seen after it (a gap, a sample short of parts, or both in
 * one message) is the overrun's, and the loss after that is not.  (One
 * ENOBUFS an overrun: the kernel says no more until the queue empties.)
 */
static void stream_lost(struct kstat_sub *sub, uint64_t n,
			enum kstat_lost_reason why)
{
	sub->overrun = sub->overrun_msg ? sub->overrun_msg - 1 : 0;
	if (!sub->get_pending)
		report_lost(sub, n, why);
}

/* ---- the receive buffer ---- */

static int set_rcvbuf(struct kstat_sub *sub, int want)
{
	int fd = nl_socket_get_fd(sub->sk), got = 0;
	socklen_t len = sizeof(got);

	/* CAP_NET_ADMIN passes rmem_max; a forced buffer is never shrunk */
	if (!setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)))
		sub->rcvbuf_forced = 1;
	else if (sub->rcvbuf_forced ||
		 setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)))
		return sub->rcvbuf_forced ? -EPERM : -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len))
		return -errno;
	sub->rcvbuf = got / 2;
	return 0;
}

/* What a part of @len bytes costs the buffer: its skb, as allocated. */
static int64_t truesize(uint32_t len)
{
	int64_t size = 512;

	while (size < (int64_t)len + 320)
		size *= 2;
	return size + 256;
}

static const char *raise_how(const struct kstat_sub *sub)
{
	return sub->rcvbuf_fixed ? "ask for" :
	       "raise net.core.rmem_max (or grant CAP_NET_ADMIN) to";
}

/* A sample of @parts messages of @len bytes: does it fit?  Say so once. */
static void sub_need(struct kstat_sub *sub, uint32_t parts, uint32_t len)
{
	int64_t need = parts * truesize(len);

	if (need <= sub->need)
		return;
	sub->need = need;
	if (!sub->sk || need <= sub->rcvbuf)
		return;
	if (!sub->rcvbuf_fixed)
		set_rcvbuf(sub, need > INT32_MAX ? INT32_MAX : (int)need);
	if (sub->rcvbuf >= need || sub->warned)
		return;
	sub->warned = 1;
	sub_warn(sub, "a sample of this stream takes %" PRIu32 " messages, about %" PRId64 " bytes of receive buffer, and it holds %d: %s %" PRId64 " bytes or more, or samples will be lost",
		 parts, need, sub->rcvbuf, raise_how(sub), need);
}

/*
 * The socket overran (ENOBUFS): 0, or -ENOBUFS once it is hopeless
 * (the bound on a state that never comes, too: nothing is delivered
 * while it is awaited, so the overruns count on).
 */
static int sub_overrun(struct kstat_sub *sub)
{
	int64_t need = sub->need > sub->rcvbuf ? sub->need : 2 * (int64_t)sub->rcvbuf;

	sub->overrun++;
	sub->congested = 1;
	if (++sub->futile == 2 && !sub->warned) {
		sub->warned = 1;
		sub_warn(sub, "the receive buffer (%d bytes) overflowed twice with no whole sample between: %s %" PRId64 " bytes or more",
			 sub->rcvbuf, raise_how(sub), need);
	}
	if (sub->futile < KSTAT_SUB_FUTILE_OVERRUNS)
		return 0;
	return sub_error(sub, -ENOBUFS, "the receive buffer (%d bytes) cannot hold one sample of this stream: %u overruns in a row and no sample; %s %" PRId64 " bytes or more",
			 sub->rcvbuf, sub->futile, raise_how(sub), need);
}

static int sub_config(struct kstat_sub *sub);

/*
 * The queue is empty after an overrun.  The overrun may have taken an
 * answer, and while a socket stays congested (until its queue empties)
 * the kernel drops what comes without a word: so ask again what is
 * unanswered, nlctrl (its news of a reload may be gone) and the
 * stream's config.  (A GET dump is never dropped: the kernel fills its
 * next message when there is room.)
 */
static int sub_drained(struct kstat_sub *sub)
{
	int err;

	if (!sub->congested)
		return 0;
	sub->congested = 0;
	err = kstat_ctrl_ask(sub->sk, KSTAT_FAMILY_NAME, &sub->lookup_seq);
	sub->lookup_pending = !err;
	if (!err && sub->cfg_pending)
		err = sub_config(sub);
	return err ? sub_error(sub, err, "cannot send to the kernel: %s",
			       strerror(-err)) : 0;
}

/* ---- delivering ---- */

static void deliver(struct kstat_sub *sub, struct kstat_build *b)
{
	if (sub->dead)
		return;
	if (sub->reload) {
		sub->reload = 0;
		report_lost(sub, 0, KSTAT_LOST_RELOAD);
	}
	if (!sub->dead)
		sub->ops.sample(&b->s, sub->arg);
	sub->delivered++;
	sub->futile = 0;
}

/*
 * The held sample gives way to a newer one: whether it is lost depends
 * on the state's timestamp, not known yet, so keep its own.
 */
static int held_replaced(struct kstat_sub *sub)
{
	size_t cap = sub->cap_replaced ? 2 * sub->cap_replaced : 4;
	uint64_t *p = sub->replaced;

	if (sub->nr_replaced == sub->cap_replaced) {
		p = realloc(p, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		sub->replaced = p;
		sub->cap_replaced = cap;
	}
	p[sub->nr_replaced++] = sub->held->s.timestamp_ns;
	return 0;
}

static int sample_done(struct kstat_sub *sub)
{
	struct kstat_build *b = sub->cur;
	int err = kstat_build_finish(b);

	if (!err && sub->get_pending && sub->held_valid)
		err = held_replaced(sub);
	if (err)
		return sub_error(sub, err, "cannot read a sample: %s",
				 strerror(-err));
	if (sub->get_pending) {
		/* after the state, if newer than it */
		sub->cur = sub->held;
		sub->held = b;
		sub->held_valid = 1;
	} else if (b->s.timestamp_ns > sub->floor_ts) {
		deliver(sub, b);
	}
	return 0;
}

static int get_done(struct kstat_sub *sub)
{
	int err = kstat_build_finish(sub->get);
	uint64_t lost = 0;
	size_t i;

	sub->get_pending = 0;
	if (err)
		return sub_error(sub, err, "cannot read the state: %s",
				 strerror(-err));
	sub->get->s.from_get = 1;
	sub->floor_ts = sub->get->s.timestamp_ns;
	deliver(sub, sub->get);
	/* held samples newer than the state that a later one replaced */
	for (i = 0; i < sub->nr_replaced; i++)
		lost += sub->replaced[i] > sub->floor_ts;
	sub->nr_replaced = 0;
	if (lost)
		report_lost(sub, lost, KSTAT_LOST_GAP);
	if (sub->held_valid && sub->held->s.timestamp_ns > sub->floor_ts)
		deliver(sub, sub->held);
	sub->held_valid = 0;
	return 0;
}

/* ---- a sample's parts ---- */

static int part_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	const struct nlattr *head, *a;
	uint32_t part = 0, parts = 1;
	uint64_t seq = 0;
	int len, rem, has_seq = 0, err = kstat_msg_attrs(nlh, &head, &len);

	kattr_for_each(a, err ? NULL : head, err ? 0 : len, rem) {
		if (err)
			break;
		if (kattr_type(a) == KSTAT_A_SEQ) {
			err = kattr_get(a, &seq, sizeof(seq));
			has_seq = 1;
		} else if (kattr_type(a) == KSTAT_A_PART)
			err = kattr_get(a, &part, sizeof(part));
		else if (kattr_type(a) == KSTAT_A_PARTS)
			err = kattr_get(a, &parts, sizeof(parts));
	}
	if (err || !has_seq || part >= parts || parts > KSTAT_SUB_PARTS_MAX)
		return sub_error(sub, -EBADMSG, "malformed sample from the kernel: no seq, or part %" PRIu32 " of %" PRIu32,
				 part, parts);
	sub_need(sub, parts, nlh->nlmsg_len);
	sub->overrun_msg = sub->overrun;

	if (sub->assembling && (seq != sub->cur_seq ||
				part != sub->next_part || parts != sub->parts)) {
		/* the one being put together lacks a part */
		sub->assembling = 0;
		sub->skipping = seq == sub->cur_seq;
		stream_lost(sub, 1, KSTAT_LOST_PARTIAL);
	}
	if (!sub->assembling) {
		if (sub->skipping && seq == sub->cur_seq)
			return 0;	/* the rest of a lost one */
		sub->skipping = 0;
		if (sub->have_seq && seq < sub->next_seq)
			return 0;	/* had it, or older */
		if (sub->have_seq && seq > sub->next_seq)
			stream_lost(sub, seq - sub->next_seq, sub->overrun_msg ?
				    KSTAT_LOST_OVERRUN : KSTAT_LOST_GAP);
		sub->have_seq = 1;
		sub->next_seq = seq + 1;
		sub->cur_seq = seq;
		if (part) {		/* its first part never came */
			sub->skipping = 1;
			stream_lost(sub, 1, KSTAT_LOST_PARTIAL);
			return 0;
		}
		kstat_build_reset(sub->cur, 0, 0);
		sub->assembling = 1;
		sub->next_part = 0;
		sub->parts = parts;
	}
	err = kstat_build_msg(sub->cur, nlh);
	if (err) {
		sub->assembling = 0;
		return sub_error(sub, err, "malformed sample from the kernel: %s",
				 strerror(-err));
	}
	if (++sub->next_part < sub->parts)
		return 0;
	sub->assembling = 0;
	return sample_done(sub);
}

/* ---- the family ---- */

/* The GET of the stream's sections, on this socket. */
static int sub_get(struct kstat_sub *sub, uint32_t sections, int percpu)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct nl_msg *msg;
	int err;

	q.sections = sections;
	q.flags = percpu ? KSTAT_F_PERCPU : 0;
	msg = kstat_get_msg(sub->family, &q);
	kstat_build_reset(sub->get, 0, sections ? sections : ALL_SECTIONS);
	err = msg ? kstat_send(sub->sk, msg, &sub->get_seq) : -ENOMEM;
	/* unsent, no state comes: the stream's samples must not wait */
	sub->get_pending = !err;
	return err;
}

/* The default stream's sections and percpu are the admin's: ask. */
static int sub_config(struct kstat_sub *sub)
{
	struct nl_msg *msg = kstat_msg(sub->family, 0, KSTAT_CMD_CONFIG_GET);
	int err = msg ? kstat_send(sub->sk, msg, &sub->cfg_seq) : -ENOMEM;

	sub->cfg_pending = sub->get_pending = !err;
	return err;
}

/* Join, SUBSCRIBE, and read the state: GET (or first CONFIG_GET). */
static int sub_requests(struct kstat_sub *sub)
{
	const struct kstat_sub_opts *o = &sub->opts;
	struct kstat_config c = { .interval_ms = o->interval_ms,
				  .sections = o->sections,
				  .percpu = o->percpu };
	struct nl_msg *msg;
	int err;

	sub->held_valid = 0;		/* a new state: nothing waits for it */
	sub->nr_replaced = 0;
	if (!o->fields && (sub->group < 0 ||
			   nl_socket_add_membership(sub->sk, sub->group)))
		return sub_error(sub, -EPROTO, "cannot join the kstat family's \"%s\" group",
				 KSTAT_MCGRP_SUMMARY_NAME);
	msg = kstat_msg(sub->family, 0, KSTAT_CMD_SUBSCRIBE);
	if (msg && o->fields && kstat_put_config(msg, &c, o->fields)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	err = msg ? kstat_send(sub->sk, msg, &sub->sub_seq) : -ENOMEM;
	if (!err && (o->fields & KSTAT_CONFIG_SECTIONS) &&
	    (o->fields & KSTAT_CONFIG_PERCPU))
		err = sub_get(sub, o->sections, o->percpu);
	else if (!err)
		err = sub_config(sub);
	if (err)
		return sub_error(sub, err, "cannot send to the kstat module: %s",
				 strerror(-err));
	return 0;
}

/* Nothing comes until it is back, and then every count restarted. */
static void family_gone(struct kstat_sub *sub)
{
	if (!sub->present)
		return;
	sub->present = 0;
	sub->have_seq = sub->assembling = sub->skipping = 0;
	sub->overrun = 0;
	sub->cfg_pending = sub->get_pending = sub->held_valid = 0;
	sub->floor_ts = 0;
	if (sub->ops.family && !sub->dead)
		sub->ops.family(0, sub->arg);
}

/* There, maybe under another id and group: check it, join it. */
static int family_up(struct kstat_sub *sub, const struct kstat_family *f,
		     int initial)
{
	int err;

	if (f->version < KSTAT_PROTOCOL_BASE) {
		if (sub->refused == f->id)
			return 0;	/* said already */
		sub->refused = f->id;
		kstat_version_text(f->version, sub->errmsg, sizeof(sub->errmsg));
		if (!initial)
			report_lost(sub, 0, KSTAT_LOST_VERSION);
		return -EPROTO;
	}
	sub->refused = -1;
	sub->family = f->id;
	sub->group = f->group;
	sub->present = 1;
	sub->reload = sub->ever;
	err = sub->sk ? sub_requests(sub) : 0;
	if (!initial && sub->ops.family && !sub->dead)
		sub->ops.family(1, sub->arg);
	sub->ever = 1;
	return err;
}

int kstat_sub_start(struct kstat_sub *sub, const struct kstat_family *f)
{
	return family_up(sub, f, 1);
}

/* nlctrl's news of "kstat", or its answer to our GETFAMILY. */
static int ctrl_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	uint8_t cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	struct kstat_family f;

	if (!kstat_ctrl_parse(nlh, KSTAT_FAMILY_NAME, KSTAT_MCGRP_SUMMARY_NAME,
			      &f))
		return 0;
	if (sub->lookup_pending && nlh->nlmsg_seq == sub->lookup_seq) {
		sub->lookup_pending = 0;
		if (sub->present && f.id == sub->family)
			return 0;	/* nothing missed */
	} else if (cmd == CTRL_CMD_DELFAMILY) {
		family_gone(sub);
		sub->refused = -1;
		return 0;
	} else if (cmd != CTRL_CMD_NEWFAMILY ||
		   (sub->present && f.id == sub->family)) {
		/* a load we looked up before nlctrl told it: no news */
		return 0;
	}
	family_gone(sub);		/* a reload whose DELFAMILY we missed */
	return family_up(sub, &f, 0);
}

/* An error (or ACK) answering one of our requests, or a dump's end. */
static int answer_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	uint32_t seq = nlh->nlmsg_seq;
	const char *what, *ext;
	int err = 0;

	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
	if (sub->lookup_pending && seq == sub->lookup_seq) {
		sub->lookup_pending = 0;
		if (err == -ENOENT)
			family_gone(sub);
		return 0;
	}
	if (sub->get_pending && !sub->cfg_pending && seq == sub->get_seq) {
		what = "cannot read the state";
		if (!err && nlh->nlmsg_type == NLMSG_DONE)
			return get_done(sub);
	} else if (sub->cfg_pending && seq == sub->cfg_seq) {
		what = "cannot read the stream's configuration";
	} else if (seq == sub->sub_seq) {
		what = "cannot subscribe";
	} else {
		return 0;
	}
	/*
	 * A module going away: its DELFAMILY says so.  A dump started into
	 * a full buffer says ENOBUFS, and goes on when there is room.
	 */
	if (err >= 0 || err == -ESHUTDOWN || err == -ENOENT ||
	    (err == -ENOBUFS && seq == sub->get_seq))
		return 0;
	if (seq != sub->sub_seq)
		sub->get_pending = sub->cfg_pending = sub->held_valid = 0;
	ext = kstat_extack(nlh);
	return sub_error(sub, err, "%s: %s", what, ext ? ext : strerror(-err));
}

/* The CONFIG_GET answer: now the GET of the sections it names. */
static int config_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	const struct kstat_sub_opts *o = &sub->opts;
	struct kstat_config c = { .sections = ALL_SECTIONS };
	int err = kstat_parse_config(nlh, &c);

	sub->cfg_pending = 0;
	if (err && err != -ENOENT)
		return sub_error(sub, err, "malformed configuration from the kernel");
	if (o->fields & KSTAT_CONFIG_SECTIONS)
		c.sections = o->sections;
	if (o->fields & KSTAT_CONFIG_PERCPU)
		c.percpu = o->percpu;
	err = sub_get(sub, c.sections, c.percpu);
	return err ? sub_error(sub, err, "cannot send GET: %s", strerror(-err)) : 0;
}

static int msg_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	uint8_t cmd;
	int err;

	if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE)
		return answer_feed(sub, nlh);
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return 0;
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		return ctrl_feed(sub, nlh);
	if (!sub->present || nlh->nlmsg_type != sub->family)
		return 0;
	cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
	if (cmd == KSTAT_CMD_SUMMARY_NTF)
		return part_feed(sub, nlh);
	if (sub->cfg_pending && nlh->nlmsg_seq == sub->cfg_seq)
		return config_feed(sub, nlh);
	if (sub->get_pending && nlh->nlmsg_seq == sub->get_seq) {
		err = kstat_build_msg(sub->get, nlh);
		if (err)
			sub->get_pending = sub->held_valid = 0;
		return err ? sub_error(sub, err, "malformed state from the kernel: %s",
				       strerror(-err)) : 0;
	}
	return 0;
}

/* ---- the subscription ---- */

static struct kstat_sub *sub_new(const struct kstat_sub_ops *ops,
				 const struct kstat_sub_opts *opts, void *arg)
{
	struct kstat_sub *sub = calloc(1, sizeof(*sub));

	if (!sub)
		return NULL;
	sub->ops = *ops;
	sub->arg = arg;
	sub->opts = *opts;
	sub->group = -1;
	sub->refused = -1;
	sub->get = kstat_build_new();
	sub->cur = kstat_build_new();
	sub->held = kstat_build_new();
	if (!sub->get || !sub->cur || !sub->held) {
		kstat_unsubscribe(sub);
		return NULL;
	}
	return sub;
}

struct kstat_sub *kstat_sub_alloc(const struct kstat_sub_ops *ops,
				  const struct kstat_sub_opts *opts, void *arg)
{
	struct kstat_sub_opts none = KSTAT_SUB_OPTS_INIT;

	return sub_new(ops, opts ? opts : &none, arg);
}

/* The socket: non-blocking, its buffer, overruns counted by the kernel. */
static int sub_socket(struct kstat_sub *sub, int protocol)
{
	int one = 1, err;

	sub->buf.cap = 64 * 1024;
	sub->buf.p = malloc(sub->buf.cap);
	sub->sk = nl_socket_alloc();
	if (!sub->sk || !sub->buf.p)
		return -ENOMEM;
	if (nl_connect(sub->sk, protocol) < 0)
		return -EIO;
	err = kstat_socket_setup(sub->sk);
	if (err)
		return err;
	nl_socket_set_nonblocking(sub->sk);
	/* without it the kernel's multicast never counts our overruns */
	(void)setsockopt(nl_socket_get_fd(sub->sk), SOL_NETLINK,
			 NETLINK_BROADCAST_ERROR, &one, sizeof(one));
	sub->rcvbuf_fixed = sub->opts.rcvbuf > 0;
	return set_rcvbuf(sub, sub->rcvbuf_fixed ? sub->opts.rcvbuf :
			  KSTAT_SUB_RCVBUF_DEFAULT);
}

int kstat_sub_connect(struct kstat_sub *sub, int protocol, uint32_t peer,
		      uint32_t *port)
{
	int err = sub_socket(sub, protocol);

	if (err)
		return err;
	nl_socket_set_peer_port(sub->sk, peer);
	*port = nl_socket_get_local_port(sub->sk);
	return 0;
}

/* Join nlctrl's notifications, then find the family (a load is told). */
static int sub_open(struct kstat_sub *sub)
{
	struct kstat_family f;
	int err = sub_socket(sub, NETLINK_GENERIC);

	if (err)
		return sub_error(sub, err, "cannot open a netlink socket: %s",
				 strerror(-err));
	err = kstat_ctrl_lookup(sub->sk, &sub->buf, "nlctrl", "notify",
				KSTAT_TIMEOUT_DEFAULT, &f);
	if (!err && (f.group < 0 || nl_socket_add_membership(sub->sk, f.group)))
		err = -EPROTO;
	if (err)
		return sub_error(sub, err, "cannot join nlctrl's notifications: %s",
				 strerror(-err));
	err = kstat_ctrl_lookup(sub->sk, &sub->buf, KSTAT_FAMILY_NAME,
				KSTAT_MCGRP_SUMMARY_NAME, KSTAT_TIMEOUT_DEFAULT, &f);
	if (err == -ENOENT && (sub->opts.flags & KSTAT_SUB_WAIT))
		return 0;	/* its NEWFAMILY starts us */
	if (err == -ENOENT)
		return sub_error(sub, err, "the kstat kernel module is not loaded (try: modprobe kstat)");
	if (err)
		return sub_error(sub, err, "cannot look up the kstat family: %s",
				 strerror(-err));
	return kstat_sub_start(sub, &f);
}

int kstat_subscribe_sz(const struct kstat_sub_ops *ops, size_t ops_size,
		       const struct kstat_sub_opts *opts, void *arg,
		       struct kstat_sub **subp)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub_ops known;
	struct kstat_sub *sub;
	int err;

	*subp = NULL;
	err = kstat_copy_in(&known, sizeof(known), ops, ops_size,
			    KSTAT_SUB_OPS_SIZE_2_0);
	if (err || !known.sample) {
		kstat_set_open_error("struct kstat_sub_ops: %s",
				     err == -E2BIG ? "callbacks this libkstat does not know are set" :
				     err ? "smaller than libkstat 2.0's" : "no sample callback");
		return err ? err : -EINVAL;
	}
	if (opts) {
		err = kstat_copy_in(&o, sizeof(o), opts, opts->size,
				    KSTAT_SUB_OPTS_SIZE_2_0);
		if (!err && ((o.fields & ~(KSTAT_CONFIG_INTERVAL |
					   KSTAT_CONFIG_SECTIONS |
					   KSTAT_CONFIG_PERCPU)) ||
			     (o.flags & ~KSTAT_SUB_WAIT)))
			err = -EINVAL;
		if (err) {
			kstat_set_open_error("struct kstat_sub_opts: %s",
					     err == -E2BIG ? "fields this libkstat does not know are set" :
					     "too small (start from KSTAT_SUB_OPTS_INIT), or unknown fields or flags");
			return err;
		}
	}
	sub = sub_new(&known, &o, arg);
	if (!sub) {
		kstat_set_open_error("%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = sub_open(sub);
	if (err) {
		kstat_set_open_error("%s", sub->errmsg);
		kstat_unsubscribe(sub);
		return err;
	}
	sub->errmsg[0] = '\0';
	kstat_set_open_error("%s", "");
	*subp = sub;
	return 0;
}

static void sub_free(struct kstat_sub *sub)
{
	if (sub->sk)
		nl_socket_free(sub->sk);
	kstat_build_free(sub->get);
	kstat_build_free(sub->cur);
	kstat_build_free(sub->held);
	free(sub->replaced);
	free(sub->buf.p);
	free(sub);
}

/* From a callback it only marks: the dispatch frees on its way out. */
void kstat_unsubscribe(struct kstat_sub *sub)
{
	if (sub && sub->busy)
		sub->dead = 1;
	else if (sub)
		sub_free(sub);
}

/* Leaving the library's reading: 1 if the subscription was freed. */
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

int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh)
{
	int err;

	sub->busy++;
	sub->delivered = 0;
	sub->errmsg[0] = '\0';
	err = msg_feed(sub, nlh);
	sub_leave(sub);
	return err;
}

static int sub_dispatch(struct kstat_sub *sub)
{
	const struct nlmsghdr *nlh;
	int reads = 0, err = 0, ret;
	ssize_t n;
	size_t len;

	sub->delivered = 0;
	sub->errmsg[0] = '\0';		/* a success says none */
	while (!err && !sub->brk && !sub->dead &&
	       reads++ < KSTAT_SUB_DISPATCH_READS) {
		n = kstat_recv(sub->sk, &sub->buf);
		if (n == -EAGAIN) {
			err = sub_drained(sub);
			break;
		}
		if (n == -ENOBUFS) {
			err = sub_overrun(sub);
			continue;
		}
		if (n < 0)
			return sub_error(sub, n, "netlink: %s", strerror(-n));
		/* one bad message spoils no other: a batch is one skb */
		nlh = (const void *)sub->buf.p;
		for (len = n; !sub->dead && NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			ret = msg_feed(sub, nlh);
			err = ret ? ret : err;
		}
	}
	return err && !sub->dead ? err : sub->delivered;
}

int kstat_sub_dispatch(struct kstat_sub *sub)
{
	int ret;

	if (sub->busy)
		return -EBUSY;		/* from one of its own callbacks */
	sub->busy++;
	ret = sub_dispatch(sub);
	sub_leave(sub);
	return ret;
}

int kstat_sub_loop(struct kstat_sub *sub)
{
	struct pollfd p = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	int ret = 0;

	if (sub->busy)
		return -EBUSY;
	sub->busy++;
	while (!sub->brk && !sub->dead && ret >= 0) {
		/* a signal ends it too: the caller decides (Ctrl-C quits) */
		if (poll(&p, 1, -1) < 0)
			ret = sub_error(sub, -errno, "poll: %s", strerror(errno));
		else
			ret = sub_dispatch(sub);
	}
	sub_leave(sub);
	return ret < 0 ? ret : 0;
}

void kstat_sub_break(struct kstat_sub *sub)
{
	if (sub->busy)
		sub->brk = 1;
}

int kstat_sub_fd(const struct kstat_sub *sub)
{
	return nl_socket_get_fd(sub->sk);
}

uint64_t kstat_sub_lost(const struct kstat_sub *sub)
{
	return sub->lost;
}

int kstat_sub_rcvbuf(const struct kstat_sub *sub)
{
	return sub->rcvbuf;
}

const char *kstat_sub_last_error(const struct kstat_sub *sub)
{
	return sub->errmsg;
}
