// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw: speaks to the kstat family with hand-made messages (libmnl), to
 * test what libkstat would never send.
 *
 *   nlraw cases            send the table of malformed and valid requests;
 *                          each must get its errno and extack text
 *   nlraw dump-irqs BYTES [DELAY_MS]
 *                          dump every IRQ with per-CPU counts through a
 *                          socket with SO_RCVBUF=BYTES and a BYTES-sized
 *                          read buffer; check each IRQ comes exactly once
 *                          (exit 3: the kernel flagged NLM_F_DUMP_INTR)
 *   nlraw record-dump CMD FLAGS FILE
 *                          record the reply messages of a CMD (cpu, irq,
 *                          softirq) dump with KSTAT_A_SEL_FLAGS=FLAGS
 *   nlraw record-summary N FILE
 *                          join "summary", send SUBSCRIBE, record the
 *                          messages of N whole batches
 *   Recordings are the raw messages back to back: fixtures for the host
 *   unit tests and the parse-cost benchmark.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static struct mnl_socket *nl;
static uint16_t family;
static char buf[1 << 20];

/* ---- plumbing ---- */

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
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KSTAT_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	return n < 0 || mnl_cb_run(buf, n, 0, 0, cb, data) < 0 ? -1 : 0;
}

static int open_family(void)
{
	int one = 1;

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		return -1;
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	return ctrl_getfamily(ctrl_cb, &family) || !family ? -1 : 0;
}

/* The errno and extack message of the first error/ACK for our request. */
struct answer {
	int err;		/* 0: ACK or DONE */
	char msg[256];
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	int replies;
};

static int ext_cb(const struct nlattr *a, void *data)
{
	struct answer *ans = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		snprintf(ans->msg, sizeof(ans->msg), "%s", mnl_attr_get_str(a));
	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MISS_TYPE &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		ans->miss_type = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static void read_error(const struct nlmsghdr *nlh, struct answer *ans)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*e);

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

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(err))
		return;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	ans->err = err < 0 ? -err : 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_parse(nlh, sizeof(err), ext_cb, ans);
}

/* Read until the error/ACK/DONE that ends our request; count the rest. */
static int wait_answer(uint32_t seq, struct answer *ans)
{
	memset(ans, 0, sizeof(*ans));
	ans->miss_type = -1;
	for (;;) {
		int n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		if (n < 0)
			return -errno;
		for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				read_error(nlh, ans);
				return 0;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				read_done(nlh, ans);
				return 0;
			}
			ans->replies++;
		}
	}
}

/* ---- the table ---- */

struct attr {
	uint16_t type;
	uint16_t len;
	const void *data;
};

struct tcase {
	const char *name;
	uint8_t cmd;
	uint16_t flags;		/* NLM_F_DUMP or 0 */
	uint8_t reserved;	/* genl header's reserved field */
	struct attr attrs[3];
	int expect_errno;
	const char *expect_msg;	/* substring of the extack text */
};

static const uint32_t u32_max = 0xffffffff, u32_0 = 0, u32_5 = 5, u32_2 = 2,
	u32_big_irq = 999999, bad_flags = 0x80;
static const uint16_t u16_1 = 1;
static const uint8_t odd_list[6];
static uint32_t big_list[KSTAT_IRQ_LIST_MAX + 1];

#define A(t, v) { t, sizeof(v), &(v) }

static const struct tcase cases[] = {
	{ "CPU_GET cpu 2^32-1", KSTAT_CMD_CPU_GET, 0, 0,
	  { A(KSTAT_A_SEL_CPU, u32_max) }, EINVAL, "CPU out of range" },
	{ "CPU_GET cpu as u16", KSTAT_CMD_CPU_GET, 0, 0,
	  { A(KSTAT_A_SEL_CPU, u16_1) }, EINVAL, "" },
	{ "CPU_GET dump with a CPU", KSTAT_CMD_CPU_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_CPU, u32_0) }, EINVAL, "CPU dump" },
	{ "CPU_GET unknown attribute", KSTAT_CMD_CPU_GET, 0, 0,
	  { A(100, u32_0) }, EINVAL, "" },
	{ "CPU_GET reserved header byte", KSTAT_CMD_CPU_GET, 0, 1,
	  { }, EINVAL, "" },
	{ "IRQ_GET do without an IRQ", KSTAT_CMD_IRQ_GET, 0, 0,
	  { }, EINVAL, NULL },
	{ "IRQ_GET unknown IRQ", KSTAT_CMD_IRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_big_irq) }, ENOENT, "no such IRQ" },
	{ "IRQ_GET unknown flag", KSTAT_CMD_IRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0), A(KSTAT_A_SEL_FLAGS, bad_flags) },
	  EINVAL, "" },
	{ "IRQ_GET cpu_last 2^32-1", KSTAT_CMD_IRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0), A(KSTAT_A_SEL_CPU_LAST, u32_max) },
	  EINVAL, "CPU out of range" },
	{ "IRQ_GET cpu first above last", KSTAT_CMD_IRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0), A(KSTAT_A_SEL_CPU_FIRST, u32_5),
	    A(KSTAT_A_SEL_CPU_LAST, u32_0) }, EINVAL, "CPU" },
	{ "IRQ_GET do with a range", KSTAT_CMD_IRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0), A(KSTAT_A_SEL_IRQ_FIRST, u32_0) },
	  EINVAL, "do request takes one IRQ" },
	{ "IRQ_GET dump with one IRQ", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0) }, EINVAL, "range or list" },
	{ "IRQ_GET dump list of 6 bytes", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ_LIST, odd_list) }, EINVAL, "multiple of 4" },
	{ "IRQ_GET dump empty list", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { { KSTAT_A_SEL_IRQ_LIST, 0, odd_list } }, EINVAL, "multiple of 4" },
	{ "IRQ_GET dump oversized list", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ_LIST, big_list) }, ERANGE, "" },
	{ "IRQ_GET dump list and range", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ_LIST, u32_0), A(KSTAT_A_SEL_IRQ_LAST, u32_5) },
	  EINVAL, "not both" },
	{ "IRQ_GET dump first above last", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ_FIRST, u32_5), A(KSTAT_A_SEL_IRQ_LAST, u32_2) },
	  EINVAL, "first IRQ is above last IRQ" },
	{ "SOFTIRQ_GET with an IRQ", KSTAT_CMD_SOFTIRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_IRQ, u32_0) }, EINVAL, "" },
	{ "SOFTIRQ_GET arch flag", KSTAT_CMD_SOFTIRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_FLAGS, (uint32_t){ KSTAT_F_ARCH }) }, EINVAL, "" },
	{ "unknown command", 99, 0, 0, { }, EOPNOTSUPP, NULL },
	/* valid requests: the table also proves the checks are not blanket */
	{ "CPU_GET all CPUs", KSTAT_CMD_CPU_GET, 0, 0, { }, 0, NULL },
	{ "CPU_GET cpu 0", KSTAT_CMD_CPU_GET, 0, 0,
	  { A(KSTAT_A_SEL_CPU, u32_0) }, 0, NULL },
	{ "IRQ_GET dump list", KSTAT_CMD_IRQ_GET, NLM_F_DUMP, 0,
	  { A(KSTAT_A_SEL_IRQ_LIST, u32_0) }, 0, NULL },
	{ "SOFTIRQ_GET percpu", KSTAT_CMD_SOFTIRQ_GET, 0, 0,
	  { A(KSTAT_A_SEL_FLAGS, (uint32_t){ KSTAT_F_PERCPU }) }, 0, NULL },
};

static uint32_t send_case(const struct tcase *c)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	unsigned int i;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | c->flags;
	nlh->nlmsg_seq = time(NULL) ^ (uintptr_t)c;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = c->cmd;
	g->version = KSTAT_FAMILY_VERSION;
	g->reserved = c->reserved;
	for (i = 0; i < 3 && c->attrs[i].data; i++)
		mnl_attr_put(nlh, c->attrs[i].type, c->attrs[i].len,
			     c->attrs[i].data);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 0;
	return nlh->nlmsg_seq;
}

static int run_case(const struct tcase *c)
{
	struct answer ans;
	uint32_t seq = send_case(c);
	int ok;

	if (!seq || wait_answer(seq, &ans)) {
		printf("not ok - %s: send/receive failed: %s\n", c->name,
		       strerror(errno));
		return 1;
	}
	ok = ans.err == c->expect_errno;
	/* "" means: some message must be there; NULL: don't care */
	if (c->expect_msg && !strstr(ans.msg, c->expect_msg))
		ok = 0;
	if (c->expect_msg && !c->expect_msg[0] && !ans.msg[0])
		ok = 0;
	printf("%s - %s: errno %d (want %d), extack \"%s\"%s\n",
	       ok ? "ok" : "not ok", c->name, ans.err, c->expect_errno,
	       ans.msg, ans.miss_type >= 0 ? " (missing attribute reported)" : "");
	return !ok;
}

static int run_cases(void)
{
	unsigned int i;
	int failed = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		failed += run_case(&cases[i]);
	printf("%u cases, %d failed\n", i, failed);
	return failed ? 1 : 0;
}

/* ---- dump through a small buffer ---- */

struct dump_state {
	unsigned char *seen;	/* per IRQ number: times reported */
	unsigned int irqs, dupes, msgs, intr, interrupted;
};

static int irq_nest_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == KSTAT_A_IRQ_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		*(int64_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int dump_attr_cb(const struct nlattr *a, void *data)
{
	struct dump_state *st = data;
	int64_t irq = -1;

	if (mnl_attr_get_type(a) == KSTAT_A_INTR_SUM)
		st->intr++;
	if (mnl_attr_get_type(a) != KSTAT_A_IRQ)
		return MNL_CB_OK;
	mnl_attr_parse_nested(a, irq_nest_cb, &irq);
	if (irq < 0 || irq >= (1 << 20))
		return MNL_CB_ERROR;
	if (st->seen[irq]++)
		st->dupes++;
	st->irqs++;
	return MNL_CB_OK;
}

static int dump_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_state *st = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		st->interrupted++;
	st->msgs++;
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), dump_attr_cb, data);
}

static int dump_irqs(int bytes, int delay_ms)
{
	struct dump_state st = { .seen = calloc(1 << 20, 1) };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int n, ret = MNL_CB_OK;

	/*
	 * A fresh socket: the kernel sizes dump skbs by the largest read a
	 * socket has done, and open_family() read with a big buffer.
	 */
	mnl_socket_close(nl);
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &bytes,
		       sizeof(bytes)))
		return 1;
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 42;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = KSTAT_CMD_IRQ_GET;
	g->version = KSTAT_FAMILY_VERSION;
	mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, KSTAT_F_PERCPU);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (ret > MNL_CB_STOP) {
		/* Read with a buffer no larger than the socket's. */
		n = mnl_socket_recvfrom(nl, buf, bytes < (int)sizeof(buf) ?
					(size_t)bytes : sizeof(buf));
		if (n < 0) {
			perror("nlraw: recv");
			return 1;
		}
		ret = mnl_cb_run(buf, n, 42, 0, dump_msg_cb, &st);
		if (delay_ms)	/* a slow reader: the dump spans more time */
			usleep(delay_ms * 1000);
		/* libmnl stops at a message flagged NLM_F_DUMP_INTR */
		if (ret < 0 && errno == EINTR) {
			st.interrupted++;
			ret = MNL_CB_STOP;
		}
	}
	printf("irqs %u dupes %u msgs %u trailers %u interrupted %u result %d%s%s\n",
	       st.irqs, st.dupes, st.msgs, st.intr, st.interrupted, ret,
	       ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
	if (ret < 0)
		return 1;
	/* NLM_F_DUMP_INTR: the IRQ set changed; the caller must retry */
	if (st.interrupted)
		return 3;
	return st.dupes || st.intr != 1;
}

/* ---- recording fixtures ---- */

static int write_msgs(FILE *out, const char *data, int n, int *done)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;

	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR) {
			*done = 1;
			if (nlh->nlmsg_type == NLMSG_ERROR &&
			    ((const struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error)
				return -1;
			continue;
		}
		if (fwrite(nlh, nlh->nlmsg_len, 1, out) != 1)
			return -1;
	}
	return 0;
}

static int record_dump(const char *what, uint32_t flags, const char *path)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	int n, done = 0;
	FILE *out;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 7;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->version = KSTAT_FAMILY_VERSION;
	if (!strcmp(what, "cpu")) {
		g->cmd = KSTAT_CMD_CPU_GET;
	} else if (!strcmp(what, "irq")) {
		g->cmd = KSTAT_CMD_IRQ_GET;
		mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, flags);
	} else if (!strcmp(what, "softirq")) {
		g->cmd = KSTAT_CMD_SOFTIRQ_GET;	/* a do: one reply, then ACK */
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, flags);
	} else {
		return 2;
	}
	out = fopen(path, "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (!done) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0 || write_msgs(out, buf, n, &done))
			return 1;
	}
	return fclose(out) ? 1 : 0;
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

static int resolve_summary_group(uint32_t *grp)
{
	return ctrl_getfamily(grp_msg_cb, grp) || !*grp ? -1 : 0;
}

struct part_info {
	uint32_t part, parts;
};

static int part_cb(const struct nlattr *a, void *data)
{
	struct part_info *p = data;

	if (mnl_attr_get_type(a) == KSTAT_A_PART)
		p->part = mnl_attr_get_u32(a);
	if (mnl_attr_get_type(a) == KSTAT_A_PARTS)
		p->parts = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int first_part(const struct nlmsghdr *nlh)
{
	struct part_info p = { 0 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), part_cb, &p);
	return p.parts && p.part == 0;
}

/* Is @nlh the last part of its batch? */
static int last_part(const struct nlmsghdr *nlh)
{
	struct part_info p = { 0 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), part_cb, &p);
	return p.parts && p.part + 1 == p.parts;
}

static int record_summary(int count, const char *path)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	uint32_t grp = 0;
	int n, got = 0, done = 0, started = 0;
	FILE *out;

	if (resolve_summary_group(&grp) ||
	    mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return 1;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = KSTAT_CMD_SUBSCRIBE;
	g->version = KSTAT_FAMILY_VERSION;
	out = fopen(path, "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (got < count) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return 1;
		nlh = (struct nlmsghdr *)buf;
		if (nlh->nlmsg_type != family)
			continue;	/* the ACK of SUBSCRIBE */
		/* the first batch we see may have started before we joined */
		if (!got && !started && !first_part(nlh))
			continue;
		started = 1;
		if (write_msgs(out, buf, n, &done))
			return 1;
		got += last_part(nlh);
	}
	return fclose(out) ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (open_family()) {
		fprintf(stderr, "nlraw: cannot find the kstat family\n");
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "cases"))
		return run_cases();
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "dump-irqs"))
		return dump_irqs(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 0);
	if (argc == 5 && !strcmp(argv[1], "record-dump"))
		return record_dump(argv[2], strtoul(argv[3], NULL, 0), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "record-summary"))
		return record_summary(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: nlraw cases | dump-irqs BYTES | "
		"record-dump CMD FLAGS FILE | record-summary N FILE\n");
	return 2;
}
