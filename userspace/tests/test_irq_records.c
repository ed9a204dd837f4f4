// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU records (docs/protocol.md, "A per-CPU record") into the sparse
 * lists of struct kstat_cpu_count: a dense record of 96 CPUs where one
 * fired, pairs with a zero among them, records of every form in one run,
 * CPU ids from the query's first CPU, and ids past 2^32 refused.  The
 * lists hold non-zero counts only, in CPU order, and kstat_percpu_at()
 * finds every CPU's count in them (0 for those left out).
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "summary_msg.h"

#define NCPU 96

static uint32_t words[4 * NCPU];

/* One run of three IRQs, 10 11 12, read from CPU @first: 0 or -errno. */
static int read_run(struct kstat_build *b, uint32_t first, const uint32_t *w,
		    int n)
{
	static const uint32_t ids[] = { 10, 11, 12 };
	static const uint64_t counts[] = { 1, 2, 3 };
	struct msg m;

	kstat_build_reset(b, first, KSTAT_SECTION_IRQ);
	reply_start(&m, 1, 1);
	put_irqs(&m, ids, counts, 3, w, n);
	return kstat_build_msg(b, &m.nlh) ?: kstat_build_finish(b);
}

/* @q's list against @want[NCPU], every CPU through kstat_percpu_at(). */
static int same(const struct kstat_irq *q, const uint32_t *want, uint32_t first)
{
	uint32_t cpu, nonzero = 0;

	for (cpu = 0; cpu < NCPU; cpu++) {
		if (kstat_percpu_at(q->percpu, q->nr_percpu, first + cpu) != want[cpu])
			return 0;
		nonzero += want[cpu] != 0;
	}
	for (cpu = 1; cpu < q->nr_percpu; cpu++)
		if (q->percpu[cpu].cpu <= q->percpu[cpu - 1].cpu)
			return 0;
	return q->nr_percpu == nonzero;
}

int main(void)
{
	static uint32_t want[3][NCPU];
	struct kstat_build *b = kstat_build_new();
	int n = 0, i, err;

	/* IRQ 10: dense over 96 CPUs, only CPU 40 fired */
	words[n++] = NCPU << 1 | KSTAT_CPUS_DENSE;
	for (i = 0; i < NCPU; i++)
		words[n++] = want[0][i] = i == 40 ? 123 : 0;
	/* IRQ 11: pairs (1, 5) (2, 0) (95, 4294967295): the 0 left out */
	words[n++] = 6 << 1;
	words[n++] = 1;
	words[n++] = want[1][1] = 5;
	words[n++] = 2;
	words[n++] = 0;
	words[n++] = 95;
	words[n++] = want[1][95] = 4294967295U;
	/* IRQ 12: dense, every CPU */
	words[n++] = NCPU << 1 | KSTAT_CPUS_DENSE;
	for (i = 0; i < NCPU; i++)
		words[n++] = want[2][i] = i + 1;

	err = read_run(b, 0, words, n);
	CHECK(err == 0 && b->s.nr_irqs == 3, "three records of three forms (%d)", err);
	CHECK(same(kstat_sample_irq(&b->s, 0), want[0], 0) &&
	      kstat_sample_irq(&b->s, 0)->nr_percpu == 1,
	      "a dense record of 96 CPUs, one fired: a list of one");
	CHECK(same(kstat_sample_irq(&b->s, 1), want[1], 0) &&
	      kstat_sample_irq(&b->s, 1)->nr_percpu == 2,
	      "pairs: a zero count left out, a count of 2^32 - 1 kept");
	CHECK(same(kstat_sample_irq(&b->s, 2), want[2], 0),
	      "a dense record, every CPU");

	err = read_run(b, 64, words, n);
	CHECK(err == 0 && same(kstat_sample_irq(&b->s, 0), want[0], 64) &&
	      kstat_sample_irq(&b->s, 0)->percpu[0].cpu == 104 &&
	      same(kstat_sample_irq(&b->s, 1), want[1], 64),
	      "from CPU 64: the same counts at CPU ids 64 on (CPU %u)",
	      err ? 0 : kstat_sample_irq(&b->s, 0)->percpu[0].cpu);

	err = read_run(b, UINT32_MAX - 50, words, n);
	CHECK(err == -EBADMSG, "CPU ids past 2^32 - 1: -EBADMSG (%d)", err);

	/* the build is reused: nothing of the last sample stays */
	words[0] = words[NCPU + 1 + 7] = words[NCPU + 1 + 8] = 0;
	err = read_run(b, 0, (uint32_t[]){ 0, 0, 0 }, 3);
	CHECK(err == 0 && !kstat_sample_irq(&b->s, 0)->percpu &&
	      !kstat_sample_irq(&b->s, 2)->nr_percpu,
	      "empty records: no lists, in a reused build");
	kstat_build_free(b);
	return unit_exit();
}
