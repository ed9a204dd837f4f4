// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS]: random and
 * mutated requests to the kstat family, every command, as do and as dump;
 * COUNT of them, or as many as -d SECONDS allow (the report says how
 * many: -n that many with the same seed sends the same messages).
 *
 * A message is one of: a plausible request (a command, then attributes
 * the family knows with values at and past their bounds), or a random
 * tree of nested attributes; then, often, mutations: bit flips, random
 * header fields and flags, a random nlmsg_len or datagram length, a
 * random attribute length, garbage after the message.  Every request
 * sets NLM_F_ACK unless its flags are randomised, so whenever the framing
 * is sound an answer must come (the ACK or error, or a dump's
 * NLMSG_DONE): none within SECONDS is a hang.  When no answer is certain
 * (dropped framing, no NLM_F_ACK), a CONFIG_GET ping must be answered
 * instead.  A second socket joins and leaves "summary" at random (and
 * starts the default stream on joining) and drains what the producer
 * sends it; the first one gets the samples of the subscriptions the
 * random SUBSCRIBEs make, read while it waits for answers.
 *
 * As root, random CONFIG_SETs change the default stream's config and the
 * limits: both are put back as they were found at the end.
 *
 * The same seed gives the same messages.  nlmsg_type is never mutated to
 * another family: only the kstat family, netlink control types (< 16)
 * and an unused id are sent, so the fuzzer cannot reach other families
 * (as root, some of them change the system).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"
#include "nlraw.h"

#define MSG_MAX		(128 * 1024)	/* what one message may grow to */
#define PING_SEQ	0x50000000u	/* pings' seqs, above any message's */

static unsigned char sbuf[MSG_MAX + 4096];
static struct nlmsghdr *req;
static size_t dgram;			/* bytes to send */
static uint64_t rng;
static unsigned int ncpu = 2;

/* ---- randomness (xorshift64*: the same seed, the same run) ---- */

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 2685821657736338717ULL) >> 32;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

/* A value near some bound kstat checks, or anything. */
static uint32_t interesting(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 15, 16, 63, 64, 65, 249, 250,
		251, 255, 256, 257, 8192, 16382, 59999, 60000, 60001, 65535,
		65536, 65537, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};

	if (chance(15))
		return rnd();
	if (chance(10))
		return ncpu - 1 + below(3);
	return v[below(sizeof(v) / sizeof(v[0]))];
}

/* ---- building ---- */

static bool room(size_t len)
{
	return req->nlmsg_len + len + 64 < MSG_MAX;
}

static void put_bytes(uint16_t type, size_t len)
{
	unsigned char data[16];
	size_t i;

	if (len > sizeof(data) || !room(len))
		len = 0;
	for (i = 0; i < len; i++)
		data[i] = rnd();
	mnl_attr_put(req, type, len, data);
}


/* NLA_F_NESTED and NLA_F_NET_BYTEORDER, now and then. */
static uint16_t type_flags(uint16_t type)
{
	if (chance(4))
		type |= NLA_F_NESTED;
	if (chance(2))
		type |= NLA_F_NET_BYTEORDER;
	return type;
}

/* A value of the right size, mostly: u32, or 0..12 random bytes. */
static void put_value(uint16_t type, size_t u_size)
{
	uint32_t v = interesting();

	if (chance(88)) {
		mnl_attr_put(req, type_flags(type), u_size, &v);
		return;
	}
	put_bytes(type_flags(type), below(13));
}

static void put_config(void)
{
	struct nlattr *n = mnl_attr_nest_start(req, KSTAT_A_CONFIG);
	unsigned int i, count = below(6);

	if (chance(5))
		n->nla_type &= ~NLA_F_NESTED;
	for (i = 0; i < count; i++) {
		uint16_t t = below(KSTAT_A_CONFIG_MAX + 2);
		bool u8 = t == KSTAT_A_CONFIG_PERCPU || t == KSTAT_A_CONFIG_NETNS;

		put_value(t, u8 && chance(90) ? 1 : 4);
	}
	mnl_attr_nest_end(req, n);
}

static void put_limits(void)
{
	struct nlattr *n = mnl_attr_nest_start(req, KSTAT_A_LIMITS);
	unsigned int i, count = below(4);

	if (chance(5))
		n->nla_type &= ~NLA_F_NESTED;
	for (i = 0; i < count; i++)
		put_value(below(KSTAT_A_LIMITS_MAX + 2), 4);
	mnl_attr_nest_end(req, n);
}

static void put_irq_list(void)
{
	static uint32_t list[16400];
	unsigned int i, n = chance(3) ? below(16400) : below(16);

	if (!room(n * 4))
		n = 0;
	for (i = 0; i < n; i++)
		list[i] = chance(80) ? below(64) : interesting();
	mnl_attr_put(req, type_flags(KSTAT_A_IRQ_LIST), n * 4, list);
}

/* Random attributes nested up to @depth levels; random types and sizes. */
static void put_tree(unsigned int depth)
{
	unsigned int i, count = below(6);

	for (i = 0; i < count && room(4096); i++) {
		uint16_t t = chance(90) ? below(KSTAT_A_MAX + 4) : rnd();
		struct nlattr *n;

		if (depth && chance(40)) {
			n = mnl_attr_nest_start(req, t);
			if (chance(20))
				n->nla_type &= ~NLA_F_NESTED;
			put_tree(depth - 1);
			mnl_attr_nest_end(req, n);
		} else if (chance(3) && room(3000)) {
			static unsigned char big[3000];

			mnl_attr_put(req, t, below(sizeof(big)), big);
		} else {
			put_bytes(t, below(13));
		}
	}
}

static void header(uint8_t cmd, bool dump)
{
	req = kstat_msg_put(sbuf, cmd, NLM_F_ACK | (dump ? NLM_F_DUMP : 0));
}

/* A request kstat might get from a confused client. */
static void gen_request(void)
{
	uint8_t cmd = chance(95) ? 1 + below(KSTAT_CMD_MAX) : rnd();
	bool dump = cmd == KSTAT_CMD_GET ? chance(50) : chance(5);
	unsigned int i, count = below(5);

	header(cmd, dump);
	if ((cmd == KSTAT_CMD_CONFIG_SET && chance(85)) ||
	    (cmd == KSTAT_CMD_SUBSCRIBE && chance(60)))
		put_config();
	if (cmd == KSTAT_CMD_CONFIG_SET && chance(30))
		put_limits();
	for (i = 0; i < count; i++) {
		/* mostly GET's attributes: sections .. irq-list */
		uint16_t t = chance(85) ? KSTAT_A_SECTIONS + below(7) :
			     below(KSTAT_A_MAX + 3);

		if (t == KSTAT_A_IRQ_LIST)
			put_irq_list();
		else if (t == KSTAT_A_CONFIG)
			put_config();
		else if (t == KSTAT_A_LIMITS)
			put_limits();
		else
			put_value(t, 4);
	}
}

static void gen_tree(void)
{
	header(rnd() % (KSTAT_CMD_MAX + 2), chance(30));
	put_tree(1 + below(5));
}

/* ---- mutations ---- */

static void flip_bits(void)
{
	unsigned int i, k = 1 + below(8);

	for (i = 0; i < k && dgram > 16; i++) {
		/* not nlmsg_type (4..5) nor nlmsg_seq (8..11) */
		size_t pos = below(dgram);

		if ((pos >= 4 && pos < 6) || (pos >= 8 && pos < 12))
			continue;
		sbuf[pos] ^= 1U << below(8);
	}
}

/* A top-level attribute's nla_len, set to anything up to past the end. */
static void bad_nla_len(void)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, pick;
	struct nlattr *a;
	unsigned int n = 0;

	for (pick = below(4); off + 4 <= req->nlmsg_len; n++) {
		a = (struct nlattr *)((char *)req + off);
		if (n == pick || a->nla_len < 4) {
			a->nla_len = below(req->nlmsg_len - off + 16);
			return;
		}
		off += MNL_ALIGN(a->nla_len);
	}
}

static void mutate(void)
{
	struct genlmsghdr *g = mnl_nlmsg_get_payload(req);

	switch (below(8)) {
	case 0:
	case 1:
		flip_bits();
		break;
	case 2:
		req->nlmsg_flags = chance(50) ? rnd() :
				   req->nlmsg_flags ^ (1U << below(16));
		break;
	case 3:
		g->reserved = chance(50) ? rnd() : 0;
		g->version = rnd();
		g->cmd = chance(50) ? rnd() : g->cmd;
		break;
	case 4:
		req->nlmsg_len = chance(50) ? below(dgram + 64) :
				 dgram - below(8);
		break;
	case 5:
		dgram = below(dgram + 1);
		break;
	case 6:
		bad_nla_len();
		break;
	case 7:		/* garbage after the message, not in its header */
		for (size_t i = dgram < NLMSG_HDRLEN ? 0 : below(48); i; i--)
			sbuf[dgram++] = rnd();
		break;
	}
}

/* Only the kstat family, control types and an unused id: see the top. */
static bool safe_type(uint16_t type)
{
	return type == family || type < NLMSG_MIN_TYPE || type == 0xffff;
}

/*
 * The kernel reads a datagram as messages back to back while their
 * nlmsg_len fits; the ones after ours are made of our payload.  Keep
 * them within the kstat family too.
 */
static void sanitize(void)
{
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= dgram) {
		struct nlmsghdr *h = (struct nlmsghdr *)(sbuf + off);

		if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > dgram - off)
			break;
		if (!safe_type(h->nlmsg_type))
			h->nlmsg_type = family;
		off += NLMSG_ALIGN(h->nlmsg_len);
	}
}

/* Will the kernel answer our message whatever it makes of it? */
static bool answer_certain(void)
{
	return dgram >= NLMSG_HDRLEN && req->nlmsg_len >= NLMSG_HDRLEN &&
	       req->nlmsg_len <= dgram && (req->nlmsg_flags & NLM_F_ACK);
}

/* ---- the run ---- */

struct fuzz_stats {
	unsigned long sent, answered, replies, others, unsure, pings;
	unsigned long hangs, lost, overruns, send_errors;
	unsigned long joins, leaves, notifications, sub_overruns;
	unsigned long by_errno[134];	/* [133]: other */
};

static struct fuzz_stats st;
static struct mnl_socket *sub;		/* joins and leaves "summary" */
static uint32_t grp;
static bool joined;
static int timeout_ms = 10000;

static bool ping(void)
{
	static uint32_t seq = PING_SEQ;
	struct answer a;

	header(KSTAT_CMD_CONFIG_GET, false);
	req->nlmsg_seq = ++seq;
	st.pings++;
	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0)
		return false;
	return !wait_answer(nl, seq, &a, timeout_ms) && a.kind == ANS_ERROR &&
	       !a.err;
}

static void drain_sub(void)
{
	static char rbuf[1 << 16];

	for (;;) {
		ssize_t n = recv(mnl_socket_get_fd(sub), rbuf, sizeof(rbuf),
				 MSG_DONTWAIT);

		if (n < 0 && errno == ENOBUFS) {
			st.sub_overruns++;
			continue;
		}
		if (n <= 0)
			return;
		st.notifications++;
	}
}

/* Join (and start the default stream: SUBSCRIBE, no ACK) or leave. */
static void toggle_membership(void)
{
	int opt = joined ? NETLINK_DROP_MEMBERSHIP : NETLINK_ADD_MEMBERSHIP;
	char msg[64];
	struct nlmsghdr *nlh;

	if (!mnl_socket_setsockopt(sub, opt, &grp, sizeof(grp))) {
		joined = !joined;
		if (joined)
			st.joins++;
		else
			st.leaves++;
	}
	if (joined) {
		nlh = kstat_msg_put(msg, KSTAT_CMD_SUBSCRIBE, 0);
		mnl_socket_sendto(sub, nlh, nlh->nlmsg_len);
	}
}

/* One message: build, send, read its answer.  false: the kernel hung. */
static bool one(uint32_t seq)
{
	struct answer a;
	bool certain;
	int err;

	if (chance(80))
		gen_request();
	else
		gen_tree();
	dgram = req->nlmsg_len;
	if (chance(10))
		req->nlmsg_type = chance(50) ? below(NLMSG_MIN_TYPE) : 0xffff;
	req->nlmsg_seq = seq;
	for (unsigned int k = chance(40) ? 1 + below(3) : 0; k; k--)
		mutate();
	sanitize();
	certain = answer_certain();
	st.sent++;
	if (send(mnl_socket_get_fd(nl), sbuf, dgram, 0) < 0) {
		st.send_errors++;
		return true;
	}
	err = wait_answer(nl, seq, &a, certain ? timeout_ms : 0);
	st.overruns += a.overruns;
	st.others += a.others;
	if (!err && a.kind != ANS_NONE) {
		st.answered++;
		st.replies += a.replies;
		st.by_errno[a.err >= 0 && a.err < 133 ? a.err : 133]++;
		return true;
	}
	if (certain) {
		if (!a.overruns) {
			fprintf(stderr, "fuzz: no answer to message %u\n", seq);
			st.lost++;
		}
	} else {
		st.unsure++;
	}
	if (ping())
		return true;
	st.hangs++;
	fprintf(stderr, "fuzz: no answer to a ping after message %u\n", seq);
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(unsigned long n, uint64_t seed, double secs)
{
	unsigned int e;

	printf("fuzz: seed %llu: %lu messages in %.1f s (%.0f/s), %lu pings\n",
	       (unsigned long long)seed, n, secs, n / secs, st.pings);
	printf("fuzz: answered %lu (data replies %lu), answer not certain %lu, "
	       "other messages %lu, send errors %lu, receive overruns %lu\n",
	       st.answered, st.replies, st.unsure, st.others, st.send_errors,
	       st.overruns);
	printf("fuzz: answers by errno:");
	for (e = 0; e < 134; e++)
		if (st.by_errno[e])
			printf(" %s %lu", e == 0 ? "ok" : e == 133 ? "other" :
			       strerrorname_np(e), st.by_errno[e]);
	printf("\nfuzz: summary group: %lu joins, %lu leaves, %lu notifications, "
	       "%lu overruns\n", st.joins, st.leaves, st.notifications,
	       st.sub_overruns);
	printf("fuzz: hangs %lu, lost answers %lu\n", st.hangs, st.lost);
}

int run_fuzz(int argc, char **argv)
{
	unsigned long n = 10000, i;
	double limit = 0;
	uint64_t seed = time(NULL) ^ ((uint64_t)getpid() << 32);
	int bufsize = 8 << 20, opt, err;
	struct kconfig saved;
	struct answer a;
	double t0;

	while ((opt = getopt(argc, argv, "n:s:t:d:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			timeout_ms = atoi(optarg) * 1000;
			break;
		case 'd':
			limit = atof(optarg);
			break;
		default:
			fprintf(stderr, "usage: nlraw fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS]\n");
			return 2;
		}
	}
	rng = seed ? seed : 1;
	ncpu = possible_cpus();
	err = config_read(nl, &saved, &a);
	if (err) {
		fprintf(stderr, "fuzz: CONFIG_GET: %s \"%s\"\n", strerror(err),
			a.msg);
		return 1;
	}
	printf("fuzz: seed %llu, %lu messages\n", (unsigned long long)seed, n);
	fflush(stdout);
	/* big receive buffers: an overrun would hide an answer */
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &bufsize,
		   sizeof(bufsize));
	sub = nl_open();
	grp = summary_group();
	if (!sub || !grp) {
		fprintf(stderr, "fuzz: no second socket or no \"summary\" group\n");
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < n; i++) {
		if (chance(1) && below(4) == 0)
			toggle_membership();
		if (joined && below(64) == 0)
			drain_sub();
		if (!one(i + 1))
			break;
		if (limit && i % 256 == 255 && now_s() - t0 > limit) {
			i++;
			break;
		}
	}
	report(i, seed, now_s() - t0);
	mnl_socket_close(sub);
	if (!ping())
		st.hangs++;
	/* a user without CAP_NET_ADMIN changed nothing: EPERM is fine */
	err = config_write(nl, &saved, &a);
	if (err && err != EPERM) {
		fprintf(stderr, "fuzz: putting the config back: %s \"%s\"\n",
			strerror(err), a.msg);
		return 1;
	}
	return st.hangs || st.lost ? 1 : 0;
}
