/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sample kept past its callback: the one model of the counters that
 * export (the sample it serves), watch and top (the start and end of an
 * interval) hold on to.  Its struct kstat_sample reads as the library's
 * (the kstat_sample_*() macros step by the sizes it carries), over arrays
 * of the CLI's own element structs, reused from one sample to the next:
 * CPU times (the total last, past nr_cpus), IRQ, softirq and arch counts
 * with their per-CPU lists (watch's per-CPU rates, node_exporter's per-CPU
 * families), softirq and arch names, the intr sum, arch_unread and the
 * online bitmap; no IRQ descriptions.
 */
#ifndef KSTAT_CLI_SAMPLE_H
#define KSTAT_CLI_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

struct sample_copy {
	bool valid;
	struct kstat_sample s;		/* over the arrays below */
	struct kstat_cputime *cpus;	/* s.nr_cpus rows, then the total */
	struct kstat_irq *irqs;
	struct kstat_softirq *softirqs;
	struct kstat_arch *arch;
	struct kstat_cpu_count *percpu;	/* every per-CPU list, one block */
	char *strings;			/* every name, one block */
	uint8_t *online;
	size_t cap_cpus, cap_irqs, cap_softirqs, cap_arch, cap_percpu,
	       cap_strings, cap_online;
};

/* Make @d a copy of @s: 0, or -1 when out of memory (then not valid). */
int sample_copy(struct sample_copy *d, const struct kstat_sample *s);
void sample_copy_free(struct sample_copy *d);

/* Lookups in a sample: NULL if absent.  CPU -1 is the total. */
const struct kstat_cputime *sample_cpu(const struct kstat_sample *s, int cpu);
const struct kstat_softirq *sample_softirq(const struct kstat_sample *s,
					   uint32_t vec);

#endif /* KSTAT_CLI_SAMPLE_H */
