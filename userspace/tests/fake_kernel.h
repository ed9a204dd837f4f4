/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A socket that plays the kernel for a subscription, on NETLINK_USERSOCK
 * (which lets any user send unicast and multicast): it receives the
 * subscription's requests (kstat_sub_set_peer() points them here) and
 * sends it nlctrl's messages, snapshots and multicast summaries.
 */
#ifndef KSTAT_FAKE_KERNEL_H
#define KSTAT_FAKE_KERNEL_H

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "summary_msg.h"

struct fake {
	int fd;
	uint32_t port;		/* ours: the subscription's peer */
	uint32_t sub_port;	/* the subscription's */
};

/* A connected subscription of @sub to a new fake kernel; 0 or -errno. */
static inline int fake_open(struct fake *k, struct kstat_sub *sub)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(a);
	int err;

	k->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_USERSOCK);
	if (k->fd < 0 || bind(k->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(k->fd, (struct sockaddr *)&a, &len))
		return -errno;
	k->port = a.nl_pid;
	err = kstat_sub_connect(sub, NETLINK_USERSOCK, &k->sub_port);
	if (err)
		return err;
	kstat_sub_set_peer(sub, k->port);
	return 0;
}

static inline void fake_close(struct fake *k)
{
	if (k->fd >= 0)
		close(k->fd);
}

/* @m to the subscription alone (@seq: the request it answers, or 0). */
static inline int fake_unicast(struct fake *k, struct msg *m, uint32_t seq)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = k->sub_port };

	m->nlh.nlmsg_seq = seq;
	return sendto(k->fd, m->buf, m->nlh.nlmsg_len, 0,
		      (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

/* @m to multicast group @grp (1..32); -errno when not sent. */
static inline int fake_multicast(struct fake *k, struct msg *m, int grp)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK,
				  .nl_groups = 1u << (grp - 1) };

	m->nlh.nlmsg_seq = 0;
	return sendto(k->fd, m->buf, m->nlh.nlmsg_len, 0,
		      (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

/* A request the subscription sent us: type, genl cmd, seq, attributes. */
struct req {
	uint16_t type;
	uint8_t cmd;
	uint32_t seq;
	int len;		/* of attrs, after the genl header */
	unsigned char attrs[256];
};

/* Up to @max requests waiting for us, without blocking: how many. */
static inline int fake_requests(struct fake *k, struct req *r, int max)
{
	char buf[8192];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int n = 0;
	ssize_t len;

	while (n < max &&
	       (len = recv(k->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if ((size_t)len < NLMSG_HDRLEN + GENL_HDRLEN)
			continue;
		r[n].type = nlh->nlmsg_type;
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
	int i;

	for (i = 0; i < n; i++)
		if (r[i].type == type && r[i].cmd == cmd)
			return &r[i];
	return NULL;
}

/* How many of @n are of @type and @cmd. */
static inline int req_count(const struct req *r, int n, uint16_t type,
			    uint8_t cmd)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += r[i].type == type && r[i].cmd == cmd;
	return c;
}

/* ---- nlctrl ---- */

/*
 * nlctrl's @cmd of family "kstat" @id, wire format @version (< 0: no
 * version attribute) with its "summary" group @grp (< 0: none).
 */
static inline void ctrl_family_msg(struct msg *m, uint8_t cmd, uint16_t id,
				   int version, int grp)
{
	struct genlmsghdr *g;
	size_t groups, one;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = GENL_ID_CTRL;
	g = NLMSG_DATA(&m->nlh);
	g->cmd = cmd;
	g->version = 2;
	put(m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	put(m, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME,
	    sizeof(KSTAT_FAMILY_NAME));
	if (version >= 0)
		put_u32(m, CTRL_ATTR_VERSION, version);
	if (grp < 0)
		return;
	groups = nest_open(m, CTRL_ATTR_MCAST_GROUPS);
	one = nest_open(m, 1);
	put_u32(m, CTRL_ATTR_MCAST_GRP_ID, grp);
	put(m, CTRL_ATTR_MCAST_GRP_NAME, KSTAT_MCGRP_SUMMARY_NAME,
	    sizeof(KSTAT_MCGRP_SUMMARY_NAME));
	nest_close(m, one);
	nest_close(m, groups);
}

/* An error answer (nlmsgerr) to the request @seq of @type. */
static inline void error_msg(struct msg *m, int error, uint16_t type,
			     uint32_t seq)
{
	struct nlmsgerr *e;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_HDRLEN + sizeof(*e);
	m->nlh.nlmsg_type = NLMSG_ERROR;
	m->nlh.nlmsg_flags = NLM_F_CAPPED;
	e = NLMSG_DATA(&m->nlh);
	e->error = error;
	e->msg.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	e->msg.nlmsg_type = type;
	e->msg.nlmsg_seq = seq;
}

/* A snapshot (SUBSCRIBE's answer): keyframe @seq, one part. */
static inline void snapshot_msg(struct msg *m, uint64_t seq)
{
	msg_start(m, seq, 0, 1);
	put(m, KSTAT_A_SNAPSHOT, NULL, 0);
	piece(m, seq, 1);
}

/* One multicast part with the delta sample @seq. */
static inline void delta_msg(struct msg *m, uint64_t seq)
{
	msg_start(m, seq, 0, 1);
	piece(m, seq, 0);
}

#endif
