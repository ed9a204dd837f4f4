// SPDX-License-Identifier: GPL-2.0
/*
 * kstat IRQ collector.  Reads IRQ descriptors the way kernel/irq/proc.c and
 * kernel/irq/irqdesc.c do, through exported interfaces only.
 *
 * Descriptors are freed after an RCU grace period (SPARSE_IRQ), so looking
 * one up and reading its counters under rcu_read_lock() is safe.  Action
 * names belong to drivers and may go away with free_irq(), which unlinks
 * the action under desc->lock: they are copied under that lock.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/jhash.h>
#include <linux/kernel_stat.h>
#include <linux/kobject.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "kstat.h"
#include "compat.h"

/* Caller holds rcu_read_lock(). */
struct irq_desc *kstat_irq_to_desc(unsigned int irq)
{
	struct irq_data *data = irq_get_irq_data(irq);

	return data ? irq_data_to_desc(data) : NULL;
}

/*
 * As kstat_irqs(): per-CPU IRQs are summed over CPUs (32-bit, wrapping like
 * the kernel's sum); every other IRQ has its total in tot_count, so no
 * per-CPU walk is needed.  The kernel also sums NMI descriptors, a state
 * modules cannot see; x86 has no NMI descriptors.
 */
u32 kstat_desc_count(struct irq_desc *desc)
{
	unsigned int cpu;
	u32 sum = 0;

	if (!desc->kstat_irqs)
		return 0;
	if (!(desc->status_use_accessors & (IRQ_PER_CPU | IRQ_PER_CPU_DEVID)))
		/* data_race: bumped locklessly; kstat_irqs() reads it so */
		return data_race(desc->tot_count);

	for_each_possible_cpu(cpu)
		sum += kstat_desc_cpu_count(desc, cpu);
	return sum;
}

static void kstat_desc_percpu(struct irq_desc *desc,
			      const struct kstat_sel *sel, u32 *out)
{
	unsigned int cpu, i = 0;

	for (cpu = sel->cpu_first; cpu <= sel->cpu_last; cpu++, i++)
		out[i] = desc->kstat_irqs ? kstat_desc_cpu_count(desc, cpu) : 0;
}

static void kstat_copy_actions(struct irq_desc *desc,
			       struct kstat_irq_snap *snap)
{
	struct irqaction *action;
	size_t room = sizeof(snap->actions), len;
	char *p = snap->actions;

	for (action = desc->action; action; action = action->next) {
		if (!action->name)
			continue;
		len = strnlen(action->name, KSTAT_NAME_MAX - 1) + 1;
		/* Keep whole names only; KSTAT_ACTIONS_MAX bounds a reply. */
		if (len > room)
			break;
		memcpy(p, action->name, len - 1);
		p[len - 1] = '\0';
		p += len;
		room -= len;
	}
	snap->actions_len = p - snap->actions;
}

static void kstat_desc_meta(struct irq_desc *desc, struct kstat_irq_snap *snap)
{
	struct irq_chip *chip;
	unsigned long flags;

	raw_spin_lock_irqsave(&desc->lock, flags);
	chip = desc->irq_data.chip;
	/* Same fallbacks as /proc/interrupts. */
	strscpy(snap->chip, !chip ? "None" : chip->name ? chip->name : "-",
		sizeof(snap->chip));
	snap->has_hwirq = desc->irq_data.domain;
	snap->hwirq = desc->irq_data.hwirq;
	snap->level = irqd_is_level_type(&desc->irq_data);
	strscpy(snap->name, desc->name ? desc->name : "", sizeof(snap->name));
	kstat_copy_actions(desc, snap);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}

int kstat_irq_snapshot(unsigned int irq, const struct kstat_sel *sel,
		       struct kstat_irq_snap *snap)
{
	struct irq_desc *desc;
	int ret = 0;

	rcu_read_lock();
	desc = kstat_irq_to_desc(irq);
	snap->id = (unsigned long)desc;
	if (!desc) {
		ret = -ENOENT;
		goto out;
	}
	snap->irq = irq;
	snap->count = kstat_desc_count(desc);
	if (sel->flags & KSTAT_F_PERCPU)
		kstat_desc_percpu(desc, sel, snap->percpu);
	if (sel->flags & KSTAT_F_META)
		kstat_desc_meta(desc, snap);
out:
	rcu_read_unlock();
	return ret;
}

/* Mix one IRQ number and its descriptor's identity (0: none) into @hash. */
u32 kstat_irq_fingerprint_mix(u32 hash, unsigned int irq, unsigned long id)
{
	return jhash_3words(irq, (u32)id, (u32)(id >> 16 >> 16), hash);
}

static u32 kstat_fingerprint_one(u32 hash, unsigned int irq)
{
	return kstat_irq_fingerprint_mix(hash, irq,
					 (unsigned long)kstat_irq_to_desc(irq));
}

/*
 * A value that changes when descriptors are allocated or freed within a
 * selection (a list, or the range first..last): dumps use it to flag
 * replies that span such a change.  It costs one lookup per selected IRQ,
 * never a walk over IRQs outside the selection.
 */
u32 kstat_irq_set_fingerprint(const u32 *list, unsigned int nr,
			      unsigned int first, unsigned int last)
{
	unsigned int i, end = min_t(unsigned int, last, nr_irqs - 1);
	u32 hash = 0;

	rcu_read_lock();
	if (list) {
		for (i = 0; i < nr; i++)
			hash = kstat_fingerprint_one(hash, list[i]);
	} else {
		for (i = first; i <= end; i++)
			hash = kstat_fingerprint_one(hash, i);
	}
	rcu_read_unlock();
	return hash;
}

/*
 * /proc/stat's "intr" total: every IRQ counted per CPU plus the arch
 * counters arch_irq_stat_cpu() adds, over possible CPUs.  Counters modules
 * cannot read (ERR, MIS, MCE, MCP on x86) are not in it; see arch.c.
 */
u64 kstat_intr_sum(void)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu) {
		sum += kstat_cpu_irqs_sum(cpu);
		sum += kstat_arch_intr_sum(cpu);
	}
	return sum;
}

/*
 * Pin a descriptor found under rcu_read_lock(): the reference keeps its
 * memory from being freed, so while it is held no other descriptor can
 * have its address, and "same pointer" means "same descriptor".  The
 * summary producer keys its 64-bit counts on that.  With SPARSE_IRQ a
 * descriptor is freed by the kobject_put() in an RCU callback, so a
 * descriptor still reachable under rcu_read_lock() has a reference left
 * and may take one more.  Without SPARSE_IRQ descriptors are static and
 * never freed.
 */
#ifdef CONFIG_SPARSE_IRQ
void kstat_desc_hold(struct irq_desc *desc)
{
	kobject_get(&desc->kobj);
}

/* May free the descriptor: process context, no locks held. */
void kstat_desc_release(struct irq_desc *desc)
{
	kobject_put(&desc->kobj);
}
#else
void kstat_desc_hold(struct irq_desc *desc) { }
void kstat_desc_release(struct irq_desc *desc) { }
#endif
