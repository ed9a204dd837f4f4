/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-made kstat messages for the library's unit tests, built as the
 * kernel builds them (docs/protocol.md): GET replies and SUMMARY_NTF
 * parts, with cpu nests, irqs runs and their per-CPU records, IRQ
 * descriptions, softirqs and arch rows.  And a subscription's callbacks
 * that write what they see into a log, to compare as a string.
 */
#ifndef KSTAT_SUMMARY_MSG_H
#define KSTAT_SUMMARY_MSG_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

#define FAMILY	0x20		/* the family id the tests give kstat */

struct msg {
	union {
		struct nlmsghdr nlh;
		char buf[32768];
	};
};

static inline void put(struct msg *m, uint16_t type, const void *data,
		       uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->nlh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	memset((char *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->nlh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static inline void put_u8(struct msg *m, uint16_t type, uint8_t v)
{
	put(m, type, &v, 1);
}

static inline void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, 4);
}

static inline void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	put(m, type, &v, 8);
}

static inline void put_str(struct msg *m, uint16_t type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

static inline size_t nest_open(struct msg *m, uint16_t type)
{
	size_t at = m->nlh.nlmsg_len;

	((struct nlattr *)(m->buf + at))->nla_type = NLA_F_NESTED | type;
	m->nlh.nlmsg_len += NLA_HDRLEN;
	return at;
}

static inline void nest_close(struct msg *m, size_t at)
{
	((struct nlattr *)(m->buf + at))->nla_len = m->nlh.nlmsg_len - at;
}

/* A genl message of @type (a family id, GENL_ID_CTRL) and @cmd. */
static inline void msg_init(struct msg *m, uint16_t type, uint8_t cmd,
			    uint32_t seq)
{
	struct genlmsghdr *g;

	memset(m, 0, sizeof(m->nlh) + GENL_HDRLEN);
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = type;
	m->nlh.nlmsg_seq = seq;
	g = NLMSG_DATA(&m->nlh);
	g->cmd = cmd;
	g->version = KSTAT_FAMILY_VERSION;
}

/* A GET reply message (a dump's: NLM_F_MULTI) and its header attributes. */
static inline void reply_start(struct msg *m, uint32_t seq, uint64_t ts)
{
	uint8_t online = 0x0f;

	msg_init(m, FAMILY, KSTAT_CMD_GET, seq);
	m->nlh.nlmsg_flags = NLM_F_MULTI;
	put_u64(m, KSTAT_A_TIMESTAMP, ts);
	put_u32(m, KSTAT_A_GENERATION, 7);
	put(m, KSTAT_A_ONLINE_CPUS, &online, 1);
}

/* Part @part of @parts of sample @seq, read at @ts. */
static inline void part_start(struct msg *m, uint64_t seq, uint32_t part,
			      uint32_t parts, uint64_t ts)
{
	uint8_t online = 0x0f;

	msg_init(m, FAMILY, KSTAT_CMD_SUMMARY_NTF, 0);
	put_u64(m, KSTAT_A_SEQ, seq);
	put_u32(m, KSTAT_A_PART, part);
	put_u32(m, KSTAT_A_PARTS, parts);
	put_u64(m, KSTAT_A_TIMESTAMP, ts);
	put_u32(m, KSTAT_A_GENERATION, 7);
	put(m, KSTAT_A_ONLINE_CPUS, &online, 1);
}

/* A whole one-part sample @seq at @ts, its intr sum @sum. */
static inline void sample_msg(struct msg *m, uint64_t seq, uint64_t ts,
			      uint64_t sum)
{
	part_start(m, seq, 0, 1, ts);
	put_u64(m, KSTAT_A_INTR_SUM, sum);
}

/* A cpu nest: @cpu < 0 for the total; field f holds @base + f. */
static inline void put_cpu(struct msg *m, int cpu, uint64_t base)
{
	size_t n = nest_open(m, KSTAT_A_CPU);
	int f;

	if (cpu >= 0)
		put_u32(m, KSTAT_A_CPU_ID, cpu);
	for (f = KSTAT_A_CPU_USER; f <= KSTAT_A_CPU_GUEST_NICE; f++)
		put_u64(m, f, base + f - KSTAT_A_CPU_USER);
	nest_close(m, n);
}

/* A run of @n IRQs, with @words words of records when @cpus. */
static inline void put_irqs(struct msg *m, const uint32_t *ids,
			    const uint64_t *counts, int n,
			    const uint32_t *cpus, int words)
{
	size_t at = nest_open(m, KSTAT_A_IRQS);

	put(m, KSTAT_A_IRQS_IDS, ids, n * 4);
	put(m, KSTAT_A_IRQS_COUNTS, counts, n * 8);
	if (cpus)
		put(m, KSTAT_A_IRQS_CPUS, cpus, words * 4);
	nest_close(m, at);
}

static inline void put_softirq(struct msg *m, uint32_t vec, const char *name,
			       uint64_t count, const uint32_t *rec, int words)
{
	size_t at = nest_open(m, KSTAT_A_SOFTIRQ);

	put_u32(m, KSTAT_A_SOFTIRQ_VEC, vec);
	put_str(m, KSTAT_A_SOFTIRQ_NAME, name);
	put_u64(m, KSTAT_A_SOFTIRQ_COUNT, count);
	if (rec)
		put(m, KSTAT_A_SOFTIRQ_PERCPU, rec, words * 4);
	nest_close(m, at);
}

static inline void put_arch(struct msg *m, const char *name, const char *desc,
			    uint64_t count, const uint32_t *rec, int words)
{
	size_t at = nest_open(m, KSTAT_A_ARCH);

	put_str(m, KSTAT_A_ARCH_NAME, name);
	put_str(m, KSTAT_A_ARCH_DESC, desc);
	put_u64(m, KSTAT_A_ARCH_COUNT, count);
	if (rec)
		put(m, KSTAT_A_ARCH_PERCPU, rec, words * 4);
	nest_close(m, at);
}

/* ---- watching a subscription ---- */

struct seen {
	char log[4096];		/* "S5 " sample seq 5, "G100 " a GET's at
				 * ts 100, "L2gap ", "F0 " family gone */
	int samples;
	uint64_t lost, last_sum;
	const struct kstat_sample *last;	/* valid in the callback only */
	char warning[400];
	int unsubscribe_at;	/* samples, then kstat_unsubscribe(sub) */
	int break_at;		/* samples, then kstat_sub_break(sub) */
	struct kstat_sub *sub;
};

static inline void seen_log(struct seen *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline void seen_log(struct seen *w, const char *fmt, ...)
{
	size_t len = strlen(w->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->log + len, sizeof(w->log) - len, fmt, ap);
	va_end(ap);
}

static inline void on_sample(const struct kstat_sample *s, void *arg)
{
	struct seen *w = arg;

	if (s->from_get)
		seen_log(w, "G%" PRIu64 " ", s->timestamp_ns);
	else
		seen_log(w, "S%" PRIu64 " ", s->seq);
	w->samples++;
	w->last_sum = s->intr_sum;
	if (w->unsubscribe_at && w->samples == w->unsubscribe_at)
		kstat_unsubscribe(w->sub);
	if (w->break_at && w->samples == w->break_at)
		kstat_sub_break(w->sub);
}

static inline void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	struct seen *w = arg;

	w->lost += n;
	seen_log(w, "L%" PRIu64 "%s ", n, kstat_lost_reason_name(why));
}

static inline void on_family(int present, void *arg)
{
	seen_log(arg, "F%d ", present);
}

static inline void on_warning(const char *msg, void *arg)
{
	struct seen *w = arg;

	snprintf(w->warning, sizeof(w->warning), "%s", msg);
}

static const struct kstat_sub_ops seen_ops = {
	.sample = on_sample, .lost = on_lost, .family = on_family,
	.warning = on_warning,
};

/* A subscription without a socket, on family FAMILY, fed by hand. */
static inline struct kstat_sub *fed_sub(struct seen *w)
{
	struct kstat_family f = { .id = FAMILY, .version = 5, .group = 1 };

	memset(w, 0, sizeof(*w));
	w->sub = kstat_sub_alloc(&seen_ops, NULL, w);
	if (w->sub)
		kstat_sub_start(w->sub, &f);
	return w->sub;
}

#endif
