/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstat internals shared by the collectors (cpu.c, irq.c, softirq.c,
 * arch.c) and the netlink glue (netlink.c).  Collectors only read kernel
 * counters into plain structs; they know nothing about netlink.
 */
#ifndef _KSTAT_INTERNAL_H
#define _KSTAT_INTERNAL_H

#include <linux/types.h>
#include <linux/kernel_stat.h>
#include <linux/kstat.h>

/* What a request asks for besides totals; built from KSTAT_A_SEL_*. */
struct kstat_sel {
	u32 flags;		/* KSTAT_F_* */
	u32 cpu_first;		/* per-CPU arrays cover cpu_first..cpu_last */
	u32 cpu_last;
};

static inline unsigned int kstat_sel_nr_cpus(const struct kstat_sel *sel)
{
	return sel->cpu_last - sel->cpu_first + 1;
}

/* cpu.c: CPU time in nanoseconds, with /proc/stat's idle/iowait rules. */
enum kstat_cputime_field {
	KSTAT_CT_USER,
	KSTAT_CT_NICE,
	KSTAT_CT_SYSTEM,
	KSTAT_CT_IDLE,
	KSTAT_CT_IOWAIT,
	KSTAT_CT_IRQ,
	KSTAT_CT_SOFTIRQ,
	KSTAT_CT_STEAL,
	KSTAT_CT_GUEST,
	KSTAT_CT_GUEST_NICE,
	KSTAT_CT_NR
};

struct kstat_cputime {
	u64 ns[KSTAT_CT_NR];
};

void kstat_cputime_read(unsigned int cpu, struct kstat_cputime *ct);
void kstat_cputime_read_total(struct kstat_cputime *ct);

/* irq.c: one IRQ descriptor's counters and, on request, its metadata. */
#define KSTAT_NAME_MAX		64
#define KSTAT_ACTIONS_MAX	512

struct kstat_irq_snap {
	u32 irq;
	u32 count;		/* as the kernel's kstat_irqs() */
	u32 *percpu;		/* kstat_sel_nr_cpus() slots, caller-owned */
	/* KSTAT_F_META only */
	bool has_hwirq;
	bool level;
	u64 hwirq;
	char chip[KSTAT_NAME_MAX];
	char name[KSTAT_NAME_MAX];		/* "" when the desc has none */
	char actions[KSTAT_ACTIONS_MAX];	/* NUL-separated names */
	unsigned int actions_len;		/* bytes used in actions[] */
};

int kstat_irq_snapshot(unsigned int irq, const struct kstat_sel *sel,
		       struct kstat_irq_snap *snap);
u32 kstat_irq_set_fingerprint(const u32 *list, unsigned int nr,
			      unsigned int first, unsigned int last);
u64 kstat_intr_sum(void);

/* softirq.c */
const char *kstat_softirq_name(unsigned int vec);
u64 kstat_softirq_total(unsigned int vec);

static inline u32 kstat_softirq_cpu(unsigned int vec, unsigned int cpu)
{
	return kstat_softirqs_cpu(vec, cpu);
}

/* arch.c: architecture counter rows of /proc/interrupts. */
struct kstat_arch_counter {
	const char *name;
	const char *desc;
	size_t offset;		/* of the u32 counter in the per-CPU struct */
	bool in_intr_sum;	/* counted in /proc/stat's "intr" total */
};

extern const struct kstat_arch_counter kstat_arch_counters[];
extern const unsigned int kstat_nr_arch_counters;

u32 kstat_arch_read(const struct kstat_arch_counter *c, unsigned int cpu);
u64 kstat_arch_total(const struct kstat_arch_counter *c);
u64 kstat_arch_intr_sum(unsigned int cpu);

/* netlink.c */
enum kstat_mcgrp {
	KSTAT_MCGRP_SUMMARY,
};

int kstat_netlink_init(void);
void kstat_netlink_exit(void);

#endif /* _KSTAT_INTERNAL_H */
