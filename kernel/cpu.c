// SPDX-License-Identifier: GPL-2.0
/*
 * kstat CPU time section.  Follows fs/proc/stat.c so that every value
 * brackets against /proc/stat: idle and iowait come from the NO_HZ
 * accounting when it is valid for an online CPU, from kcpustat
 * otherwise; the sum is over every possible CPU, offline ones too.
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/time64.h>
#include <net/netlink.h>

#include "kst.h"

/* The fields of a cpu nest, in the order of KSTAT_A_CPU_USER on. */
enum {
	KST_CT_USER, KST_CT_NICE, KST_CT_SYSTEM, KST_CT_IDLE, KST_CT_IOWAIT,
	KST_CT_IRQ, KST_CT_SOFTIRQ, KST_CT_STEAL, KST_CT_GUEST,
	KST_CT_GUEST_NICE, KST_CT_NR
};

static_assert(KSTAT_A_CPU_GUEST_NICE - KSTAT_A_CPU_USER == KST_CT_NR - 1);

struct kst_cputime {
	u64 ns[KST_CT_NR];
};

struct kst_cpu_data {
	struct kst_cputime total;
	struct kst_cputime *rows;	/* cpu_first .. cpu_last, percpu */
};

/* -1 from the NO_HZ reads: !NO_HZ or offline, trust the tick counts. */
static u64 kst_nohz_ns(u64 us, u64 ticks)
{
	return us == -1ULL ? ticks : us * NSEC_PER_USEC;
}

static void kst_cputime_read(unsigned int cpu, struct kst_cputime *ct)
{
	struct kernel_cpustat kcs;
	const u64 *cs = kcs.cpustat;
	bool online = cpu_online(cpu);

	kcpustat_cpu_fetch(&kcs, cpu);
	ct->ns[KST_CT_USER] = cs[CPUTIME_USER];
	ct->ns[KST_CT_NICE] = cs[CPUTIME_NICE];
	ct->ns[KST_CT_SYSTEM] = cs[CPUTIME_SYSTEM];
	ct->ns[KST_CT_IDLE] =
		kst_nohz_ns(online ? get_cpu_idle_time_us(cpu, NULL) : -1ULL,
			    cs[CPUTIME_IDLE]);
	ct->ns[KST_CT_IOWAIT] =
		kst_nohz_ns(online ? get_cpu_iowait_time_us(cpu, NULL) : -1ULL,
			    cs[CPUTIME_IOWAIT]);
	ct->ns[KST_CT_IRQ] = cs[CPUTIME_IRQ];
	ct->ns[KST_CT_SOFTIRQ] = cs[CPUTIME_SOFTIRQ];
	ct->ns[KST_CT_STEAL] = cs[CPUTIME_STEAL];
	ct->ns[KST_CT_GUEST] = cs[CPUTIME_GUEST];
	ct->ns[KST_CT_GUEST_NICE] = cs[CPUTIME_GUEST_NICE];
}

static void kst_cpu_release(void *data)
{
	struct kst_cpu_data *d = data;

	kvfree(d->rows);
	kfree(d);
}

static void *kst_cpu_collect(struct kst_reading *r, const struct kst_req *req,
			     gfp_t gfp)
{
	bool percpu = r->view.flags & KSTAT_F_PERCPU;
	struct kst_cpu_data *d = kzalloc(sizeof(*d), gfp);
	struct kst_cputime one;
	unsigned int cpu, i;

	if (!d)
		return ERR_PTR(-ENOMEM);
	if (percpu) {
		d->rows = kvcalloc(kst_nr_cpus(r), sizeof(*d->rows), gfp);
		if (!d->rows) {
			kfree(d);
			return ERR_PTR(-ENOMEM);
		}
	}
	for_each_possible_cpu(cpu) {
		kst_cputime_read(cpu, &one);
		for (i = 0; i < KST_CT_NR; i++)
			d->total.ns[i] += one.ns[i];
		if (percpu && cpu >= r->cpu_first && cpu <= r->cpu_last)
			d->rows[cpu - r->cpu_first] = one;
	}
	return d;
}

/* A cpu nest; the sum of all CPUs carries no id. */
static size_t kst_cpu_nest_size(bool with_id)
{
	return nla_total_size(0) + (with_id ? nla_total_size(sizeof(u32)) : 0) +
	       KST_CT_NR * nla_total_size_64bit(sizeof(u64));
}

static bool kst_cpu_listed(const struct kst_reading *r, unsigned int cpu)
{
	return r->online[cpu / 8] & (1 << (cpu % 8));
}

static size_t kst_cpu_size(const struct kst_reading *r, const void *data,
			   const struct kst_view *v)
{
	size_t size = kst_cpu_nest_size(false);
	unsigned int cpu;

	if (!(v->flags & KSTAT_F_PERCPU))
		return size;
	for (cpu = r->cpu_first; cpu <= r->cpu_last; cpu++)
		if (kst_cpu_listed(r, cpu))
			size += kst_cpu_nest_size(true);
	return size;
}

static size_t kst_cpu_max_object(const struct kst_reading *r,
				 const struct kst_view *v)
{
	return kst_cpu_nest_size(true);
}

static int kst_cpu_put(struct sk_buff *skb, int cpu,
		       const struct kst_cputime *ct)
{
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_CPU);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	if (cpu >= 0 && nla_put_u32(skb, KSTAT_A_CPU_ID, cpu))
		goto cancel;
	for (i = 0; i < KST_CT_NR; i++)
		if (nla_put_u64_64bit(skb, KSTAT_A_CPU_USER + i, ct->ns[i],
				      KSTAT_A_CPU_PAD))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* idx 0: the sum; idx k: from CPU cpu_first + k - 1 on, online ones. */
static int kst_cpu_fill(struct sk_buff *skb, const struct kst_reading *r,
			const void *data, const struct kst_view *v,
			struct kst_pos *pos)
{
	const struct kst_cpu_data *d = data;
	unsigned int cpu;

	if (!pos->idx) {
		if (kst_cpu_put(skb, -1, &d->total))
			return -EMSGSIZE;
		pos->idx = 1;
	}
	if (!(v->flags & KSTAT_F_PERCPU))
		return 0;
	for (; pos->idx <= kst_nr_cpus(r); pos->idx++) {
		cpu = r->cpu_first + pos->idx - 1;
		if (kst_cpu_listed(r, cpu) &&
		    kst_cpu_put(skb, cpu, &d->rows[pos->idx - 1]))
			return -EMSGSIZE;
	}
	return 0;
}

const struct kst_section kst_cpu_section = {
	.bit		= KSTAT_SECTION_CPU,
	.collect	= kst_cpu_collect,
	.size		= kst_cpu_size,
	.max_object	= kst_cpu_max_object,
	.fill		= kst_cpu_fill,
	.release	= kst_cpu_release,
};
