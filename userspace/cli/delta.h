/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What changed between two samples: kstat run's output, and what report
 * and compare take from a recording (its last sample less its first).
 *
 * IRQs are matched by identity, not only by number: one number can be
 * freed and given to another device between two samples (a module
 * reload), and a count that restarted is not a count that went back.  An
 * IRQ is "same" when both samples have its number with the same chip,
 * hwirq and actions, and its 64-bit count did not go back; otherwise the
 * before one is "gone" (its count during the run is unknown: never a
 * negative number or a jump) and the after one "new" (all of its count
 * happened during the run).
 *
 * Totals are 64-bit and subtract as such; per-CPU counts are the
 * kernel's 32-bit counters, which wrap, so they subtract modulo 2^32.
 * Rows that did not change are left out ("new" and "gone" IRQs are
 * kept: they are a change), and the rest sorted by count, largest first.
 */
#ifndef KSTAT_CLI_DELTA_H
#define KSTAT_CLI_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

enum delta_state { DELTA_SAME, DELTA_NEW, DELTA_GONE };

/* "same", "new", "gone". */
const char *delta_state_name(enum delta_state st);

/*
 * One IRQ's change.  q.count and q.percpu (a sparse list, as a sample's,
 * owned by the delta) are the change; q's labels point into the sample
 * the row came from (after, or before for "gone"), which must outlive
 * the delta.  A gone row's counts are unknown (0, no list).
 */
struct delta_irq {
	struct kstat_irq q;
	enum delta_state state;
};

struct kstat_delta {
	uint64_t start_ns, end_ns;	/* the two samples' timestamps */
	uint32_t sections;		/* KSTAT_SECTION_* both carry */
	uint32_t nr_cpus;		/* span of the per-CPU arrays */
	bool percpu;			/* per-CPU detail */

	struct kstat_cputime *cpus;	/* changed CPUs, by id */
	size_t nr_cpu_rows;
	struct kstat_cputime total;	/* cpu -1 */
	bool has_total;			/* carried and changed */

	struct delta_irq *irqs;
	size_t nr_irqs;
	struct kstat_arch *arch;	/* names point into after */
	size_t nr_arch;
	struct kstat_softirq *softirqs;	/* names point into after */
	size_t nr_softirqs;
};

/*
 * @after less @before into @d (zeroed first), per-CPU arrays over
 * @nr_cpus CPU ids.  0, or -ENOMEM (then @d holds nothing to free).
 */
int delta_compute(struct kstat_delta *d, const struct kstat_sample *before,
		  const struct kstat_sample *after, uint32_t nr_cpus);
void delta_free(struct kstat_delta *d);

/*
 * Is @a the same IRQ as @b: chip, hwirq and actions (descriptions of a
 * GET with KSTAT_F_META)?  Numbers are not compared.
 */
bool irq_same_identity(const struct kstat_irq *a, const struct kstat_irq *b);

/*
 * The delta's sections through print.h's printers: in JSON the keys
 * "cpu", "irq", "arch", "softirq" of the object open around it (the
 * arrays of kstat -j run); in text a table per section that changed,
 * with a STATE column for the IRQs.
 */
void print_delta(const struct kstat_delta *d);

#endif /* KSTAT_CLI_DELTA_H */
