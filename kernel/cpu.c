// SPDX-License-Identifier: GPL-2.0
/*
 * kstat CPU time collector.  Follows fs/proc/stat.c so that every value
 * brackets against /proc/stat: idle and iowait come from the NO_HZ
 * accounting when it is valid for an online CPU, from kcpustat otherwise.
 */
#include <linux/cpumask.h>
#include <linux/kernel_stat.h>
#include <linux/tick.h>
#include <linux/time64.h>

#include "kstat.h"

static u64 kstat_idle_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_idle_time_us(cpu, NULL);

	/* -1 means !NO_HZ or the CPU is offline: trust the tick counts. */
	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IDLE];
	return us * NSEC_PER_USEC;
}

static u64 kstat_iowait_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_iowait_time_us(cpu, NULL);

	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IOWAIT];
	return us * NSEC_PER_USEC;
}

void kstat_cputime_read(unsigned int cpu, struct kstat_cputime *ct)
{
	struct kernel_cpustat kcs;
	const u64 *cs = kcs.cpustat;

	kcpustat_cpu_fetch(&kcs, cpu);

	ct->ns[KSTAT_CT_USER] = cs[CPUTIME_USER];
	ct->ns[KSTAT_CT_NICE] = cs[CPUTIME_NICE];
	ct->ns[KSTAT_CT_SYSTEM] = cs[CPUTIME_SYSTEM];
	ct->ns[KSTAT_CT_IDLE] = kstat_idle_ns(&kcs, cpu);
	ct->ns[KSTAT_CT_IOWAIT] = kstat_iowait_ns(&kcs, cpu);
	ct->ns[KSTAT_CT_IRQ] = cs[CPUTIME_IRQ];
	ct->ns[KSTAT_CT_SOFTIRQ] = cs[CPUTIME_SOFTIRQ];
	ct->ns[KSTAT_CT_STEAL] = cs[CPUTIME_STEAL];
	ct->ns[KSTAT_CT_GUEST] = cs[CPUTIME_GUEST];
	ct->ns[KSTAT_CT_GUEST_NICE] = cs[CPUTIME_GUEST_NICE];
}

/* The "cpu" line of /proc/stat sums every possible CPU, offline ones too. */
void kstat_cputime_read_total(struct kstat_cputime *ct)
{
	struct kstat_cputime one;
	unsigned int cpu;
	int i;

	memset(ct, 0, sizeof(*ct));
	for_each_possible_cpu(cpu) {
		kstat_cputime_read(cpu, &one);
		for (i = 0; i < KSTAT_CT_NR; i++)
			ct->ns[i] += one.ns[i];
	}
}
