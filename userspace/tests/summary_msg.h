/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hand-made summary notifications for the subscription tests: a batch
 * part, sample pieces with an intr sum as their content.
 */
#ifndef KSTAT_SUMMARY_MSG_H
#define KSTAT_SUMMARY_MSG_H

#include <stdint.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

struct msg {
	union {
		struct nlmsghdr nlh;
		char buf[4096];
	};
	size_t nest;		/* offset of the open sample nest, 0: none */
};

static inline void put(struct msg *m, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(m->buf + m->nlh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)	/* a flag has no data */
		memcpy((char *)a + NLA_HDRLEN, data, len);
	m->nlh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static inline void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	put(m, type, &v, sizeof(v));
}

static inline void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, sizeof(v));
}

/* A part of the batch starting at @batch_seq. */
static inline void msg_start(struct msg *m, uint64_t batch_seq, uint32_t part,
		      uint32_t parts)
{
	struct genlmsghdr *g;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	m->nlh.nlmsg_type = 0x20;
	g = NLMSG_DATA(&m->nlh);
	g->cmd = KSTAT_CMD_SUMMARY_NTF;
	g->version = KSTAT_FAMILY_VERSION;
	put_u64(m, KSTAT_A_BATCH_SEQ, batch_seq);
	put_u32(m, KSTAT_A_PART, part);
	put_u32(m, KSTAT_A_PARTS, parts);
}

/* Open a nest of @type at the end of @m; nest_close() takes its offset. */
static inline size_t nest_open(struct msg *m, uint16_t type)
{
	size_t at = m->nlh.nlmsg_len;
	struct nlattr *a = (struct nlattr *)(m->buf + at);

	a->nla_type = NLA_F_NESTED | type;
	m->nlh.nlmsg_len += NLA_HDRLEN;
	return at;
}

static inline void nest_close(struct msg *m, size_t at)
{
	((struct nlattr *)(m->buf + at))->nla_len = m->nlh.nlmsg_len - at;
}

/* Open sample @seq's nest with its header; sample_close() ends it. */
static inline void sample_open(struct msg *m, uint64_t seq, int key)
{
	m->nest = nest_open(m, KSTAT_A_SAMPLE);
	put_u64(m, KSTAT_A_SAMPLE_SEQ, seq);
	put_u64(m, KSTAT_A_SAMPLE_TIMESTAMP, seq * 1000);
	put_u32(m, KSTAT_A_SAMPLE_GENERATION, 1);
	if (key)
		put(m, KSTAT_A_SAMPLE_KEYFRAME, NULL, 0);
}

static inline void sample_close(struct msg *m)
{
	nest_close(m, m->nest);
}

/* A piece of sample @seq: its header, then an intr sum as content. */
static inline void piece(struct msg *m, uint64_t seq, int key)
{
	sample_open(m, seq, key);
	put_u64(m, KSTAT_A_SAMPLE_INTR_SUM, seq);
	sample_close(m);
}

/* ---- watching a subscription ---- */

struct seen {
	int samples;
	uint64_t lost, delivered_seq[64];
	uint64_t delivered_intr[64];	/* the content: the sum of its pieces */
	int reloads;			/* KSTAT_LOST_RELOAD reports */
	uint64_t reload_lost;
	int family[8], nr_family;	/* ops->family's @present, in order */
};

static inline void on_sample(const struct kstat_sample *s, void *arg)
{
	struct seen *w = arg;

	if (w->samples < 64) {
		w->delivered_seq[w->samples] = s->seq;
		w->delivered_intr[w->samples] = s->intr_sum;
	}
	w->samples++;
}

static inline void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	struct seen *w = arg;

	w->lost += n;
	if (why == KSTAT_LOST_RELOAD) {
		w->reloads++;
		w->reload_lost += n;
	}
}

static inline void on_family(int present, void *arg)
{
	struct seen *w = arg;

	if (w->nr_family < 8)
		w->family[w->nr_family++] = present;
}

static const struct kstat_sub_ops ops = {
	.sample = on_sample, .lost = on_lost, .family = on_family,
};

/*
 * A subscription that has seen batch 6..9 (one part, keyframe first), so
 * it is in sync and expects seq 10.
 */
static inline struct kstat_sub *synced_sub(struct seen *w)
{
	struct kstat_sub *sub = kstat_sub_alloc(&ops, w);
	struct msg m;
	uint64_t s;

	memset(w, 0, sizeof(*w));
	msg_start(&m, 6, 0, 1);
	for (s = 6; s <= 9; s++)
		piece(&m, s, s == 6);
	kstat_sub_feed(sub, &m.nlh);
	return sub;
}

#endif
