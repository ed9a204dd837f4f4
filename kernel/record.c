// SPDX-License-Identifier: GPL-2.0
/*
 * kstat per-CPU records and 64-bit counts.
 *
 * A per-CPU record (IRQS_CPUS, SOFTIRQ_PERCPU, ARCH_PERCPU) is a header
 * word h = words << 1 | KSTAT_CPUS_DENSE, then either the dense counts
 * of the CPU range or (index, count) pairs of the CPUs with a count,
 * whichever is smaller: pairs when at most half the CPUs have one.  So a
 * record is never more than one word over the dense array.
 *
 * The kernel counts IRQs, softirqs and arch events per CPU in 32 bits.
 * A total read at every reading (a GET or a tick) is extended to 64 bits
 * by what it grew since the last reading, under kst_count_lock, so that
 * it never goes back.
 */
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/netlink.h>

#include "kst.h"

/* Every extension of a count, and the generation, under it. */
DEFINE_MUTEX(kst_count_lock);
u32 kst_generation;

/* Under kst_count_lock: the IRQ set or the online CPUs changed. */
void kst_generation_bump(void)
{
	WRITE_ONCE(kst_generation, kst_generation + 1);
}

/*
 * Under kst_count_lock.  @sum32: the sum of the per-CPU counters in 32
 * bits, as they wrap; @sum64: the same in 64 bits, the total of the
 * first reading (what /proc shows).
 */
u64 kst_ext_update(struct kst_ext *e, u32 sum32, u64 sum64)
{
	if (e->seen)
		e->total += (u32)(sum32 - e->last);
	else
		e->total = sum64;
	e->last = sum32;
	e->seen = true;
	return e->total;
}

/*
 * Read @obj's counter on every CPU id into @row (0 where not possible);
 * returns their sum in 32 bits, and in 64 bits in @sum64.
 */
u32 kst_row_read(u32 *row, u32 (*read)(const void *obj, unsigned int cpu),
		 const void *obj, u64 *sum64)
{
	unsigned int cpu;
	u32 sum = 0;

	*sum64 = 0;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		row[cpu] = cpu_possible(cpu) ? read(obj, cpu) : 0;
		sum += row[cpu];
		*sum64 += row[cpu];
	}
	return sum;
}

/* A record takes at most 1 + nr words: pairs only where not larger. */
int kst_recs_init(struct kst_recs *rs, unsigned int objs, gfp_t gfp)
{
	memset(rs, 0, sizeof(*rs));
	rs->off = kvcalloc(objs + 1, sizeof(u32), gfp);
	return rs->off ? 0 : -ENOMEM;
}

/* Room for @words more words.  Never under RCU or a spinlock. */
int kst_recs_reserve(struct kst_recs *rs, size_t words, gfp_t gfp)
{
	size_t cap = rs->used + words;
	u32 *n;

	if (cap <= rs->cap)
		return 0;
	cap = max(cap, 2 * rs->cap);
	n = kvmalloc_array(cap, sizeof(u32), gfp);
	if (!n)
		return -ENOMEM;
	if (rs->used)
		memcpy(n, rs->words, rs->used * sizeof(u32));
	kvfree(rs->words);
	rs->words = n;
	rs->cap = cap;
	return 0;
}

/* The record of the @nr counts of @row, as the next object's. */
void kst_recs_add(struct kst_recs *rs, const u32 *row, unsigned int nr)
{
	u32 *out = rs->words + rs->used;
	unsigned int i, k = 0;

	for (i = 0; i < nr; i++)
		k += !!row[i];
	if (2 * k <= nr) {
		out[0] = (2 * k) << 1;
		for (i = 0, k = 0; i < nr; i++) {
			if (!row[i])
				continue;
			out[1 + 2 * k] = i;
			out[2 + 2 * k++] = row[i];
		}
		rs->used += 1 + 2 * k;
	} else {
		out[0] = nr << 1 | KSTAT_CPUS_DENSE;
		memcpy(out + 1, row, nr * sizeof(u32));
		rs->used += 1 + nr;
	}
	rs->off[++rs->nr] = rs->used;
}

void kst_recs_free(struct kst_recs *rs)
{
	kvfree(rs->words);
	kvfree(rs->off);
}

/* Object @i's record as attribute @type. */
int kst_rec_put(struct sk_buff *skb, int type, const struct kst_recs *rs,
		unsigned int i)
{
	return nla_put(skb, type, kst_rec_words(rs, i, 1) * sizeof(u32),
		       rs->words + rs->off[i]);
}
