/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstat compare's arithmetic, apart from its input files so that a host
 * unit test can feed it runs by hand.
 *
 * Each side (A, B) is a list of runs; each run a list of counters (name,
 * value).  A run lists what changed (kstat run leaves out rows that did
 * not), so a counter a run does not list is 0 in that run.  Per counter
 * and side: the mean over the side's runs and the sample standard
 * deviation as a % of the mean; then the change of B's mean against A's,
 * and its significance: the change in units of the pooled standard
 * deviation.  A counter no run of a side lists is "only" on the other.
 */
#ifndef KSTAT_CLI_COMPARE_H
#define KSTAT_CLI_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

#include "delta.h"

enum { CMP_A, CMP_B };

struct cmp_value {
	char *name;
	unsigned int side, run;		/* run: its index in its side */
	double value;
};

struct cmp_set {
	struct cmp_value *v;
	size_t nr, cap;
	unsigned int runs[2];		/* runs per side so far */
	int err;			/* -ENOMEM once out of memory */
};

/* One compared counter. */
struct cmp_row {
	const char *name;		/* points into the set */
	bool present[2];		/* listed by some run of the side */
	double mean[2], stddev_pct[2];
	double change;			/* mean B - mean A */
	double change_pct;		/* NAN when A's mean is 0 */
	double significance;		/* |change| / pooled stddev; INFINITY
					 * for a change without spread */
};

/* Start a new run of @side: later values go to it. */
void cmp_run_begin(struct cmp_set *s, unsigned int side);
/*
 * @value for counter @name in the current run of @side (added to what
 * the run has of it: two IRQs of one identity count as one).
 */
void cmp_add(struct cmp_set *s, unsigned int side, const char *name,
	     double value);
/*
 * The counters of a delta, as a sample (or the sample of a kstat -j run
 * output) into the current run of @side: names after LKP's, with the
 * IRQ's number left out (IRQs are matched by identity):
 *   interrupts.<chip>_<hwirq>-<type>_<actions>   (per-IRQ total)
 *   interrupts.CPU<n>.<chip>_<hwirq>-<type>_<actions>
 *   interrupts.LOC:Local_timer_interrupts, interrupts.CPU<n>.LOC:...
 *   softirqs.TIMER, softirqs.CPU<n>.TIMER
 *   cputime.user, cputime.CPU<n>.user (nanoseconds)
 * @gone[i] (or NULL: none) marks IRQ rows whose count is unknown.
 */
void cmp_add_sample(struct cmp_set *s, unsigned int side,
		    const struct kstat_sample *d, const bool *gone);
/* The same from a struct kstat_delta. */
void cmp_add_delta(struct cmp_set *s, unsigned int side,
		   const struct kstat_delta *d);

/*
 * The rows, sorted by significance, then |%change| (largest first),
 * then name; those whose |change| is below @threshold left out.  *@rows
 * is freed with free(); -ENOMEM or the number of rows.
 */
long cmp_rows(struct cmp_set *s, double threshold, struct cmp_row **rows);
void cmp_set_free(struct cmp_set *s);

/* The LKP-style description of an IRQ: "PCI-MSI_524288-edge_eth0". */
char *cmp_irq_desc(const struct kstat_irq *q);

#endif /* KSTAT_CLI_COMPARE_H */
