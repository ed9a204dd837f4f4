// SPDX-License-Identifier: GPL-2.0
/*
 * kstat CPU time collector.  Follows fs/proc/stat.c so that every value
 * brackets against /proc/stat: idle and iowait come from the NO_HZ
 * accounting when it is valid for an online CPU, from kcpustat otherwise.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/time64.h>
#include <net/netlink.h>

#include "kst.h"

static u64 kst_idle_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_idle_time_us(cpu, NULL);

	/* -1 means !NO_HZ or the CPU is offline: trust the tick counts. */
	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IDLE];
	return us * NSEC_PER_USEC;
}

static u64 kst_iowait_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_iowait_time_us(cpu, NULL);

	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IOWAIT];
	return us * NSEC_PER_USEC;
}

void kst_cputime_read(unsigned int cpu, struct kst_cputime *ct)
{
	struct kernel_cpustat kcs;
	const u64 *cs = kcs.cpustat;

	kcpustat_cpu_fetch(&kcs, cpu);

	ct->ns[KST_CT_USER] = cs[CPUTIME_USER];
	ct->ns[KST_CT_NICE] = cs[CPUTIME_NICE];
	ct->ns[KST_CT_SYSTEM] = cs[CPUTIME_SYSTEM];
	ct->ns[KST_CT_IDLE] = kst_idle_ns(&kcs, cpu);
	ct->ns[KST_CT_IOWAIT] = kst_iowait_ns(&kcs, cpu);
	ct->ns[KST_CT_IRQ] = cs[CPUTIME_IRQ];
	ct->ns[KST_CT_SOFTIRQ] = cs[CPUTIME_SOFTIRQ];
	ct->ns[KST_CT_STEAL] = cs[CPUTIME_STEAL];
	ct->ns[KST_CT_GUEST] = cs[CPUTIME_GUEST];
	ct->ns[KST_CT_GUEST_NICE] = cs[CPUTIME_GUEST_NICE];
}

/* The "cpu" line of /proc/stat sums every possible CPU, offline ones too. */
void kst_cputime_read_total(struct kst_cputime *ct)
{
	struct kst_cputime one;
	unsigned int cpu;
	int i;

	memset(ct, 0, sizeof(*ct));
	for_each_possible_cpu(cpu) {
		kst_cputime_read(cpu, &one);
		for (i = 0; i < KST_CT_NR; i++)
			ct->ns[i] += one.ns[i];
	}
}

size_t kst_cpu_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       KST_CT_NR * nla_total_size_64bit(sizeof(u64));
}

/* The cputime fields and their attributes are in the same order. */
static_assert(KSTAT_A_CPU_GUEST_NICE - KSTAT_A_CPU_USER == KST_CT_NR - 1);

/* @cpu < 0: the all-CPU sum, which carries no CPU id. */
int kst_cpu_fill(struct sk_buff *skb, int type, int cpu,
		 const struct kst_cputime *ct)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
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

/* ---- summary section: cputime per online CPU, then the total ------------ */

struct kst_cpu_state {
	unsigned long *online;		/* CPUs online at this sample */
	struct kst_cputime *cpu;	/* per CPU id, then the total */
};

static void kst_cpu_state_free(void *state, bool committed)
{
	struct kst_cpu_state *s = state;

	if (!s)
		return;
	bitmap_free(s->online);
	kvfree(s->cpu);
	kfree(s);
}

static void *kst_cpu_state_alloc(void)
{
	struct kst_cpu_state *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->online = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	s->cpu = kvcalloc(nr_cpu_ids + 1, sizeof(*s->cpu), GFP_KERNEL);
	if (!s->online || !s->cpu) {
		kst_cpu_state_free(s, false);
		return NULL;
	}
	return s;
}

/* CPUs coming or going start a new generation. */
static int kst_cpu_collect(void *cur, void *last, bool *renewed)
{
	struct kst_cpu_state *c = cur, *l = last;
	struct kst_cputime *total = &c->cpu[nr_cpu_ids];
	unsigned int cpu, i;

	memset(total, 0, sizeof(*total));
	for_each_possible_cpu(cpu) {
		kst_cputime_read(cpu, &c->cpu[cpu]);
		for (i = 0; i < KST_CT_NR; i++)
			total->ns[i] += c->cpu[cpu].ns[i];
	}
	bitmap_copy(c->online, cpumask_bits(cpu_online_mask), nr_cpu_ids);
	*renewed = l && !bitmap_equal(c->online, l->online, nr_cpu_ids);
	return 0;
}

static int kst_cpu_put_item(struct sk_buff *skb, const struct kst_writer *w,
			    const void *obj, unsigned int cpu)
{
	const struct kst_cpu_state *s = obj;

	return kst_cpu_fill(skb, KSTAT_A_SAMPLE_CPU,
			    cpu == nr_cpu_ids ? -1 : cpu, &s->cpu[cpu]);
}

/* Every sample carries every online CPU: cputime always moves. */
static int kst_cpu_write(struct kst_writer *w, const void *cur,
			 const void *base)
{
	const struct kst_cpu_state *s = cur;
	unsigned int cpu;
	int err;

	for_each_set_bit(cpu, s->online, nr_cpu_ids) {
		err = kst_sample_put(w, kst_cpu_put_item, s, cpu);
		if (err)
			return err;
	}
	return kst_sample_put(w, kst_cpu_put_item, s, nr_cpu_ids);
}

const struct kst_section kst_cpu_section = {
	.name		= "cpu",
	.sections	= KSTAT_SECTION_CPU,
	.state_alloc	= kst_cpu_state_alloc,
	.state_free	= kst_cpu_state_free,
	.collect	= kst_cpu_collect,
	.write		= kst_cpu_write,
};
