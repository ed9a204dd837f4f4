// SPDX-License-Identifier: GPL-2.0
/* Plumbing shared by the nlraw subcommands (see nl.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"

struct mnl_socket *nl;
uint16_t family;
uint32_t family_version;
char buf[1 << 20];

static int ctrl_attr_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
		*(uint16_t *)data = mnl_attr_get_u16(a);
	if (mnl_attr_get_type(a) == CTRL_ATTR_VERSION &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		family_version = mnl_attr_get_u32(a);
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
static int scan(const char *data, int n, uint32_t seq, struct answer *ans,
		mnl_cb_t cb, void *cb_data)
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
		ans->reply_bytes += nlh->nlmsg_len;
		if (cb)
			cb(nlh, cb_data);
	}
	return 0;
}

int wait_answer(struct mnl_socket *sock, uint32_t seq, struct answer *ans,
		int timeout_ms)
{
	return wait_reply(sock, seq, ans, timeout_ms, NULL, NULL);
}

int wait_reply(struct mnl_socket *sock, uint32_t seq, struct answer *ans,
	       int timeout_ms, mnl_cb_t cb, void *data)
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
		if (n > 0 && scan(buf, n, seq, ans, cb, data))
			return 0;
	}
}

/* ---- the default stream's config and the limits ---- */

static int config_nest_cb(const struct nlattr *a, void *data)
{
	struct kconfig *c = data;

	switch (mnl_attr_get_type(a)) {
	case KSTAT_A_CONFIG_INTERVAL_MS: c->interval_ms = mnl_attr_get_u32(a); break;
	case KSTAT_A_CONFIG_BATCH: c->batch = mnl_attr_get_u32(a); break;
	case KSTAT_A_CONFIG_SECTIONS: c->sections = mnl_attr_get_u32(a); break;
	case KSTAT_A_CONFIG_PERCPU: c->percpu = mnl_attr_get_u8(a); break;
	case KSTAT_A_CONFIG_NETNS: c->netns = mnl_attr_get_u8(a); break;
	}
	return MNL_CB_OK;
}

static int limits_nest_cb(const struct nlattr *a, void *data)
{
	struct kconfig *c = data;

	switch (mnl_attr_get_type(a)) {
	case KSTAT_A_LIMITS_MIN_INTERVAL_MS:
		c->min_interval_ms = mnl_attr_get_u32(a);
		break;
	case KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS:
		c->max_subscriptions = mnl_attr_get_u32(a);
		break;
	}
	return MNL_CB_OK;
}

static int config_attr_cb(const struct nlattr *a, void *data)
{
	struct kconfig *c = data;

	if (mnl_attr_get_type(a) == KSTAT_A_CONFIG) {
		mnl_attr_parse_nested(a, config_nest_cb, c);
		c->valid = true;
	}
	if (mnl_attr_get_type(a) == KSTAT_A_LIMITS)
		mnl_attr_parse_nested(a, limits_nest_cb, c);
	return MNL_CB_OK;
}

static int config_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), config_attr_cb,
			      data);
}

int config_read(struct mnl_socket *sock, struct kconfig *cfg,
		struct answer *ans)
{
	char msg[64];
	struct nlmsghdr *nlh = kstat_msg_put(msg, KSTAT_CMD_CONFIG_GET,
					     NLM_F_ACK);

	memset(cfg, 0, sizeof(*cfg));
	nlh->nlmsg_seq = 0x43464721;
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ||
	    wait_reply(sock, nlh->nlmsg_seq, ans, 5000, config_msg_cb, cfg))
		return errno ?: EIO;
	if (ans->kind != ANS_ERROR)
		return ETIMEDOUT;
	if (!ans->err && !cfg->valid)
		return EPROTO;
	return ans->err;
}

int config_write(struct mnl_socket *sock, const struct kconfig *cfg,
		 struct answer *ans)
{
	char msg[256];
	struct nlmsghdr *nlh = kstat_msg_put(msg, KSTAT_CMD_CONFIG_SET,
					     NLM_F_ACK);
	struct nlattr *n;

	nlh->nlmsg_seq = 0x43465321;
	n = mnl_attr_nest_start(nlh, KSTAT_A_CONFIG);
	mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_INTERVAL_MS, cfg->interval_ms);
	mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_BATCH, cfg->batch);
	mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_SECTIONS, cfg->sections);
	mnl_attr_put_u8(nlh, KSTAT_A_CONFIG_PERCPU, cfg->percpu);
	mnl_attr_put_u8(nlh, KSTAT_A_CONFIG_NETNS, cfg->netns);
	mnl_attr_nest_end(nlh, n);
	n = mnl_attr_nest_start(nlh, KSTAT_A_LIMITS);
	mnl_attr_put_u32(nlh, KSTAT_A_LIMITS_MIN_INTERVAL_MS,
			 cfg->min_interval_ms);
	mnl_attr_put_u32(nlh, KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS,
			 cfg->max_subscriptions);
	mnl_attr_nest_end(nlh, n);
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ||
	    wait_answer(sock, nlh->nlmsg_seq, ans, 5000))
		return errno ?: EIO;
	return ans->kind == ANS_ERROR ? ans->err : ETIMEDOUT;
}

unsigned int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char line[256], *p;
	unsigned int last;

	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	p = strrchr(line, ',');
	p = p ? p + 1 : line;
	if (strchr(p, '-'))
		p = strchr(p, '-') + 1;
	last = strtoul(p, NULL, 10);
	return last + 1;
}
