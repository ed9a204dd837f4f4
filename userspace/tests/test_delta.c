// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the delta of two samples (cli/delta.c), with samples
 * built by hand: an IRQ that stayed ("same") subtracts, one that came is
 * "new" with all its count, one that went is "gone" with no count, a
 * number given to another device between the samples is one gone and
 * one new row (never a negative or a jump), a count that went back (a
 * reload of the same device) likewise, per-CPU 32-bit counters subtract
 * across their wrap, CPU times per CPU and in total, softirqs and arch
 * rows subtract, unchanged rows are left out and the rest ordered
 * largest first.  Then the JSON printer's keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/delta.h"
#include "../cli/print.h"
#include "unit.h"

static const char *const eth0[] = { "eth0" }, *const sim1[] = { "sim-1" },
		  *const sim2[] = { "sim-2" }, *const disk[] = { "ahci" };

#define IRQ(n, c, chip_, hw, act) { .irq = (n), .count = (c), .chip = (chip_), \
	.has_hwirq = 1, .hwirq = (hw), .actions = (act), .nr_actions = 1,     \
	.has_meta = 1 }

/* A sample of @n IRQs; with @percpu, their per-CPU lists are all. */
static struct kstat_sample sample(struct kstat_irq *irqs, size_t n,
				  bool percpu)
{
	return (struct kstat_sample){
		.size = sizeof(struct kstat_sample), .sections = KSTAT_SECTION_IRQ,
		.irqs = irqs, .nr_irqs = n, .irq_size = sizeof(struct kstat_irq),
		.flags = (percpu ? KSTAT_F_PERCPU : 0) | KSTAT_F_META,
	};
}

static const struct delta_irq *find(const struct kstat_delta *d, uint32_t irq,
				    enum delta_state st)
{
	size_t i;

	for (i = 0; i < d->nr_irqs; i++)
		if (d->irqs[i].q.irq == irq && d->irqs[i].state == st)
			return &d->irqs[i];
	return NULL;
}

/* same, new, gone, unchanged, and the order */
static void test_states(void)
{
	struct kstat_irq b[] = {
		IRQ(10, 100, "PCI-MSI", 1, eth0),
		IRQ(11, 5, "dummy", 1, sim1),	/* goes */
		IRQ(12, 7, "dummy", 2, sim2),	/* unchanged */
	};
	struct kstat_irq a[] = {
		IRQ(10, 150, "PCI-MSI", 1, eth0),
		IRQ(12, 7, "dummy", 2, sim2),
		IRQ(13, 900, "ahci", 9, disk),	/* comes */
	};
	struct kstat_sample sb = sample(b, 3, false), sa = sample(a, 3, false);
	struct kstat_delta d;
	const struct delta_irq *r;

	CHECK(!delta_compute(&d, &sb, &sa, 4), "delta of 3 IRQs");
	CHECK(d.nr_irqs == 3, "3 rows, the unchanged IRQ left out (%zu)", d.nr_irqs);
	r = find(&d, 10, DELTA_SAME);
	CHECK(r && r->q.count == 50, "same IRQ: 150 - 100 = 50");
	r = find(&d, 13, DELTA_NEW);
	CHECK(r && r->q.count == 900, "new IRQ: all of its count");
	r = find(&d, 11, DELTA_GONE);
	CHECK(r && r->q.count == 0 && !r->q.percpu, "gone IRQ: no count");
	CHECK(d.nr_irqs == 3 && d.irqs[0].q.irq == 13 && d.irqs[1].q.irq == 10 &&
	      d.irqs[2].q.irq == 11, "largest first, gone last");
	CHECK(!find(&d, 12, DELTA_SAME), "no row for the unchanged IRQ");
	delta_free(&d);
}

/* a number freed and given to another device; a restarted count */
static void test_reused(void)
{
	struct kstat_irq b[] = {
		IRQ(20, 5000, "dummy", 3, sim1),
		IRQ(21, 700, "dummy", 4, sim2),
	};
	struct kstat_irq a[] = {
		IRQ(20, 12, "PCI-MSI", 3, eth0),	/* another device */
		IRQ(21, 3, "dummy", 4, sim2),		/* same identity, reloaded */
	};
	struct kstat_sample sb = sample(b, 2, false), sa = sample(a, 2, false);
	struct kstat_delta d;
	const struct delta_irq *g, *n;
	size_t i;

	CHECK(!delta_compute(&d, &sb, &sa, 4), "delta of reused numbers");
	CHECK(d.nr_irqs == 4, "two rows per number (%zu)", d.nr_irqs);
	g = find(&d, 20, DELTA_GONE);
	n = find(&d, 20, DELTA_NEW);
	CHECK(g && n && n->q.count == 12 && !strcmp(n->q.chip, "PCI-MSI") &&
	      !strcmp(g->q.chip, "dummy"),
	      "another device on IRQ 20: gone (dummy) and new (PCI-MSI, 12)");
	CHECK(find(&d, 21, DELTA_GONE) && find(&d, 21, DELTA_NEW) &&
	      find(&d, 21, DELTA_NEW)->q.count == 3,
	      "a count that went back: gone and new (3), not a jump");
	CHECK(!find(&d, 20, DELTA_SAME) && !find(&d, 21, DELTA_SAME),
	      "no same row for either");
	for (i = 0; i < d.nr_irqs; i++)
		CHECK(d.irqs[i].q.count < 1ULL << 63, "row %zu not negative", i);
	delta_free(&d);
}

/*
 * The same identity, freed and allocated again, its total grown past the
 * old one: the per-CPU counts do not add up to the total's change.
 */
static void test_restarted(void)
{
	const struct kstat_cpu_count pb[] = { { 0, 50 } }, pa[] = { { 1, 60 } };
	struct kstat_irq b[] = { IRQ(40, 50, "dummy", 6, sim1) };
	struct kstat_irq a[] = { IRQ(40, 60, "dummy", 6, sim1) };
	struct kstat_sample sb, sa;
	struct kstat_delta d;

	b[0].percpu = pb;
	b[0].nr_percpu = 1;
	a[0].percpu = pa;
	a[0].nr_percpu = 1;
	sb = sample(b, 1, true);
	sa = sample(a, 1, true);
	CHECK(!delta_compute(&d, &sb, &sa, 2), "delta of a restarted IRQ");
	CHECK(d.nr_irqs == 2 && find(&d, 40, DELTA_GONE) &&
	      find(&d, 40, DELTA_NEW) && find(&d, 40, DELTA_NEW)->q.count == 60,
	      "restarted with a higher total: gone and new (60), not 10");
	delta_free(&d);
}

/* per-CPU 32-bit counters wrap: subtract modulo 2^32 */
static void test_wrap(void)
{
	const struct kstat_cpu_count pb[] = { { 0, 4294967290u }, { 2, 10 } };
	const struct kstat_cpu_count pa[] = { { 0, 5 }, { 1, 4 }, { 2, 10 } };
	struct kstat_irq b[] = { IRQ(30, 4294967300ull, "dummy", 5, sim1) };
	struct kstat_irq a[] = { IRQ(30, 4294967315ull, "dummy", 5, sim1) };
	struct kstat_sample sb, sa;
	struct kstat_delta d;
	const struct delta_irq *r;

	b[0].percpu = pb;
	b[0].nr_percpu = 2;
	a[0].percpu = pa;
	a[0].nr_percpu = 3;
	sb = sample(b, 1, true);
	sa = sample(a, 1, true);
	CHECK(!delta_compute(&d, &sb, &sa, 4), "delta across a wrap");
	r = find(&d, 30, DELTA_SAME);
	CHECK(r && r->q.count == 15, "64-bit total: 15");
	CHECK(r && r->q.nr_percpu == 2 && r->q.percpu[0].cpu == 0 &&
	      r->q.percpu[0].count == 11 && r->q.percpu[1].cpu == 1 &&
	      r->q.percpu[1].count == 4,
	      "CPU 0 wrapped: 11; CPU 1 came: 4; CPU 2 unchanged: left out");
	CHECK(d.percpu && d.nr_cpus == 4, "per-CPU over 4 CPU ids");
	delta_free(&d);
}

/* CPU times per CPU and total; softirqs; arch rows */
static void test_other_sections(void)
{
	struct kstat_cputime cb[] = {
		{ .cpu = 0, .ns = { 100, 0, 50, 1000 } },
		{ .cpu = 1, .ns = { 200, 0, 60, 2000 } },
	}, ca[] = {
		{ .cpu = 0, .ns = { 100, 0, 50, 1000 } },	/* unchanged */
		{ .cpu = 1, .ns = { 260, 0, 90, 1990 } },	/* idle back */
	}, tb = { .cpu = -1, .ns = { 300, 0, 110, 3000 } },
	   ta = { .cpu = -1, .ns = { 360, 0, 140, 2990 } };
	const struct kstat_cpu_count vb1[] = { { 1, 4294967295u } },
				     va1[] = { { 1, 1 } };
	struct kstat_softirq vb[] = {
		{ .vec = 1, .name = "TIMER", .count = 10, .percpu = vb1, .nr_percpu = 1 },
		{ .vec = 3, .name = "NET_RX", .count = 7 },
	}, va[] = {
		{ .vec = 1, .name = "TIMER", .count = 12, .percpu = va1, .nr_percpu = 1 },
		{ .vec = 3, .name = "NET_RX", .count = 107 },
	};
	struct kstat_arch ab[] = { { .name = "LOC", .desc = "Local timer interrupts", .count = 5 },
				   { .name = "ERR", .count = 1 } },
			  aa[] = { { .name = "LOC", .desc = "Local timer interrupts", .count = 25 },
				   { .name = "ERR", .count = 1 } };
	struct kstat_sample sb = {
		.size = sizeof(sb), .timestamp_ns = 1000,
		.sections = KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ,
		.cpus = cb, .nr_cpus = 2, .cputime_size = sizeof(cb[0]), .cpu_total = &tb,
		.softirqs = vb, .nr_softirqs = 2, .softirq_size = sizeof(vb[0]),
		.arch = ab, .nr_arch = 2, .arch_size = sizeof(ab[0]),
		.flags = KSTAT_F_PERCPU,
	}, sa = sb;
	struct kstat_delta d;

	sa.timestamp_ns = 5000;
	sa.cpus = ca;
	sa.cpu_total = &ta;
	sa.softirqs = va;
	sa.arch = aa;
	CHECK(!delta_compute(&d, &sb, &sa, 2), "delta of cpu, softirq, arch");
	CHECK(d.start_ns == 1000 && d.end_ns == 5000, "timestamps");
	CHECK(d.nr_cpu_rows == 1 && d.cpus[0].cpu == 1 && d.cpus[0].ns[0] == 60 &&
	      d.cpus[0].ns[2] == 30 && d.cpus[0].ns[3] == 0,
	      "CPU 1 only: user 60, system 30, idle that went back 0");
	CHECK(d.has_total && d.total.ns[0] == 60 && d.total.ns[2] == 30,
	      "total CPU time");
	CHECK(d.nr_softirqs == 2 && !strcmp(d.softirqs[0].name, "NET_RX") &&
	      d.softirqs[0].count == 100 && d.softirqs[1].count == 2,
	      "softirqs subtract, largest first");
	CHECK(d.softirqs[1].nr_percpu == 1 && d.softirqs[1].percpu[0].count == 2,
	      "softirq per-CPU across a wrap: 2");
	CHECK(d.nr_arch == 1 && !strcmp(d.arch[0].name, "LOC") &&
	      d.arch[0].count == 20, "arch: LOC 20, unchanged ERR left out");
	delta_free(&d);
}

/* the JSON object's keys, as kstat -j run prints them */
static void test_json(void)
{
	struct kstat_irq b[] = { IRQ(11, 5, "dummy", 1, sim1) };
	struct kstat_irq a[] = { IRQ(13, 9, "dummy", 2, sim2) };
	struct kstat_sample sb = sample(b, 1, true), sa = sample(a, 1, true);
	struct kstat_delta d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len), *old;

	if (!f || delta_compute(&d, &sb, &sa, 2))
		exit(1);
	old = json_print_output(f);
	new_json_obj(true, false);
	open_json_object(NULL);
	print_delta(&d);
	close_json_object();
	delete_json_obj();
	json_print_output(old);
	fclose(f);
	CHECK(strstr(buf, "\"irq\":[{\"irq\":13,\"count\":9,\"percpu\":[0,0],"
			  "\"state\":\"new\",\"chip\":\"dummy\",\"hwirq\":2,"
			  "\"type\":\"edge\",\"actions\":[\"sim-2\"]}") != NULL,
	      "new row in JSON: %s", buf);
	CHECK(strstr(buf, "{\"irq\":11,\"count\":null,\"percpu\":null,"
			  "\"state\":\"gone\"") != NULL,
	      "gone row in JSON: count and percpu null");
	CHECK(strstr(buf, "\"arch\":[]") != NULL, "arch array present, empty");
	free(buf);
	delta_free(&d);
}

int main(void)
{
	test_states();
	test_reused();
	test_wrap();
	test_restarted();
	test_other_sections();
	test_json();
	return unit_exit();
}
