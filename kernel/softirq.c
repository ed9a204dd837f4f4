// SPDX-License-Identifier: GPL-2.0
/*
 * kstat softirq section.  softirq_to_name[] is not exported to modules,
 * so the names /proc/softirqs prints are kept here, keyed by vector.
 * Each vector's total is the sum of its per-CPU counters, extended to 64
 * bits (record.c): it does not drop when one CPU's counter wraps.
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include "kst.h"

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

/* Under kst_count_lock. */
static struct kst_ext kst_softirq_ext[NR_SOFTIRQS];

struct kst_softirq_data {
	u64 count[NR_SOFTIRQS];
	struct kst_recs recs;		/* percpu */
};

static u32 kst_softirq_read(const void *obj, unsigned int cpu)
{
	return kstat_softirqs_cpu(*(const unsigned int *)obj, cpu);
}

static void kst_softirq_release(void *data)
{
	struct kst_softirq_data *d = data;

	kst_recs_free(&d->recs);
	kfree(d);
}

static void *kst_softirq_collect(struct kst_reading *r,
				 const struct kst_req *req, gfp_t gfp)
{
	bool percpu = r->view.flags & KSTAT_F_PERCPU;
	struct kst_softirq_data *d = kzalloc(sizeof(*d), gfp);
	unsigned int vec;
	u32 *row, sum;
	u64 sum64;

	row = kvmalloc_array(nr_cpu_ids, sizeof(u32), gfp);
	if (!d || !row || kst_recs_init(&d->recs, NR_SOFTIRQS, gfp) ||
	    (percpu && kst_recs_reserve(&d->recs, NR_SOFTIRQS *
					(1 + kst_nr_cpus(r)), gfp))) {
		kvfree(row);
		if (d)
			kst_softirq_release(d);
		return ERR_PTR(-ENOMEM);
	}
	mutex_lock(&kst_count_lock);
	for (vec = 0; vec < NR_SOFTIRQS; vec++) {
		sum = kst_row_read(row, kst_softirq_read, &vec, &sum64);
		d->count[vec] = kst_ext_update(&kst_softirq_ext[vec], sum,
					       sum64);
		if (percpu)
			kst_recs_add(&d->recs, row + r->cpu_first,
				     kst_nr_cpus(r));
	}
	mutex_unlock(&kst_count_lock);
	kvfree(row);
	return d;
}

static size_t kst_softirq_nest_size(unsigned int vec, size_t rec_words)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       nla_total_size(strlen(kst_softirq_names[vec]) + 1) +
	       nla_total_size_64bit(sizeof(u64)) +
	       (rec_words ? nla_total_size(rec_words * sizeof(u32)) : 0);
}

static size_t kst_softirq_size(const struct kst_reading *r, const void *data,
			       const struct kst_view *v)
{
	const struct kst_softirq_data *d = data;
	bool percpu = v->flags & KSTAT_F_PERCPU;
	unsigned int vec;
	size_t size = 0;

	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		size += kst_softirq_nest_size(vec, percpu ?
					      kst_rec_words(&d->recs, vec, 1) :
					      0);
	return size;
}

static size_t kst_softirq_max_object(const struct kst_reading *r,
				     const struct kst_view *v)
{
	return kst_softirq_nest_size(IRQ_POLL_SOFTIRQ, 1 + kst_nr_cpus(r));
}

static int kst_softirq_fill(struct sk_buff *skb, const struct kst_reading *r,
			    const void *data, const struct kst_view *v,
			    struct kst_pos *pos)
{
	const struct kst_softirq_data *d = data;
	struct nlattr *nest;
	u32 vec;

	for (; pos->idx < NR_SOFTIRQS; pos->idx++) {
		vec = pos->idx;
		nest = nla_nest_start(skb, KSTAT_A_SOFTIRQ);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, KSTAT_A_SOFTIRQ_VEC, vec) ||
		    nla_put_string(skb, KSTAT_A_SOFTIRQ_NAME,
				   kst_softirq_names[vec]) ||
		    nla_put_u64_64bit(skb, KSTAT_A_SOFTIRQ_COUNT,
				      d->count[vec], KSTAT_A_SOFTIRQ_PAD) ||
		    ((v->flags & KSTAT_F_PERCPU) &&
		     kst_rec_put(skb, KSTAT_A_SOFTIRQ_PERCPU, &d->recs, vec))) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

const struct kst_section kst_softirq_section = {
	.bit		= KSTAT_SECTION_SOFTIRQ,
	.collect	= kst_softirq_collect,
	.size		= kst_softirq_size,
	.max_object	= kst_softirq_max_object,
	.fill		= kst_softirq_fill,
	.release	= kst_softirq_release,
};
