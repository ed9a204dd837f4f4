// SPDX-License-Identifier: GPL-2.0
/*
 * kstat per-CPU records: an IRQ's per-CPU counts as read for a record
 * (see "Per-CPU records" in the UAPI header), for dumps and summaries.
 *
 * A record is built as pairs of the CPUs with a non-zero count, read in
 * one pass, then turned into the smallest form: ONE for an IRQ whose
 * count is all on one CPU (most are), the whole array when that is
 * smaller than the pairs.  Never more than the array and one word.
 *
 * Most IRQs fire on one CPU, so each IRQ number has a hint: the CPU that
 * had its whole count at its last full read.  That CPU's count equal to
 * the IRQ's total tells the record in two reads instead of one per
 * possible CPU (at 96 CPUs, a per-CPU dump read 96 counts an IRQ where
 * a totals dump reads one).
 */
#include <linux/cpumask.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kst.h"
#include "compat.h"

/*
 * Per IRQ number, the CPU that had the IRQ's whole count at its last
 * full read (U32_MAX: none yet).  A hint only, read and written without
 * a lock: a stale one costs the full read, nothing else.
 *
 * nr_irqs grows past its boot value as IRQs are allocated (x86 sizes it
 * for 8 per CPU and the IO-APICs' pins: 1192 at 96 CPUs), so the table
 * grows with it, in process context before a per-CPU read
 * (kst_irq_hints_cover()), and is replaced under RCU: readers hold
 * rcu_read_lock() for the descriptors already.
 */
struct kst_cpu_hints {
	struct rcu_head rcu;
	unsigned int nr;
	u32 cpu[];
};

static struct kst_cpu_hints __rcu *kst_hints;
static DEFINE_MUTEX(kst_hints_lock);

/* The table of @old's hints grown to @nr numbers, or NULL. */
static struct kst_cpu_hints *kst_hints_grow(const struct kst_cpu_hints *old,
					    unsigned int nr)
{
	unsigned int have = old ? old->nr : 0;
	struct kst_cpu_hints *h;

	/* by half again at least: nr_irqs grows an IRQ at a time */
	nr = max(nr, have + have / 2);
	h = kvmalloc(struct_size(h, cpu, nr), GFP_KERNEL);
	if (!h)
		return NULL;
	h->nr = nr;
	if (have)
		memcpy(h->cpu, old->cpu, have * sizeof(u32));
	memset(h->cpu + have, 0xff, (nr - have) * sizeof(u32));
	return h;
}

/*
 * Hints for every IRQ number below nr_irqs, before a per-CPU read.  May
 * sleep.  Without memory the table stays as it is: IRQs past its end
 * cost the full read.
 */
void kst_irq_hints_cover(void)
{
	struct kst_cpu_hints *old, *h;
	unsigned int nr = nr_irqs;

	rcu_read_lock();
	h = rcu_dereference(kst_hints);
	if (h && h->nr >= nr) {
		rcu_read_unlock();
		return;
	}
	rcu_read_unlock();
	mutex_lock(&kst_hints_lock);
	old = rcu_dereference_protected(kst_hints,
					lockdep_is_held(&kst_hints_lock));
	if (!old || old->nr < nr) {
		h = kst_hints_grow(old, nr);
		if (h) {
			/* hints written to @old meanwhile are lost: harmless */
			rcu_assign_pointer(kst_hints, h);
			if (old)
				kvfree_rcu(old, rcu);
		}
	}
	mutex_unlock(&kst_hints_lock);
}

/* At module exit, after every reader is gone. */
void kst_irq_hints_exit(void)
{
	kvfree(rcu_dereference_protected(kst_hints, true));
	/* a table replaced under RCU is freed by the kernel, not by us */
}

/* Caller holds rcu_read_lock(). */
static void kst_rec_hint(struct irq_desc *desc, unsigned int cpu)
{
	struct kst_cpu_hints *h = rcu_dereference(kst_hints);
	unsigned int irq = irq_desc_get_irq(desc);

	if (h && irq < h->nr)
		WRITE_ONCE(h->cpu[irq], cpu);
}

/*
 * May @desc's record be told from its total and one CPU's count?  Then
 * *@total is its total and *@cpu its hinted CPU, whose count is to be
 * compared with it (U32_MAX when the total is 0: no count to read).
 * Only for IRQs with a total (tot_count; not per-CPU ones).  The total
 * and the per-CPU counts are 32-bit: an IRQ whose other CPUs' counts sum
 * to a multiple of 2^32 (2^32 interrupts there first) reads as all on
 * the hinted CPU, or none; a full read would show them, but no total or
 * summary count changes.  Caller holds rcu_read_lock().
 */
static bool kst_rec_probe(struct irq_desc *desc, u32 *total, u32 *cpu)
{
	unsigned int irq = irq_desc_get_irq(desc);
	const struct kst_cpu_hints *h;

	if (!desc->kstat_irqs ||
	    (desc->status_use_accessors & (IRQ_PER_CPU | IRQ_PER_CPU_DEVID)))
		return false;
	/* data_race: bumped locklessly; kstat_irqs() reads it so */
	*total = data_race(desc->tot_count);
	*cpu = U32_MAX;
	if (!*total)
		return true;
	h = rcu_dereference(kst_hints);
	if (!h || irq >= h->nr)
		return false;
	*cpu = READ_ONCE(h->cpu[irq]);
	return *cpu < nr_cpu_ids;
}

/*
 * The record over @first .. @end - 1 of an IRQ whose @total is all on
 * @cpu: one pair, or none when the total is 0 or the CPU outside.
 * Returns the record's sum.
 */
static u32 kst_rec_put_one(u32 *rec, u32 total, u32 cpu, unsigned int first,
			   unsigned int end)
{
	rec[0] = KSTAT_CPUS_PAIRS;
	if (!total || cpu < first || cpu >= end)
		return 0;
	rec[0] |= 1;
	rec[1] = cpu - first;
	rec[2] = total;
	return total;
}

/* Every possible CPU of @first .. @end - 1 read: the full record. */
static u32 kst_rec_read_all(struct irq_desc *desc, unsigned int first,
			    unsigned int end, u32 *rec)
{
	unsigned int cpu, k = 0;
	u32 v, sum = 0;

	/* cpu_possible() is a bit test; cpumask_next() a call per CPU */
	for (cpu = first; desc->kstat_irqs && cpu < end; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		v = kst_desc_cpu_count(desc, cpu);
		if (!v)
			continue;
		rec[1 + 2 * k] = cpu - first;
		rec[2 + 2 * k] = v;
		sum += v;
		k++;
	}
	rec[0] = KSTAT_CPUS_PAIRS | k;
	if (k == 1)
		kst_rec_hint(desc, first + rec[1]);
	return sum;
}

/*
 * @desc's counts on the possible CPUs of @first .. @first + @nr - 1 into
 * @rec (kst_rec_max_words(@nr) words) as pairs of the non-zero ones,
 * indexed from @first.  Returns their sum, wrapping at 2^32 as the
 * kernel's.  Two reads when the hint holds (the caller made room for it
 * with kst_irq_hints_cover()), else one per CPU.  Caller holds
 * rcu_read_lock().
 */
u32 kst_rec_read(struct irq_desc *desc, unsigned int first, unsigned int nr,
		 u32 *rec)
{
	unsigned int end = min(first + nr, nr_cpu_ids);
	u32 total, cpu;

	if (kst_rec_probe(desc, &total, &cpu) &&
	    (!total || kst_desc_cpu_count(desc, cpu) == total))
		return kst_rec_put_one(rec, total, cpu, first, end);
	return kst_rec_read_all(desc, first, end, rec);
}

/*
 * Turn the pairs at @rec into the smallest form: ONE when its one CPU
 * has the IRQ's whole @count (mod 2^32), DENSE when the @nr counts take
 * fewer words than the pairs.  @scratch holds @nr words.  Returns the
 * record's words.
 */
unsigned int kst_rec_finish(u32 *rec, unsigned int nr, u32 count,
			    u32 *scratch)
{
	unsigned int k = rec[0] & KSTAT_CPUS_VALUE, i;

	if (k == 1 && rec[2] == count) {
		rec[0] = KSTAT_CPUS_ONE | rec[1];
		return 1;
	}
	if (nr >= 2 * k)
		return 1 + 2 * k;
	memset(scratch, 0, nr * sizeof(u32));
	for (i = 0; i < k; i++)
		scratch[rec[1 + 2 * i]] = rec[2 + 2 * i];
	memcpy(rec + 1, scratch, nr * sizeof(u32));
	rec[0] = KSTAT_CPUS_DENSE | nr;
	return 1 + nr;
}
