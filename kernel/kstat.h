/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstat internals shared by the collectors (cpu.c, irq.c, softirq.c,
 * arch.c) and the netlink glue (netlink.c).  Collectors only read kernel
 * counters into plain structs; they know nothing about netlink.
 */
#ifndef _KSTAT_INTERNAL_H
#define _KSTAT_INTERNAL_H

#include <linux/bits.h>
#include <linux/gfp.h>
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
	unsigned long id;	/* the descriptor's identity, 0 if none */
	u32 irq;
	u64 count;		/* as kstat_irqs(); summaries extend it */
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
u32 kstat_irq_fingerprint_mix(u32 hash, unsigned int irq, unsigned long id);
u32 kstat_irq_set_fingerprint(const u32 *list, unsigned int nr,
			      unsigned int first, unsigned int last);
u64 kstat_intr_sum(void);

struct irq_desc;
struct irq_desc *kstat_irq_to_desc(unsigned int irq);	/* under RCU */
u32 kstat_desc_count(struct irq_desc *desc);
void kstat_desc_hold(struct irq_desc *desc);
void kstat_desc_release(struct irq_desc *desc);

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

/* summary.c: the periodic summary producer. */
struct kstat_config {
	u32 interval_ms;
	u32 batch;
	u32 keyframe;
	u32 sections;		/* KSTAT_SECTION_* */
	bool percpu;		/* per-CPU IRQ counts in samples */
};

struct kstat_summary_stats {
	u64 samples;
	u64 summaries;
	u64 messages;
	u64 delivery_failures;
	u64 alloc_failures;
	u64 build_ns_last;
	u64 build_ns_max;
	u64 build_ns_total;
	u64 keyframe_bytes;
	u64 delta_bytes;
	u32 generation;
	bool running;
};

/* Fields of a CONFIG_SET, merged under the producer's lock. */
#define KSTAT_CFG_INTERVAL	BIT(0)
#define KSTAT_CFG_BATCH		BIT(1)
#define KSTAT_CFG_KEYFRAME	BIT(2)
#define KSTAT_CFG_SECTIONS	BIT(3)
#define KSTAT_CFG_PERCPU	BIT(4)

struct net;
struct netlink_ext_ack;
struct sk_buff;
struct sk_buff_head;

void kstat_summary_init(void);
void kstat_summary_exit(void);
int kstat_summary_subscribe(struct net *net, u32 portid, u32 seq,
			    struct netlink_ext_ack *extack);
void kstat_summary_get_config(struct kstat_config *cfg);
void kstat_summary_update_config(const struct kstat_config *val, u32 mask);
void kstat_summary_get_stats(struct kstat_summary_stats *st);

/* netlink.c */
enum kstat_mcgrp {
	KSTAT_MCGRP_SUMMARY,
};

int kstat_netlink_init(void);
void kstat_netlink_exit(void);

/* Fill functions: one nest of @type, for do, dump and summary alike. */
int kstat_cpu_fill(struct sk_buff *skb, int type, int cpu,
		   const struct kstat_cputime *ct);
int kstat_irq_fill(struct sk_buff *skb, int type,
		   const struct kstat_irq_snap *snap, const struct kstat_sel *sel);
int kstat_softirq_fill(struct sk_buff *skb, int type, unsigned int vec,
		       u64 total, const struct kstat_sel *sel);
int kstat_config_fill(struct sk_buff *skb, int type,
		      const struct kstat_config *cfg);

/* Summary delivery. */
struct sk_buff *kstat_summary_msg_new(size_t size, u32 portid, u32 seq,
				      void **hdr);
int kstat_summary_multicast(struct sk_buff *skb);
int kstat_summary_unicast(struct sk_buff_head *parts, struct net *net,
			  u32 portid);
void kstat_summary_net_subscribe(struct net *net);
bool kstat_summary_has_listeners(void);

#endif /* _KSTAT_INTERNAL_H */
