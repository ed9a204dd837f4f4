// SPDX-License-Identifier: GPL-2.0
/* Plumbing shared by the nlraw subcommands (see nl.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"

struct mnl_socket *nl;
uint16_t family;
char buf[1 << 20];

static int ctrl_attr_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
		*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), ctrl_attr_cb, data);
}

/* Ask the controller about the kstat family; @cb reads the reply. */
static int ctrl_getfamily(mnl_cb_t cb, void *data)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int n;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = KSTAT_FAMILY_VERSION;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	return n < 0 || mnl_cb_run(buf, n, 0, 0, cb, data) < 0 ? -1 : 0;
}

struct nlmsghdr *kstat_msg_put(void *mem, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(mem);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = KSTAT_FAMILY_VERSION;
	return nlh;
}

struct mnl_socket *nl_open(void)
{
	struct mnl_socket *s = mnl_socket_open(NETLINK_GENERIC);
	int one = 1;

	if (!s)
		return NULL;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(s);
		return NULL;
	}
	mnl_socket_setsockopt(s, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s, NETLINK_CAP_ACK, &one, sizeof(one));
	return s;
}

int open_family(void)
{
	nl = nl_open();
	if (!nl)
		return -1;
	return ctrl_getfamily(ctrl_cb, &family) || !family ? -1 : 0;
}

static int grp_cb(const struct nlattr *a, void *data)
{
	uint32_t *grp = data;
	const struct nlattr *g, *f;
	uint32_t id = 0;
	const char *name = NULL;

	if (mnl_attr_get_type(a) != CTRL_ATTR_MCAST_GROUPS)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(g, a) {
		mnl_attr_for_each_nested(f, g) {
			if (mnl_attr_get_type(f) == CTRL_ATTR_MCAST_GRP_ID)
				id = mnl_attr_get_u32(f);
			if (mnl_attr_get_type(f) == CTRL_ATTR_MCAST_GRP_NAME)
				name = mnl_attr_get_str(f);
		}
		if (name && !strcmp(name, KSTAT_MCGRP_SUMMARY_NAME))
			*grp = id;
	}
	return MNL_CB_OK;
}

static int grp_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), grp_cb, data);
}

uint32_t summary_group(void)
{
	uint32_t grp = 0;

	return ctrl_getfamily(grp_msg_cb, &grp) ? 0 : grp;
}

/* ---- answers ---- */

static int ext_cb(const struct nlattr *a, void *data)
{
	struct answer *ans = data;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			snprintf(ans->msg, sizeof(ans->msg), "%s",
				 mnl_attr_get_str(a));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			ans->offs = mnl_attr_get_u32(a);
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			ans->miss_type = mnl_attr_get_u32(a);
		break;
	}
	return MNL_CB_OK;
}

static void read_error(const struct nlmsghdr *nlh, struct answer *ans)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);

	ans->kind = ANS_ERROR;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
		return;
	ans->err = -e->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	mnl_attr_parse(nlh, off, ext_cb, ans);
}

/* A dump's error comes in NLMSG_DONE: errno, then the extack TLVs. */
static void read_done(const struct nlmsghdr *nlh, struct answer *ans)
{
	int err;

	ans->kind = ANS_DONE;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(err))
		return;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	ans->err = err < 0 ? -err : 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_parse(nlh, sizeof(err), ext_cb, ans);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Scan one datagram; 1 when it held our answer. */
static int scan(const char *data, int n, uint32_t seq, struct answer *ans)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;

	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_seq != seq) {
			ans->others++;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			read_error(nlh, ans);
			return 1;
		}
		if (nlh->nlmsg_type == NLMSG_DONE) {
			read_done(nlh, ans);
			return 1;
		}
		ans->replies++;
	}
	return 0;
}

int wait_answer(struct mnl_socket *sock, uint32_t seq, struct answer *ans,
		int timeout_ms)
{
	long long end = now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = mnl_socket_get_fd(sock), .events = POLLIN };

	memset(ans, 0, sizeof(*ans));
	ans->offs = -1;
	ans->miss_type = -1;
	for (;;) {
		long long left = end - now_ms();
		int n;

		if (left <= 0 || poll(&pfd, 1, left) == 0)
			return 0;	/* ANS_NONE */
		n = mnl_socket_recvfrom(sock, buf, sizeof(buf));
		if (n < 0 && errno == ENOBUFS) {
			ans->overruns++;
			continue;
		}
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0 && scan(buf, n, seq, ans))
			return 0;
	}
}
