// SPDX-License-Identifier: GPL-2.0
/*
 * parse-cost: what libkstat spends to read protocol 5 messages, through
 * its public API, on the host, for `valgrind --tool=callgrind` to count
 * instructions (bench/parse-cost.sh).
 *
 *   parse-cost dump FILE N        kstat_get() answered by FILE's messages
 *                                 (a recorded GET dump), N times
 *   parse-cost sample FILE N      a subscription (kstat_subscribe()) fed
 *                                 FILE's sample (SUMMARY_NTF, all its
 *                                 parts) N times, its seq renumbered
 *   parse-cost gen KIND IRQS CPUS OUT
 *                                 build messages as the kernel would (for
 *                                 want of recorded ones): KIND dump-totals,
 *                                 dump-percpu, sample-totals, sample-percpu;
 *                                 IRQs fired affine, each on one CPU
 *
 * There is no kernel here: this program defines the socket calls
 * (socket, bind, getsockname, setsockopt, getsockopt, send*, recv*,
 * close) that libkstat and libnl make, so that an AF_NETLINK socket is one
 * end of an AF_UNIX datagram pair and the other end is a fake kstat
 * family: it answers nlctrl's GETFAMILY (family 5, group "summary"), acks
 * what asks for an ack, answers a GET dump with the replies prepared from
 * FILE (their seq and port rewritten, packed in datagrams of 32 KiB as a
 * dump's skbs), and CONFIG_GET and STATS_GET with plain values.  What
 * callgrind counts per pass is then libkstat's work (and libnl's, and the
 * system calls' user side), not the kernel's.
 *
 * It prints "irqs N samples N": the IRQs each reading carried.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libkstat.h"

#define FAKE_FAMILY	0x2a
#define FAKE_GROUP	7
#define DGRAM_MAX	(32 << 10)
#define MAX_FD		1024

/* ---- messages ---- */

struct msgs {
	char *d;
	size_t len;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("parse-cost: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static struct msgs load(const char *path)
{
	struct msgs m = { 0 };
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	m.d = malloc(n);
	if (!m.d || fread(m.d, 1, n, f) != (size_t)n)
		die("%s: short read", path);
	fclose(f);
	m.len = n;
	return m;
}

#define for_each_msg(nlh, m) \
	for (nlh = (struct nlmsghdr *)(m)->d; \
	     (char *)nlh + NLMSG_HDRLEN <= (m)->d + (m)->len && nlh->nlmsg_len >= NLMSG_HDRLEN; \
	     nlh = (struct nlmsghdr *)((char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len)))

/* ---- building messages: an nla writer ---- */

struct wr {
	char *d;
	size_t len, cap;
	size_t msg;		/* the open message's offset */
};

static void *wr_room(struct wr *w, size_t n)
{
	void *p;

	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2;
		w->d = realloc(w->d, w->cap);
		if (!w->d)
			die("out of memory");
	}
	p = w->d + w->len;
	memset(p, 0, n);
	w->len += n;
	return p;
}

static void wr_msg(struct wr *w, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	w->msg = w->len;
	nlh = wr_room(w, NLMSG_HDRLEN);
	nlh->nlmsg_type = type;
	g = wr_room(w, GENL_HDRLEN);
	g->cmd = cmd;
	g->version = KSTAT_FAMILY_VERSION;
}

static size_t wr_msg_len(const struct wr *w)
{
	return w->len - w->msg;
}

static void wr_msg_end(struct wr *w)
{
	((struct nlmsghdr *)(w->d + w->msg))->nlmsg_len = w->len - w->msg;
}

static void wr_put(struct wr *w, uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = wr_room(w, NLA_HDRLEN + NLA_ALIGN(n));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + n;
	if (n)
		memcpy((char *)a + NLA_HDRLEN, data, n);
}

/* A u64 whose payload is 8-aligned in the message: a pad attribute first
 * when needed, as nla_put_u64_64bit() does. */
static void wr_u64(struct wr *w, uint16_t type, uint64_t v, uint16_t pad)
{
	if ((w->len - w->msg + NLA_HDRLEN) % 8)
		wr_put(w, pad, NULL, 0);
	wr_put(w, type, &v, sizeof(v));
}

static void wr_u32(struct wr *w, uint16_t type, uint32_t v)
{
	wr_put(w, type, &v, sizeof(v));
}

static void wr_str(struct wr *w, uint16_t type, const char *s)
{
	wr_put(w, type, s, strlen(s) + 1);
}

static size_t wr_nest(struct wr *w, uint16_t type)
{
	size_t at = w->len;

	wr_put(w, type | NLA_F_NESTED, NULL, 0);
	return at;
}

static void wr_nest_end(struct wr *w, size_t at)
{
	((struct nlattr *)(w->d + at))->nla_len = w->len - at;
}

/* ---- the kernel's objects, as docs/protocol.md has them ---- */

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};
static const char *const arch_rows[][2] = {
	{ "NMI", "Non-maskable interrupts" }, { "LOC", "Local timer interrupts" },
	{ "SPU", "Spurious interrupts" }, { "PMI", "Performance monitoring interrupts" },
	{ "IWI", "IRQ work interrupts" }, { "RTR", "APIC ICR read retries" },
	{ "RES", "Rescheduling interrupts" }, { "CAL", "Function call interrupts" },
	{ "TLB", "TLB shootdowns" }, { "TRM", "Thermal event interrupts" },
	{ "THR", "Threshold APIC interrupts" }, { "DFR", "Deferred Error APIC interrupts" },
	{ "PIN", "Posted-interrupt notification event" },
	{ "NPI", "Nested posted-interrupt event" },
	{ "PIW", "Posted-interrupt wakeup event" },
};

struct gen {
	unsigned int irqs, cpus;
	int percpu, sample;
	uint32_t parts_at;	/* where the PARTS attribute of each message is */
};

/* A per-CPU record of one count on CPU @cpu (pairs: 3 words), or, when
 * the CPUs are few, dense; the smaller, as the kernel writes it. */
static size_t record(uint32_t *w, unsigned int cpus, unsigned int cpu, uint32_t count)
{
	unsigned int i;

	if (cpus <= 2) {
		w[0] = cpus << 1 | KSTAT_CPUS_DENSE;
		for (i = 0; i < cpus; i++)
			w[1 + i] = i == cpu ? count : 0;
		return 1 + cpus;
	}
	w[0] = 2 << 1;
	w[1] = cpu;
	w[2] = count;
	return 3;
}

/* A message's header attributes; @part_off and @parts_off: where the
 * PART and PARTS values are, to fill in when the parts are known. */
static void gen_header(struct wr *w, const struct gen *g, uint32_t *part_off,
		       uint32_t *parts_off)
{
	uint8_t online[1024] = { 0 };
	unsigned int i;

	wr_msg(w, FAKE_FAMILY, g->sample ? KSTAT_CMD_SUMMARY_NTF : KSTAT_CMD_GET);
	if (g->sample) {
		wr_u64(w, KSTAT_A_SEQ, 1, KSTAT_A_PAD);
		*part_off = w->len + NLA_HDRLEN;
		wr_u32(w, KSTAT_A_PART, 0);
		*parts_off = w->len + NLA_HDRLEN;
		wr_u32(w, KSTAT_A_PARTS, 1);
	}
	wr_u64(w, KSTAT_A_TIMESTAMP, 123456789012ull, KSTAT_A_PAD);
	wr_u32(w, KSTAT_A_GENERATION, 1);
	for (i = 0; i < g->cpus; i++)
		online[i / 8] |= 1 << (i % 8);
	wr_put(w, KSTAT_A_ONLINE_CPUS, online, (g->cpus + 7) / 8);
}

/*
 * The messages of a dump or a sample: objects in the manual's order,
 * a new message when the next object would pass 32 KiB.
 */
static void gen(const char *kind, unsigned int irqs, unsigned int cpus, const char *out)
{
	struct gen g = { .irqs = irqs, .cpus = cpus };
	struct wr w = { 0 };
	uint32_t part_off[256], parts_off[256], part = 0, *words;
	size_t obj_max = 0;
	unsigned int i, c, first;
	FILE *f;

	g.percpu = strstr(kind, "percpu") != NULL;
	g.sample = !strncmp(kind, "sample", 6);
	if (strcmp(kind, "dump-totals") && strcmp(kind, "dump-percpu") &&
	    strcmp(kind, "sample-totals") && strcmp(kind, "sample-percpu"))
		die("no kind %s", kind);
	words = calloc(256 * (cpus + 1) + 16, sizeof(*words));
	if (!words || cpus > 8000)
		die("cpus");
#define NEW_MSG_IF_FULL(next)						\
	do {								\
		if (wr_msg_len(&w) + (next) > DGRAM_MAX - 64) {		\
			wr_msg_end(&w);					\
			if (++part == 256)				\
				die("over 256 parts");			\
			gen_header(&w, &g, &part_off[part], &parts_off[part]); \
		}							\
	} while (0)
	gen_header(&w, &g, &part_off[0], &parts_off[0]);
	if (g.sample) {	/* the cpu section: the sum, then each CPU's */
		for (c = 0; c <= (g.percpu ? cpus : 0); c++) {
			size_t n;
			int f2;

			NEW_MSG_IF_FULL(160);
			n = wr_nest(&w, KSTAT_A_CPU);
			if (c)
				wr_u32(&w, KSTAT_A_CPU_ID, c - 1);
			for (f2 = KSTAT_A_CPU_USER; f2 <= KSTAT_A_CPU_GUEST_NICE; f2++)
				wr_u64(&w, f2, 1000000ull * (f2 + c), KSTAT_A_CPU_PAD);
			wr_nest_end(&w, n);
		}
	}
	/* IRQS runs of 256 */
	for (first = 0; first < irqs; first += 256) {
		unsigned int n = irqs - first < 256 ? irqs - first : 256;
		uint32_t ids[256];
		uint64_t counts[256];
		size_t nw = 0, nest, need;

		for (i = 0; i < n; i++) {
			ids[i] = 24 + first + i;
			counts[i] = (first + i) % 7 + 1;
			if (g.percpu)
				nw += record(words + nw, cpus, (first + i) % cpus, counts[i]);
		}
		need = 3 * NLA_HDRLEN + n * 12 + nw * 4 + 8;
		NEW_MSG_IF_FULL(need);
		nest = wr_nest(&w, KSTAT_A_IRQS);
		wr_put(&w, KSTAT_A_IRQS_IDS, ids, n * 4);
		wr_put(&w, KSTAT_A_IRQS_COUNTS, counts, n * 8);
		if (g.percpu)
			wr_put(&w, KSTAT_A_IRQS_CPUS, words, nw * 4);
		wr_nest_end(&w, nest);
		if (need > obj_max)
			obj_max = need;
	}
	for (i = 0; i < sizeof(arch_rows) / sizeof(arch_rows[0]); i++) {
		size_t nest, nw = 0;

		if (g.percpu) {
			words[0] = cpus << 1 | KSTAT_CPUS_DENSE;
			for (c = 0; c < cpus; c++)
				words[1 + c] = 1000 + c;
			nw = 1 + cpus;
		}
		NEW_MSG_IF_FULL(96 + nw * 4);
		nest = wr_nest(&w, KSTAT_A_ARCH);
		wr_str(&w, KSTAT_A_ARCH_NAME, arch_rows[i][0]);
		wr_str(&w, KSTAT_A_ARCH_DESC, arch_rows[i][1]);
		wr_u64(&w, KSTAT_A_ARCH_COUNT, 1000ull * cpus, KSTAT_A_ARCH_PAD);
		if (nw)
			wr_put(&w, KSTAT_A_ARCH_PERCPU, words, nw * 4);
		wr_nest_end(&w, nest);
	}
	NEW_MSG_IF_FULL(64);
	wr_u64(&w, KSTAT_A_INTR_SUM, 4ull * irqs + 15000ull * cpus, KSTAT_A_PAD);
	wr_u32(&w, KSTAT_A_NR_IRQS, irqs + 24 + 64);
	wr_str(&w, KSTAT_A_ARCH_UNREAD, "MCE");
	wr_str(&w, KSTAT_A_ARCH_UNREAD, "MCP");
	wr_str(&w, KSTAT_A_ARCH_UNREAD, "ERR");
	wr_str(&w, KSTAT_A_ARCH_UNREAD, "MIS");
	if (g.sample) {
		for (i = 0; i < 10; i++) {
			size_t nest, nw = 0;

			if (g.percpu) {
				words[0] = cpus << 1 | KSTAT_CPUS_DENSE;
				for (c = 0; c < cpus; c++)
					words[1 + c] = 100 * i + c;
				nw = 1 + cpus;
			}
			NEW_MSG_IF_FULL(64 + nw * 4);
			nest = wr_nest(&w, KSTAT_A_SOFTIRQ);
			wr_u32(&w, KSTAT_A_SOFTIRQ_VEC, i);
			wr_str(&w, KSTAT_A_SOFTIRQ_NAME, softirq_names[i]);
			wr_u64(&w, KSTAT_A_SOFTIRQ_COUNT, 100ull * i * cpus, KSTAT_A_SOFTIRQ_PAD);
			if (nw)
				wr_put(&w, KSTAT_A_SOFTIRQ_PERCPU, words, nw * 4);
			wr_nest_end(&w, nest);
		}
	}
	wr_msg_end(&w);
	if (g.sample)	/* every part says how many there are */
		for (i = 0; i <= part; i++) {
			memcpy(w.d + part_off[i], &i, 4);
			memcpy(w.d + parts_off[i], &(uint32_t){ part + 1 }, 4);
		}
	f = fopen(out, "wb");
	if (!f || fwrite(w.d, 1, w.len, f) != w.len || fclose(f))
		die("%s: %s", out, strerror(errno));
	printf("%s: %u IRQs, %u CPUs, %u messages, %zu bytes\n", kind, irqs, cpus,
	       part + 1, w.len);
	free(words);
	free(w.d);
}

/* ---- the fake kernel ---- */

struct fake {
	int used, peer;
	uint32_t port, groups;
};

static struct fake fakes[MAX_FD];
static uint32_t next_port = 4000;
static struct msgs dump_msgs;	/* the answer to a GET dump */

static struct fake *fake_of(int fd)
{
	return fd >= 0 && fd < MAX_FD && fakes[fd].used ? &fakes[fd] : NULL;
}

int socket(int domain, int type, int protocol)
{
	int sv[2], big = 8 << 20;

	if (domain != AF_NETLINK)
		return syscall(SYS_socket, domain, type, protocol);
	if (socketpair(AF_UNIX, SOCK_DGRAM | (type & (SOCK_CLOEXEC | SOCK_NONBLOCK)), 0, sv))
		return -1;
	if (sv[0] >= MAX_FD) {
		errno = EMFILE;
		return -1;
	}
	syscall(SYS_setsockopt, sv[1], SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
	syscall(SYS_setsockopt, sv[0], SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	fakes[sv[0]] = (struct fake){ .used = 1, .peer = sv[1] };
	return sv[0];
}

int close(int fd)
{
	struct fake *f = fake_of(fd);

	if (f) {
		syscall(SYS_close, f->peer);
		f->used = 0;
	}
	return syscall(SYS_close, fd);
}

int bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct fake *f = fake_of(fd);
	const struct sockaddr_nl *nl = (const void *)sa;

	if (!f)
		return syscall(SYS_bind, fd, sa, len);
	f->port = nl->nl_pid ? nl->nl_pid : next_port++;
	f->groups = nl->nl_groups;
	return 0;
}

int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	if (!fake_of(fd))
		return syscall(SYS_connect, fd, sa, len);
	return 0;
}

int getsockname(int fd, struct sockaddr *sa, socklen_t *len)
{
	struct fake *f = fake_of(fd);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	if (!f)
		return syscall(SYS_getsockname, fd, sa, len);
	if (!f->port)
		f->port = next_port++;
	nl.nl_pid = f->port;
	nl.nl_groups = f->groups;
	memcpy(sa, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *v, socklen_t len)
{
	if (fake_of(fd) && level != SOL_SOCKET)
		return 0;	/* SOL_NETLINK: memberships, ext ack, ... */
	return syscall(SYS_setsockopt, fd, level, name, v, len);
}

int getsockopt(int fd, int level, int name, void *v, socklen_t *len)
{
	if (fake_of(fd) && level != SOL_SOCKET) {
		memset(v, 0, *len);
		return 0;
	}
	return syscall(SYS_getsockopt, fd, level, name, v, len);
}

/* Queue @n bytes for @f's reader: one datagram, one skb. */
static void push(struct fake *f, const void *d, size_t n)
{
	if (syscall(SYS_sendto, f->peer, d, n, 0, NULL, 0) != (long)n)
		die("push: %s", strerror(errno));
}

static void put_ack(struct wr *w, const struct nlmsghdr *req, int error)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	w->msg = w->len;
	nlh = wr_room(w, NLMSG_HDRLEN);
	e = wr_room(w, sizeof(*e));
	e->error = error;
	e->msg = *req;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = req->nlmsg_pid;
	wr_msg_end(w);
}

static void start_reply(struct wr *w, const struct nlmsghdr *req, uint16_t type,
			uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh;

	wr_msg(w, type, cmd);
	nlh = (struct nlmsghdr *)(w->d + w->msg);
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = req->nlmsg_pid;
	nlh->nlmsg_flags = flags;
}

/* The family the GETFAMILY request names: nlctrl (its "notify" group,
 * which subscriptions join) or kstat. */
static void reply_family(struct wr *w, const struct nlmsghdr *req)
{
	const struct nlattr *a = (const void *)((const char *)NLMSG_DATA(req) + GENL_HDRLEN);
	int rem = req->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, ctrl = 0;
	size_t groups, grp;

	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len), a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_NAME)
			ctrl = !strcmp((const char *)a + NLA_HDRLEN, "nlctrl");
	start_reply(w, req, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 0);
	((struct genlmsghdr *)(w->d + w->msg + NLMSG_HDRLEN))->version = 2;
	wr_put(w, CTRL_ATTR_FAMILY_ID, &(uint16_t){ ctrl ? GENL_ID_CTRL : FAKE_FAMILY }, 2);
	wr_str(w, CTRL_ATTR_FAMILY_NAME, ctrl ? "nlctrl" : KSTAT_FAMILY_NAME);
	wr_u32(w, CTRL_ATTR_VERSION, ctrl ? 2 : KSTAT_FAMILY_VERSION);
	wr_u32(w, CTRL_ATTR_HDRSIZE, 0);
	wr_u32(w, CTRL_ATTR_MAXATTR, ctrl ? CTRL_ATTR_MAX : KSTAT_A_MAX);
	groups = wr_nest(w, CTRL_ATTR_MCAST_GROUPS);
	grp = wr_nest(w, 1);
	wr_u32(w, CTRL_ATTR_MCAST_GRP_ID, ctrl ? GENL_ID_CTRL : FAKE_GROUP);
	wr_str(w, CTRL_ATTR_MCAST_GRP_NAME, ctrl ? "notify" : KSTAT_MCGRP_SUMMARY_NAME);
	wr_nest_end(w, grp);
	wr_nest_end(w, groups);
	wr_msg_end(w);
}

static void reply_config(struct wr *w, const struct nlmsghdr *req)
{
	size_t n;

	start_reply(w, req, FAKE_FAMILY, KSTAT_CMD_CONFIG_GET, 0);
	n = wr_nest(w, KSTAT_A_CONFIG);
	wr_u32(w, KSTAT_A_CONFIG_INTERVAL_MS, 1000);
	wr_u32(w, KSTAT_A_CONFIG_BATCH, 1);
	wr_u32(w, KSTAT_A_CONFIG_SECTIONS, 7);
	wr_put(w, KSTAT_A_CONFIG_PERCPU, &(uint8_t){ 0 }, 1);
	wr_put(w, KSTAT_A_CONFIG_NETNS, &(uint8_t){ 0 }, 1);
	wr_nest_end(w, n);
	n = wr_nest(w, KSTAT_A_LIMITS);
	wr_u32(w, KSTAT_A_LIMITS_MIN_INTERVAL_MS, 250);
	wr_u32(w, KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, 64);
	wr_nest_end(w, n);
	wr_msg_end(w);
}

static void reply_stats(struct wr *w, const struct nlmsghdr *req)
{
	size_t n;

	start_reply(w, req, FAKE_FAMILY, KSTAT_CMD_STATS_GET, 0);
	n = wr_nest(w, KSTAT_A_STATS);
	wr_u64(w, KSTAT_A_STATS_TICKS, 0, KSTAT_A_STATS_PAD);
	wr_u32(w, KSTAT_A_STATS_INTERVAL_MS, 1000);
	wr_nest_end(w, n);
	wr_msg_end(w);
}

/* A GET dump: the prepared replies, their seq and port the request's, in
 * datagrams of at most 32 KiB; NLMSG_DONE rides in the last. */
static void reply_dump(struct fake *f, const struct nlmsghdr *req)
{
	struct nlmsghdr *nlh;
	char *start = dump_msgs.d, *end;
	int *done;

	for_each_msg(nlh, &dump_msgs) {
		nlh->nlmsg_seq = req->nlmsg_seq;
		nlh->nlmsg_pid = req->nlmsg_pid;
		nlh->nlmsg_flags = NLM_F_MULTI;
		end = (char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len);
		if (end - start > DGRAM_MAX) {
			push(f, start, (char *)nlh - start);
			start = (char *)nlh;
		}
	}
	/* the DONE message sits past the messages (room kept by main) */
	end = dump_msgs.d + dump_msgs.len;
	nlh = (struct nlmsghdr *)end;
	memset(nlh, 0, NLMSG_HDRLEN + sizeof(int));
	nlh->nlmsg_len = NLMSG_HDRLEN + sizeof(int);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = req->nlmsg_pid;
	done = NLMSG_DATA(nlh);
	*done = 0;
	push(f, start, end + nlh->nlmsg_len - start);
}

static void request(struct fake *f, const char *d, size_t len)
{
	const struct nlmsghdr *req;
	struct wr w = { 0 };

	for (req = (const void *)d; NLMSG_OK(req, len); req = NLMSG_NEXT(req, len)) {
		const struct genlmsghdr *g = NLMSG_DATA(req);
		int ack = req->nlmsg_flags & NLM_F_ACK;

		w.len = 0;
		if (req->nlmsg_type == GENL_ID_CTRL && g->cmd == CTRL_CMD_GETFAMILY) {
			reply_family(&w, req);
		} else if (req->nlmsg_type == FAKE_FAMILY && g->cmd == KSTAT_CMD_GET) {
			if (!(req->nlmsg_flags & NLM_F_DUMP))
				die("a GET do: only dumps are answered here");
			reply_dump(f, req);
		} else if (req->nlmsg_type == FAKE_FAMILY && g->cmd == KSTAT_CMD_CONFIG_GET) {
			reply_config(&w, req);
		} else if (req->nlmsg_type == FAKE_FAMILY && g->cmd == KSTAT_CMD_STATS_GET) {
			reply_stats(&w, req);
		} else {
			ack = 1;	/* SUBSCRIBE, UNSUBSCRIBE, ...: done */
		}
		if (ack)
			put_ack(&w, req, 0);
		if (w.len)
			push(f, w.d, w.len);
	}
	free(w.d);
}

static ssize_t fake_send(struct fake *f, const struct iovec *iov, size_t n)
{
	char req[65536];
	size_t len = 0, i;

	for (i = 0; i < n; i++) {
		if (len + iov[i].iov_len > sizeof(req))
			die("request over 64 KiB");
		memcpy(req + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	request(f, req, len);
	return len;
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct fake *f = fake_of(fd);

	if (!f)
		return syscall(SYS_sendmsg, fd, msg, flags);
	return fake_send(f, msg->msg_iov, msg->msg_iovlen);
}

ssize_t sendto(int fd, const void *b, size_t n, int flags,
	       const struct sockaddr *sa, socklen_t len)
{
	struct fake *f = fake_of(fd);
	struct iovec iov = { (void *)b, n };

	if (!f)
		return syscall(SYS_sendto, fd, b, n, flags, sa, len);
	return fake_send(f, &iov, 1);
}

ssize_t send(int fd, const void *b, size_t n, int flags)
{
	return sendto(fd, b, n, flags, NULL, 0);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	void *name = msg->msg_name;
	socklen_t namelen = msg->msg_namelen;
	ssize_t n;

	if (!fake_of(fd))
		return syscall(SYS_recvmsg, fd, msg, flags);
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	n = syscall(SYS_recvmsg, fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = namelen;
	if (n >= 0 && name) {
		memcpy(name, &nl, namelen < sizeof(nl) ? namelen : sizeof(nl));
		msg->msg_namelen = sizeof(nl);
	}
	return n;
}

ssize_t recvfrom(int fd, void *b, size_t n, int flags, struct sockaddr *sa,
		 socklen_t *len)
{
	struct iovec iov = { b, n };
	struct msghdr m = { .msg_name = sa, .msg_namelen = len ? *len : 0,
			    .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	if (!fake_of(fd))
		return syscall(SYS_recvfrom, fd, b, n, flags, sa, len);
	r = recvmsg(fd, &m, flags);
	if (r >= 0 && len)
		*len = m.msg_namelen;
	return r;
}

ssize_t recv(int fd, void *b, size_t n, int flags)
{
	return recvfrom(fd, b, n, flags, NULL, NULL);
}

/* ---- the passes ---- */

static size_t irqs_seen, samples_seen;

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)arg;
	irqs_seen = s->nr_irqs;
	samples_seen++;
}

static const struct kstat_sub_ops ops = { .sample = on_sample };

/* Room after the messages for reply_dump()'s NLMSG_DONE. */
static struct msgs load_dump(const char *path)
{
	struct msgs m = load(path);

	m.d = realloc(m.d, m.len + 64);
	if (!m.d)
		die("out of memory");
	return m;
}

/* Protocol 5 messages?  A recording's family id is the guest's: they
 * are given the fake family's, as the kernel here would send them. */
static int valid_v5(struct msgs *m)
{
	struct nlmsghdr *nlh;
	size_t n = 0;

	for_each_msg(nlh, m) {
		const struct genlmsghdr *g = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
			continue;
		if (g->version != KSTAT_FAMILY_VERSION)
			return 0;
		nlh->nlmsg_type = FAKE_FAMILY;
		n++;
	}
	return n > 0;
}

static void run_dump(const char *path, long n)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_handle *h;
	struct kstat_sample *s;
	long i;
	int err;

	dump_msgs = load_dump(path);
	if (!valid_v5(&dump_msgs))
		die("%s: not protocol %d messages", path, KSTAT_FAMILY_VERSION);
	err = kstat_open(&h);
	if (err)
		die("kstat_open: %s (%s)", strerror(-err), kstat_open_error());
	for (i = 0; i < n; i++) {
		err = kstat_get(h, &q, &s);
		if (err)
			die("kstat_get: %s (%s)", strerror(-err), kstat_last_error(h));
		irqs_seen = s->nr_irqs;
		samples_seen++;
		kstat_sample_free(s);
	}
	kstat_close(h);
}

/* A sample's messages, one datagram each (the kernel sends each part as
 * its own skb), its SEQ set to @seq and its TIMESTAMP past the state's
 * (libkstat passes on only samples newer than the GET on joining). */
static void push_sample(struct fake *f, struct msgs *m, uint64_t seq)
{
	uint64_t ts = (1ull << 62) + seq;
	struct nlmsghdr *nlh;

	for_each_msg(nlh, m) {
		struct nlattr *a = (void *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
		int rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, type;

		for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
		     rem -= NLA_ALIGN(a->nla_len),
		     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
			type = a->nla_type & NLA_TYPE_MASK;
			if (type == KSTAT_A_SEQ)
				memcpy((char *)a + NLA_HDRLEN, &seq, sizeof(seq));
			if (type == KSTAT_A_TIMESTAMP) {
				memcpy((char *)a + NLA_HDRLEN, &ts, sizeof(ts));
				break;	/* after SEQ, PART, PARTS */
			}
		}
		push(f, nlh, nlh->nlmsg_len);
	}
}

/* An attribute's u32 in a sample's message (PART, PARTS), or @dflt. */
static uint32_t msg_u32(const struct nlmsghdr *nlh, int type, uint32_t dflt)
{
	const struct nlattr *a = (const void *)((const char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	int rem = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	uint32_t v;

	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len), a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == type && a->nla_len >= NLA_HDRLEN + 4) {
			memcpy(&v, (const char *)a + NLA_HDRLEN, 4);
			return v;
		}
	return dflt;
}

/* Keep the first whole sample of a recording (a recording may hold
 * several, or start mid-sample): from a part 0 to its last part. */
static void first_sample(struct msgs *m)
{
	struct nlmsghdr *nlh;
	char *start = NULL;

	for_each_msg(nlh, m) {
		uint32_t part, parts;

		if (nlh->nlmsg_type < NLMSG_MIN_TYPE ||
		    ((struct genlmsghdr *)NLMSG_DATA(nlh))->cmd != KSTAT_CMD_SUMMARY_NTF)
			continue;
		part = msg_u32(nlh, KSTAT_A_PART, 0);
		parts = msg_u32(nlh, KSTAT_A_PARTS, 1);
		if (part == 0)
			start = (char *)nlh;
		if (start && part + 1 == parts) {
			char *end = (char *)nlh + NLMSG_ALIGN(nlh->nlmsg_len);

			memmove(m->d, start, end - start);
			m->len = end - start;
			return;
		}
	}
	die("no whole sample in the recording");
}

static void run_sample(const char *path, const char *dump_path, long n)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct msgs sample = load(path);
	struct kstat_sub *sub;
	struct fake *f;
	long i;
	int err;

	if (!valid_v5(&sample))
		die("%s: not protocol %d messages", path, KSTAT_FAMILY_VERSION);
	first_sample(&sample);
	dump_msgs = load_dump(dump_path);
	if (!valid_v5(&dump_msgs))
		die("%s: not protocol %d messages", dump_path, KSTAT_FAMILY_VERSION);
	o.fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.interval_ms = 1000;
	o.sections = KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ;
	err = kstat_subscribe(&ops, &o, NULL, &sub);
	if (err)
		die("kstat_subscribe: %s (%s)", strerror(-err), kstat_open_error());
	f = fake_of(kstat_sub_fd(sub));
	if (!f)
		die("the subscription's fd is not a netlink socket");
	/* the first sample: the GET on joining */
	for (i = 0; i < 100 && !samples_seen; i++)
		if (kstat_sub_dispatch(sub) < 0)
			die("dispatch: %s", kstat_sub_last_error(sub));
	if (!samples_seen)
		die("no first sample");
	samples_seen = 0;
	for (i = 0; i < n; i++) {
		size_t want = samples_seen + 1;

		push_sample(f, &sample, i + 1);
		while (samples_seen < want) {
			err = kstat_sub_dispatch(sub);
			if (err < 0)
				die("dispatch: %s (%s)", strerror(-err), kstat_sub_last_error(sub));
			if (!err && samples_seen < want) {
				struct pollfd p = { kstat_sub_fd(sub), POLLIN, 0 };

				if (poll(&p, 1, 0) <= 0)
					die("a sample was not delivered");
			}
		}
	}
	if (kstat_sub_lost(sub))
		die("%llu samples reported lost", (unsigned long long)kstat_sub_lost(sub));
	kstat_unsubscribe(sub);
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "gen")) {
		gen(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "dump"))
		run_dump(argv[2], atol(argv[3]));
	else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "sample"))
		run_sample(argv[2], argc == 5 ? argv[4] : argv[2], atol(argv[3]));
	else {
		fprintf(stderr, "usage: parse-cost dump FILE N | sample FILE N [DUMPFILE] | gen KIND IRQS CPUS OUT\n");
		return 2;
	}
	printf("irqs %zu samples %zu\n", irqs_seen, samples_seen);
	return 0;
}
