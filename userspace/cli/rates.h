/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rates from two samples, the baseline (counters at the start of
 * an interval) and the latest, and the printers of CPU shares, IRQ and softirq rates that
 * `kstat watch` and `kstat top` both use, in text and JSON.
 */
#ifndef KSTAT_CLI_RATES_H
#define KSTAT_CLI_RATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

#include "irqlabels.h"
#include "sample.h"
#include "utils.h"

/*
 * A rate runs from a baseline, a sample at the start of the current
 * interval (watch and top keep it in a struct sample_copy, sample.h), to
 * the latest sample.
 *
 * One rule for every section: an entry of the latest sample that the
 * baseline does not hold (a CPU that came online, an IRQ allocated, a
 * section the baseline did not carry), or whose count fell since (an IRQ
 * number whose descriptor was replaced: the generation changed, and the
 * count is the new descriptor's), has no rate over that interval, and
 * its row is left out.  Counting it from 0 would print its whole total
 * as one interval's rate.
 */

/*
 * Whether the sample at @now_ns ends a frame (watch's interval, top's
 * refresh) of @want_ns that started with the sample at @start_ns; @prev_ns
 * is the sample before this one.  Samples keep to the kernel's grid, but
 * one taken late shortens the gap to the next, so no fixed slack fits
 * every interval: the frame ends at the sample nearest to its wanted end,
 * the first one less than half a sample gap (now - prev) before it.  A
 * frame is never more than half a gap short or long, and a sample a
 * little late or early never costs a whole interval.
 */
bool frame_due(uint64_t start_ns, uint64_t prev_ns, uint64_t now_ns,
	       uint64_t want_ns);

/* A frame's length: watch's interval, top's delay (bare: milliseconds). */
extern const struct duration_spec frame_length;

/*
 * Percent of each CPU time field of @now since @b (the shares of the
 * time that passed), as mpstat has them: user and nice without the
 * guest time the kernel also counts in them (guest and guest_nice), so
 * that the ten add up to 100.  False when @b does not know the CPU (it
 * came online this interval).
 */
bool cpu_shares(const struct kstat_cputime *now, const struct kstat_sample *b,
		double pct[KSTAT_CPUTIME_NR]);
/* The column header of field @f: "%usr", "%nice", ... */
const char *cpu_share_header(int f);

/*
 * Percent of each CPU time field per CPU from @b to @s; one row per CPU
 * @s carries and the total ("all", JSON "cpu": null), or the total only.
 */
void print_cpu_rates(const struct kstat_sample *s, const struct kstat_sample *b,
		     bool total_only);

enum irq_sort { IRQ_SORT_RATE, IRQ_SORT_TOTAL, IRQ_SORT_IRQ, IRQ_SORT_NAME };

struct irq_rate {
	const struct kstat_irq *q;	/* in the sample: count */
	const struct kstat_irq *label;	/* chip, actions...; NULL: none */
	uint64_t delta;
};

/*
 * The IRQs of @s that have a rate since @b, with their increase, sorted by @by
 * (rate and total descending, number and action names ascending).
 * Returns how many, *out to free(); 0 with *out NULL if out of memory.
 */
size_t irq_rates(const struct kstat_sample *s, const struct kstat_sample *b,
		 const struct irq_labels *names, enum irq_sort by,
		 struct irq_rate **out);

/*
 * A header line, then rows @r[0] .. @r[max - 1] (JSON: array "irq"),
 * through the IRQ printer of kstat irq show.
 */
void print_irq_rates(const struct irq_rate *r, size_t nr, size_t max,
		     double secs);

/*
 * Runs per second of vector @v since @b, into *@rate: false when @b does
 * not know the vector (see above).
 */
bool softirq_rate(const struct kstat_softirq *v, const struct kstat_sample *b,
		  double secs, double *rate);
/*
 * A header line, then one row per vector with a rate (JSON: array
 * "softirq").
 */
void print_softirq_rates(const struct kstat_sample *s,
			 const struct kstat_sample *b, double secs);

/*
 * mpstat -I CPU (IRQs) and -I SCPU (vectors): a header, then one row per
 * online CPU of @s, one column per IRQ (by number) or vector with a rate
 * since @b, per second; each line starts with @lead (the time column; NULL:
 * none).  JSON: array "irq" or "softirq" of {irq or name, rate,
 * percpu_rate} (percpu_rate indexed by CPU id).
 */
void print_irq_percpu_rates(const struct kstat_sample *s,
			    const struct kstat_sample *b,
			    const struct irq_labels *names, double secs,
			    const char *lead);
void print_softirq_percpu_rates(const struct kstat_sample *s,
				const struct kstat_sample *b, double secs,
				const char *lead);

#endif /* KSTAT_CLI_RATES_H */
