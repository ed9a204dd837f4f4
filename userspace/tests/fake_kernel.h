/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A socket that plays the kernel, on NETLINK_USERSOCK (where any user may
 * send unicast and multicast): a subscription or a handle connected to
 * it sends it their requests, and it answers them, sends nlctrl's news,
 * GET replies and samples.
 */
#ifndef KSTAT_FAKE_KERNEL_H
#define KSTAT_FAKE_KERNEL_H

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "summary_msg.h"

/*
 * The "summary" group the tests give kstat: one of 2..31 by process, so
 * that tests running at once (test_memory.sh) seldom share one; the
 * library takes messages from its peer only, so a shared one only costs
 * room in the buffer.
 */
#define GROUP	(2 + getpid() % 30)

struct fake {
	int fd;
	uint32_t port;		/* ours */
	uint32_t peer;		/* the library's socket */
};

/* A request the library sent us. */
struct req {
	uint16_t type, flags;
	uint8_t cmd;
	uint32_t seq;
	int len;		/* of attrs, after the genl header */
	unsigned char attrs[1024];
};

static inline int fake_open(struct fake *k)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(a);

	k->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_USERSOCK);
	if (k->fd < 0 || bind(k->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(k->fd, (struct sockaddr *)&a, &len))
		return -errno;
	k->port = a.nl_pid;
	return 0;
}

/* A subscription fed by the fake kernel @k, started on FAMILY / GROUP. */
static inline struct kstat_sub *fake_sub(struct fake *k, struct seen *w,
					 const struct kstat_sub_opts *opts,
					 int start)
{
	struct kstat_family f = { .id = FAMILY, .version = 5, .group = GROUP };

	memset(w, 0, sizeof(*w));
	if (fake_open(k))
		return NULL;
	w->sub = kstat_sub_alloc(&seen_ops, opts, w);
	if (!w->sub || kstat_sub_connect(w->sub, NETLINK_USERSOCK, k->port,
					 &k->peer) ||
	    (start && kstat_sub_start(w->sub, &f)))
		return NULL;
	return w->sub;
}

/* @m to the library's socket, answering @seq (0: a notification). */
static inline int fake_send(struct fake *k, struct msg *m, uint32_t seq)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = k->peer };

	m->nlh.nlmsg_seq = seq;
	return sendto(k->fd, m->buf, m->nlh.nlmsg_len, 0,
		      (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

/* @m to multicast group @grp. */
static inline int fake_multicast(struct fake *k, struct msg *m, int grp)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK,
				  .nl_groups = 1u << (grp - 1) };

	m->nlh.nlmsg_seq = 0;
	return sendto(k->fd, m->buf, m->nlh.nlmsg_len, 0,
		      (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

/* The requests waiting for us (up to @max), without blocking. */
static inline int fake_requests(struct fake *k, struct req *r, int max)
{
	static char buf[65536];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int n = 0;
	ssize_t len;

	while (n < max && (len = recv(k->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if ((size_t)len < NLMSG_HDRLEN + GENL_HDRLEN)
			continue;
		r[n].type = nlh->nlmsg_type;
		r[n].flags = nlh->nlmsg_flags;
		r[n].cmd = ((struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
		r[n].seq = nlh->nlmsg_seq;
		r[n].len = (int)len - NLMSG_HDRLEN - GENL_HDRLEN;
		if (r[n].len > (int)sizeof(r[n].attrs))
			r[n].len = sizeof(r[n].attrs);
		memcpy(r[n].attrs, buf + NLMSG_HDRLEN + GENL_HDRLEN, r[n].len);
		n++;
	}
	return n;
}

/* The first of @n requests of @type and @cmd, or NULL. */
static inline const struct req *req_find(const struct req *r, int n,
					 uint16_t type, uint8_t cmd)
{
	for (; n > 0; n--, r++)
		if (r->type == type && r->cmd == cmd)
			return r;
	return NULL;
}

/* Attribute @type of request @r (in nest @nest when > 0), or NULL. */
static inline const struct nlattr *req_attr(const struct req *r, int nest,
					    int type)
{
	const struct nlattr *a, *head = (const void *)r->attrs;
	int rem, len = r->len;

	if (nest > 0) {
		head = req_attr(r, 0, nest);
		if (!head)
			return NULL;
		len = kattr_len(head);
		head = kattr_data(head);
	}
	kattr_for_each(a, head, len, rem)
		if (kattr_type(a) == type)
			return a;
	return NULL;
}

static inline uint32_t req_u32(const struct req *r, int nest, int type)
{
	const struct nlattr *a = req_attr(r, nest, type);
	uint32_t v = UINT32_MAX;

	if (a && kattr_len(a) == 4)
		memcpy(&v, kattr_data(a), 4);
	else if (a && kattr_len(a) == 1)
		v = *(const uint8_t *)kattr_data(a);
	return v;
}

/* nlctrl's @cmd of family "kstat" @id, @version, with group @grp. */
static inline void ctrl_msg(struct msg *m, uint8_t cmd, uint16_t id,
			    uint32_t version, int grp)
{
	size_t groups, one;

	msg_init(m, GENL_ID_CTRL, cmd, 0);
	put(m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	put_str(m, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME);
	put_u32(m, CTRL_ATTR_VERSION, version);
	groups = nest_open(m, CTRL_ATTR_MCAST_GROUPS);
	one = nest_open(m, 1);
	put_u32(m, CTRL_ATTR_MCAST_GRP_ID, grp);
	put_str(m, CTRL_ATTR_MCAST_GRP_NAME, KSTAT_MCGRP_SUMMARY_NAME);
	nest_close(m, one);
	nest_close(m, groups);
}

/* An error answer to request @seq, with the kernel's text @ext (or NULL). */
static inline void error_msg(struct msg *m, int error, uint32_t seq,
			     const char *ext)
{
	struct nlmsgerr *e;

	memset(m, 0, NLMSG_HDRLEN + sizeof(*e));
	m->nlh.nlmsg_len = NLMSG_HDRLEN + sizeof(*e);
	m->nlh.nlmsg_type = NLMSG_ERROR;
	m->nlh.nlmsg_flags = NLM_F_CAPPED | (ext ? NLM_F_ACK_TLVS : 0);
	m->nlh.nlmsg_seq = seq;
	e = NLMSG_DATA(&m->nlh);
	e->error = error;
	e->msg.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	e->msg.nlmsg_seq = seq;
	if (ext)
		put_str(m, NLMSGERR_ATTR_MSG, ext);
}

/* A dump's NLMSG_DONE, with @error (and @ext). */
static inline void done_msg(struct msg *m, int error, const char *ext)
{
	memset(m, 0, NLMSG_HDRLEN + 4);
	m->nlh.nlmsg_len = NLMSG_HDRLEN + 4;
	m->nlh.nlmsg_type = NLMSG_DONE;
	m->nlh.nlmsg_flags = NLM_F_MULTI | (ext ? NLM_F_ACK_TLVS : 0);
	memcpy(NLMSG_DATA(&m->nlh), &error, 4);
	if (ext)
		put_str(m, NLMSGERR_ATTR_MSG, ext);
}

/* The GET's answer: one reply at @ts with intr sum @sum, then DONE. */
static inline int fake_get_answer(struct fake *k, uint16_t id, uint32_t seq,
				  uint64_t ts, uint64_t sum)
{
	struct msg m;
	int err;

	reply_start(&m, seq, ts);
	m.nlh.nlmsg_type = id;
	put_u64(&m, KSTAT_A_INTR_SUM, sum);
	err = fake_send(k, &m, seq);
	done_msg(&m, 0, NULL);
	return err ?: fake_send(k, &m, seq);
}

/* CONFIG_GET's answer: @sections, @percpu. */
static inline int fake_config_answer(struct fake *k, uint16_t id, uint32_t seq,
				     uint32_t sections, int percpu)
{
	struct msg m;
	size_t n;

	msg_init(&m, id, KSTAT_CMD_CONFIG_GET, seq);
	n = nest_open(&m, KSTAT_A_CONFIG);
	put_u32(&m, KSTAT_A_CONFIG_INTERVAL_MS, 1000);
	put_u32(&m, KSTAT_A_CONFIG_BATCH, 1);
	put_u32(&m, KSTAT_A_CONFIG_SECTIONS, sections);
	put_u8(&m, KSTAT_A_CONFIG_PERCPU, percpu);
	put_u8(&m, KSTAT_A_CONFIG_NETNS, 0);
	nest_close(&m, n);
	n = nest_open(&m, KSTAT_A_LIMITS);
	put_u32(&m, KSTAT_A_LIMITS_MIN_INTERVAL_MS, 250);
	put_u32(&m, KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, 64);
	nest_close(&m, n);
	return fake_send(k, &m, seq);
}

/* Dispatch @sub while its fd is readable: the samples, or an error. */
static inline int drain(struct kstat_sub *sub)
{
	struct pollfd p = { .fd = kstat_sub_fd(sub), .events = POLLIN };
	int n, total = 0;

	while (poll(&p, 1, 0) == 1) {
		n = kstat_sub_dispatch(sub);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

#endif
