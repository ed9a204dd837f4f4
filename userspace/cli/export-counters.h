/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's counters never go back while the module stays loaded.
 *
 * Prometheus takes any decrease of a counter as a reset: rate() then adds
 * the whole new value, so a CPU's idle time that reads a few ms lower than
 * the sample before (the kernel's idle accounting does that, see
 * docs/robustness.md) makes every dashboard's CPU-busy panel spike.  As
 * node_exporter's cpu collector does (collector/cpu_linux.go,
 * jumpBackSeconds), a CPU time that falls by less than a bound keeps its
 * last exported value until the kernel's passes it again.  Everything else
 * that falls is a counter that restarted under the same labels (a CPU
 * plugged back in, an IRQ descriptor freed and allocated again under the
 * same number, see the UAPI header): the exported series carries on from
 * its last value and grows by the new counter's growth.  A per-CPU IRQ
 * count, the kernel's 32-bit counter, is extended to 64 bits.
 *
 * The guard rewrites a sample copy in place (and keeps the per-CPU IRQ
 * counts beside it, for every CPU id below nr_cpus): what the exporter
 * renders is what Prometheus may see.  Forget everything when the module
 * goes away: its counters restart.
 */
#ifndef KSTAT_CLI_EXPORT_COUNTERS_H
#define KSTAT_CLI_EXPORT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

#include "sample.h"

/* A CPU time may fall this much and be held (node_exporter: 3 s). */
#define GUARD_HOLD_NS	(3 * (uint64_t)1000000000)

/* One exported counter. */
struct mono {
	uint64_t shown;		/* last exported value */
	uint64_t offset;	/* added to the kernel's value */
	bool seen;
};

enum mono_step {
	MONO_FIRST,		/* first value: exported as it is */
	MONO_UP,		/* not below the last one */
	MONO_HELD,		/* fell within the bound: last value kept */
	MONO_CARRIED,		/* fell further: restarted, carried on */
};

/* The value to export for the kernel's @raw; @hold: the bound, 0 none. */
uint64_t mono_next(struct mono *m, uint64_t raw, uint64_t hold,
		   enum mono_step *step);

/* What the last guard_apply() saw, for the log and the health metrics. */
struct guard_event {
	enum mono_step step;	/* MONO_HELD or MONO_CARRIED */
	const char *what;	/* "cpu", "irq", "irq_cpu", "softirq", "arch", "intr" */
	const char *mode;	/* the CPU time's mode, the arch row's name */
	long long id;		/* CPU, IRQ or vector number; -1: none */
	uint64_t shown, raw;	/* exported before, the kernel's now */
	uint64_t fall;		/* below the exported value by this much */
};

struct guard_irq;

/* One IRQ's per-CPU counts, 64-bit, for CPU ids 0 to nr - 1. */
struct guard_percpu {
	const uint64_t *v;
	uint32_t nr;
};

struct counter_guard {
	uint32_t cpu_span;		/* the caller's: per-CPU IRQ counts
					 * for CPU ids 0 to cpu_span - 1, of
					 * samples that carry them; 0: none */
	struct mono (*cpus)[KSTAT_CPUTIME_NR];	/* by CPU number */
	size_t nr_cpus;
	struct guard_irq *irqs;		/* every IRQ number seen, sorted */
	size_t nr_irqs, cap_irqs;
	struct guard_percpu *percpu;	/* per sample IRQ */
	size_t cap_percpu;
	struct mono *softirqs;		/* by vector */
	size_t nr_softirqs;
	struct mono *arch;		/* by row, named in arch_names */
	char **arch_names;
	size_t nr_arch;
	struct mono intr;

	uint64_t held, carried;		/* events, since the start */
	struct guard_event first;	/* the first event of the last apply */
	unsigned int events;		/* events in the last apply */
	bool oom;
};

/*
 * Rewrite @d's counters (each CPU's times, IRQ, softirq and arch counts,
 * the intr total) to what may be exported, in the sections it carries.
 * 0, or -1 when out of memory (then the sample may be partly guarded: do
 * not export it).
 */
int guard_apply(struct counter_guard *g, struct sample_copy *d);

/*
 * The @i-th IRQ of the sample last applied: its per-CPU counts extended to
 * 64 bits (v NULL without per-CPU counts).
 */
struct guard_percpu guard_percpu(const struct counter_guard *g, size_t i);

/* The module went away: its counters restart, so does the guard. */
void guard_reset(struct counter_guard *g);
void guard_free(struct counter_guard *g);

#endif /* KSTAT_CLI_EXPORT_COUNTERS_H */
