// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of kstat compare's arithmetic (cli/cmpstat.c): means and
 * sample standard deviations per side, the %change of the means with its
 * sign, a counter a run lacks counting 0, a counter of one side only,
 * the threshold, the order by significance, and the counters' names
 * (LKP's, the IRQ's number left out) taken from a delta.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/compare.h"
#include "unit.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

static const struct cmp_row *row(const struct cmp_row *r, long n,
				 const char *name)
{
	long i;

	for (i = 0; i < n; i++)
		if (!strcmp(r[i].name, name))
			return &r[i];
	return NULL;
}

/* 1000 vs 3000 interrupts, three runs a side, a noisy and a flat counter */
static void test_stats(void)
{
	static const double a[] = { 1000, 1010, 990 }, b[] = { 3000, 3030, 2970 };
	struct cmp_set s = { 0 };
	struct cmp_row *r;
	const struct cmp_row *x;
	long n;
	int i;

	for (i = 0; i < 3; i++) {
		cmp_run_begin(&s, CMP_A);
		cmp_add(&s, CMP_A, "interrupts.fired", a[i]);
		cmp_add(&s, CMP_A, "softirqs.TIMER", 100 + i);
		if (i != 1)	/* run 1 did not list it: 0 */
			cmp_add(&s, CMP_A, "softirqs.RCU", 30);
		cmp_add(&s, CMP_A, "interrupts.gone_dev", 5);
		cmp_run_begin(&s, CMP_B);
		cmp_add(&s, CMP_B, "interrupts.fired", b[i]);
		cmp_add(&s, CMP_B, "softirqs.TIMER", 100 + i);
		cmp_add(&s, CMP_B, "softirqs.RCU", 20);
		cmp_add(&s, CMP_B, "interrupts.new_dev", 7);
	}
	n = cmp_rows(&s, 0, &r);
	CHECK(n == 5, "5 counters (%ld)", n);
	x = row(r, n, "interrupts.fired");
	CHECK(x && near(x->mean[CMP_A], 1000) && near(x->mean[CMP_B], 3000),
	      "means 1000 and 3000");
	CHECK(x && near(x->change_pct, 200), "+200%% (%f)", x ? x->change_pct : 0);
	CHECK(x && near(x->stddev_pct[CMP_A], 1) && near(x->stddev_pct[CMP_B], 1),
	      "±1%% each (sample stddev 10 of 1000, 30 of 3000)");
	/* pooled: sqrt((2*100 + 2*900) / 4) = sqrt(500) */
	CHECK(x && near(x->significance, 2000 / sqrt(500)), "significance");
	x = row(r, n, "softirqs.TIMER");
	CHECK(x && near(x->change_pct, 0) && x->significance == 0,
	      "identical sides: 0%%, not significant");
	x = row(r, n, "softirqs.RCU");
	CHECK(x && near(x->mean[CMP_A], 20) && near(x->change_pct, 0),
	      "a run without the counter counts 0: mean 20 on both sides");
	x = row(r, n, "interrupts.new_dev");
	CHECK(x && !x->present[CMP_A] && x->present[CMP_B] && isnan(x->change_pct),
	      "B only: no %%change");
	x = row(r, n, "interrupts.gone_dev");
	CHECK(x && x->present[CMP_A] && !x->present[CMP_B] &&
	      near(x->change_pct, -100), "A only: -100%%, the right sign");
	CHECK(isinf(r[0].significance) && isinf(r[1].significance) &&
	      !strcmp(r[2].name, "interrupts.fired") &&
	      r[4].significance == 0,
	      "sorted: changes without spread, then by significance");
	free(r);

	n = cmp_rows(&s, 10000, &r);
	CHECK(n == 0, "threshold 10000 hides a change of 2000 (%ld)", n);
	free(r);
	n = cmp_rows(&s, 2000, &r);
	CHECK(n == 1 && !strcmp(r[0].name, "interrupts.fired"),
	      "threshold 2000 keeps a change of 2000");
	free(r);
	cmp_set_free(&s);
}

/* names from a delta: LKP's, without the IRQ number, per CPU */
static void test_names(void)
{
	static const char *const acts[] = { "eth0", "eth0-rx" };
	const struct kstat_cpu_count pc[] = { { 3, 12 } };
	struct kstat_delta d = { .nr_cpus = 4, .percpu = true };
	struct delta_irq irqs[2] = {
		{ .q = { .irq = 25, .count = 12, .chip = "PCI-MSI", .has_hwirq = 1,
			 .hwirq = 524288, .name = "edge", .actions = acts,
			 .nr_actions = 2, .percpu = pc, .nr_percpu = 1 } },
		{ .q = { .irq = 26, .chip = "dummy" }, .state = DELTA_GONE },
	};
	struct kstat_arch arch = { .name = "LOC", .desc = "Local timer interrupts",
				   .count = 5 };
	struct kstat_softirq sirq = { .name = "TIMER", .count = 9 };
	struct cmp_set s = { 0 };
	struct cmp_row *r;
	long n;

	d.irqs = irqs;
	d.nr_irqs = 2;
	d.arch = &arch;
	d.nr_arch = 1;
	d.softirqs = &sirq;
	d.nr_softirqs = 1;
	d.has_total = true;
	d.total = (struct kstat_cputime){ .cpu = -1, .ns = { 77 } };
	cmp_run_begin(&s, CMP_A);
	cmp_add_delta(&s, CMP_A, &d);
	cmp_run_begin(&s, CMP_B);
	n = cmp_rows(&s, 0, &r);
	CHECK(n == 5, "5 counters, none for the gone IRQ (%ld)", n);
	CHECK(row(r, n, "interrupts.PCI-MSI_524288-edge_eth0_eth0-rx") &&
	      row(r, n, "interrupts.CPU3.PCI-MSI_524288-edge_eth0_eth0-rx"),
	      "IRQ total and per CPU, by identity");
	CHECK(row(r, n, "interrupts.LOC:Local_timer_interrupts"), "arch row");
	CHECK(row(r, n, "softirqs.TIMER"), "softirq");
	CHECK(row(r, n, "cputime.user") && near(row(r, n, "cputime.user")->mean[CMP_A], 77),
	      "CPU time");
	free(r);
	cmp_set_free(&s);
}

int main(void)
{
	test_stats();
	test_names();
	return unit_exit();
}
