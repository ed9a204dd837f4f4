// SPDX-License-Identifier: GPL-2.0
/*
 * kstat compare's arithmetic; see compare.h.
 */
#define _GNU_SOURCE		/* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "print.h"
#include "utils.h"

void cmp_run_begin(struct cmp_set *s, unsigned int side)
{
	s->runs[side]++;
}

void cmp_add(struct cmp_set *s, unsigned int side, const char *name,
	     double value)
{
	struct cmp_value *v;

	if (s->err)
		return;
	if (!grow_array((void **)&s->v, &s->cap, s->nr + 1, sizeof(*s->v)) ||
	    !(name = strdup(name))) {
		s->err = -ENOMEM;
		return;
	}
	v = &s->v[s->nr++];
	*v = (struct cmp_value){ (char *)name, side, s->runs[side] - 1, value };
}

/* "word word" as LKP joins a description's words: "word_word". */
static void underscore_blanks(char *p)
{
	for (; *p; p++)
		if (*p == ' ')
			*p = '_';
}

char *cmp_irq_desc(const struct kstat_irq *q)
{
	char *acts = irq_actions_join(q, "_"), *out = NULL;
	char hw[32] = "";

	if (!acts)
		return NULL;
	if (q->has_hwirq)
		snprintf(hw, sizeof(hw), "%llu-", (unsigned long long)q->hwirq);
	if (asprintf(&out, "%s_%s%s%s%s", q->chip ? q->chip : "-", hw,
		     irq_type(q), *acts ? "_" : "", acts) < 0)
		out = NULL;
	free(acts);
	if (out)
		underscore_blanks(out);
	return out;
}

/* @base and each CPU's count of @pc under "<prefix>[CPU<n>.]<base>". */
static void add_counts(struct cmp_set *s, unsigned int side,
		       const char *prefix, const char *base, uint64_t count,
		       const struct kstat_cpu_count *pc, uint32_t nr)
{
	char name[512];
	uint32_t i;

	snprintf(name, sizeof(name), "%s%s", prefix, base);
	cmp_add(s, side, name, (double)count);
	for (i = 0; i < nr; i++) {
		snprintf(name, sizeof(name), "%sCPU%u.%s", prefix, pc[i].cpu,
			 base);
		cmp_add(s, side, name, (double)pc[i].count);
	}
}

static void add_cputime(struct cmp_set *s, unsigned int side,
			const struct kstat_cputime *c)
{
	char name[128];
	int f;

	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		if (c->cpu < 0)
			snprintf(name, sizeof(name), "cputime.%s",
				 kstat_cputime_name(f));
		else
			snprintf(name, sizeof(name), "cputime.CPU%d.%s", c->cpu,
				 kstat_cputime_name(f));
		if (c->ns[f])
			cmp_add(s, side, name, (double)c->ns[f]);
	}
}

void cmp_add_sample(struct cmp_set *s, unsigned int side,
		    const struct kstat_sample *d, const bool *gone)
{
	const struct kstat_irq *q;
	const struct kstat_arch *a;
	const struct kstat_softirq *v;
	char base[512], *desc;
	size_t i;

	if (d->cpu_total)
		add_cputime(s, side, d->cpu_total);
	for (i = 0; i < d->nr_cpus; i++)
		add_cputime(s, side, kstat_sample_cpu(d, i));
	for (i = 0; i < d->nr_irqs; i++) {
		q = kstat_sample_irq(d, i);
		if (gone && gone[i])
			continue;	/* its count is unknown */
		desc = cmp_irq_desc(q);
		if (!desc) {
			s->err = -ENOMEM;
			return;
		}
		add_counts(s, side, "interrupts.", desc, q->count, q->percpu,
			   q->nr_percpu);
		free(desc);
	}
	for (i = 0; i < d->nr_arch; i++) {
		a = kstat_sample_arch(d, i);
		snprintf(base, sizeof(base), "%s:%s", a->name ? a->name : "-",
			 a->desc ? a->desc : "");
		underscore_blanks(base);
		add_counts(s, side, "interrupts.", base, a->count, a->percpu,
			   a->nr_percpu);
	}
	for (i = 0; i < d->nr_softirqs; i++) {
		v = kstat_sample_softirq(d, i);
		add_counts(s, side, "softirqs.", v->name ? v->name : "-",
			   v->count, v->percpu, v->nr_percpu);
	}
}

void cmp_add_delta(struct cmp_set *s, unsigned int side,
		   const struct kstat_delta *d)
{
	struct kstat_sample v = {
		.size = sizeof(v),
		.cpus = d->cpus, .nr_cpus = d->nr_cpu_rows,
		.cputime_size = sizeof(*d->cpus),
		.cpu_total = d->has_total ? &d->total : NULL,
		.irqs = d->irqs, .nr_irqs = d->nr_irqs,
		.irq_size = sizeof(*d->irqs),
		.arch = d->arch, .nr_arch = d->nr_arch,
		.arch_size = sizeof(*d->arch),
		.softirqs = d->softirqs, .nr_softirqs = d->nr_softirqs,
		.softirq_size = sizeof(*d->softirqs),
	};
	bool *gone = calloc(d->nr_irqs + 1, sizeof(*gone));
	size_t i;

	if (!gone) {
		s->err = -ENOMEM;
		return;
	}
	for (i = 0; i < d->nr_irqs; i++)
		gone[i] = d->irqs[i].state == DELTA_GONE;
	cmp_add_sample(s, side, &v, gone);
	free(gone);
}

/* ---- statistics ---- */

static int value_cmp(const void *x, const void *y)
{
	const struct cmp_value *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->side != b->side)
		return a->side < b->side ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

/*
 * The mean and sample variance of one side's runs, from the values of
 * @v[0..n) (sorted by run; a run may have several: summed; a run with
 * none: 0).
 */
static void side_stats(const struct cmp_value *v, size_t n, unsigned int runs,
		       double *mean, double *var)
{
	double sum = 0, ss = 0, x, m;
	unsigned int r;
	size_t i = 0;

	for (i = 0; i < n; i++)
		sum += v[i].value;
	m = runs ? sum / runs : 0;
	for (r = 0, i = 0; r < runs; r++) {
		for (x = 0; i < n && v[i].run == r; i++)
			x += v[i].value;
		ss += (x - m) * (x - m);
	}
	*mean = m;
	*var = runs > 1 ? ss / (runs - 1) : 0;
}

/* One counter's values @v[0..n) (both sides, sorted) into @row. */
static void row_stats(const struct cmp_set *s, const struct cmp_value *v,
		      size_t n, struct cmp_row *row)
{
	double var[2], pooled, dof;
	size_t na;
	int k;

	for (na = 0; na < n && v[na].side == CMP_A; na++)
		;
	row->name = v[0].name;
	row->present[CMP_A] = na > 0;
	row->present[CMP_B] = na < n;
	side_stats(v, na, s->runs[CMP_A], &row->mean[CMP_A], &var[CMP_A]);
	side_stats(v + na, n - na, s->runs[CMP_B], &row->mean[CMP_B], &var[CMP_B]);
	for (k = 0; k < 2; k++)
		row->stddev_pct[k] = row->mean[k] ?
			100 * sqrt(var[k]) / fabs(row->mean[k]) : 0;
	row->change = row->mean[CMP_B] - row->mean[CMP_A];
	row->change_pct = row->mean[CMP_A] ?
		100 * row->change / fabs(row->mean[CMP_A]) : NAN;
	dof = (double)s->runs[CMP_A] + s->runs[CMP_B] - 2;
	pooled = dof > 0 ? sqrt(((s->runs[CMP_A] - 1.0) * var[CMP_A] +
				 (s->runs[CMP_B] - 1.0) * var[CMP_B]) / dof) : 0;
	if (pooled > 0)
		row->significance = fabs(row->change) / pooled;
	else
		row->significance = row->change ? INFINITY : 0;
}

static double abs_pct(const struct cmp_row *r)
{
	/* a counter that was 0 on A changed the most */
	return isnan(r->change_pct) ? INFINITY : fabs(r->change_pct);
}

static int row_cmp(const void *x, const void *y)
{
	const struct cmp_row *a = x, *b = y;
	double pa = abs_pct(a), pb = abs_pct(b);

	if (a->significance != b->significance)
		return a->significance > b->significance ? -1 : 1;
	if (pa != pb)
		return pa > pb ? -1 : 1;
	return strcmp(a->name, b->name);
}

long cmp_rows(struct cmp_set *s, double threshold, struct cmp_row **rows)
{
	struct cmp_row *out;
	size_t i, j, n = 0;

	*rows = NULL;
	if (s->err)
		return s->err;
	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), value_cmp);
	out = calloc(s->nr + 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < s->nr; i = j) {
		for (j = i + 1; j < s->nr && !strcmp(s->v[j].name, s->v[i].name); j++)
			;
		row_stats(s, &s->v[i], j - i, &out[n]);
		if (fabs(out[n].change) >= threshold)
			n++;
	}
	if (n)
		qsort(out, n, sizeof(*out), row_cmp);
	*rows = out;
	return (long)n;
}

void cmp_set_free(struct cmp_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->v[i].name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
