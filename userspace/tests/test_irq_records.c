// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU records in summary samples, fed to a socketless subscription:
 * a keyframe and a delta whose IRQs carry records (ONE, PAIRS), and an
 * IRQ whose record the kernel split into pieces (one chunk each, the
 * count in the first, or the increment in a delta's first and 0 in the
 * others): the subscriber's array is the union of the pieces, and the
 * count grows by the increment once.  Counts in 32 bits (COUNTS32)
 * beside 64-bit ones in a keyframe.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "summary_msg.h"

#define NCPU 8

/* The last sample's IRQs 40 and 41, as the subscriber holds them. */
struct got {
	int samples;
	uint64_t count[2];
	uint32_t percpu[2][NCPU];
	uint32_t nr_percpu[2];
	size_t changed;
};

static void on_rec_sample(const struct kstat_sample *s, void *arg)
{
	struct got *g = arg;
	size_t i;

	g->samples++;
	g->changed = s->nr_irqs_changed;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = &s->irqs[i];
		int k = q->irq - 40;

		if (k < 0 || k > 1)
			continue;
		g->count[k] = q->count;
		g->nr_percpu[k] = q->nr_percpu;
		if (q->percpu && q->nr_percpu == NCPU)
			memcpy(g->percpu[k], q->percpu, sizeof(g->percpu[k]));
	}
}

/* A chunk of one IRQ: a keyframe's (@count) or a delta's (@inc). */
static void chunk(struct msg *m, int key, uint32_t irq, uint64_t count,
		  uint32_t inc, const uint32_t *rec, int words)
{
	size_t c = nest_open(m, KSTAT_A_SAMPLE_IRQS);
	uint8_t bit = 1;

	if (key) {
		put_u32(m, KSTAT_A_IRQS_FIRST, irq);
		put(m, KSTAT_A_IRQS_PRESENT, &bit, 1);
		put_u64(m, KSTAT_A_IRQS_COUNTS, count);
	} else {
		put_u32(m, KSTAT_A_IRQS_IDS, irq);
		put_u32(m, KSTAT_A_IRQS_INCREMENTS, inc);
	}
	put_u32(m, KSTAT_A_IRQS_NR_CPUS, NCPU);
	put(m, KSTAT_A_IRQS_CPUS, rec, words * 4);
	nest_close(m, c);
}

/* A keyframe's chunk of one IRQ with its count in 32 bits (COUNTS32). */
static void chunk32(struct msg *m, uint32_t irq, uint32_t count,
		    const uint32_t *rec, int words)
{
	size_t c = nest_open(m, KSTAT_A_SAMPLE_IRQS);
	uint8_t bit = 1;

	put_u32(m, KSTAT_A_IRQS_FIRST, irq);
	put(m, KSTAT_A_IRQS_PRESENT, &bit, 1);
	put_u32(m, KSTAT_A_IRQS_COUNTS32, count);
	put_u32(m, KSTAT_A_IRQS_NR_CPUS, NCPU);
	put(m, KSTAT_A_IRQS_CPUS, rec, words * 4);
	nest_close(m, c);
}

int main(void)
{
	static const struct kstat_sub_ops rops = { .sample = on_rec_sample };
	static const uint32_t one[] = { KSTAT_CPUS_ONE | 3 };
	static const uint32_t piece1[] = { KSTAT_CPUS_PAIRS | 2, 0, 1, 2, 2 };
	static const uint32_t piece2[] = { KSTAT_CPUS_PAIRS | 2, 5, 5, 7, 7 };
	static const uint32_t d1[] = { KSTAT_CPUS_PAIRS | 2, 0, 4, 2, 2 };
	static const uint32_t d2[] = { KSTAT_CPUS_PAIRS | 2, 5, 6, 7, 7 };
	static const uint32_t want_key[NCPU] = { 1, 0, 2, 0, 0, 5, 0, 7 };
	static const uint32_t want_delta[NCPU] = { 4, 0, 2, 0, 0, 6, 0, 7 };
	struct got g = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&rops, &g);
	struct msg m;

	/* keyframe 1: IRQ 40 all on CPU 3 (9); IRQ 41 (15) in two pieces */
	msg_start(&m, 1, 0, 1);
	sample_open(&m, 1, 1);
	chunk(&m, 1, 40, 9, 0, one, 1);
	chunk(&m, 1, 41, 15, 0, piece1, 5);
	chunk(&m, 1, 41, 15, 0, piece2, 5);
	sample_close(&m);
	CHECK(kstat_sub_feed(sub, &m.nlh) == 0 && g.samples == 1,
	      "a keyframe with records and a split record is delivered");
	CHECK(g.count[0] == 9 && g.percpu[0][3] == 9 && g.percpu[0][0] == 0,
	      "ONE: the IRQ's count on its CPU, 0 elsewhere");
	CHECK(g.count[1] == 15 && !memcmp(g.percpu[1], want_key, sizeof(want_key)),
	      "a split record: the union of its pieces (%u %u %u %u)",
	      g.percpu[1][0], g.percpu[1][2], g.percpu[1][5], g.percpu[1][7]);
	CHECK(g.changed == 2, "each IRQ changed once (%zu)", g.changed);

	/* delta 2: IRQ 41 grew by 4 (CPU 0 +3, CPU 5 +1), in two pieces */
	msg_start(&m, 2, 0, 1);
	sample_open(&m, 2, 0);
	chunk(&m, 0, 41, 0, 4, d1, 5);
	chunk(&m, 0, 41, 0, 0, d2, 5);
	sample_close(&m);
	CHECK(kstat_sub_feed(sub, &m.nlh) == 0 && g.samples == 2,
	      "a delta with a split record is delivered");
	CHECK(g.count[1] == 19 && !memcmp(g.percpu[1], want_delta, sizeof(want_delta)),
	      "its count grew by the increment once (%llu), its array is the pieces'",
	      (unsigned long long)g.count[1]);
	CHECK(g.count[0] == 9 && g.percpu[0][3] == 9 && g.changed == 1,
	      "the IRQ the delta left out is unchanged");

	/*
	 * keyframe 3: IRQ 40's count in 32 bits (what the kernel sends
	 * while a chunk's counts fit), IRQ 41's in 64 (past 2^32)
	 */
	msg_start(&m, 3, 0, 1);
	sample_open(&m, 3, 1);
	chunk32(&m, 40, 11, one, 1);
	chunk(&m, 1, 41, 4294967296ULL + 19, 0, d1, 5);
	sample_close(&m);
	CHECK(kstat_sub_feed(sub, &m.nlh) == 0 && g.samples == 3,
	      "a keyframe with 32- and 64-bit counts is delivered");
	CHECK(g.count[0] == 11 && g.percpu[0][3] == 11,
	      "a 32-bit count, its ONE record's CPU holding it");
	CHECK(g.count[1] == 4294967296ULL + 19 && g.percpu[1][0] == 4,
	      "a 64-bit count beside it stays whole (%llu)",
	      (unsigned long long)g.count[1]);
	kstat_unsubscribe(sub);
	return unit_exit();
}
