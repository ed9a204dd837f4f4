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
 * a totals dump reads one).  Dumps skip even that second read for IRQs
 * that did not fire since the last dump: the record cache at the end.
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
 * Is @desc's count its tot_count (not a per-CPU IRQ)?  Then *@total is
 * it.  The total and the per-CPU counts are 32-bit: an IRQ whose other
 * CPUs' counts sum to a multiple of 2^32 (2^32 interrupts there first)
 * reads as all on the hinted or cached CPU, or none; a full read would
 * show them, but no total or summary count changes.  Caller holds
 * rcu_read_lock().
 */
static bool kst_rec_total(struct irq_desc *desc, u32 *total)
{
	if (!desc->kstat_irqs ||
	    (desc->status_use_accessors & (IRQ_PER_CPU | IRQ_PER_CPU_DEVID)))
		return false;
	/* data_race: bumped locklessly; kstat_irqs() reads it so */
	*total = data_race(desc->tot_count);
	return true;
}

/*
 * The CPU that has @desc's whole non-zero @total by its hint, or U32_MAX
 * when there is no hint or it does not hold.  Caller holds
 * rcu_read_lock().
 */
static u32 kst_rec_hint_holds(struct irq_desc *desc, u32 total)
{
	unsigned int irq = irq_desc_get_irq(desc);
	const struct kst_cpu_hints *h = rcu_dereference(kst_hints);
	u32 cpu;

	if (!h || irq >= h->nr)
		return U32_MAX;
	cpu = READ_ONCE(h->cpu[irq]);
	if (cpu >= nr_cpu_ids || kst_desc_cpu_count(desc, cpu) != total)
		return U32_MAX;
	return cpu;
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
 * The record of an IRQ with a @total (kst_rec_total()): by the hint, else
 * read in full.  *@cpu is the CPU found to have the whole non-zero total
 * (the hint's, or the one CPU a full read found with it), else U32_MAX.
 * Caller holds rcu_read_lock().
 */
static u32 kst_rec_read_total(struct irq_desc *desc, u32 total,
			      unsigned int first, unsigned int end, u32 *rec,
			      u32 *cpu)
{
	u32 sum;

	*cpu = total ? kst_rec_hint_holds(desc, total) : U32_MAX;
	if (!total || *cpu != U32_MAX)
		return kst_rec_put_one(rec, total, *cpu, first, end);
	sum = kst_rec_read_all(desc, first, end, rec);
	/* verified: the one CPU read has the total read before */
	if ((rec[0] & KSTAT_CPUS_VALUE) == 1 && rec[2] == total)
		*cpu = first + rec[1];
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

	if (!kst_rec_total(desc, &total))
		return kst_rec_read_all(desc, first, end, rec);
	return kst_rec_read_total(desc, total, first, end, rec, &cpu);
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

/*
 * ---- the record cache: records verified by dumps ----------------------
 *
 * An IRQ that has not fired since a dump found its whole total on one
 * CPU still has it all there.  Per IRQ number the cache keeps the
 * descriptor of that last verified record, pinned (kst_desc_hold():
 * while the reference is held no other descriptor can have its address),
 * the total it had then and its CPU.  The same descriptor with the same
 * total is the same record, told without reading the CPU's count: at
 * many CPUs that count lives in another CPU's per-CPU area for nearly
 * every IRQ, a cache line and often a page of its own, and reading it
 * made a per-CPU dump cost 2.3-2.9 times a totals dump at 96 CPUs.
 * An IRQ that fired since costs the hinted read, as before.
 *
 * Dumps use it, one chunk at a time: kst_rec_cache_get() takes
 * kst_rec_cache.lock with mutex_trylock() before the chunk's RCU section
 * and kst_rec_cache_put() lets it go after, so the entries need no other
 * locking, and a dump that finds the cache taken reads by hint: readers
 * never wait for each other.  The summary producer keeps its own pinned
 * state.  A pin is let go when a dump finds another descriptor, or none,
 * at its number (a range dump visits every number below nr_irqs), or
 * when the module goes; until then a freed descriptor's memory (the
 * struct and its per-CPU counts) stays allocated, one per IRQ number at
 * most.
 *
 * Without SPARSE_IRQ a freed descriptor is reset in place and keeps its
 * address, so the same pointer is not the same descriptor: no cache.
 */
struct kst_rec_entry {
	struct irq_desc *desc;		/* pinned, or NULL */
	u32 total;
	u32 cpu;
};

/* A chunk visits at most this many numbers, each letting go one pin. */
#define KST_REC_PUT_MAX		KSTAT_IRQS_CHUNK_MAX

static struct {
	struct mutex lock;		/* all of this; taken by trylock */
	struct kst_rec_entry *ent;	/* per IRQ number */
	unsigned int nr;
	unsigned int nr_put;		/* pins let go after the RCU section */
	struct irq_desc *put[KST_REC_PUT_MAX];
} kst_rec_cache = {
	.lock = __MUTEX_INITIALIZER(kst_rec_cache.lock),
};

/* Entries for IRQ numbers below @nr; may sleep. */
static int kst_rec_cache_grow(unsigned int nr)
{
	struct kst_rec_entry *ent;

	/* by half again at least: nr_irqs grows an IRQ at a time */
	nr = max(nr, kst_rec_cache.nr + kst_rec_cache.nr / 2);
	ent = kvcalloc(nr, sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return -ENOMEM;
	if (kst_rec_cache.nr)
		memcpy(ent, kst_rec_cache.ent,
		       kst_rec_cache.nr * sizeof(*ent));
	kvfree(kst_rec_cache.ent);
	kst_rec_cache.ent = ent;
	kst_rec_cache.nr = nr;
	return 0;
}

/*
 * Take the cache for one chunk of a dump, before its RCU section.  False
 * when another dump has it, without SPARSE_IRQ, or without memory for
 * nr_irqs entries: then read with kst_rec_read().  May sleep.
 */
bool kst_rec_cache_get(void)
{
	if (!IS_ENABLED(CONFIG_SPARSE_IRQ) ||
	    !mutex_trylock(&kst_rec_cache.lock))
		return false;
	if (kst_rec_cache.nr < nr_irqs && kst_rec_cache_grow(nr_irqs)) {
		mutex_unlock(&kst_rec_cache.lock);
		return false;
	}
	return true;
}

/* After the chunk's RCU section: let go of the pins it replaced. */
void kst_rec_cache_put(void)
{
	unsigned int i;

	for (i = 0; i < kst_rec_cache.nr_put; i++)
		kst_desc_release(kst_rec_cache.put[i]);
	kst_rec_cache.nr_put = 0;
	mutex_unlock(&kst_rec_cache.lock);
}

/*
 * Entry @irq: @desc's whole @total on @cpu, or nothing when @desc is
 * NULL.  A pin replaced is let go after the RCU section; with no room
 * left for it the entry stays as it was, which is a miss for any other
 * descriptor, not a wrong record.
 */
static void kst_rec_cache_set(unsigned int irq, struct irq_desc *desc,
			      u32 total, u32 cpu)
{
	struct kst_rec_entry *e = &kst_rec_cache.ent[irq];

	if (e->desc != desc) {
		if (e->desc) {
			if (kst_rec_cache.nr_put == KST_REC_PUT_MAX)
				return;
			kst_rec_cache.put[kst_rec_cache.nr_put++] = e->desc;
		}
		if (desc)
			kst_desc_hold(desc);
		e->desc = desc;
	}
	e->total = total;
	e->cpu = cpu;
}

/* No descriptor at @irq now: its entry, if any, goes.  Cache held. */
void kst_rec_cache_forget(unsigned int irq)
{
	if (irq < kst_rec_cache.nr && kst_rec_cache.ent[irq].desc)
		kst_rec_cache_set(irq, NULL, 0, 0);
}

/*
 * kst_rec_read() for a dump holding the cache: the entry's record while
 * @desc and its total are those it was verified with, else the hinted or
 * full read, whose one-CPU result becomes the entry.  Caller holds
 * rcu_read_lock().
 */
u32 kst_rec_read_cached(struct irq_desc *desc, unsigned int irq,
			unsigned int first, unsigned int nr, u32 *rec)
{
	unsigned int end = min(first + nr, nr_cpu_ids);
	const struct kst_rec_entry *e;
	u32 total, cpu, sum;

	if (irq >= kst_rec_cache.nr || !kst_rec_total(desc, &total))
		return kst_rec_read(desc, first, nr, rec);
	if (!total)
		return kst_rec_put_one(rec, 0, U32_MAX, first, end);
	e = &kst_rec_cache.ent[irq];
	if (e->desc == desc && e->total == total)
		return kst_rec_put_one(rec, total, e->cpu, first, end);
	sum = kst_rec_read_total(desc, total, first, end, rec, &cpu);
	kst_rec_cache_set(irq, cpu != U32_MAX ? desc : NULL, total, cpu);
	return sum;
}

/* At module exit, after every dump is gone. */
void kst_rec_cache_exit(void)
{
	unsigned int irq;

	for (irq = 0; irq < kst_rec_cache.nr; irq++)
		if (kst_rec_cache.ent[irq].desc)
			kst_desc_release(kst_rec_cache.ent[irq].desc);
	kvfree(kst_rec_cache.ent);
}
