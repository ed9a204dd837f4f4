// SPDX-License-Identifier: GPL-2.0
/*
 * The summary producer's 64-bit extension of wrapping per-CPU u32
 * counters (kernel/ext.h, compiled here as it is in the module): softirq
 * vectors, arch rows and the "intr" sum stay monotonic and exact across
 * one CPU's counter wrapping, where /proc's plain sums drop by 2^32.
 */
#include <stdint.h>
#include <string.h>
#include <linux/types.h>

#include "unit.h"
#include "../../kernel/ext.h"

#define NCPU 4

/* What /proc prints: the per-CPU u32 values summed in 64 bits. */
static uint64_t proc_sum(const __u32 *v)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < NCPU; i++)
		s += v[i];
	return s;
}

static void test_start(void)
{
	__u32 now[NCPU] = { 1, 2, 0xffffffffu, 40 };

	CHECK(kst_ext_start(now, NCPU) == proc_sum(now),
	      "the first reading is /proc's sum: %llu",
	      (unsigned long long)kst_ext_start(now, NCPU));
}

static void test_one_cpu_wraps(void)
{
	__u32 before[NCPU] = { 100, 0xffffff00u, 7, 0 };
	__u32 now[NCPU] = { 150, 0x10u, 7, 3 };	/* CPU 1 wrapped */
	uint64_t base = kst_ext_start(before, NCPU);
	uint64_t ext = kst_ext_advance(base, now, before, NCPU);

	/* 50 + (0x100 + 0x10) + 0 + 3 events happened */
	CHECK(ext == base + 50 + 0x110 + 3,
	      "a wrap on one CPU adds what happened: %llu",
	      (unsigned long long)(ext - base));
	CHECK(proc_sum(now) < proc_sum(before),
	      "where /proc's sum drops (%llu -> %llu)",
	      (unsigned long long)proc_sum(before),
	      (unsigned long long)proc_sum(now));
}

/* Many samples, every CPU wrapping many times: never a step back. */
static void test_long_run(void)
{
	__u32 before[NCPU] = { 0 }, now[NCPU];
	uint64_t ext = 0, truth = 0, prev = 0;
	int step, i, monotonic = 1;

	for (step = 0; step < 100000; step++) {
		for (i = 0; i < NCPU; i++) {
			uint32_t inc = 0x9e3779b9u * (step + i) % 0x40000000u;

			now[i] = before[i] + inc;
			truth += inc;
		}
		ext = kst_ext_advance(ext, now, before, NCPU);
		if (ext < prev)
			monotonic = 0;
		prev = ext;
		memcpy(before, now, sizeof(now));
	}
	CHECK(ext == truth, "100000 samples, 4 CPUs: %llu events, exact",
	      (unsigned long long)truth);
	CHECK(truth > 1ull << 40, "the run wrapped each CPU often (%llu)",
	      (unsigned long long)(truth >> 32));
	CHECK(monotonic, "and the extended sum never went down");
}

/* No change: nothing added (a delta leaves the counter out). */
static void test_idle(void)
{
	__u32 v[NCPU] = { 5, 6, 7, 8 };

	CHECK(kst_ext_advance(1234, v, v, NCPU) == 1234,
	      "unchanged counters add nothing");
}

int main(void)
{
	test_start();
	test_one_cpu_wraps();
	test_long_run();
	test_idle();
	return unit_exit();
}
