// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw cases: crafted requests, each with the answer it must get: the
 * errno, the exact extended-ACK message ("" = none), the offset of the
 * offending attribute (NLMSGERR_ATTR_OFFS, -1 = none) and the missing
 * attribute (NLMSGERR_ATTR_MISS_TYPE), or no answer at all for framing
 * the kernel drops silently.  Every text of kstat's own is the one
 * docs/protocol.md lists.
 *
 * The table is generated, not written out: protocol 5's commands and the
 * policy of each of their attributes (ops[] below, as the spec makes the
 * kernel's policies) crossed with mutations (wrong length, NLA_F_NESTED,
 * unknown and foreign types, values at and past each bound), plus
 * framing, header and flag cases for every command.  Each case is built,
 * sent and checked in turn; a case that cannot be decided here (the
 * machine's size puts it on the edge) is printed as "skip - ..." and
 * counted apart, never as passed.
 *
 *   nlraw cases [-v]          the whole table, as root; the default
 *                             stream's config and the limits are put
 *                             back as they were found
 *   nlraw cases unpriv [-v]   for a user without CAP_NET_ADMIN: every
 *                             read works, every CONFIG_SET gets EPERM,
 *                             the limits hold (interval floor, the
 *                             subscriptions per uid)
 *   nlraw cases subscribe     the SUBSCRIBE / UNSUBSCRIBE cases alone
 *   nlraw cases netns [open]  from outside the initial network namespace:
 *                             every request gets EPERM and the gate's
 *                             extack; "open" (config netns on): reads
 *                             and subscriptions work there
 *
 * Output: "not ok - CATEGORY: CASE: want ..., got ..." for a failure
 * (with -v, "ok - ..." for each pass too), "skip - CATEGORY: CASE: WHY",
 * then "categories: NAME COUNT, ..." and the last line
 * "cases: N passed, F failed" (", S skipped" when S > 0).  Exit 1 when a
 * case failed.
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
#define DO_MAX		65536	/* a do's reply: at most 64 KiB */
#define LIST_MAX_FIT	16382	/* IRQs in one IRQ_LIST: nla_len is 16 bits */

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
/* kstat's own, as docs/protocol.md lists them */
#define M_CPU		"CPU out of range"
#define M_CPU_ORDER	"first CPU after last CPU"
#define M_IRQ_RANGE	"IRQ range needs first <= last"
#define M_BOTH		"select IRQs by a range or by a list, not both"
#define M_LIST_LEN	"IRQ list length is not a non-zero multiple of 4"
#define M_TOO_BIG	"reply larger than 64 KiB: use a dump"
#define M_NETNS		"kstat answers in the initial network namespace only (config netns)"
#define M_INTERVAL	"interval below 10 ms"
#define M_INTERVAL_MAX	"interval above 60000 ms"
#define M_SECTIONS	"no sections"
#define M_FLOOR		"interval below the limits' min-interval-ms"
#define M_SUBS		"too many subscriptions for this user (limits max-subscriptions)"
/* kstat's own that the manual gives no text for (kernel/producer.c) */
#define M_JOIN		"join the summary group first, or subscribe with a config"
#define M_SUB_FIELDS	"batch and netns are the default stream's"
#define M_UNSUB		"no subscription from this socket"

/* ---- what the kernel does, per command ---- */

enum pol { P_U32, P_MASK, P_U8, P_BIN, P_NEST };

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
	{ KSTAT_CMD_GET, "GET", true, KSTAT_A_IRQ_LIST,
	  { { KSTAT_A_SECTIONS, P_MASK, "SECTIONS" },
	    { KSTAT_A_FLAGS, P_MASK, "FLAGS" },
	    { KSTAT_A_CPU_FIRST, P_U32, "CPU_FIRST" },
	    { KSTAT_A_CPU_LAST, P_U32, "CPU_LAST" },
	    { KSTAT_A_IRQ_FIRST, P_U32, "IRQ_FIRST" },
	    { KSTAT_A_IRQ_LAST, P_U32, "IRQ_LAST" },
	    { KSTAT_A_IRQ_LIST, P_BIN, "IRQ_LIST" } } },
	/* no attributes: genetlink's reject-all policy (maxattr 1) */
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
#define OP_GET		(&ops[0])
#define OP_CONFIG_SET	(&ops[2])

static const struct pattr config_attrs[] = {
	{ KSTAT_A_CONFIG_INTERVAL_MS, P_U32, "INTERVAL_MS" },
	{ KSTAT_A_CONFIG_BATCH, P_U32, "BATCH" },
	{ KSTAT_A_CONFIG_SECTIONS, P_MASK, "SECTIONS" },
	{ KSTAT_A_CONFIG_PERCPU, P_U8, "PERCPU" },
	{ KSTAT_A_CONFIG_NETNS, P_U8, "NETNS" },
};

static const struct pattr limits_attrs[] = {
	{ KSTAT_A_LIMITS_MIN_INTERVAL_MS, P_U32, "MIN_INTERVAL_MS" },
	{ KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, P_U32, "MAX_SUBSCRIPTIONS" },
};

#define NR_CONFIG_ATTRS	(sizeof(config_attrs) / sizeof(config_attrs[0]))
#define NR_LIMITS_ATTRS	(sizeof(limits_attrs) / sizeof(limits_attrs[0]))

/* A nest a request can carry, with its own attributes. */
struct nest {
	const struct op *op;
	uint16_t type;
	const char *name;
	const struct pattr *attrs;
	unsigned int nr;
	uint16_t max;
};

static const struct nest nests[] = {
	{ &ops[2], KSTAT_A_CONFIG, "config", config_attrs, NR_CONFIG_ATTRS,
	  KSTAT_A_CONFIG_MAX },
	{ &ops[2], KSTAT_A_LIMITS, "limits", limits_attrs, NR_LIMITS_ATTRS,
	  KSTAT_A_LIMITS_MAX },
	{ &ops[4], KSTAT_A_CONFIG, "config", config_attrs, NR_CONFIG_ATTRS,
	  KSTAT_A_CONFIG_MAX },
};

/* ---- building a request ---- */

static char sbuf[1 << 18];
static struct nlmsghdr *req;
static size_t req_dgram;	/* bytes to send; 0: nlmsg_len */
static unsigned int ncpu;	/* nr_cpu_ids: possible CPU ids */
static bool verbose;
static uint32_t grp;		/* the "summary" group */

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

static int put_u8(uint16_t type, uint8_t v)
{
	return put(type, &v, sizeof(v));
}

/* A value of an attribute's own size. */
static int put_val(const struct pattr *p, uint32_t v)
{
	return p->pol == P_U8 ? put_u8(p->type, v) : put_u32(p->type, v);
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

/* A config nest of one u32 field; the field's offset. */
static int put_config_u32(uint16_t type, uint32_t v)
{
	struct nlattr *n = nest_start(KSTAT_A_CONFIG);
	int off = put_u32(type, v);

	nest_end(n);
	return off;
}

/* ---- expectations and checking ---- */

struct expect {
	int err;		/* errno, 0, or NO_ANSWER */
	const char *msg;	/* exact; "" = no message */
	int offs;		/* NLMSGERR_ATTR_OFFS; -1 = must be absent */
	int miss;		/* NLMSGERR_ATTR_MISS_TYPE; -1 = must be absent */
	enum answer_kind kind;	/* ANS_ERROR or ANS_DONE */
	bool data;		/* replies must carry data */
	bool one;		/* exactly one reply message (a do's) */
	const char *skip;	/* not decidable here: why (the case is skipped) */
};

/* Answered with data: a do's one reply and its ACK, or a dump's DONE. */
static struct expect ok(bool dump)
{
	return (struct expect){ 0, "", -1, -1, dump ? ANS_DONE : ANS_ERROR,
				true, !dump, NULL };
}

/* An ACK for a do that sends no reply (CONFIG_SET, SUBSCRIBE, no REQUEST). */
static struct expect ack(void)
{
	return (struct expect){ 0, "", -1, -1, ANS_ERROR, false, false, NULL };
}

/*
 * Rejected: by the netlink core, the policy, a do's handler or a dump's
 * start (genetlink parses a dump's attributes, then kstat's .start checks
 * the rest: both answer with NLMSG_ERROR, as a do).
 */
static struct expect rej(int err, const char *msg, int offs)
{
	return (struct expect){ err, msg, offs, -1, ANS_ERROR, false, false,
				NULL };
}

/*
 * kstat's own check of a GET request.  A do's handler answers with
 * NLMSG_ERROR and the attribute's offset.  A dump's .start checks it,
 * with the request's extack where the core gives .start one (6.2 on, our
 * reading of the kernel's history; measured on 6.12): NLMSG_ERROR, as a
 * do; on 6.1 .start has none, so the first dumpit call returns the error
 * and its text, in NLMSG_DONE, without an offset (measured).
 */
static bool kernel_at_least(unsigned int major, unsigned int minor);

static struct expect rej_get(bool dump, int err, const char *msg, int offs)
{
	if (!dump || kernel_at_least(6, 2))
		return rej(err, msg, offs);
	return (struct expect){ err, msg, -1, -1, ANS_DONE, false, false, NULL };
}

static struct expect silence(void)
{
	return (struct expect){ NO_ANSWER, "", -1, -1, ANS_NONE, false, false,
				NULL };
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

/* Tally per category, in order of first use. */
struct tally {
	const char *cat;
	unsigned int run, failed;
};

static struct tally tallies[32];
static unsigned int nr_tallies, nr_run, nr_failed, nr_skipped;

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

/* A case not run: said, and counted apart. */
static void skip(const char *cat, const char *fmt, ...)
{
	va_list ap;

	printf("skip - %s: ", cat);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	nr_skipped++;
}

/* A check that is not a request's answer (setting up a case failed). */
static void fail(const char *cat, const char *fmt, ...)
{
	va_list ap;

	printf("not ok - %s: ", cat);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	count(cat, false);
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
static bool ping(struct mnl_socket *s)
{
	char m[64];
	struct nlmsghdr *p = kstat_msg_put(m, KSTAT_CMD_CONFIG_GET, NLM_F_ACK);
	struct answer ans;

	p->nlmsg_seq = 0x50494e47;
	if (mnl_socket_sendto(s, p, p->nlmsg_len) < 0)
		return false;
	return !wait_answer(s, p->nlmsg_seq, &ans, TIMEOUT_MS) &&
	       ans.kind == ANS_ERROR && !ans.err;
}

static bool matches(struct mnl_socket *s, const struct expect *e,
		    const struct answer *a)
{
	if (e->err == NO_ANSWER)
		return a->kind == ANS_NONE && ping(s);
	return a->kind == e->kind && a->err == e->err &&
	       !strcmp(a->msg, e->msg) && a->offs == e->offs &&
	       a->miss_type == e->miss && (!e->data || a->replies > 0) &&
	       (!e->one || a->replies == 1);
}

/*
 * Send the request built so far on @s; check the answer against @e.
 * The answer is left in @a (may be NULL).
 */
static bool run_on(struct mnl_socket *s, const char *cat, struct expect e,
		   struct answer *a, const char *fmt, ...)
{
	static uint32_t seq = 1000;
	char name[200], want[400], got[400];
	struct answer own;
	size_t len = req_dgram ? req_dgram : req->nlmsg_len;
	va_list ap;
	bool good;

	if (!a)
		a = &own;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (e.skip) {
		skip(cat, "%s: %s", name, e.skip);
		return true;
	}
	req->nlmsg_seq = ++seq;
	/* a datagram shorter than a header: seq is lost, so is the answer */
	if (mnl_socket_sendto(s, sbuf, len) < 0 ||
	    wait_answer(s, seq, a, e.err == NO_ANSWER ? SILENCE_MS :
			TIMEOUT_MS)) {
		printf("not ok - %s: %s: send/receive: %s\n", cat, name,
		       strerror(errno));
		count(cat, false);
		return false;
	}
	good = matches(s, &e, a);
	count(cat, good);
	if (good && !verbose)
		return true;
	describe(want, sizeof(want), e.err, e.msg, e.offs, e.miss, e.kind);
	describe(got, sizeof(got), a->kind == ANS_NONE ? NO_ANSWER : a->err,
		 a->msg, a->offs, a->miss_type, a->kind);
	if (good)
		printf("ok - %s: %s: %s (%u replies)\n", cat, name, got,
		       a->replies);
	else
		printf("not ok - %s: %s: want %s%s, got %s (%u replies)\n",
		       cat, name, want, e.one ? " with one reply" :
		       e.data ? " with data" : "", got, a->replies);
	return good;
}

#define run(cat, e, ...)	run_on(nl, cat, e, NULL, __VA_ARGS__)

/* ---- the table ---- */

static const char *mode(bool dump)
{
	return dump ? "dump" : "do";
}

/* Every (op, do/dump) the family serves. */
#define for_each_op_mode(o, dump)					\
	for (o = ops; o < ops + NR_OPS; o++)				\
		for (dump = false; dump <= o->dump; dump++)

static bool has_attr(const struct op *o, uint16_t type)
{
	unsigned int i;

	for (i = 0; i < 8 && o->attrs[i].name; i++)
		if (o->attrs[i].type == type)
			return true;
	return false;
}

/* UNSUBSCRIBE, checked: after each SUBSCRIBE with a config that went in. */
static void unsubscribe(const char *cat, const char *after)
{
	msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
	run(cat, ack(), "UNSUBSCRIBE after %s", after);
}

static bool join(struct mnl_socket *s, bool on)
{
	return grp && !mnl_socket_setsockopt(s, on ? NETLINK_ADD_MEMBERSHIP :
					     NETLINK_DROP_MEMBERSHIP,
					     &grp, sizeof(grp));
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
		msg_new(KSTAT_CMD_GET, false);
		req_dgram = short_dgram[i];
		run("framing", silence(), "datagram of %u bytes",
		    short_dgram[i]);
	}
	for (i = 0; i < 3; i++) {
		msg_new(KSTAT_CMD_GET, false);
		req_dgram = req->nlmsg_len;
		req->nlmsg_len = bad_len[i];
		run("framing", silence(), "nlmsg_len %u", bad_len[i]);
	}
	for (i = 1; i <= 1000; i *= 10) {
		msg_new(KSTAT_CMD_GET, false);
		req_dgram = req->nlmsg_len;
		req->nlmsg_len += i * 4;
		run("framing", silence(), "nlmsg_len %u bytes past the datagram",
		    i * 4);
	}
	for (i = NLMSG_HDRLEN; i < HDRS; i++) {
		msg_new(KSTAT_CMD_GET, false);
		req->nlmsg_len = i;
		run("framing", rej(EINVAL, "", -1),
		    "genl header cut to %u bytes", i - NLMSG_HDRLEN);
	}
	/* every op: a genl header one byte short, then stray bytes */
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		req->nlmsg_len = HDRS - 1;
		run("framing", rej(EINVAL, "", -1),
		    "%s %s genl header 3 bytes", o->name, mode(dump));
		msg_new(o->cmd, dump);
		req->nlmsg_len += 2;	/* sbuf is zeroed there */
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s 2 bytes after the header", o->name, mode(dump));
		msg_new(o->cmd, dump);
		off = put_u32(o->maxattr, 0);
		((struct nlattr *)((char *)req + off))->nla_len = 2;
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s attribute with nla_len 2", o->name, mode(dump));
		msg_new(o->cmd, dump);
		off = put_u32(o->maxattr, 0);
		((struct nlattr *)((char *)req + off))->nla_len = 12;
		run("framing", rej(EINVAL, M_LEFTOVER, -1),
		    "%s %s attribute longer than the message", o->name,
		    mode(dump));
	}
	/* the kernel reads nlmsg_len, not the datagram */
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
	put_u32(KSTAT_A_CPU_LAST, UINT32_MAX);
	req_dgram = req->nlmsg_len;
	req->nlmsg_len = HDRS + 8;
	run("framing", ok(false),
	    "GET do, nlmsg_len leaves out CPU_LAST 2^32-1");
}

/* nlmsg_type and the genl header's version and reserved fields. */
static void gen_header(void)
{
	static const uint16_t ctl_types[] = { NLMSG_NOOP, NLMSG_DONE,
					      NLMSG_OVERRUN, 0xf };
	static const uint8_t versions[] = { 0, 2, 4, KSTAT_FAMILY_VERSION + 1,
					    255 };
	const struct op *o;
	unsigned int i;
	int dump;

	msg_new(KSTAT_CMD_GET, false);
	req->nlmsg_type = 0xffff;
	run("header", rej(ENOENT, "", -1), "nlmsg_type 0xffff (no family)");
	for (i = 0; i < 4; i++) {
		msg_new(KSTAT_CMD_GET, false);
		req->nlmsg_type = ctl_types[i];
		run("header", ack(), "nlmsg_type %u (control)", ctl_types[i]);
	}
	/* a client's version is not checked: it only grows */
	for (i = 0; i < sizeof(versions); i++) {
		msg_new(KSTAT_CMD_GET, false);
		put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
		genl()->version = versions[i];
		run("header", ok(false), "GET do genl version %u (unchecked)",
		    versions[i]);
	}
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		genl()->reserved = 1;
		run("header", rej(EINVAL, M_RESERVED, -1),
		    "%s %s reserved 1", o->name, mode(dump));
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
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
		msg_new(KSTAT_CMD_GET, false);
		req->nlmsg_flags |= bad[i];
		run("flags", rej(EINVAL, M_FLAGS, -1), "GET do flags +%#x",
		    bad[i]);
	}
	for_each_op_mode(o, dump) {
		msg_new(o->cmd, dump);
		req->nlmsg_flags |= dump ? NLM_F_MULTI : NLM_F_ROOT;
		run("flags", rej(EINVAL, M_FLAGS, -1), "%s %s flags +%s",
		    o->name, mode(dump), dump ? "MULTI" : "ROOT");
	}
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
	req->nlmsg_flags |= NLM_F_ECHO;
	run("flags", ok(false), "GET do flags +ECHO");
	/* not a request: acknowledged, not run (the interval is invalid) */
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	req->nlmsg_flags = NLM_F_ACK;
	put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 0);
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
	/* reply attributes in a request, after a good one */
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
	put_u32(KSTAT_A_TIMESTAMP, 0);
	run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS + 8),
	    "GET do with TIMESTAMP (a reply attribute)");
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_u32(KSTAT_A_STATS | NLA_F_NESTED, 0);
	run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS),
	    "SUBSCRIBE with STATS (a reply attribute)");
}

/* Wrong lengths and flags of each attribute an op takes. */
static void gen_attr_shape(void)
{
	static const uint16_t bad_u32_len[] = { 0, 2, 8, 4096, 60000 };
	const struct op *o;
	const struct nest *ns;
	unsigned int i, j;
	int dump;

	for_each_op_mode(o, dump) {
		for (i = 0; i < 8 && o->attrs[i].name; i++) {
			const struct pattr *p = &o->attrs[i];

			if (p->pol == P_U32 || p->pol == P_MASK) {
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
	/* inside the nests: CONFIG_SET's config and limits, SUBSCRIBE's config */
	for (ns = nests; ns < nests + sizeof(nests) / sizeof(nests[0]); ns++) {
		for (i = 0; i < ns->nr; i++) {
			const struct pattr *p = &ns->attrs[i];
			const uint16_t lens[] = { 0, p->pol == P_U8 ? 4 : 2, 8 };
			struct nlattr *n;

			for (j = 0; j < 3; j++) {
				msg_new(ns->op->cmd, false);
				n = nest_start(ns->type);
				put_len(p->type, lens[j]);
				nest_end(n);
				run("attr-length", rej(EINVAL, M_LEN, HDRS + NLA_HDRLEN),
				    "%s %s %s of %u bytes", ns->op->name,
				    ns->name, p->name, lens[j]);
			}
			msg_new(ns->op->cmd, false);
			n = nest_start(ns->type);
			put_len(p->type | NLA_F_NESTED, p->pol == P_U8 ? 1 : 4);
			nest_end(n);
			run("nested-flag", rej(EINVAL, M_NEST_NO, HDRS + NLA_HDRLEN),
			    "%s %s %s with NLA_F_NESTED", ns->op->name,
			    ns->name, p->name);
		}
		for (i = 0; i < 2; i++) {
			struct nlattr *n;

			msg_new(ns->op->cmd, false);
			n = nest_start(ns->type);
			put_u32(i ? ns->max + 1 : 0, 10);
			nest_end(n);
			run("unknown-attr", rej(EINVAL, M_UNKNOWN, HDRS + NLA_HDRLEN),
			    "%s %s attribute type %u", ns->op->name, ns->name,
			    i ? ns->max + 1 : 0);
		}
	}
	/* NLA_F_NET_BYTEORDER is not checked for u32: the value is raw */
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_CPU_FIRST | NLA_F_NET_BYTEORDER, 0);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
	run("attr-length", ok(false), "GET do CPU_FIRST 0 with NLA_F_NET_BYTEORDER");
	/* the last of two copies counts */
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU);
	put_u32(KSTAT_A_CPU_LAST, 0);
	put_u32(KSTAT_A_CPU_LAST, UINT32_MAX);
	run("duplicate", rej_get(false, EINVAL, M_CPU, HDRS + 16),
	    "GET do CPU_LAST 0 then 2^32-1");
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU);
	put_u32(KSTAT_A_CPU_LAST, UINT32_MAX);
	put_u32(KSTAT_A_CPU_LAST, 0);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_CPU);
	run("duplicate", ok(false), "GET do CPU_LAST 2^32-1 then 0");
}

static const uint32_t values[] = { 0, 1, 9, 0x7fffffff, 0x80000000,
				   UINT32_MAX };
#define NR_VALUES	(sizeof(values) / sizeof(values[0]))

/*
 * The size of a GET do of every IRQ with @sections (0: none named, all of
 * them) and @flags: what a dump of the same takes, less the dump's
 * repeated message headers (nlmsghdr, genlmsghdr, TIMESTAMP with its pad,
 * GENERATION, ONLINE_CPUS); a run of IRQs may be cut at a dump message's
 * end, a few bytes more.  Measured once per (sections, flags); -1 when
 * the dump failed (said, and counted as a failure).
 */
static long all_size(uint32_t sections, uint32_t flags)
{
	static long sizes[8][4];
	long *size = &sizes[sections & 7][flags & 3];
	unsigned long per_msg;
	struct nlmsghdr *m;
	struct answer a;
	char msg[64];

	if (*size)
		return *size;
	/* its own buffer: the case being built is in sbuf */
	m = kstat_msg_put(msg, KSTAT_CMD_GET, NLM_F_ACK | NLM_F_DUMP);
	if (sections)
		mnl_attr_put_u32(m, KSTAT_A_SECTIONS, sections);
	mnl_attr_put_u32(m, KSTAT_A_FLAGS, flags);
	m->nlmsg_seq = 77;
	if (mnl_socket_sendto(nl, m, m->nlmsg_len) < 0 ||
	    wait_answer(nl, 77, &a, TIMEOUT_MS * 4) || a.kind != ANS_DONE ||
	    a.err || !a.replies) {
		fail("size", "GET dump of sections %#x flags %#x, to size a do: "
		     "%s", sections, flags, a.err ? strerror(a.err) : "no answer");
		*size = -1;
		return -1;
	}
	per_msg = HDRS + 16 + 8 + NLA_HDRLEN + MNL_ALIGN((ncpu + 7) / 8);
	*size = a.reply_bytes - (a.replies - 1) * per_msg;
	return *size;
}

/*
 * What a GET of every IRQ must answer: a dump, its messages; a do, one
 * message when it fits 64 KiB, EMSGSIZE when it does not (and a skip
 * when it is too near 64 KiB to tell, or could not be sized).
 */
static struct expect expect_all(bool dump, uint32_t sections, uint32_t flags)
{
	static char why[96];
	struct expect e;
	long size;

	if (dump)
		return ok(true);
	size = all_size(sections, flags);
	if (size > DO_MAX * 9 / 10 && size < DO_MAX * 11 / 10) {
		e = ok(false);
		snprintf(why, sizeof(why), "about %ld bytes, too near 64 KiB "
			 "to tell", size);
		e.skip = why;
		return e;
	}
	if (size < 0) {
		e = ok(false);
		e.skip = "its size is unknown (the dump failed)";
		return e;
	}
	return size > DO_MAX ? rej(EMSGSIZE, M_TOO_BIG, -1) : ok(false);
}

/*
 * A do of everything with descriptions and per-CPU counts: one message,
 * so EMSGSIZE when it needs more than 64 KiB (tests can load synthetic
 * IRQs to make it so).
 */
static void gen_do_size(void)
{
	const uint32_t flags = KSTAT_F_PERCPU | KSTAT_F_META;

	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_FLAGS, flags);
	run("size", expect_all(false, 0, flags),
	    "GET do of everything with percpu and meta, about %ld bytes",
	    all_size(0, flags));
	msg_new(KSTAT_CMD_GET, false);
	put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_IRQ);
	run("size", expect_all(false, KSTAT_SECTION_IRQ, 0),
	    "GET do of every IRQ's count, about %ld bytes",
	    all_size(KSTAT_SECTION_IRQ, 0));
}

/* GET's masks: sections and flags, each bit and past them. */
static void gen_get_masks(void)
{
	static const uint32_t sections[] = { 1, 2, 4, 7, 8, 0x80000000,
					     UINT32_MAX };
	static const uint32_t flags[] = { 0, KSTAT_F_PERCPU, KSTAT_F_META,
					  KSTAT_F_PERCPU | KSTAT_F_META, 4,
					  UINT32_MAX };
	unsigned int i;
	int dump, off;

	for (dump = 0; dump <= 1; dump++) {
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			off = put_u32(KSTAT_A_SECTIONS, sections[i]);
			run("range", sections[i] <= 7 ?
			    expect_all(dump, sections[i], 0) :
			    rej(EINVAL, M_MASK, off), "GET %s sections %#x",
			    mode(dump), sections[i]);
		}
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			off = put_u32(KSTAT_A_FLAGS, flags[i]);
			run("range", flags[i] <= 3 ? expect_all(dump, 0, flags[i]) :
			    rej(EINVAL, M_MASK, off), "GET %s flags %#x",
			    mode(dump), flags[i]);
		}
	}
}

/* IRQs 0..63 only: a do small whatever the machine's IRQs. */
static void put_few_irqs(void)
{
	put_u32(KSTAT_A_IRQ_FIRST, 0);
	put_u32(KSTAT_A_IRQ_LAST, 63);
}

/* CPU ids at and past nr_cpu_ids; their order. */
static void gen_cpu_values(void)
{
	unsigned int i, k;
	int dump, off;

	for (dump = 0; dump <= 1; dump++) {
		for (k = 0; k < 2; k++) {
			uint16_t t = k ? KSTAT_A_CPU_LAST : KSTAT_A_CPU_FIRST;

			/*
			 * CPU_LAST past the last id is out of range; CPU_FIRST
			 * alone past it is after the last (by default the last
			 * possible id)
			 */
			for (i = 0; i < NR_VALUES + 2; i++) {
				uint32_t v = i < NR_VALUES ? values[i] :
					     ncpu - (i - NR_VALUES);
				bool good = v < ncpu;

				msg_new(KSTAT_CMD_GET, dump);
				put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU);
				off = put_u32(t, v);
				put_few_irqs();
				run("range", good ? ok(dump) :
				    rej_get(dump, EINVAL, k ? M_CPU : M_CPU_ORDER,
					    off), "GET %s %s %u (%u CPU ids)",
				    mode(dump), k ? "CPU_LAST" : "CPU_FIRST", v,
				    ncpu);
			}
		}
		/* without per-CPU detail the range is still checked */
		msg_new(KSTAT_CMD_GET, dump);
		off = put_u32(KSTAT_A_CPU_LAST, ncpu);
		run("range", rej_get(dump, EINVAL, M_CPU, off),
		    "GET %s CPU_LAST %u without percpu", mode(dump), ncpu);
		if (ncpu < 2) {
			skip("range", "GET %s CPU_FIRST 1 CPU_LAST 0: one CPU id",
			     mode(dump));
			continue;
		}
		msg_new(KSTAT_CMD_GET, dump);
		put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU);
		off = put_u32(KSTAT_A_CPU_FIRST, 1);
		put_u32(KSTAT_A_CPU_LAST, 0);
		run("range", rej_get(dump, EINVAL, M_CPU_ORDER, off),
		    "GET %s CPU_FIRST 1 CPU_LAST 0", mode(dump));
		msg_new(KSTAT_CMD_GET, dump);
		put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU);
		put_u32(KSTAT_A_CPU_FIRST, ncpu - 1);
		put_u32(KSTAT_A_CPU_LAST, ncpu - 1);
		put_few_irqs();
		run("range", ok(dump), "GET %s CPU_FIRST = CPU_LAST = %u",
		    mode(dump), ncpu - 1);
	}
}

static uint32_t *irq_list(unsigned int n)
{
	static uint32_t list[LIST_MAX_FIT + 1];
	unsigned int i;

	for (i = 0; i < n; i++)
		list[i] = (n - i) % 64;	/* descending, repeated */
	return list;
}

/* IRQ selection: ranges and lists. */
static void gen_irq_selection(void)
{
	/* all: every IRQ but at most IRQ 0 (sized as every IRQ) */
	static const struct { uint32_t first, last; bool has_first, has_last;
			      bool good, all; } ranges[] = {
		{ 5, 2, true, true, false, false },
		{ 0, 0, true, true, true, false },
		{ UINT32_MAX, UINT32_MAX, true, true, true, false },
		{ 0, UINT32_MAX, true, true, true, true },
		{ 1, 0x80000000, true, true, true, true },
		{ UINT32_MAX, 0, true, true, false, false },
		{ 0, 0, true, false, false, false },
		{ 0, 0, false, true, false, false },
		{ UINT32_MAX, 0, true, false, false, false },
	};
	static const unsigned int list_bytes[] = { 0, 2, 6, 4099 };
	static const unsigned int list_n[] = { 1, 2, 64, 8192, LIST_MAX_FIT };
	unsigned int i;
	int dump, off, off2;

	for (dump = 0; dump <= 1; dump++) {
		for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			off = off2 = -1;
			if (ranges[i].has_first)
				off = put_u32(KSTAT_A_IRQ_FIRST, ranges[i].first);
			if (ranges[i].has_last)
				off2 = put_u32(KSTAT_A_IRQ_LAST, ranges[i].last);
			run("irqs", ranges[i].all ? expect_all(dump, 0, 0) :
			    ranges[i].good ? ok(dump) :
			    rej_get(dump, EINVAL, M_IRQ_RANGE,
				    off >= 0 ? off : off2),
			    "GET %s IRQs %s%u..%s%u", mode(dump),
			    ranges[i].has_first ? "" : "(none)", ranges[i].first,
			    ranges[i].has_last ? "" : "(none)", ranges[i].last);
		}
		for (i = 0; i < sizeof(list_bytes) / sizeof(list_bytes[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			off = put_len(KSTAT_A_IRQ_LIST, list_bytes[i]);
			run("irqs", rej_get(dump, EINVAL, M_LIST_LEN, off),
			    "GET %s IRQ_LIST of %u bytes", mode(dump),
			    list_bytes[i]);
		}
		for (i = 0; i < sizeof(list_n) / sizeof(list_n[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			put(KSTAT_A_IRQ_LIST, irq_list(list_n[i]), list_n[i] * 4);
			run("irqs", ok(dump),
			    "GET %s IRQ_LIST of %u IRQs (descending, repeated)",
			    mode(dump), list_n[i]);
		}
		msg_new(KSTAT_CMD_GET, dump);
		put_u32(KSTAT_A_IRQ_LIST, UINT32_MAX);
		run("irqs", ok(dump), "GET %s IRQ_LIST [2^32-1] (no such IRQ: "
		    "left out)", mode(dump));
		/* the range is named: the attribute that should not be there */
		for (i = 0; i < 3; i++) {
			msg_new(KSTAT_CMD_GET, dump);
			put_u32(KSTAT_A_IRQ_LIST, 0);
			off = off2 = -1;
			if (i != 1)
				off = put_u32(KSTAT_A_IRQ_FIRST, 0);
			if (i != 0)
				off2 = put_u32(KSTAT_A_IRQ_LAST, 0);
			run("irqs", rej_get(dump, EINVAL, M_BOTH,
					    off >= 0 ? off : off2),
			    "GET %s IRQ_LIST and %s", mode(dump),
			    i == 0 ? "IRQ_FIRST" : i == 1 ? "IRQ_LAST" : "a range");
		}
	}
}

/* The default stream's config and the limits: CONFIG_SET's bounds. */
static void gen_config_values(void)
{
	static const struct { uint16_t type; uint32_t v; int err;
			      const char *msg; } cfg[] = {
		{ KSTAT_A_CONFIG_INTERVAL_MS, 0, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 1, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 9, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 10, 0, NULL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 60000, 0, NULL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 60001, ERANGE, M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_INTERVAL_MS, UINT32_MAX, ERANGE, M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_BATCH, 0, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_BATCH, 1, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, 9, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, 64, 0, NULL },
		{ KSTAT_A_CONFIG_BATCH, 65, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_BATCH, UINT32_MAX, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_SECTIONS, 0, EINVAL, M_SECTIONS },
		{ KSTAT_A_CONFIG_SECTIONS, 1, 0, NULL },
		{ KSTAT_A_CONFIG_SECTIONS, 7, 0, NULL },
		{ KSTAT_A_CONFIG_SECTIONS, 8, EINVAL, M_MASK },
		{ KSTAT_A_CONFIG_SECTIONS, UINT32_MAX, EINVAL, M_MASK },
		{ KSTAT_A_CONFIG_PERCPU, 0, 0, NULL },
		{ KSTAT_A_CONFIG_PERCPU, 1, 0, NULL },
		{ KSTAT_A_CONFIG_PERCPU, 2, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_PERCPU, 255, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_NETNS, 1, 0, NULL },
		{ KSTAT_A_CONFIG_NETNS, 0, 0, NULL },
		{ KSTAT_A_CONFIG_NETNS, 2, ERANGE, M_RANGE },
	};
	static const struct { uint16_t type; uint32_t v; } limits[] = {
		{ KSTAT_A_LIMITS_MIN_INTERVAL_MS, 250 },
		{ KSTAT_A_LIMITS_MIN_INTERVAL_MS, 1000 },
		{ KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, 64 },
		{ KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, 1 },
	};
	unsigned int i;
	struct nlattr *n;
	int off;

	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		const struct pattr p = { cfg[i].type,
			cfg[i].type == KSTAT_A_CONFIG_PERCPU ||
			cfg[i].type == KSTAT_A_CONFIG_NETNS ? P_U8 : P_U32, "" };

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		off = put_val(&p, cfg[i].v);
		nest_end(n);
		run("config", cfg[i].msg ? rej(cfg[i].err, cfg[i].msg, off) :
		    ack(), "CONFIG_SET config attribute %u value %u",
		    cfg[i].type, cfg[i].v);
	}
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_LIMITS);
		put_u32(limits[i].type, limits[i].v);
		nest_end(n);
		run("config", ack(), "CONFIG_SET limits attribute %u value %u",
		    limits[i].type, limits[i].v);
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
	run("config", ack(), "CONFIG_SET empty config (changes nothing)");
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_LIMITS));
	run("config", ack(), "CONFIG_SET empty limits (changes nothing)");
	/* one bad field rejects the whole change */
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	n = nest_start(KSTAT_A_CONFIG);
	put_u32(KSTAT_A_CONFIG_BATCH, 2);
	off = put_u32(KSTAT_A_CONFIG_INTERVAL_MS, 5);
	nest_end(n);
	run("config", rej(EINVAL, M_INTERVAL, off),
	    "CONFIG_SET batch 2 with interval 5");
}

/*
 * SUBSCRIBE's config: the same bounds as CONFIG_SET's, less batch and
 * netns (the default stream's own).  Each subscription that goes in is
 * ended at once.
 */
static void gen_subscribe_config(void)
{
	static const struct { uint16_t type; uint32_t v; int err;
			      const char *msg; } cfg[] = {
		{ KSTAT_A_CONFIG_INTERVAL_MS, 0, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 9, EINVAL, M_INTERVAL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 60000, 0, NULL },
		{ KSTAT_A_CONFIG_INTERVAL_MS, 60001, ERANGE, M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_INTERVAL_MS, UINT32_MAX, ERANGE, M_INTERVAL_MAX },
		{ KSTAT_A_CONFIG_BATCH, 0, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_BATCH, 1, EINVAL, M_SUB_FIELDS },
		{ KSTAT_A_CONFIG_SECTIONS, 0, EINVAL, M_SECTIONS },
		{ KSTAT_A_CONFIG_SECTIONS, 2, 0, NULL },
		{ KSTAT_A_CONFIG_SECTIONS, 8, EINVAL, M_MASK },
		{ KSTAT_A_CONFIG_PERCPU, 1, 0, NULL },
		{ KSTAT_A_CONFIG_PERCPU, 2, ERANGE, M_RANGE },
		{ KSTAT_A_CONFIG_NETNS, 0, EINVAL, M_SUB_FIELDS },
		{ KSTAT_A_CONFIG_NETNS, 2, ERANGE, M_RANGE },
	};
	unsigned int i;
	struct nlattr *n;
	int off;

	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++) {
		const struct pattr p = { cfg[i].type,
			cfg[i].type == KSTAT_A_CONFIG_PERCPU ||
			cfg[i].type == KSTAT_A_CONFIG_NETNS ? P_U8 : P_U32, "" };
		char what[64];

		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		n = nest_start(KSTAT_A_CONFIG);
		/* a minute apart: nothing comes while the table runs */
		if (cfg[i].type != KSTAT_A_CONFIG_INTERVAL_MS)
			put_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
		off = put_val(&p, cfg[i].v);
		nest_end(n);
		/* batch and netns: refused as a whole, no attribute named */
		if (cfg[i].msg && !strcmp(cfg[i].msg, M_SUB_FIELDS))
			off = -1;
		run("subscribe", cfg[i].msg ? rej(cfg[i].err, cfg[i].msg, off) :
		    ack(), "SUBSCRIBE config attribute %u value %u",
		    cfg[i].type, cfg[i].v);
		snprintf(what, sizeof(what), "config attribute %u value %u",
			 cfg[i].type, cfg[i].v);
		if (!cfg[i].msg)
			unsubscribe("subscribe", what);
	}
	/* fields left out take the default stream's */
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
	run("subscribe", ack(), "SUBSCRIBE with an empty config");
	/* again: replaces it */
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
	run("subscribe", ack(), "SUBSCRIBE again (replaces the subscription)");
	unsubscribe("subscribe", "two SUBSCRIBEs");
	msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
	run("subscribe", rej(ENOENT, M_UNSUB, -1),
	    "UNSUBSCRIBE without a subscription");
}

/* The default stream: SUBSCRIBE needs a listener; joining needs nothing. */
static void gen_subscribe(const char *cat)
{
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	run(cat, rej(ENOTCONN, M_JOIN, -1), "SUBSCRIBE without joining");
	if (!join(nl, true)) {
		fail(cat, "cannot join \"summary\"");
		return;
	}
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	run(cat, ack(), "SUBSCRIBE after joining");
	join(nl, false);
	/* the default stream is not one's own: nothing to end */
	msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
	run(cat, rej(ENOENT, M_UNSUB, -1), "UNSUBSCRIBE of the default stream");
	/* a subscription of one's own needs no group */
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
	run(cat, ack(), "SUBSCRIBE with a config, without joining");
	unsubscribe(cat, "SUBSCRIBE with a config");
	msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
	run(cat, rej(ENOENT, M_UNSUB, -1), "UNSUBSCRIBE twice");
}

/* Requests that must be answered with data, and what they select. */
static void gen_valid(void)
{
	static const struct { uint32_t sections, flags; } sel[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 0 }, { 4, 0 }, { 7, 3 }, { 2, 2 },
		{ 5, 1 },
	};
	unsigned int i;
	int dump;

	for (dump = 0; dump <= 1; dump++) {
		msg_new(KSTAT_CMD_GET, dump);
		run("valid", expect_all(dump, 0, 0), "GET %s without attributes",
		    mode(dump));
		for (i = 0; i < sizeof(sel) / sizeof(sel[0]); i++) {
			msg_new(KSTAT_CMD_GET, dump);
			if (sel[i].sections)
				put_u32(KSTAT_A_SECTIONS, sel[i].sections);
			put_u32(KSTAT_A_FLAGS, sel[i].flags);
			run("valid", expect_all(dump, sel[i].sections, sel[i].flags),
			    "GET %s sections %#x flags %#x",
			    mode(dump), sel[i].sections, sel[i].flags);
		}
	}
	msg_new(KSTAT_CMD_CONFIG_GET, false);
	run("valid", ok(false), "CONFIG_GET");
	msg_new(KSTAT_CMD_STATS_GET, false);
	run("valid", ok(false), "STATS_GET");
}

/*
 * @n sockets, each SUBSCRIBEd with a config of interval @ms: returns how
 * many were acknowledged; the first refusal in @first.
 */
static unsigned int subscribe_many(struct mnl_socket **socks, unsigned int n,
				   uint32_t ms, struct answer *first)
{
	unsigned int i, acked = 0;
	bool refused = false;

	for (i = 0; i < n; i++) {
		struct answer a;

		socks[i] = nl_open();
		if (!socks[i])
			break;
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, ms);
		req->nlmsg_seq = 1;
		if (mnl_socket_sendto(socks[i], req, req->nlmsg_len) < 0 ||
		    wait_answer(socks[i], 1, &a, TIMEOUT_MS) ||
		    a.kind != ANS_ERROR)
			break;
		if (!a.err) {
			acked++;
		} else if (!refused) {
			*first = a;
			refused = true;
		}
	}
	return acked;
}

static void close_all(struct mnl_socket **socks, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (socks[i])
			mnl_socket_close(socks[i]);
	memset(socks, 0, n * sizeof(*socks));
}

#define MANY_MAX	1024	/* more subscriptions than that: not tried */

/*
 * Subscriptions beyond max-subscriptions: refused for a user without
 * CAP_NET_ADMIN (EUSERS), one again from a socket that has one replaces
 * it, and a subscription ended makes room; root is exempt.
 */
static void gen_max_subscriptions(const struct kconfig *cfg, bool privileged)
{
	static struct mnl_socket *socks[MANY_MAX + 1];
	const char *cat = "limits";
	unsigned int max = cfg->max_subscriptions, got;
	struct answer first = { 0 };

	if (!cfg->valid) {
		fail(cat, "no limits from CONFIG_GET");
		return;
	}
	if (max >= MANY_MAX) {
		skip(cat, "max-subscriptions is %u: more sockets than this "
		     "table opens (%u)", max, MANY_MAX);
		return;
	}
	got = subscribe_many(socks, max + 1, 60000, &first);
	if (privileged) {
		count(cat, got == max + 1);
		if (got != max + 1 || verbose)
			printf("%s - %s: root: %u subscriptions of %u taken "
			       "(max-subscriptions %u binds users without "
			       "CAP_NET_ADMIN only)%s%s\n",
			       got == max + 1 ? "ok" : "not ok", cat, got,
			       max + 1, max, got == max + 1 ? "" : ": ",
			       got == max + 1 ? "" : first.msg);
		close_all(socks, max + 1);
		return;
	}
	count(cat, got == max);
	if (got != max || verbose)
		printf("%s - %s: %u subscriptions of %u taken (max-subscriptions "
		       "%u)\n", got == max ? "ok" : "not ok", cat, got, max + 1,
		       max);
	/* the one over the limit, again, on the table's socket */
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
	run(cat, rej(EUSERS, M_SUBS, -1),
	    "SUBSCRIBE number %u of this uid (max-subscriptions %u)", max + 1,
	    max);
	if (max) {
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 30000);
		run_on(socks[0], cat, ack(), NULL,
		       "SUBSCRIBE again from a socket that has one (replaces "
		       "it, at the limit)");
		msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
		run_on(socks[0], cat, ack(), NULL, "UNSUBSCRIBE one of them");
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
		run(cat, ack(), "SUBSCRIBE once one ended");
		unsubscribe(cat, "the subscription that made room");
	}
	close_all(socks, max + 1);
}

/* The interval floor: for users without CAP_NET_ADMIN, not for root. */
static void gen_floor(const struct kconfig *cfg, bool privileged)
{
	const char *cat = "limits";
	uint32_t floor = cfg->min_interval_ms;

	if (!cfg->valid) {
		fail(cat, "no limits from CONFIG_GET");
		return;
	}
	if (floor <= 10) {
		skip(cat, "min-interval-ms is %u: no interval between 10 ms "
		     "and it", floor);
	} else {
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, floor - 1);
		run(cat, privileged ? ack() : rej(EINVAL, M_FLOOR, -1),
		    "SUBSCRIBE interval %u, below min-interval-ms %u%s",
		    floor - 1, floor, privileged ? " (root)" : "");
		if (privileged)
			unsubscribe(cat, "an interval below the floor");
	}
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, floor);
	run(cat, ack(), "SUBSCRIBE interval %u (min-interval-ms)", floor);
	unsubscribe(cat, "an interval at the floor");
	/* an interval left out is the default stream's: never checked */
	msg_new(KSTAT_CMD_SUBSCRIBE, false);
	put_config_u32(KSTAT_A_CONFIG_SECTIONS, KSTAT_SECTION_IRQ);
	run(cat, ack(), "SUBSCRIBE without an interval");
	unsubscribe(cat, "a subscription without an interval");
}

/* Without CAP_NET_ADMIN: every read works, no change goes through. */
static void gen_unpriv(const struct kconfig *cfg)
{
	unsigned int i;
	struct nlattr *n;
	int dump;

	for (dump = 0; dump <= 1; dump++) {
		msg_new(KSTAT_CMD_GET, dump);
		run("unpriv-read", expect_all(dump, 0, 0), "GET %s", mode(dump));
		msg_new(KSTAT_CMD_GET, dump);
		put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU | KSTAT_F_META);
		run("unpriv-read", expect_all(dump, 0, 3), "GET %s, every flag",
		    mode(dump));
	}
	msg_new(KSTAT_CMD_CONFIG_GET, false);
	run("unpriv-read", ok(false), "CONFIG_GET");
	msg_new(KSTAT_CMD_STATS_GET, false);
	run("unpriv-read", ok(false), "STATS_GET");
	/* every field, valid and invalid values */
	for (i = 0; i < NR_CONFIG_ATTRS * 2; i++) {
		const struct pattr *p = &config_attrs[i / 2];
		uint32_t v = i % 2 ? UINT32_MAX : 1;

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_CONFIG);
		put_val(p, v);
		nest_end(n);
		run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET %s %u",
		    p->name, v);
	}
	for (i = 0; i < NR_LIMITS_ATTRS * 2; i++) {
		const struct pattr *p = &limits_attrs[i / 2];
		uint32_t v = i % 2 ? UINT32_MAX : 1;

		msg_new(KSTAT_CMD_CONFIG_SET, false);
		n = nest_start(KSTAT_A_LIMITS);
		put_val(p, v);
		nest_end(n);
		run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET %s %u",
		    p->name, v);
	}
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	nest_end(nest_start(KSTAT_A_CONFIG));
	run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET empty config");
	msg_new(KSTAT_CMD_CONFIG_SET, false);
	run("unpriv-change", rej(EPERM, "", -1), "CONFIG_SET without attributes");
	/*
	 * A dump of it: since 6.2 split do and dump ops, the core finds no
	 * dump op before it checks the permission.
	 */
	msg_new(KSTAT_CMD_CONFIG_SET, true);
	run("unpriv-change",
	    rej(kernel_at_least(6, 2) ? EOPNOTSUPP : EPERM, "", -1),
	    "CONFIG_SET dump");
	/* joining and SUBSCRIBE need nothing */
	gen_subscribe("unpriv-read");
	gen_floor(cfg, false);
	gen_max_subscriptions(cfg, false);
}

/*
 * Outside the initial network namespace.  Closed (config netns off):
 * every request gets EPERM and the gate's extack; CONFIG_SET is refused
 * by genetlink's core first when the caller lacks CAP_NET_ADMIN in the
 * initial user namespace (no extack).  Open: reads and subscriptions
 * work there.
 */
static void gen_netns(bool open)
{
	const char *cat = open ? "netns-open" : "netns-closed";
	struct expect e = rej(EPERM, M_NETNS, -1);
	int dump;

	for (dump = 0; dump <= 1; dump++) {
		msg_new(KSTAT_CMD_GET, dump);
		run(cat, open ? expect_all(dump, 0, 0) :
		    rej_get(dump, EPERM, M_NETNS, -1), "GET %s", mode(dump));
		msg_new(KSTAT_CMD_GET, dump);
		put_u32(KSTAT_A_SECTIONS, KSTAT_SECTION_IRQ);
		put_u32(KSTAT_A_FLAGS, KSTAT_F_PERCPU | KSTAT_F_META);
		put_few_irqs();
		run(cat, open ? ok(dump) : rej_get(dump, EPERM, M_NETNS, -1),
		    "GET %s irq percpu meta, IRQs 0..63", mode(dump));
	}
	msg_new(KSTAT_CMD_CONFIG_GET, false);
	run(cat, open ? ok(false) : e, "CONFIG_GET");
	msg_new(KSTAT_CMD_STATS_GET, false);
	run(cat, open ? ok(false) : e, "STATS_GET");
	if (!open) {
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		run(cat, e, "SUBSCRIBE without joining");
		msg_new(KSTAT_CMD_SUBSCRIBE, false);
		put_config_u32(KSTAT_A_CONFIG_INTERVAL_MS, 60000);
		run(cat, e, "SUBSCRIBE with a config");
		msg_new(KSTAT_CMD_UNSUBSCRIBE, false);
		run(cat, e, "UNSUBSCRIBE");
		if (join(nl, true)) {
			msg_new(KSTAT_CMD_SUBSCRIBE, false);
			run(cat, e, "SUBSCRIBE after joining");
			join(nl, false);
		} else {
			fail(cat, "cannot join \"summary\"");
		}
		return;
	}
	gen_subscribe(cat);
}

int run_cases(int argc, char **argv)
{
	bool unpriv = false, subscribe = false, netns = false, open = false;
	struct kconfig saved;
	struct answer a;
	unsigned int i;
	int j, err = 0;

	for (j = 1; j < argc; j++) {
		if (!strcmp(argv[j], "-v"))
			verbose = true;
		else if (!strcmp(argv[j], "unpriv"))
			unpriv = true;
		else if (!strcmp(argv[j], "subscribe"))
			subscribe = true;
		else if (!strcmp(argv[j], "netns"))
			netns = true;
		else if (netns && !strcmp(argv[j], "open"))
			open = true;
		else {
			fprintf(stderr, "usage: nlraw cases [unpriv | subscribe | netns [open]] [-v]\n");
			return 2;
		}
	}
	grp = summary_group();
	ncpu = possible_cpus();
	if (netns) {
		gen_netns(open);
	} else if (subscribe) {
		gen_subscribe("subscribe");
	} else {
		err = config_read(nl, &saved, &a);
		if (err)
			fail("config", "CONFIG_GET before the table: %s \"%s\"",
			     strerror(err), a.msg);
		if (unpriv) {
			gen_unpriv(&saved);
		} else {
			gen_framing();
			gen_header();
			gen_flags();
			gen_commands();
			gen_unknown();
			gen_attr_shape();
			gen_get_masks();
			gen_cpu_values();
			gen_irq_selection();
			gen_do_size();
			gen_valid();
			gen_subscribe("subscribe");
			gen_subscribe_config();
			gen_floor(&saved, true);
			gen_max_subscriptions(&saved, true);
			/* last: it changes the config, put back after */
			gen_config_values();
			if (!err) {
				err = config_write(nl, &saved, &a);
				if (err)
					fail("config", "putting the config back: "
					     "%s \"%s\"", strerror(err), a.msg);
			}
		}
	}
	printf("categories:");
	for (i = 0; i < nr_tallies; i++)
		printf(" %s %u%s", tallies[i].cat, tallies[i].run,
		       i + 1 < nr_tallies ? "," : "");
	printf("\n");
	if (nr_skipped)
		printf("cases: %u passed, %u failed, %u skipped\n",
		       nr_run - nr_failed, nr_failed, nr_skipped);
	else
		printf("cases: %u passed, %u failed\n", nr_run - nr_failed,
		       nr_failed);
	return nr_failed ? 1 : 0;
}
