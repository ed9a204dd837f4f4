// SPDX-License-Identifier: GPL-2.0
/*
 * kstat softirq collector.  softirq_to_name[] is not exported to modules,
 * so the names /proc/softirqs prints are kept here, keyed by vector.
 */
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>

#include "kstat.h"

static const char * const kstat_softirq_names[NR_SOFTIRQS] = {
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

const char *kstat_softirq_name(unsigned int vec)
{
	return kstat_softirq_names[vec];
}

/* Summed in 64 bits over possible CPUs, as /proc/stat's softirq line. */
u64 kstat_softirq_total(unsigned int vec)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += kstat_softirq_cpu(vec, cpu);
	return sum;
}
