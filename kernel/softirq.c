// SPDX-License-Identifier: GPL-2.0
/*
 * kstat softirq collector.  softirq_to_name[] is not exported to modules,
 * so the names /proc/softirqs prints are kept here, keyed by vector.
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include "kst.h"
#include "ext.h"

static const char * const kst_softirq_names[NR_SOFTIRQS] = {
	[HI_SOFTIRQ]		= "HI",
	[TIMER_SOFTIRQ]		= "TIMER",
	[NET_TX_SOFTIRQ]	= "NET_TX",
	[NET_RX_SOFTIRQ]	= "NET_RX",
	[BLOCK_SOFTIRQ]		= "BLOCK",
	[IRQ_POLL_SOFTIRQ]	= "IRQ_POLL",
	[TASKLET_SOFTIRQ]	= "TASKLET",
	[SCHED_SOFTIRQ]		= "SCHED",
	[HRTIMER_SOFTIRQ]	= "HRTIMER",
	[RCU_SOFTIRQ]		= "RCU",
};

/* A new vector in the kernel must get a name here too. */
static_assert(NR_SOFTIRQS == 10);

const char *kst_softirq_name(unsigned int vec)
{
	return kst_softirq_names[vec];
}

/* Summed in 64 bits over possible CPUs, as /proc/stat's softirq line. */
u64 kst_softirq_total(unsigned int vec)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += kst_softirq_cpu(vec, cpu);
	return sum;
}

size_t kst_softirq_size(unsigned int vec, const struct kst_sel *sel)
{
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size(strlen(kst_softirq_name(vec)) + 1) +
		      nla_total_size_64bit(sizeof(u64));

	if (sel->flags & KSTAT_F_PERCPU)
		size += kst_percpu_size(sel);
	return size;
}

static u32 kst_softirq_read(const void *obj, unsigned int cpu)
{
	return kst_softirq_cpu(*(const unsigned int *)obj, cpu);
}

/* @total: the vector's count over all CPUs, which the caller has read. */
int kst_softirq_fill(struct sk_buff *skb, int type, unsigned int vec,
		     u64 total, const struct kst_sel *sel)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_SOFTIRQ_VEC, vec) ||
	    nla_put_string(skb, KSTAT_A_SOFTIRQ_NAME, kst_softirq_name(vec)) ||
	    nla_put_u64_64bit(skb, KSTAT_A_SOFTIRQ_COUNT, total,
			      KSTAT_A_SOFTIRQ_PAD))
		goto cancel;
	if ((sel->flags & KSTAT_F_PERCPU) &&
	    kst_percpu_fill(skb, KSTAT_A_SOFTIRQ_PERCPU, sel,
			    kst_softirq_read, &vec))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* ---- KSTAT_CMD_SOFTIRQ_GET: every vector, and the online CPUs ---------- */

struct kst_softirq_req {
	struct kst_sel sel;
};

static int kst_softirq_get_prepare(void *data, struct nlattr **tb,
				   const struct kst_sel *sel,
				   struct netlink_ext_ack *extack)
{
	struct kst_softirq_req *r = data;

	r->sel = *sel;
	return 0;
}

static size_t kst_softirq_get_reply_size(const void *data)
{
	const struct kst_softirq_req *r = data;
	size_t size = kst_online_size();
	unsigned int vec;

	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		size += kst_softirq_size(vec, &r->sel);
	return size;
}

static int kst_softirq_get_fill(struct sk_buff *skb, const void *data)
{
	const struct kst_softirq_req *r = data;
	unsigned int vec;
	int err;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		err = kst_softirq_fill(skb, KSTAT_A_SOFTIRQ, vec,
				       kst_softirq_total(vec), &r->sel);
		if (err)
			return err;
	}
	return kst_online_fill(skb);
}

/* ---- summary: each vector's count, extended to 64 bits ------------------ */

struct kst_softirq_state {
	u32 *raw;			/* [vec * nr_cpu_ids + cpu] */
	u64 ext[NR_SOFTIRQS];
};

static void kst_softirq_state_free(void *state, bool committed)
{
	struct kst_softirq_state *s = state;

	if (!s)
		return;
	kvfree(s->raw);
	kfree(s);
}

static void *kst_softirq_state_alloc(gfp_t gfp)
{
	struct kst_softirq_state *s = kzalloc(sizeof(*s), gfp);

	if (!s)
		return NULL;
	s->raw = kvcalloc(NR_SOFTIRQS * nr_cpu_ids, sizeof(u32), gfp);
	if (!s->raw) {
		kst_softirq_state_free(s, false);
		return NULL;
	}
	return s;
}

/* Read once into the first stream's state; each extends its own. */
static int kst_softirq_collect(struct kst_target *t, unsigned int n)
{
	const struct kst_softirq_state *read = t[0].cur;
	size_t bytes = NR_SOFTIRQS * nr_cpu_ids * sizeof(u32);
	struct kst_softirq_state *c, *l;
	unsigned int vec, k;

	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		kst_row_read(read->raw + vec * nr_cpu_ids, kst_softirq_read,
			     &vec);
	for (k = 0; k < n; k++) {
		c = t[k].cur;
		l = t[k].last;
		if (k)
			memcpy(c->raw, read->raw, bytes);
		for (vec = 0; vec < NR_SOFTIRQS; vec++)
			c->ext[vec] = kst_ext_row(l ? l->ext[vec] : 0,
						  c->raw + vec * nr_cpu_ids,
						  l ? l->raw + vec * nr_cpu_ids :
						      NULL, nr_cpu_ids);
		t[k].renewed = false;
	}
	return 0;
}

static int kst_softirq_put_item(struct sk_buff *skb,
				const struct kst_writer *w, const void *obj,
				unsigned int vec)
{
	const struct kst_softirq_state *s = obj;
	const struct kst_sel sel = { };

	return kst_softirq_fill(skb, KSTAT_A_SAMPLE_SOFTIRQ, vec, s->ext[vec],
				&sel);
}

/* A delta carries the vectors that moved. */
static int kst_softirq_write(struct kst_writer *w, const void *cur,
			     const void *base)
{
	const struct kst_softirq_state *s = cur, *b = base;
	unsigned int vec;
	int err;

	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		if (!w->h->key && s->ext[vec] == b->ext[vec])
			continue;
		err = kst_sample_put(w, kst_softirq_put_item, s, vec);
		if (err)
			return err;
	}
	return 0;
}

const struct kst_section kst_softirq_section = {
	.name		= "softirq",
	.get_cmd	= KSTAT_CMD_SOFTIRQ_GET,
	.get = {
		.data_size	= sizeof(struct kst_softirq_req),
		.selects	= true,
		.flags_mask	= KSTAT_F_PERCPU,
		.prepare	= kst_softirq_get_prepare,
		.reply_size	= kst_softirq_get_reply_size,
		.fill		= kst_softirq_get_fill,
	},
	.sections	= KSTAT_SECTION_SOFTIRQ,
	.state_alloc	= kst_softirq_state_alloc,
	.state_free	= kst_softirq_state_free,
	.collect	= kst_softirq_collect,
	.write		= kst_softirq_write,
};
