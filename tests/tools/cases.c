// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw cases: crafted requests, each with the answer it must get: the
 * errno, the exact extended-ACK message ("" = none), the offset of the
 * offending attribute (NLMSGERR_ATTR_OFFS) and the missing attribute
 * (NLMSGERR_ATTR_MISS_TYPE), or no answer at all for framing the kernel
 * drops silently.
 *
 * The table is generated, not written out: the commands and the policy of
 * each of their attributes (ops[] below, as in the kernel's policies)
 * crossed with mutations (wrong length, NLA_F_NESTED, unknown and
 * foreign types, values at and past each bound), plus framing, header
 * and flag cases for every command.  Each case is built, sent and
 * checked in turn.
 *
 * "nlraw cases unpriv" is the table for a user without CAP_NET_ADMIN:
 * every read works, every CONFIG_SET gets EPERM.  "nlraw cases subscribe"
 * runs the SUBSCRIBE cases alone (for other namespaces).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"
#include "nlraw.h"

#define HDRS		(NLMSG_HDRLEN + GENL_HDRLEN)	/* first attribute */
#define NO_ANSWER	(-1)	/* expect: the kernel drops the message */
#define TIMEOUT_MS	5000	/* for an answer that must come */
#define SILENCE_MS	300	/* to believe an answer will not come */

/* Extended-ACK texts of the netlink core (lib/nlattr.c, genetlink.c). */
#define M_UNKNOWN	"Unknown attribute type"
#define M_UNSUPP	"Unsupported attribute"
#define M_POLICY	"Attribute failed policy validation"
#define M_LEN		"invalid attribute length"
#define M_NEST_NO	"NLA_F_NESTED not expected"
#define M_NEST_MISSING	"NLA_F_NESTED is missing"
#define M_RANGE		"integer out of range"
#define M_MASK		"reserved bit set"
#define M_LEFTOVER	"bytes leftover after parsing attributes"
#define M_RESERVED	"genlmsghdr.reserved field is not 0"
#define M_FLAGS		"ambiguous or reserved bits set in nlmsg_flags"
/* kstat's own (kernel/netlink.c) */
#define M_CPU		"CPU out of range"
#define M_CPU_ORDER	"first CPU is above last CPU"
#define M_NO_IRQ	"no such IRQ"
#define M_DO_RANGE	"IRQ ranges and lists select IRQs in dumps; a do request takes one IRQ"
#define M_DUMP_IRQ	"a dump selects IRQs by range or list; use a do request for one IRQ"
#define M_DUMP_CPU	"a CPU dump reports every online CPU; select one CPU with a do request"
#define M_CPU_BOTH	"one CPU has no per-CPU detail; select one CPU or ask for all"
#define M_BOTH		"select IRQs by a range or by a list, not both"
#define M_LIST_LEN	"IRQ list length is not a non-zero multiple of 4"
#define M_LIST_MAX	"IRQ list longer than 8192 IRQs"
#define M_IRQ_ORDER	"first IRQ is above last IRQ"
#define M_ARCH		"arch counters come with IRQ dumps only"
#define M_INTERVAL	"interval below the 10 ms minimum"
#define M_INTERVAL_MAX	"interval above the 60000 ms maximum"
#define M_SECTIONS	"a summary needs at least one section"
#define M_JOIN		"join the \"summary\" multicast group first"
#define M_UNSUB		"this socket is in no stream of its own (the default stream is left by leaving the \"summary\" group)"

/* ---- what the kernel does, per command ---- */

enum pol { P_U32, P_U8, P_BIN, P_NEST };

struct pattr {
	uint16_t type;
	enum pol pol;
	const char *name;
};

/* An op as registered: its attributes, and whether it has a dumpit. */
struct op {
	uint8_t cmd;
	const char *name;
	bool dump;
	uint16_t maxattr;		/* policy size - 1 (1: reject-all) */
	struct pattr attrs[8];
};

static const struct op ops[] = {
	{ KSTAT_CMD_CPU_GET, "CPU_GET", true, KSTAT_A_SEL_FLAGS,
	  { { KSTAT_A_SEL_CPU, P_U32, "SEL_CPU" },
	    { KSTAT_A_SEL_FLAGS, P_U32, "SEL_FLAGS" } } },
	{ KSTAT_CMD_IRQ_GET, "IRQ_GET", true, KSTAT_A_SEL_FLAGS,
	  { { KSTAT_A_SEL_IRQ, P_U32, "SEL_IRQ" },
	    { KSTAT_A_SEL_IRQ_FIRST, P_U32, "SEL_IRQ_FIRST" },
	    { KSTAT_A_SEL_IRQ_LAST, P_U32, "SEL_IRQ_LAST" },
	    { KSTAT_A_SEL_IRQ_LIST, P_BIN, "SEL_IRQ_LIST" },
	    { KSTAT_A_SEL_CPU_FIRST, P_U32, "SEL_CPU_FIRST" },
	    { KSTAT_A_SEL_CPU_LAST, P_U32, "SEL_CPU_LAST" },
	    { KSTAT_A_SEL_FLAGS, P_U32, "SEL_FLAGS" } } },
	{ KSTAT_CMD_SOFTIRQ_GET, "SOFTIRQ_GET", false, KSTAT_A_SEL_FLAGS,
	  { { KSTAT_A_SEL_CPU_FIRST, P_U32, "SEL_CPU_FIRST" },
	    { KSTAT_A_SEL_CPU_LAST, P_U32, "SEL_CPU_LAST" },
	    { KSTAT_A_SEL_FLAGS, P_U32, "SEL_FLAGS" } } },
	{ KSTAT_CMD_CONFIG_GET, "CONFIG_GET", false, 1, { } },
	{ KSTAT_CMD_CONFIG_SET, "CONFIG_SET", false, KSTAT_A_LIMITS,
	  { { KSTAT_A_CONFIG, P_NEST, "CONFIG" },
	    { KSTAT_A_LIMITS, P_NEST, "LIMITS" } } },
	{ KSTAT_CMD_STATS_GET, "STATS_GET", false, 1, { } },
	{ KSTAT_CMD_SUBSCRIBE, "SUBSCRIBE", false, KSTAT_A_CONFIG,
	  { { KSTAT_A_CONFIG, P_NEST, "CONFIG" } } },
	{ KSTAT_CMD_UNSUBSCRIBE, "UNSUBSCRIBE", false, 1, { } },
};

#define NR_OPS	(sizeof(ops) / sizeof(ops[0]))

static const char *op_name(uint8_t cmd)
{
	unsigned int i;

	for (i = 0; i < NR_OPS; i++)
		if (ops[i].cmd == cmd)
			return ops[i].name;
	return "?";
}

static const struct pattr config_attrs[] = {
	{ KSTAT_A_CONFIG_INTERVAL_MS, P_U32, "INTERVAL_MS" },
	{ KSTAT_A_CONFIG_BATCH, P_U32, "BATCH" },
	{ KSTAT_A_CONFIG_KEYFRAME, P_U32, "KEYFRAME" },
	{ KSTAT_A_CONFIG_SECTIONS, P_U32, "SECTIONS" },
	{ KSTAT_A_CONFIG_PERCPU, P_U8, "PERCPU" },
};

#define NR_CONFIG_ATTRS	(sizeof(config_attrs) / sizeof(config_attrs[0]))

/* ---- building a request ---- */

static char sbuf[1 << 18];
static struct nlmsghdr *req;
static size_t req_dgram;	/* bytes to send; 0: nlmsg_len */
static unsigned int ncpu;	/* nr_cpu_ids: possible CPU ids */
static bool verbose;

static void msg_new(uint8_t cmd, bool dump)
{
	memset(sbuf, 0, 64);
	req = kstat_msg_put(sbuf, cmd, NLM_F_ACK | (dump ? NLM_F_DUMP : 0));
	req_dgram = 0;
}

static struct genlmsghdr *genl(void)
{
	return mnl_nlmsg_get_payload(req);
}

/* Append an attribute (type may carry NLA_F_*); its offset in the message. */
static int put(uint16_t type, const void *data, uint16_t len)
{
	int off = req->nlmsg_len;

	mnl_attr_put(req, type, len, data);
	return off;
}

static int put_u32(uint16_t type, uint32_t v)
{
	return put(type, &v, sizeof(v));
}

/* An attribute of @len bytes (a pattern, not zeros: values must not matter). */
static int put_len(uint16_t type, uint16_t len)
{
	static unsigned char junk[65536];

	memset(junk, 0x5a, len);
	return put(type, junk, len);
}

static struct nlattr *nest_start(uint16_t type)
{
	return mnl_attr_nest_start(req, type);
}

static void nest_end(struct nlattr *n)
{
	mnl_attr_nest_end(req, n);
}

/* ---- expectations and checking ---- */

struct expect {
	int err;		/* errno, 0, or NO_ANSWER */
	const char *msg;	/* exact; "" = no message */
	int offs;		/* NLMSGERR_ATTR_OFFS; -1 = must be absent */
	int miss;		/* NLMSGERR_ATTR_MISS_TYPE; -1 = must be absent */
	enum answer_kind kind;	/* ANS_ERROR or ANS_DONE */
	bool data;		/* replies must carry data */
};

static struct expect ok(bool dump)
{
	return (struct expect){ 0, "", -1, -1, dump ? ANS_DONE : ANS_ERROR,
				true };
}

/* An ACK for a do that sends no reply (CONFIG_SET, SUBSCRIBE, no REQUEST). */
static struct expect ack(void)
{
	return (struct expect){ 0, "", -1, -1, ANS_ERROR, false };
}

/* Rejected before the op runs: netlink core, policy, or a do's handler. */
static struct expect rej(int err, const char *msg, int offs)
{
	return (struct expect){ err, msg, offs, -1, ANS_ERROR, false };
}

/*
 * What the netlink core does differently on the kernels kstat supports,
 * from the running kernel's version: measured on 6.1 and 6.12.
 */
static bool kernel_at_least(unsigned int major, unsigned int minor)
{
	static unsigned int ma, mi;
	struct utsname u;

	if (!ma && (uname(&u) || sscanf(u.release, "%u.%u", &ma, &mi) != 2))
		ma = 1;
	return ma > major || (ma == major && mi >= minor);
}

/*
 * NLMSG_DONE carries the offending attribute's offset on newer kernels:
 * absent on 6.1, present on 6.12 (both measured).  6.5, where the dump
 * path learnt every extack type, is our reading of the kernel's history.
 */
static int dump_offs(int offs)
{
	return kernel_at_least(6, 5) ? offs : -1;
}

/*
 * Rejected by a dump's first dumpit call: NLMSG_DONE with the text and,
 * where the kernel sends it, the offset of the attribute at @offs.
 */
static struct expect rej_dump(int err, const char *msg, int offs)
{
	return (struct expect){ err, msg, dump_offs(offs), -1, ANS_DONE,
				false };
}

/* A kstat check: rej() for a do, rej_dump() for a dump. */
static struct expect rej_op(bool dump, int err, const char *msg, int offs)
{
	return dump ? rej_dump(err, msg, offs) : rej(err, msg, offs);
}

static struct expect missing(int type)
{
	return (struct expect){ EINVAL, "", -1, type, ANS_ERROR, false };
}

static struct expect silence(void)
{
	return (struct expect){ NO_ANSWER, "", -1, -1, ANS_NONE, false };
}

/* Tally per category, in order of first use. */
struct tally {
	const char *cat;
	unsigned int run, failed;
};

static struct tally tallies[32];
static unsigned int nr_tallies, nr_run, nr_failed;

static void count(const char *cat, bool good)
{
	unsigned int i;

	for (i = 0; i < nr_tallies && strcmp(tallies[i].cat, cat); i++)
		;
	if (i == nr_tallies && nr_tallies < 32)
		tallies[nr_tallies++].cat = cat;
	if (i < 32) {
		tallies[i].run++;
		tallies[i].failed += !good;
	}
	nr_run++;
	nr_failed += !good;
}

static void describe(char *s, size_t n, int err, const char *msg, int offs,
		     int miss, enum answer_kind kind)
{
	static const char *const kinds[] = { "no answer", "ERROR", "DONE" };

	if (err == NO_ANSWER) {
		snprintf(s, n, "no answer");
		return;
	}
	snprintf(s, n, "%s errno %d (%s) msg \"%s\" offs %d miss %d",
		 kinds[kind], err, err ? strerror(err) : "ok", msg, offs, miss);
}

/* Is the socket still served?  A CONFIG_GET must be answered. */
static bool ping(void)
{
	struct answer ans;

	msg_new(KSTAT_CMD_CONFIG_GET, false);
	req->nlmsg_seq = 0x50494e47;
	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0)
		return false;
	return !wait_answer(nl, req->nlmsg_seq, &ans, TIMEOUT_MS) &&
	       ans.kind == ANS_ERROR && !ans.err;
}

static bool matches(const struct expect *e, const struct answer *a)
{
	if (e->err == NO_ANSWER)
		return a->kind == ANS_NONE && ping();
	return a->kind == e->kind && a->err == e->err &&
	       !strcmp(a->msg, e->msg) && a->offs == e->offs &&
	       a->miss_type == e->miss && (!e->data || a->replies > 0);
}

/* Send the request built so far; check the answer against @e. */
static void run(const char *cat, struct expect e, const char *fmt, ...)
{
	static uint32_t seq = 1000;
	char name[160], want[400], got[400];
	struct answer a;
	size_t len = req_dgram ? req_dgram : req->nlmsg_len;
	va_list ap;
	bool good;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	req->nlmsg_seq = ++seq;
	/* a datagram shorter than a header: seq is lost, so is the answer */
	if (mnl_socket_sendto(nl, sbuf, len) < 0 ||
	    wait_answer(nl, seq, &a, e.err == NO_ANSWER ? SILENCE_MS :
			TIMEOUT_MS)) {
		printf("not ok - %s: %s: send/receive: %s\n", cat, name,
		       strerror(errno));
		count(cat, false);
		return;
	}
	good = matches(&e, &a);
	count(cat, good);
	if (good && !verbose)
		return;
	describe(want, sizeof(want), e.err, e.msg, e.offs, e.miss, e.kind);
	describe(got, sizeof(got), a.kind == ANS_NONE ? NO_ANSWER : a.err,
		 a.msg, a.offs, a.miss_type, a.kind);
	if (good)
		printf("ok - %s: %s: %s\n", cat, name, got);
	else
		printf("not ok - %s: %s: want %s%s, got %s (%u replies)\n",
		       cat, name, want, e.data ? " with data" : "", got,
		       a.replies);
}

/* ---- the table ---- */

static const char *mode(bool dump)
{
	return dump ? "dump" : "do";
}

/* Every (op, do/dump) the family serves. */
#define for_each_op_mode(o, dump)					\
	for (o = ops; o < ops + NR_OPS; o++)				\
		for (dump = false; dump <= o->dump; dump++)

/* The attribute a do request of @o cannot be without (IRQ_GET's IRQ). */
static void put_required(const struct op *o, bool dump)
{
	if (o->cmd == KSTAT_CMD_IRQ_GET && !dump)
		put_u32(KSTAT_A_SEL_IRQ, 0);
	if (o->cmd == KSTAT_CMD_CONFIG_SET)
		nest_end(nest_start(KSTAT_A_CONFIG));
}

/* Framing: lengths of the netlink and genetlink headers. */
static void gen_framing(void)
{
	static const unsigned int short_dgram[] = { 4, 8, 15 };
	static const unsigned int bad_len[] = { 0, 8, 15 };
	const struct op *o;
	unsigned int i;
	int dump, off;

	for (i = 0; i < 3; i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req_dgram = short_dgram[i];
		run("framing", silence(), "datagram of %u bytes",
		    short_dgram[i]);
	}
	for (i = 0; i < 3; i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req_dgram = req->nlmsg_len;
		req->nlmsg_len = bad_len[i];
		run("framing", silence(), "nlmsg_len %u", bad_len[i]);
	}
	for (i = 1; i <= 1000; i *= 10) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req_dgram = req->nlmsg_len;
		req->nlmsg_len += i * 4;
		run("framing", silence(), "nlmsg_len %u bytes past the datagram",
		    i * 4);
	}
	for (i = NLMSG_HDRLEN; i < HDRS; i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req->nlmsg_len = i;
		run("framing", rej(EINVAL, "", -1),
		    "genl header cut to %u bytes", i - NLMSG_HDRLEN);
	}
	/* every op: a genl header one byte short, then 2 stray bytes */
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		req->nlmsg_len = HDRS - 1;
		run("framing", rej(EINVAL, "", -1),
		    "%s %s genl header 3 bytes", o->name, mode(dump));
		msg_new(o->cmd, dump);
		put_required(o, dump);
		req->nlmsg_len += 2;	/* sbuf is zeroed there */
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s 2 bytes after the attributes", o->name, mode(dump));
		msg_new(o->cmd, dump);
		put_required(o, dump);
		off = put_u32(o->maxattr, 0);
		((struct nlattr *)((char *)req + off))->nla_len = 2;
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s attribute with nla_len 2", o->name, mode(dump));
		msg_new(o->cmd, dump);
		put_required(o, dump);
		off = put_u32(o->maxattr, 0);
		((struct nlattr *)((char *)req + off))->nla_len = 12;
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s attribute longer than the message", o->name,
		    mode(dump));
	}
	/* the kernel reads nlmsg_len, not the datagram */
	msg_new(KSTAT_CMD_IRQ_GET, false);
	put_u32(KSTAT_A_SEL_IRQ, 0);
	req_dgram = req->nlmsg_len;
	req->nlmsg_len = HDRS;
	run("framing", missing(KSTAT_A_SEL_IRQ),
	    "IRQ_GET do, nlmsg_len leaves out SEL_IRQ");
}

/* nlmsg_type and the genl header's version and reserved fields. */
static void gen_header(void)
{
	static const uint16_t ctl_types[] = { NLMSG_NOOP, NLMSG_DONE,
					      NLMSG_OVERRUN, 0xf };
	static const uint8_t versions[] = { 0, 2, 255 };
	const struct op *o;
	unsigned int i;
	int dump;

	msg_new(KSTAT_CMD_CPU_GET, false);
	req->nlmsg_type = 0xffff;
	run("header", rej(ENOENT, "", -1), "nlmsg_type 0xffff (no family)");
	for (i = 0; i < 4; i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req->nlmsg_type = ctl_types[i];
		run("header", ack(), "nlmsg_type %u (control)", ctl_types[i]);
	}
	for (i = 0; i < 3; i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		genl()->version = versions[i];
		run("header", ok(false), "CPU_GET genl version %u (unchecked)",
		    versions[i]);
	}
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		genl()->reserved = 1;
		run("header", rej(EINVAL, M_RESERVED, -1),
		    "%s %s reserved 1", o->name, mode(dump));
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	put_required(&ops[4], false);
	genl()->reserved = 0x80;
	run("header", rej(EINVAL, M_RESERVED, -1), "CONFIG_SET reserved 0x80");
}

/* nlmsg_flags beyond REQUEST, ACK, ECHO and the whole of DUMP. */
static void gen_flags(void)
{
	static const uint16_t bad[] = {
		NLM_F_MULTI, NLM_F_DUMP_INTR, NLM_F_DUMP_FILTERED, NLM_F_ROOT,
		NLM_F_MATCH, NLM_F_ATOMIC, NLM_F_DUMP_INTR | NLM_F_DUMP,
		0x800, 0x1000, 0x8000,
	};
	const struct op *o;
	unsigned int i;
	int dump;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg_new(KSTAT_CMD_CPU_GET, false);
		req->nlmsg_flags |= bad[i];
		run("flags", rej(EINVAL, M_FLAGS, -1), "CPU_GET flags +%#x",
		    bad[i]);
	}
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		put_required(o, dump);
		req->nlmsg_flags |= dump ? NLM_F_MULTI : NLM_F_ROOT;
		run("flags", rej(EINVAL, M_FLAGS, -1), "%s %s flags +%s",
		    o->name, mode(dump), dump ? "MULTI" : "ROOT");
	}
	msg_new(KSTAT_CMD_CPU_GET, false);
	req->nlmsg_flags |= NLM_F_ECHO;
	run("flags", ok(false), "CPU_GET flags +ECHO");
	/* not a request: acknowledged, not run (the interval is invalid) */
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	req->nlmsg_flags = NLM_F_ACK;
	nest_end(nest_start(KSTAT_A_CONFIG));
	put_u32(KSTAT_A_CONFIG_INTERVAL_MS, 0);
	run("flags", ack(), "CONFIG_SET without NLM_F_REQUEST");
}

/* Commands the family does not have, and dumps of do-only ops. */
static void gen_commands(void)
{
	static const uint8_t unknown[] = { KSTAT_CMD_UNSPEC,
					   KSTAT_CMD_SUMMARY_NTF,
					   KSTAT_CMD_MAX + 1, 255 };
	const struct op *o;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		msg_new(unknown[i], false);
		run("command", rej(EOPNOTSUPP, "", -1), "command %u do",
		    unknown[i]);
		msg_new(unknown[i], true);
		run("command", rej(EOPNOTSUPP, "", -1), "command %u dump",
		    unknown[i]);
	}
	for (o = ops; o < ops + NR_OPS; o++) {
		if (o->dump)
			continue;
		msg_new(o->cmd, true);
		run("command", rej(EOPNOTSUPP, "", -1), "%s dump", o->name);
	}
}

static bool has_attr(const struct op *o, uint16_t type)
{
	unsigned int i;

	for (i = 0; i < 8 && o->attrs[i].name; i++)
		if (o->attrs[i].type == type)
			return true;
	return false;
}

/* Types outside an op's policy: unknown (0, > maxattr) or unsupported. */
static void gen_unknown(void)
{
	const struct op *o;
	uint16_t t;
	int dump;

	for_each_op_mode(o, dump) {
		/* 0x3fff: the highest type without NLA_F_* bits */
		const uint16_t unknown[] = { 0, o->maxattr + 1, KSTAT_A_MAX + 1,
					     0x3fff };
		unsigned int i;

		for (i = 0; i < 4; i++) {
			msg_new(o->cmd, dump);
			put_u32(unknown[i], 0);
			run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS),
			    "%s %s attribute type %u", o->name, mode(dump),
			    unknown[i]);
		}
		/* family attributes this op does not take */
		for (t = 1; t <= o->maxattr; t++) {
			const char *msg = o->maxattr == 1 ? M_POLICY : M_UNSUPP;

			if (has_attr(o, t))
				continue;
			msg_new(o->cmd, dump);
			put_u32(t, 0);
			run("foreign-attr", rej(EINVAL, msg, HDRS),
			    "%s %s attribute type %u", o->name, mode(dump), t);
		}
	}
	/* a reply attribute in a request, after a good one */
	msg_new(KSTAT_CMD_SOFTIRQ_GET, false);
	put_u32(KSTAT_A_SEL_FLAGS, 0);
	put_u32(KSTAT_A_SOFTIRQ, 0);
	run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS + 8),
	    "SOFTIRQ_GET with KSTAT_A_SOFTIRQ (a reply attribute)");
}

/* Wrong lengths and flags of each attribute an op takes. */
static void gen_attr_shape(void)
{
	static const uint16_t bad_u32_len[] = { 0, 2, 8, 4096, 60000 };
	const struct op *o;
	unsigned int i, j;
	int dump;

	for_each_op_mode(o, dump) {
		for (i = 0; i < 8 && o->attrs[i].name; i++) {
			const struct pattr *p = &o->attrs[i];

			if (p->pol == P_U32) {
				for (j = 0; j < 5; j++) {
					msg_new(o->cmd, dump);
					put_len(p->type, bad_u32_len[j]);
					run(j < 3 ? "attr-length" : "oversize",
					    rej(EINVAL, M_LEN, HDRS),
					    "%s %s %s of %u bytes", o->name,
					    mode(dump), p->name, bad_u32_len[j]);
				}
			}
			if (p->pol == P_NEST) {
				msg_new(o->cmd, dump);
				put_u32(p->type, 0);
				run("nested-flag", rej(EINVAL, M_NEST_MISSING, HDRS),
				    "%s %s %s without NLA_F_NESTED", o->name,
				    mode(dump), p->name);
				msg_new(o->cmd, dump);
				put_len(p->type | NLA_F_NESTED, 2);
				run("attr-length", rej(ERANGE, M_POLICY, HDRS),
				    "%s %s %s nest of 2 bytes", o->name,
				    mode(dump), p->name);
				continue;
			}
			msg_new(o->cmd, dump);
			put_u32(p->type | NLA_F_NESTED, 0);
			run("nested-flag", rej(EINVAL, M_NEST_NO, HDRS),
			    "%s %s %s with NLA_F_NESTED", o->name, mode(dump),
			    p->name);
		}
	}
	/* inside KSTAT_A_CONFIG */
	for (i = 0; i < NR_CONFIG_ATTRS; i++) {
		const struct pattr *p = &config_attrs[i];
		const uint16_t lens[] = { 0, p->pol == P_U8 ? 4 : 2, 8 };
		struct nlattr *n;

		for (j = 0; j < 3; j++) {
			msg_new(KSTAT_CMD_CONFIG_SET, false);
			n = nest_start(KSTAT_A_CONFIG);
			put_len(p->type, lens[j]);
			nest_end(n);
			run("attr-length", rej(EINVAL, M_LEN, HDRS + NLA_HDRLEN),
			    "CONFIG_SET %s of %u bytes", p->name, lens[j]);
		}
		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		put_len(p->type | NLA_F_NESTED, p->pol == P_U8 ? 1 : 4);
		nest_end(n);
		run("nested-flag", rej(EINVAL, M_NEST_NO, HDRS + NLA_HDRLEN),
		    "CONFIG_SET %s with NLA_F_NESTED", p->name);
	}
	for (i = 0; i < 2; i++) {
		struct nlattr *n;

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		put_u32(i ? KSTAT_A_CONFIG_MAX + 1 : 0, 10);
		nest_end(n);
		run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS + NLA_HDRLEN),
		    "CONFIG_SET config attribute type %u",
		    i ? KSTAT_A_CONFIG_MAX + 1 : 0);
	}
	/* NLA_F_NET_BYTEORDER is not checked for u32: the value is raw */
	msg_new(KSTAT_CMD_CPU_GET, false);
	put_u32(KSTAT_A_SEL_CPU | NLA_F_NET_BYTEORDER, 0);
	run("attr-length", ok(false), "CPU_GET SEL_CPU 0 with NLA_F_NET_BYTEORDER");
	/* the last of two copies counts */
	msg_new(KSTAT_CMD_CPU_GET, false);
	put_u32(KSTAT_A_SEL_CPU, 0);
	put_u32(KSTAT_A_SEL_CPU, UINT32_MAX);
	run("duplicate", rej(EINVAL, M_CPU, HDRS + 8),
	    "CPU_GET SEL_CPU 0 then 2^32-1");
	msg_new(KSTAT_CMD_CPU_GET, false);
	put_u32(KSTAT_A_SEL_CPU, UINT32_MAX);
	put_u32(KSTAT_A_SEL_CPU, 0);
	run("duplicate", ok(false), "CPU_GET SEL_CPU 2^32-1 then 0");
}

static bool irq_exists(uint32_t irq)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/kernel/irq/%u", irq);
	return access(path, F_OK) == 0;
}

static const uint32_t values[] = { 0, 1, 9, 0x7fffffff, 0x80000000,
				   UINT32_MAX };
#define NR_VALUES	(sizeof(values) / sizeof(values[0]))

/* CPU and IRQ numbers at and past the bounds. */
static void gen_cpu_irq_values(void)
{
	const struct op *o;
	unsigned int i, k;
	int dump;
	int off;

	for (i = 0; i < NR_VALUES + 2; i++) {
		uint32_t v = i < NR_VALUES ? values[i] : ncpu - (i - NR_VALUES);

		msg_new(KSTAT_CMD_CPU_GET, false);
		off = put_u32(KSTAT_A_SEL_CPU, v);
		run("range", v < ncpu ? ok(false) : rej(EINVAL, M_CPU, off),
		    "CPU_GET do cpu %u (%u CPU ids)", v, ncpu);
	}
	for (i = 0; i < NR_VALUES; i++) {
		msg_new(KSTAT_CMD_IRQ_GET, false);
		off = put_u32(KSTAT_A_SEL_IRQ, values[i]);
		run("range", irq_exists(values[i]) ? ok(false) :
		    rej(ENOENT, M_NO_IRQ, off), "IRQ_GET do irq %u", values[i]);
	}
	/* per-CPU array bounds, for every op that takes them */
	for_each_op_mode(o, dump) {
		if (!has_attr(o, KSTAT_A_SEL_CPU_FIRST))
			continue;
		for (k = 0; k < 2; k++) {
			uint16_t t = k ? KSTAT_A_SEL_CPU_LAST : KSTAT_A_SEL_CPU_FIRST;

			for (i = 0; i < NR_VALUES + 1; i++) {
				uint32_t v = i < NR_VALUES ? values[i] : ncpu;
				bool good = v < ncpu;

				msg_new(o->cmd, dump);
				put_required(o, dump);
				put_u32(KSTAT_A_SEL_FLAGS, KSTAT_F_PERCPU);
				off = put_u32(t, v);
				run("range", good ? ok(dump) :
				    rej_op(dump, EINVAL, M_CPU, off),
				    "%s %s %s %u", o->name, mode(dump),
				    k ? "cpu_last" : "cpu_first", v);
			}
		}
		if (ncpu < 2)
			continue;
		msg_new(o->cmd, dump);
		put_required(o, dump);
		off = put_u32(KSTAT_A_SEL_CPU_FIRST, 1);
		put_u32(KSTAT_A_SEL_CPU_LAST, 0);
		run("range", rej_op(dump, EINVAL, M_CPU_ORDER, off),
		    "%s %s cpu_first 1 cpu_last 0", o->name, mode(dump));
	}
}

static uint32_t *irq_list(unsigned int n)
{
	static uint32_t list[16384];
	unsigned int i;

	for (i = 0; i < n; i++)
		list[i] = i % 64;
	return list;
}

/* IRQ selection: flags, ranges, lists, what do and dump take. */
static void gen_irq_selection(void)
{
	static const struct { uint8_t cmd; bool dump; uint32_t flags;
			      const char *msg; } flags[] = {
		{ KSTAT_CMD_IRQ_GET, false, KSTAT_F_PERCPU | KSTAT_F_META, NULL },
		{ KSTAT_CMD_IRQ_GET, false, KSTAT_F_ARCH, M_ARCH },
		{ KSTAT_CMD_IRQ_GET, false, 8, M_MASK },
		{ KSTAT_CMD_IRQ_GET, false, UINT32_MAX, M_MASK },
		{ KSTAT_CMD_IRQ_GET, true, KSTAT_F_ALL, NULL },
		{ KSTAT_CMD_IRQ_GET, true, 8, M_MASK },
		{ KSTAT_CMD_IRQ_GET, true, 1U << 31, M_MASK },
		{ KSTAT_CMD_SOFTIRQ_GET, false, KSTAT_F_PERCPU, NULL },
		{ KSTAT_CMD_SOFTIRQ_GET, false, KSTAT_F_META, M_MASK },
		{ KSTAT_CMD_SOFTIRQ_GET, false, KSTAT_F_ARCH, M_MASK },
		{ KSTAT_CMD_CPU_GET, false, KSTAT_F_PERCPU, NULL },
		{ KSTAT_CMD_CPU_GET, false, KSTAT_F_META, M_MASK },
		{ KSTAT_CMD_CPU_GET, false, KSTAT_F_ARCH, M_MASK },
		{ KSTAT_CMD_CPU_GET, true, KSTAT_F_PERCPU, M_DUMP_CPU },
	};
	static const struct { uint32_t first, last; bool has_first, has_last;
			      bool good; } ranges[] = {
		{ 5, 2, true, true, false },
		{ 0, 0, true, true, true },
		{ UINT32_MAX, UINT32_MAX, true, true, true },
		{ UINT32_MAX, 0, true, false, true },
		{ 0, 0, false, true, true },
		{ 0, UINT32_MAX, true, true, true },
	};
	static const unsigned int list_bytes[] = { 0, 2, 6 };
	static const unsigned int list_n[] = { 1, 8192, 8193, 16382 };
	unsigned int i;
	int off;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		msg_new(flags[i].cmd, flags[i].dump);
		if (flags[i].cmd == KSTAT_CMD_IRQ_GET && !flags[i].dump)
			put_u32(KSTAT_A_SEL_IRQ, 0);
		off = put_u32(KSTAT_A_SEL_FLAGS, flags[i].flags);
		run("range", !flags[i].msg ? ok(flags[i].dump) :
		    /* the policy's rejections come before a dump starts */
		    flags[i].cmd == KSTAT_CMD_CPU_GET && flags[i].dump ?
		    rej_dump(EINVAL, flags[i].msg, off) :
		    rej(EINVAL, flags[i].msg, off), "%s %s flags %#x",
		    op_name(flags[i].cmd), mode(flags[i].dump), flags[i].flags);
	}
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		msg_new(KSTAT_CMD_IRQ_GET, true);
		off = -1;
		if (ranges[i].has_first)
			off = put_u32(KSTAT_A_SEL_IRQ_FIRST, ranges[i].first);
		if (ranges[i].has_last)
			put_u32(KSTAT_A_SEL_IRQ_LAST, ranges[i].last);
		run("range", ranges[i].good ? ok(true) :
		    rej_dump(EINVAL, M_IRQ_ORDER, off), "IRQ_GET dump irqs %s%u..%s%u",
		    ranges[i].has_first ? "" : "(default)", ranges[i].first,
		    ranges[i].has_last ? "" : "(default)", ranges[i].last);
	}
	for (i = 0; i < 3; i++) {
		msg_new(KSTAT_CMD_IRQ_GET, true);
		off = put_len(KSTAT_A_SEL_IRQ_LIST, list_bytes[i]);
		run("list", rej_dump(EINVAL, M_LIST_LEN, off),
		    "IRQ_GET dump list of %u bytes", list_bytes[i]);
	}
	for (i = 0; i < 4; i++) {
		bool good = list_n[i] <= KSTAT_IRQ_LIST_MAX;

		msg_new(KSTAT_CMD_IRQ_GET, true);
		off = put(KSTAT_A_SEL_IRQ_LIST, irq_list(list_n[i]),
			  list_n[i] * 4);
		/* in code: 6.12's generator makes no binary max-len */
		run("list", good ? ok(true) : rej_dump(ERANGE, M_LIST_MAX, off),
		    "IRQ_GET dump list of %u IRQs", list_n[i]);
	}
	msg_new(KSTAT_CMD_IRQ_GET, true);
	put_u32(KSTAT_A_SEL_IRQ_LIST, UINT32_MAX);
	run("list", ok(true), "IRQ_GET dump list [2^32-1] (absent, trailer only)");
	for (i = 0; i < 2; i++) {
		msg_new(KSTAT_CMD_IRQ_GET, true);
		off = put_u32(KSTAT_A_SEL_IRQ_LIST, 0);
		put_u32(i ? KSTAT_A_SEL_IRQ_LAST : KSTAT_A_SEL_IRQ_FIRST, 0);
		run("list", rej_dump(EINVAL, M_BOTH, off), "IRQ_GET dump list and %s",
		    i ? "last" : "first");
	}
	/* what a do takes and a dump takes */
	for (i = KSTAT_A_SEL_IRQ_FIRST; i <= KSTAT_A_SEL_IRQ_LIST; i++) {
		msg_new(KSTAT_CMD_IRQ_GET, false);
		put_u32(KSTAT_A_SEL_IRQ, 0);
		put_u32(i, 0);
		run("do-vs-dump", rej(EINVAL, M_DO_RANGE, -1),
		    "IRQ_GET do with attribute %u", i);
	}
	msg_new(KSTAT_CMD_IRQ_GET, true);
	off = put_u32(KSTAT_A_SEL_IRQ, 0);
	run("do-vs-dump", rej_dump(EINVAL, M_DUMP_IRQ, off),
	    "IRQ_GET dump with SEL_IRQ");
	msg_new(KSTAT_CMD_CPU_GET, true);
	off = put_u32(KSTAT_A_SEL_CPU, 0);
	run("do-vs-dump", rej_dump(EINVAL, M_DUMP_CPU, off),
	    "CPU_GET dump with SEL_CPU");
	/* one CPU, or every CPU and the sum: not both */
	msg_new(KSTAT_CMD_CPU_GET, false);
	put_u32(KSTAT_A_SEL_CPU, 0);
	off = put_u32(KSTAT_A_SEL_FLAGS, KSTAT_F_PERCPU);
	run("do-vs-dump", rej(EINVAL, M_CPU_BOTH, off),
	    "CPU_GET do with SEL_CPU and flags percpu");
}

/* Summary configuration bounds. */
static void gen_config_values(void)
{
	static const struct { uint16_t type; uint32_t v; int err;
			      const char *msg; } cfg[] = {
		{ KSTAT_A_CONFIG_INTERVAL_MS, 0, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 1, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 9, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 10, 0, NULL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, KSTAT_INTERVAL_MAX_MS, 0, NULL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, KSTAT_INTERVAL_MAX_MS + 1, ERANGE,
		  M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_INTERVAL_MS, UINT32_MAX, ERANGE, M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_BATCH, 0, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_BATCH, 1, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, 9, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, KSTAT_BATCH_MAX, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, KSTAT_BATCH_MAX + 1, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_BATCH, UINT32_MAX, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_KEYFRAME, 0, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_KEYFRAME, 1, 0, NULL },
		{ KSTAT_A_CONFIG_KEYFRAME, KSTAT_KEYFRAME_MAX, 0, NULL },
		{ KSTAT_A_CONFIG_KEYFRAME, KSTAT_KEYFRAME_MAX + 1, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_KEYFRAME, UINT32_MAX, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_SECTIONS, 0, EINVAL, M_SECTIONS },
		{ KSTAT_A_CONFIG_SECTIONS, 1, 0, NULL },
		{ KSTAT_A_CONFIG_SECTIONS, KSTAT_SECTION_ALL, 0, NULL },
		{ KSTAT_A_CONFIG_SECTIONS, 8, EINVAL, M_MASK },
		{ KSTAT_A_CONFIG_SECTIONS, UINT32_MAX, EINVAL, M_MASK },
		{ KSTAT_A_CONFIG_PERCPU, 0, 0, NULL },
		{ KSTAT_A_CONFIG_PERCPU, 1, 0, NULL },
		{ KSTAT_A_CONFIG_PERCPU, 2, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_PERCPU, 255, ERANGE, M_RANGE },
	};
	unsigned int i;
	struct nlattr *n;
	int off;

	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		uint8_t u8 = cfg[i].v;

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		off = cfg[i].type == KSTAT_A_CONFIG_PERCPU ?
		      put(cfg[i].type, &u8, 1) : put_u32(cfg[i].type, cfg[i].v);
		nest_end(n);
		run("config", cfg[i].msg ? rej(cfg[i].err, cfg[i].msg, off) :
		    ack(), "CONFIG_SET attribute %u value %u", cfg[i].type,
		    cfg[i].v);
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
	run("config", ack(), "CONFIG_SET empty config (changes nothing)");
	/* one bad field rejects the whole change */
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	n = nest_start(KSTAT_A_CONFIG);
	put_u32(KSTAT_A_CONFIG_BATCH, 2);
	off = put_u32(KSTAT_A_CONFIG_INTERVAL_MS, 5);
	nest_end(n);
	run("config", rej(EINVAL, M_INTERVAL, off),
	    "CONFIG_SET batch 2 with interval 5");
}

static void gen_subscribe(uint32_t grp);

/* Required attributes, subscription, and requests that must work. */
static void gen_misc(uint32_t grp)
{
	static const struct { uint8_t cmd; bool dump; } good[] = {
		{ KSTAT_CMD_CPU_GET, false }, { KSTAT_CMD_CPU_GET, true },
		{ KSTAT_CMD_IRQ_GET, true }, { KSTAT_CMD_SOFTIRQ_GET, false },
		{ KSTAT_CMD_CONFIG_GET, false }, { KSTAT_CMD_STATS_GET, false },
	};
	unsigned int i;

	msg_new(KSTAT_CMD_IRQ_GET, false);
	run("missing", missing(KSTAT_A_SEL_IRQ), "IRQ_GET do without SEL_IRQ");
	msg_new(KSTAT_CMD_IRQ_GET, false);
	put_u32(KSTAT_A_SEL_FLAGS, KSTAT_F_META);
	run("missing", missing(KSTAT_A_SEL_IRQ),
	    "IRQ_GET do with flags but no SEL_IRQ");
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	run("missing", missing(KSTAT_A_CONFIG), "CONFIG_SET without CONFIG");

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		msg_new(good[i].cmd, good[i].dump);
		run("valid", ok(good[i].dump), "command %u %s", good[i].cmd,
		    mode(good[i].dump));
	}

	gen_subscribe(grp);
}

/* SUBSCRIBE needs a listener (in any namespace); joining needs no privilege. */
static void gen_subscribe(uint32_t grp)
{
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	run("subscribe", rej(ENOTCONN, M_JOIN, -1), "SUBSCRIBE without joining");
	if (!grp || mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp,
					  sizeof(grp))) {
		printf("not ok - subscribe: cannot join \"summary\"\n");
		count("subscribe", false);
		return;
	}
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	run("subscribe", ack(), "SUBSCRIBE after joining");
	mnl_socket_setsockopt(nl, NETLINK_DROP_MEMBERSHIP, &grp, sizeof(grp));
}

/* Without CAP_NET_ADMIN: every read works, no change goes through. */
static void gen_unpriv(uint32_t grp)
{
	const struct op *o;
	unsigned int i;
	struct nlattr *n;
	int dump;

	for_each_op_mode(o, dump) {
		if (o->cmd == KSTAT_CMD_CONFIG_SET ||
		    o->cmd == KSTAT_CMD_SUBSCRIBE ||
		    o->cmd == KSTAT_CMD_UNSUBSCRIBE)
			continue;
		msg_new(o->cmd, dump);
		put_required(o, dump);
		run("unpriv-read", ok(dump), "%s %s", o->name, mode(dump));
	}
	msg_new(KSTAT_CMD_IRQ_GET, true);
	put_u32(KSTAT_A_SEL_FLAGS, KSTAT_F_ALL);
	run("unpriv-read", ok(true), "IRQ_GET dump, every flag");
	/* every field, valid and invalid values, as do and dump */
	for (i = 0; i < NR_CONFIG_ATTRS * 2; i++) {
		const struct pattr *p = &config_attrs[i / 2];
		uint32_t v = i % 2 ? UINT32_MAX : 1;

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		if (p->pol == P_U8)
			put(p->type, &v, 1);
		else
			put_u32(p->type, v);
		nest_end(n);
		run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET %s %u",
		    p->name, v);
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
	run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET empty config");
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET without CONFIG");
	/*
	 * A dump of it: since 6.2 split do and dump ops, the core finds no
	 * dump op before it checks the permission.
	 */
	msg_new(KSTAT_CMD_CONFIG_SET, true);
	run("unpriv-change",
	    rej(kernel_at_least(6, 2) ? EOPNOTSUPP : EPERM, "", -1),
	    "CONFIG_SET dump");
	/* joining and SUBSCRIBE need nothing */
	if (!grp || mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp,
					  sizeof(grp))) {
		printf("not ok - unpriv-read: cannot join \"summary\"\n");
		count("unpriv-read", false);
		return;
	}
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	run("unpriv-read", ack(), "SUBSCRIBE after joining");
	mnl_socket_setsockopt(nl, NETLINK_DROP_MEMBERSHIP, &grp, sizeof(grp));
	/* the default stream is not one's own: nothing to leave */
	msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
	run("unpriv-read", rej(ENOENT, M_UNSUB, -1),
	    "UNSUBSCRIBE without a stream of its own");
}

/* nr_cpu_ids: one past the last possible CPU id. */
static unsigned int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char line[256], *p;
	unsigned int last = 0;

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

int run_cases(int argc, char **argv)
{
	bool unpriv = false, subscribe = false;
	uint32_t grp = summary_group();
	unsigned int i;
	int j;

	for (j = 1; j < argc; j++) {
		if (!strcmp(argv[j], "-v"))
			verbose = true;
		else if (!strcmp(argv[j], "unpriv"))
			unpriv = true;
		else if (!strcmp(argv[j], "subscribe"))
			subscribe = true;
	}
	ncpu = possible_cpus();
	if (unpriv) {
		gen_unpriv(grp);
	} else if (subscribe) {
		gen_subscribe(grp);
	} else {
		gen_framing();
		gen_header();
		gen_flags();
		gen_commands();
		gen_unknown();
		gen_attr_shape();
		gen_cpu_irq_values();
		gen_irq_selection();
		gen_config_values();
		gen_misc(grp);
	}
	printf("categories:");
	for (i = 0; i < nr_tallies; i++)
		printf(" %s %u%s", tallies[i].cat, tallies[i].run,
		       i + 1 < nr_tallies ? "," : "\n");
	printf("cases: %u passed, %u failed\n", nr_run - nr_failed, nr_failed);
	return nr_failed ? 1 : 0;
}
