/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A summary sample kept past its callback: the one model of the counters
 * that export (the sample it serves), watch and top (the start and end of
 * an interval) hold on to.  It is the library's struct kstat_sample, deep
 * copied into arrays that are reused from one sample to the next.
 */
#ifndef KSTAT_CLI_SAMPLE_H
#define KSTAT_CLI_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

struct sample_copy {
	bool valid;
	/*
	 * cpus (the total included), irqs with their per-CPU counts,
	 * softirqs and arch rows with their names (arch rows without
	 * per-CPU counts); no irqs_changed.
	 */
	struct kstat_sample s;
	size_t cap_cpus, cap_irqs, cap_softirqs, cap_arch, cap_percpu;
	uint32_t *percpu;	/* every IRQ's per-CPU counts, one block */
};

/* Make @d a copy of @s: 0, or -1 when out of memory (then not valid). */
int sample_copy(struct sample_copy *d, const struct kstat_sample *s);
void sample_copy_free(struct sample_copy *d);

/* Lookups in a sample (IRQs are in IRQ order): NULL if absent. */
const struct kstat_irq *sample_irq(const struct kstat_sample *s, uint32_t irq);
const struct kstat_cputime *sample_cpu(const struct kstat_sample *s, int cpu);
const struct kstat_softirq *sample_softirq(const struct kstat_sample *s,
					   uint32_t vec);

#endif /* KSTAT_CLI_SAMPLE_H */
