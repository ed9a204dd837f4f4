/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Extending the kernel's wrapping 32-bit counters to 64 bits.
 *
 * The kernel counts IRQs, softirqs and arch events in per-CPU u32
 * variables, and /proc sums them as they are: a sum drops by 2^32 when one
 * CPU's counter wraps.  The summary producer keeps the u32 values it read
 * last and adds each counter's (u32)(now - before) to a 64-bit total,
 * which is exact as long as fewer than 2^32 events of one counter happen
 * between two reads.
 *
 * Pure C on fixed-width types, with no kernel header: the host unit test
 * tests/unit/test_ext compiles this very file.
 */
#ifndef _KST_EXT_H
#define _KST_EXT_H

/* @base plus what each of @n counters advanced from @before to @now. */
static inline __u64 kst_ext_advance(__u64 base, const __u32 *now,
				    const __u32 *before, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		base += (__u32)(now[i] - before[i]);
	return base;
}

/* The first reading: the plain 64-bit sum, what /proc shows. */
static inline __u64 kst_ext_start(const __u32 *now, unsigned int n)
{
	unsigned int i;
	__u64 sum = 0;

	for (i = 0; i < n; i++)
		sum += now[i];
	return sum;
}

/* @before NULL: the first reading of a row. */
static inline __u64 kst_ext_row(__u64 base, const __u32 *now,
				const __u32 *before, unsigned int n)
{
	return before ? kst_ext_advance(base, now, before, n) :
			kst_ext_start(now, n);
}

#endif /* _KST_EXT_H */
