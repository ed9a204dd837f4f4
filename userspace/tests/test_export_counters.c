// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the exporter's counter guard (cli/export-counters.c):
 * samples are fed as the subscription delivers them, and what would be
 * exported must never decrease while the module stays loaded.  A CPU time
 * that falls a few ms (the kernel's idle accounting) keeps its last value
 * until the kernel's passes it; one that falls more than 3 s, an IRQ
 * whose descriptor was replaced, a softirq, arch or intr count that fell,
 * carry on from their last value; a per-CPU 32-bit count's wrap is
 * carried (the sparse per-CPU list leaves a CPU at 0 out: that is 0, not
 * a wrap, for a restarted IRQ); a section the sample does not carry is
 * not a fall; after guard_reset() (the module reloaded) the kernel's
 * values are exported as they are.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "../cli/export-counters.h"
#include "unit.h"

#define S(x)	((uint64_t)((x) * 1e9 + 0.5))	/* seconds to ns */

/* One CPU (cpu 0) and the total, one IRQ with 2 CPUs, one vector, one arch row. */
struct fake {
	struct sample_copy d;
	struct kstat_cputime cpus[2];
	struct kstat_irq irqs[2];
	struct kstat_cpu_count percpu[2][2];
	struct kstat_softirq soft[1];
	struct kstat_arch arch[1];
};

/* Point @f's copy at its arrays (after a struct copy of @f too). */
static void fake_point(struct fake *f)
{
	f->d.cpus = f->cpus;
	f->d.irqs = f->irqs;
	f->d.softirqs = f->soft;
	f->d.arch = f->arch;
	f->d.s.cpus = f->cpus;
	f->d.s.cpu_total = &f->cpus[1];
	f->d.s.irqs = f->irqs;
	f->d.s.softirqs = f->soft;
	f->d.s.arch = f->arch;
	f->irqs[0].percpu = f->percpu[0];
	f->irqs[1].percpu = f->percpu[1];
}

static void fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->d.valid = true;
	f->d.s.sections = KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			  KSTAT_SECTION_SOFTIRQ;
	f->d.s.nr_cpus = 1;
	f->cpus[0] = (struct kstat_cputime){ .cpu = 0 };
	f->cpus[1] = (struct kstat_cputime){ .cpu = -1 };
	f->d.s.nr_irqs = 1;
	f->irqs[0] = (struct kstat_irq){ .irq = 24 };
	f->irqs[1] = (struct kstat_irq){ .irq = 30 };
	f->d.s.nr_softirqs = 1;
	f->soft[0] = (struct kstat_softirq){ .vec = 3, .name = "NET_RX" };
	f->d.s.nr_arch = 1;
	f->arch[0] = (struct kstat_arch){ .name = "LOC", .desc = "Local timer interrupts" };
	fake_point(f);
}

/* Feed idle @raw_s (seconds) on CPU 0; the exported idle in ns. */
static uint64_t feed_idle(struct counter_guard *g, struct fake *f, double raw_s)
{
	struct fake copy = *f;

	fake_point(&copy);
	copy.cpus[0].ns[KSTAT_CPUTIME_IDLE] = S(raw_s);
	if (guard_apply(g, &copy.d))
		return 0;
	return copy.cpus[0].ns[KSTAT_CPUTIME_IDLE];
}

/*
 * Feed IRQ 24's counts, its per-CPU ones as the kernel sends them (the
 * CPUs with a count); the exported total and per-CPU counts.
 */
static uint64_t feed_irq(struct counter_guard *g, struct fake *f, uint64_t total,
			 uint32_t c0, uint32_t c1, uint64_t *pc0, uint64_t *pc1)
{
	struct guard_percpu pc;
	uint32_t n = 0;

	f->irqs[0].count = total;
	if (c0)
		f->percpu[0][n++] = (struct kstat_cpu_count){ 0, c0 };
	if (c1)
		f->percpu[0][n++] = (struct kstat_cpu_count){ 1, c1 };
	f->irqs[0].nr_percpu = n;
	f->irqs[0].percpu = n ? f->percpu[0] : NULL;	/* as libkstat */
	if (guard_apply(g, &f->d))
		return 0;
	pc = guard_percpu(g, 0);
	*pc0 = pc.v && pc.nr == 2 ? pc.v[0] : 0;
	*pc1 = pc.v && pc.nr == 2 ? pc.v[1] : 0;
	return f->irqs[0].count;
}

static void test_idle_held(void)
{
	static const double raw[] = { 100.0, 99.997, 99.999, 100.002, 100.5 };
	static const double want[] = { 100.0, 100.0, 100.0, 100.002, 100.5 };
	struct counter_guard g = { 0 };
	struct fake f;
	uint64_t v;
	size_t i;

	fake_init(&f);
	for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
		v = feed_idle(&g, &f, raw[i]);
		CHECK(v == S(want[i]), "idle %.3f s exported as %.9f (want %.3f)",
		      raw[i], v / 1e9, want[i]);
	}
	CHECK(g.held == 2 && g.carried == 0, "2 idle falls held (%llu), none carried (%llu)",
	      (unsigned long long)g.held, (unsigned long long)g.carried);
	guard_free(&g);
}

/* Past the 3 s bound: the CPU's counters restarted; carry on from 100.5. */
static void test_idle_carried(void)
{
	struct counter_guard g = { 0 };
	struct fake f;
	uint64_t v;

	fake_init(&f);
	feed_idle(&g, &f, 100.5);
	v = feed_idle(&g, &f, 2.0);
	CHECK(v == S(100.5), "idle falling 98.5 s is exported as 100.5 (%.9f)", v / 1e9);
	CHECK(g.carried == 1 && g.first.step == MONO_CARRIED &&
	      !strcmp(g.first.what, "cpu") && !strcmp(g.first.mode, "idle") &&
	      g.first.id == 0, "the fall is reported: cpu 0 idle, carried");
	v = feed_idle(&g, &f, 3.25);
	CHECK(v == S(101.75), "then it grows with the kernel's: 101.75 (%.9f)", v / 1e9);
	v = feed_idle(&g, &f, 3.24);
	CHECK(v == S(101.75), "and a small fall after that is held (%.9f)", v / 1e9);
	guard_free(&g);
}

static void test_irq(void)
{
	struct counter_guard g = { .cpu_span = 2 };
	uint64_t t, p0, p1;
	struct fake f;

	fake_init(&f);
	t = feed_irq(&g, &f, 1000, 0xfffffff0u, 500, &p0, &p1);
	CHECK(t == 1000 && p0 == 0xfffffff0u && p1 == 500, "first IRQ sample as it is");
	t = feed_irq(&g, &f, 1032, 0x10, 500, &p0, &p1);
	CHECK(t == 1032 && p0 == 0x100000010ull && p1 == 500,
	      "a per-CPU wrap is carried: %#llx", (unsigned long long)p0);
	/* a new descriptor under the same number: everything restarts */
	t = feed_irq(&g, &f, 10, 7, 0, &p0, &p1);
	CHECK(t == 1032 && p0 == 0x100000010ull && p1 == 500,
	      "a restarted IRQ keeps its values, CPU 1 unlisted (0) too: %llu %#llx %llu",
	      (unsigned long long)t, (unsigned long long)p0, (unsigned long long)p1);
	t = feed_irq(&g, &f, 15, 9, 3, &p0, &p1);
	CHECK(t == 1037 && p0 == 0x100000012ull && p1 == 503,
	      "then grows with the new counts: %llu %#llx %llu",
	      (unsigned long long)t, (unsigned long long)p0, (unsigned long long)p1);
	/* it goes away and comes back lower: still no fall */
	f.d.s.nr_irqs = 0;
	guard_apply(&g, &f.d);
	f.d.s.nr_irqs = 2;
	f.irqs[1].count = 5;
	t = feed_irq(&g, &f, 3, 1, 1, &p0, &p1);
	CHECK(t == 1037 && f.irqs[1].count == 5,
	      "an IRQ that vanished and came back lower keeps its value (%llu), a new IRQ starts as it is",
	      (unsigned long long)t);
	/* libkstat gives a per-CPU list of no count as NULL: all 0 */
	f.irqs[1].percpu = NULL;
	guard_apply(&g, &f.d);
	CHECK(guard_percpu(&g, 1).v && guard_percpu(&g, 1).nr == 2 &&
	      !guard_percpu(&g, 1).v[0] && !guard_percpu(&g, 1).v[1],
	      "an IRQ whose per-CPU list is NULL has its per-CPU series, at 0");
	guard_free(&g);
}

static void test_other_counts(void)
{
	struct counter_guard g = { 0 };
	struct fake f;

	fake_init(&f);
	f.soft[0].count = 500;
	f.arch[0].count = 700;
	f.d.s.intr_sum = 900;
	guard_apply(&g, &f.d);
	f.soft[0].count = 400;
	f.arch[0].count = 600;
	f.d.s.intr_sum = 800;
	guard_apply(&g, &f.d);
	CHECK(f.soft[0].count == 500 && f.arch[0].count == 700 && f.d.s.intr_sum == 900,
	      "softirq, arch and intr counts that fell keep their values");
	/* a sample without the IRQ section: its zeros are no fall */
	f.d.s.sections = KSTAT_SECTION_CPU | KSTAT_SECTION_SOFTIRQ;
	f.d.s.intr_sum = 0;
	f.arch[0].count = 0;
	guard_apply(&g, &f.d);
	f.d.s.sections |= KSTAT_SECTION_IRQ;
	f.d.s.intr_sum = 850;
	f.arch[0].count = 650;
	guard_apply(&g, &f.d);
	CHECK(f.d.s.intr_sum == 950 && f.arch[0].count == 750,
	      "a section off and on again: no fall counted (intr %llu, arch %llu)",
	      (unsigned long long)f.d.s.intr_sum, (unsigned long long)f.arch[0].count);
	guard_reset(&g);
	f.d.s.intr_sum = 3;
	guard_apply(&g, &f.d);
	CHECK(f.d.s.intr_sum == 3, "after guard_reset (module reloaded) the kernel's values");
	guard_free(&g);
}

/*
 * What Prometheus sees: over 2000 samples of an idle counter that grows by
 * 1 s less a busy share and falls back by up to 10 ms now and then, the
 * exported series never decreases, so rate() never sees a reset, and its
 * increase over the run is the kernel's (within the last hold).
 */
static void test_prometheus_view(void)
{
	struct counter_guard g = { 0 };
	uint64_t v, prev = 0, resets = 0;
	double raw = 1000.0, hi = 0;
	struct fake f;
	int i;

	fake_init(&f);
	srand(1);
	for (i = 0; i < 2000; i++) {
		if (rand() % 10 == 0)
			raw -= (rand() % 10 + 1) / 1000.0;	/* 1-10 ms back */
		else
			raw += 0.9 + (rand() % 100) / 1000.0;
		if (raw > hi)
			hi = raw;
		v = feed_idle(&g, &f, raw);
		if (i && v < prev)
			resets++;
		prev = v;
	}
	CHECK(resets == 0, "exported idle never decreased over 2000 samples (%llu falls)",
	      (unsigned long long)resets);
	CHECK(prev >= S(raw) && prev <= S(hi), "its last value %.3f lies between the kernel's %.3f and its highest %.3f",
	      prev / 1e9, raw, hi);
	CHECK(g.held > 0 && g.carried == 0, "falls held: %llu", (unsigned long long)g.held);
	guard_free(&g);
}

int main(void)
{
	test_idle_held();
	test_idle_carried();
	test_irq();
	test_other_counts();
	test_prometheus_view();
	return unit_exit();
}
