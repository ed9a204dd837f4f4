// SPDX-License-Identifier: GPL-2.0
/*
 * kstat helpers the sections share: per-CPU rows, read for summaries or
 * put as attributes, and the online CPU bitmap.
 */
#include <linux/cpumask.h>
#include <net/netlink.h>

#include "kst.h"

size_t kst_percpu_size(const struct kst_sel *sel)
{
	return nla_total_size(kst_sel_nr_cpus(sel) * sizeof(u32));
}

/* One counter's value on every possible CPU, into @row[cpu]. */
void kst_row_read(u32 *row, kst_read_fn read, const void *obj)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		row[cpu] = read(obj, cpu);
}

/* Reserve a per-CPU array and let @read fill it straight into the skb. */
int kst_percpu_fill(struct sk_buff *skb, int type, const struct kst_sel *sel,
		    kst_read_fn read, const void *obj)
{
	struct nlattr *attr;
	unsigned int cpu;
	u32 *out;

	attr = nla_reserve(skb, type, kst_sel_nr_cpus(sel) * sizeof(u32));
	if (!attr)
		return -EMSGSIZE;
	out = nla_data(attr);
	/* An impossible CPU id has no per-CPU area to read: 0. */
	for (cpu = sel->cpu_first; cpu <= sel->cpu_last; cpu++)
		*out++ = cpu_possible(cpu) ? read(obj, cpu) : 0;
	return 0;
}

size_t kst_online_size(void)
{
	return nla_total_size(BITS_TO_BYTES(nr_cpu_ids));
}

/* Byte-wise bitmap, so it reads the same on every endianness. */
int kst_online_fill(struct sk_buff *skb)
{
	struct nlattr *attr;
	unsigned int cpu;
	u8 *map;

	attr = nla_reserve(skb, KSTAT_A_ONLINE_CPUS, BITS_TO_BYTES(nr_cpu_ids));
	if (!attr)
		return -EMSGSIZE;
	map = nla_data(attr);
	memset(map, 0, nla_len(attr));
	for_each_online_cpu(cpu)
		map[cpu / BITS_PER_BYTE] |= 1U << (cpu % BITS_PER_BYTE);
	return 0;
}
