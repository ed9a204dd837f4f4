// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's counters never go back: see export-counters.h.
 * Needs only libkstat (its types, kstat_cputime_name()) and utils.c, so
 * that the host unit test userspace/tests/test_export_counters links this
 * file alone.
 */
#include <stdlib.h>
#include <string.h>

#include "export-counters.h"
#include "utils.h"

struct guard_irq {
	uint32_t irq;
	struct mono total;
	size_t nr_percpu;
	uint64_t *pc_shown;	/* per CPU id: exported, 64-bit */
	uint32_t *pc_raw;	/* per CPU id: the kernel's 32-bit count then */
};

uint64_t mono_next(struct mono *m, uint64_t raw, uint64_t hold,
		   enum mono_step *step)
{
	uint64_t v = raw + m->offset;

	if (!m->seen) {
		*m = (struct mono){ .shown = raw, .seen = true };
		*step = MONO_FIRST;
	} else if (v >= m->shown) {
		m->shown = v;
		*step = MONO_UP;
	} else if (m->shown - v <= hold) {
		*step = MONO_HELD;	/* until the kernel's passes it */
	} else {
		/* restarted: from here on, shown = raw + offset grows with raw */
		m->offset += m->shown - v;
		*step = MONO_CARRIED;
	}
	return m->shown;
}

static void note(struct counter_guard *g, enum mono_step step,
		 const char *what, const char *mode, long long id,
		 uint64_t shown, uint64_t raw, uint64_t fall)
{
	if (step == MONO_HELD)
		g->held++;
	else if (step == MONO_CARRIED)
		g->carried++;
	else
		return;
	if (!g->events++)
		g->first = (struct guard_event){ step, what, mode, id, shown,
						 raw, fall };
}

/* One counter: @*v becomes what may be exported. */
static void guard_one(struct counter_guard *g, struct mono *m, uint64_t *v,
		      uint64_t hold, const char *what, const char *mode,
		      long long id)
{
	uint64_t before = m->shown, now = *v + m->offset;
	enum mono_step step;
	uint64_t raw = *v;

	*v = mono_next(m, raw, hold, &step);
	note(g, step, what, mode, id, before, raw, before - now);
}

static int guard_cpus(struct counter_guard *g, struct sample_copy *d)
{
	size_t i;
	int f;

	for (i = 0; i < d->s.nr_cpus; i++) {
		struct kstat_cputime *c = &d->cpus[i];

		if (!grow_array((void **)&g->cpus, &g->nr_cpus,
				(size_t)c->cpu + 1, sizeof(*g->cpus)))
			return -1;
		for (f = 0; f < KSTAT_CPUTIME_NR; f++)
			guard_one(g, &g->cpus[c->cpu][f], &c->ns[f], GUARD_HOLD_NS,
				  "cpu", kstat_cputime_name(f), c->cpu);
	}
	return 0;
}

/* The entry of IRQ @irq, inserted (sorted) if new; NULL if out of memory. */
static struct guard_irq *irq_entry(struct counter_guard *g, size_t *hint,
				   uint32_t irq)
{
	size_t lo = *hint, hi = g->nr_irqs, mid;

	/* the sample's IRQs are sorted too: the next one is usually next */
	if (lo < hi && g->irqs[lo].irq == irq)
		return &g->irqs[(*hint)++];
	lo = 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->irqs[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == g->nr_irqs || g->irqs[lo].irq != irq) {
		if (!grow_array((void **)&g->irqs, &g->cap_irqs, g->nr_irqs + 1,
			  sizeof(*g->irqs)))
			return NULL;
		memmove(&g->irqs[lo + 1], &g->irqs[lo],
			(g->nr_irqs - lo) * sizeof(*g->irqs));
		g->irqs[lo] = (struct guard_irq){ .irq = irq };
		g->nr_irqs++;
	}
	*hint = lo + 1;
	return &g->irqs[lo];
}

/*
 * The per-CPU counts, extended to 64 bits: each grows by the 32-bit
 * difference (a wrap is carried; a CPU the sparse list leaves out is 0).
 * After the IRQ's total restarted (a new descriptor) they carry on from
 * their last values instead.
 */
static int guard_percpu_counts(struct counter_guard *g, struct guard_irq *e,
			       const struct kstat_irq *q, bool restarted)
{
	size_t c, i = 0, n = g->cpu_span;
	uint64_t *shown;
	uint32_t *raws, raw;
	uint64_t d;

	if (q->nr_percpu && q->percpu[q->nr_percpu - 1].cpu >= n)
		n = (size_t)q->percpu[q->nr_percpu - 1].cpu + 1;
	if (n > e->nr_percpu) {		/* CPUs new to it: from 0 */
		shown = realloc(e->pc_shown, n * sizeof(*shown));
		if (shown)
			e->pc_shown = shown;
		raws = shown ? realloc(e->pc_raw, n * sizeof(*raws)) : NULL;
		if (!raws)
			return -1;
		e->pc_raw = raws;
		memset(shown + e->nr_percpu, 0, (n - e->nr_percpu) * sizeof(*shown));
		memset(raws + e->nr_percpu, 0, (n - e->nr_percpu) * sizeof(*raws));
		e->nr_percpu = n;
	}
	for (c = 0; c < e->nr_percpu; c++) {
		while (i < q->nr_percpu && q->percpu[i].cpu < c)
			i++;
		raw = i < q->nr_percpu && q->percpu[i].cpu == c ?
		      q->percpu[i].count : 0;
		d = (uint32_t)(raw - e->pc_raw[c]);
		if (restarted && raw < e->pc_raw[c]) {
			note(g, MONO_CARRIED, "irq_cpu", NULL, q->irq,
			     e->pc_shown[c], raw, e->pc_raw[c] - raw);
			d = 0;
		}
		e->pc_shown[c] += d;
		e->pc_raw[c] = raw;
	}
	return 0;
}

static int guard_irqs(struct counter_guard *g, struct sample_copy *d)
{
	struct guard_irq *e;
	size_t i, hint = 0;
	enum mono_step step;
	uint64_t before, now, raw;

	if (!grow_array((void **)&g->percpu, &g->cap_percpu, d->s.nr_irqs + 1,
		  sizeof(*g->percpu)))
		return -1;
	for (i = 0; i < d->s.nr_irqs; i++) {
		struct kstat_irq *q = &d->irqs[i];

		g->percpu[i] = (struct guard_percpu){ NULL, 0 };
		e = irq_entry(g, &hint, q->irq);
		if (!e)
			return -1;
		before = e->total.shown;
		now = q->count + e->total.offset;
		raw = q->count;
		q->count = mono_next(&e->total, raw, 0, &step);
		note(g, step, "irq", NULL, q->irq, before, raw, before - now);
		/* a list of no count may be NULL: all 0, not none */
		if (!g->cpu_span)	/* none wanted */
			continue;
		if (guard_percpu_counts(g, e, q, step == MONO_CARRIED))
			return -1;
		/* the entry may move (irq_entry()), its counts do not */
		g->percpu[i] = (struct guard_percpu){ e->pc_shown,
						      (uint32_t)e->nr_percpu };
	}
	return 0;
}

static int guard_softirqs(struct counter_guard *g, struct sample_copy *d)
{
	size_t i;

	for (i = 0; i < d->s.nr_softirqs; i++) {
		struct kstat_softirq *v = &d->softirqs[i];

		if (!grow_array((void **)&g->softirqs, &g->nr_softirqs,
			  (size_t)v->vec + 1, sizeof(*g->softirqs)))
			return -1;
		guard_one(g, &g->softirqs[v->vec], &v->count, 0, "softirq",
			  v->name, v->vec);
	}
	return 0;
}

/* Arch rows by name (their order is the kernel's, fixed while loaded). */
static int guard_arch(struct counter_guard *g, struct sample_copy *d)
{
	size_t i, j, cap;

	for (i = 0; i < d->s.nr_arch; i++) {
		struct kstat_arch *a = &d->arch[i];
		const char *name = a->name ? a->name : "";

		for (j = 0; j < g->nr_arch; j++)
			if (!strcmp(g->arch_names[j], name))
				break;
		if (j == g->nr_arch) {
			char *copy = strdup(name);

			cap = g->nr_arch;
			if (!copy)
				return -1;
			if (!grow_array((void **)&g->arch, &cap, j + 1,
					sizeof(*g->arch))) {
				free(copy);
				return -1;
			}
			cap = g->nr_arch;
			if (!grow_array((void **)&g->arch_names, &cap, j + 1,
					sizeof(*g->arch_names))) {
				free(copy);
				return -1;
			}
			g->arch_names[j] = copy;
			g->arch[j] = (struct mono){ 0 };
			g->nr_arch++;
		}
		guard_one(g, &g->arch[j], &a->count, 0, "arch", name, -1);
	}
	return 0;
}

/*
 * Only the sections the sample carries (those the exporter renders): one
 * that is off reads as zeros, which must not count as a fall.
 */
int guard_apply(struct counter_guard *g, struct sample_copy *d)
{
	uint32_t on = d->s.sections;

	g->events = 0;
	if (g->cap_percpu)
		memset(g->percpu, 0, g->cap_percpu * sizeof(*g->percpu));
	if (((on & KSTAT_SECTION_CPU) && guard_cpus(g, d)) ||
	    ((on & KSTAT_SECTION_IRQ) && (guard_irqs(g, d) || guard_arch(g, d))) ||
	    ((on & KSTAT_SECTION_SOFTIRQ) && guard_softirqs(g, d))) {
		g->oom = true;
		return -1;
	}
	if (on & KSTAT_SECTION_IRQ)
		guard_one(g, &g->intr, &d->s.intr_sum, 0, "intr", NULL, -1);
	return 0;
}

struct guard_percpu guard_percpu(const struct counter_guard *g, size_t i)
{
	return i < g->cap_percpu ? g->percpu[i] : (struct guard_percpu){ 0 };
}

void guard_reset(struct counter_guard *g)
{
	uint64_t held = g->held, carried = g->carried;
	uint32_t span = g->cpu_span;

	guard_free(g);
	g->held = held;
	g->carried = carried;
	g->cpu_span = span;
}

void guard_free(struct counter_guard *g)
{
	size_t i;

	for (i = 0; i < g->nr_irqs; i++) {
		free(g->irqs[i].pc_shown);
		free(g->irqs[i].pc_raw);
	}
	for (i = 0; i < g->nr_arch; i++)
		free(g->arch_names[i]);
	free(g->cpus);
	free(g->irqs);
	free(g->percpu);
	free(g->softirqs);
	free(g->arch);
	free(g->arch_names);
	*g = (struct counter_guard){ 0 };
}
