// SPDX-License-Identifier: GPL-2.0
/*
 * What changed between two samples; see delta.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "delta.h"
#include "print.h"

const char *delta_state_name(enum delta_state st)
{
	switch (st) {
	case DELTA_NEW:
		return "new";
	case DELTA_GONE:
		return "gone";
	default:
		return "same";
	}
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool irq_same_identity(const struct kstat_irq *a, const struct kstat_irq *b)
{
	if (!str_eq(a->chip, b->chip) || a->has_hwirq != b->has_hwirq)
		return false;
	if (a->has_hwirq && a->hwirq != b->hwirq)
		return false;
	return a->nr_actions == b->nr_actions && !irq_actions_cmp(a, b);
}

/* ---- per-CPU lists ---- */

/*
 * @a less @b per CPU, modulo 2^32 (the kernel's counters wrap), as a
 * sparse list of the CPUs that changed into *@out (NULL when none).
 * @b NULL: @a itself.  -ENOMEM or 0.
 */
static int percpu_sub(const struct kstat_cpu_count *a, uint32_t na,
		      const struct kstat_cpu_count *b, uint32_t nb,
		      struct kstat_cpu_count **out, uint32_t *nr)
{
	struct kstat_cpu_count *v;
	uint32_t i = 0, j = 0, n = 0, cpu, va, vb;

	*out = NULL;
	*nr = 0;
	if (!na && !nb)
		return 0;
	v = calloc((size_t)na + nb, sizeof(*v));
	if (!v)
		return -ENOMEM;
	while (i < na || j < nb) {
		if (j >= nb || (i < na && a[i].cpu < b[j].cpu))
			cpu = a[i].cpu;
		else
			cpu = b[j].cpu;
		va = i < na && a[i].cpu == cpu ? a[i++].count : 0;
		vb = j < nb && b[j].cpu == cpu ? b[j++].count : 0;
		if ((uint32_t)(va - vb))
			v[n++] = (struct kstat_cpu_count){ cpu, va - vb };
	}
	if (!n) {
		free(v);
		return 0;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* ---- CPU times ---- */

/* @a less @b per field; a time that went back (idle's noise) is 0. */
static bool cputime_sub(struct kstat_cputime *d, const struct kstat_cputime *a,
			const struct kstat_cputime *b)
{
	bool changed = false;
	int f;

	d->cpu = a->cpu;
	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		d->ns[f] = a->ns[f] > b->ns[f] ? a->ns[f] - b->ns[f] : 0;
		changed |= d->ns[f] != 0;
	}
	return changed;
}

/* The CPUs of both samples, matched by id (both ascend). */
static int delta_cpus(struct kstat_delta *d, const struct kstat_sample *b,
		      const struct kstat_sample *a)
{
	const struct kstat_cputime *ca, *cb;
	size_t i = 0, j = 0;

	if (a->cpu_total && b->cpu_total)
		d->has_total = cputime_sub(&d->total, a->cpu_total,
					   b->cpu_total);
	if (!a->nr_cpus)
		return 0;
	d->cpus = calloc(a->nr_cpus, sizeof(*d->cpus));
	if (!d->cpus)
		return -ENOMEM;
	while (i < a->nr_cpus && j < b->nr_cpus) {
		ca = kstat_sample_cpu(a, i);
		cb = kstat_sample_cpu(b, j);
		if (ca->cpu < cb->cpu) {
			i++;
		} else if (cb->cpu < ca->cpu) {
			j++;
		} else {
			if (cputime_sub(&d->cpus[d->nr_cpu_rows], ca, cb))
				d->nr_cpu_rows++;
			i++;
			j++;
		}
	}
	return 0;
}

/* ---- IRQs ---- */

/*
 * A row of @st for @q: its count and list less @prev's (NULL: all of
 * it), labels from @q.  Unchanged "same" rows are not added.
 */
static int add_irq(struct kstat_delta *d, const struct kstat_irq *q,
		   const struct kstat_irq *prev, enum delta_state st)
{
	struct delta_irq *r = &d->irqs[d->nr_irqs];
	struct kstat_cpu_count *v = NULL;
	uint32_t n = 0;

	if (st != DELTA_GONE &&
	    percpu_sub(q->percpu, q->nr_percpu, prev ? prev->percpu : NULL,
		       prev ? prev->nr_percpu : 0, &v, &n))
		return -ENOMEM;
	r->q = *q;
	r->q.count = st == DELTA_GONE ? 0 : q->count - (prev ? prev->count : 0);
	r->q.percpu = v;
	r->q.nr_percpu = n;
	r->state = st;
	if (st == DELTA_SAME && !r->q.count && !n)
		free(v);	/* unchanged: the next row takes its place */
	else
		d->nr_irqs++;
	return 0;
}

/*
 * Do the per-CPU changes of the row just added add up to its total?  A
 * descriptor freed and allocated again with the same identity restarts
 * its counts: its total may still have grown, but a CPU whose count went
 * back then shows as a wrap, some 4 billion, more than the total.
 */
static bool last_row_adds_up(const struct kstat_delta *d, size_t before)
{
	const struct kstat_irq *q;
	uint64_t sum = 0;
	uint32_t i;

	if (!d->percpu || d->nr_irqs == before)
		return true;
	q = &d->irqs[d->nr_irqs - 1].q;
	for (i = 0; i < q->nr_percpu; i++)
		sum += q->percpu[i].count;
	return sum == q->count;
}

/* One number in both samples: one "same" row, or "gone" and "new". */
static int add_irq_pair(struct kstat_delta *d, const struct kstat_irq *qa,
			const struct kstat_irq *qb)
{
	/* without descriptions, the number is all we know */
	bool known = qa->has_meta && qb->has_meta;
	size_t n = d->nr_irqs;

	if ((!known || irq_same_identity(qa, qb)) && qa->count >= qb->count) {
		if (add_irq(d, qa, qb, DELTA_SAME))
			return -ENOMEM;
		if (last_row_adds_up(d, n))
			return 0;
		d->nr_irqs--;	/* a restarted descriptor: not a change */
		free((void *)d->irqs[d->nr_irqs].q.percpu);
	}
	if (add_irq(d, qb, NULL, DELTA_GONE))
		return -ENOMEM;
	return add_irq(d, qa, NULL, DELTA_NEW);
}

static int delta_irqs(struct kstat_delta *d, const struct kstat_sample *b,
		      const struct kstat_sample *a)
{
	const struct kstat_irq *qa, *qb;
	size_t i = 0, j = 0;
	int err = 0;

	if (!a->nr_irqs && !b->nr_irqs)
		return 0;
	/* at most a gone and a new row per IRQ of either */
	d->irqs = calloc(a->nr_irqs + b->nr_irqs, sizeof(*d->irqs));
	if (!d->irqs)
		return -ENOMEM;
	while (!err && (i < a->nr_irqs || j < b->nr_irqs)) {
		qa = i < a->nr_irqs ? kstat_sample_irq(a, i) : NULL;
		qb = j < b->nr_irqs ? kstat_sample_irq(b, j) : NULL;
		if (qa && (!qb || qa->irq < qb->irq)) {
			err = add_irq(d, qa, NULL, DELTA_NEW);
			i++;
		} else if (qb && (!qa || qb->irq < qa->irq)) {
			err = add_irq(d, qb, NULL, DELTA_GONE);
			j++;
		} else {
			err = add_irq_pair(d, qa, qb);
			i++;
			j++;
		}
	}
	return err;
}

/* ---- softirqs and arch rows ---- */

static int delta_softirqs(struct kstat_delta *d, const struct kstat_sample *b,
			  const struct kstat_sample *a)
{
	const struct kstat_softirq *va, *vb;
	struct kstat_softirq *r;
	size_t i, j;

	if (!a->nr_softirqs)
		return 0;
	d->softirqs = calloc(a->nr_softirqs, sizeof(*d->softirqs));
	if (!d->softirqs)
		return -ENOMEM;
	for (i = 0; i < a->nr_softirqs; i++) {
		va = kstat_sample_softirq(a, i);
		for (j = 0; j < b->nr_softirqs; j++) {
			vb = kstat_sample_softirq(b, j);
			if (vb->vec == va->vec)
				break;
		}
		if (j == b->nr_softirqs || va->count < vb->count)
			continue;	/* not comparable: leave it out */
		r = &d->softirqs[d->nr_softirqs];
		*r = *va;
		r->count = va->count - vb->count;
		if (percpu_sub(va->percpu, va->nr_percpu, vb->percpu,
			       vb->nr_percpu, (struct kstat_cpu_count **)&r->percpu,
			       &r->nr_percpu))
			return -ENOMEM;
		if (r->count || r->nr_percpu)
			d->nr_softirqs++;
		else
			free((void *)r->percpu);
	}
	return 0;
}

static int delta_arch(struct kstat_delta *d, const struct kstat_sample *b,
		      const struct kstat_sample *a)
{
	const struct kstat_arch *ra, *rb;
	struct kstat_arch *r;
	size_t i, j;

	if (!a->nr_arch)
		return 0;
	d->arch = calloc(a->nr_arch, sizeof(*d->arch));
	if (!d->arch)
		return -ENOMEM;
	for (i = 0; i < a->nr_arch; i++) {
		ra = kstat_sample_arch(a, i);
		for (j = 0; j < b->nr_arch; j++) {
			rb = kstat_sample_arch(b, j);
			if (str_eq(ra->name, rb->name))
				break;
		}
		if (j == b->nr_arch || ra->count < rb->count)
			continue;
		r = &d->arch[d->nr_arch];
		*r = *ra;
		r->count = ra->count - rb->count;
		if (percpu_sub(ra->percpu, ra->nr_percpu, rb->percpu,
			       rb->nr_percpu, (struct kstat_cpu_count **)&r->percpu,
			       &r->nr_percpu))
			return -ENOMEM;
		if (r->count || r->nr_percpu)
			d->nr_arch++;
		else
			free((void *)r->percpu);
	}
	return 0;
}

/* ---- order ---- */

/* Largest first; unknown (gone) counts last; then by number. */
static int irq_row_cmp(const void *x, const void *y)
{
	const struct delta_irq *a = x, *b = y;

	if ((a->state == DELTA_GONE) != (b->state == DELTA_GONE))
		return a->state == DELTA_GONE ? 1 : -1;
	if (a->q.count != b->q.count)
		return a->q.count > b->q.count ? -1 : 1;
	if (a->q.irq != b->q.irq)
		return a->q.irq < b->q.irq ? -1 : 1;
	/* the gone one of a number before its new one */
	return (int)b->state - (int)a->state;
}

static int softirq_row_cmp(const void *x, const void *y)
{
	const struct kstat_softirq *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->vec < b->vec ? -1 : a->vec > b->vec;
}

static int arch_row_cmp(const void *x, const void *y)
{
	const struct kstat_arch *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

int delta_compute(struct kstat_delta *d, const struct kstat_sample *before,
		  const struct kstat_sample *after, uint32_t nr_cpus)
{
	memset(d, 0, sizeof(*d));
	d->start_ns = before->timestamp_ns;
	d->end_ns = after->timestamp_ns;
	d->sections = before->sections & after->sections;
	d->nr_cpus = nr_cpus;
	d->percpu = (before->flags & after->flags & KSTAT_F_PERCPU) != 0;
	if (delta_cpus(d, before, after) || delta_irqs(d, before, after) ||
	    delta_softirqs(d, before, after) || delta_arch(d, before, after)) {
		delta_free(d);
		return -ENOMEM;
	}
	if (d->nr_irqs)
		qsort(d->irqs, d->nr_irqs, sizeof(*d->irqs), irq_row_cmp);
	if (d->nr_softirqs)
		qsort(d->softirqs, d->nr_softirqs, sizeof(*d->softirqs),
		      softirq_row_cmp);
	if (d->nr_arch)
		qsort(d->arch, d->nr_arch, sizeof(*d->arch), arch_row_cmp);
	return 0;
}

void delta_free(struct kstat_delta *d)
{
	size_t i;

	for (i = 0; i < d->nr_irqs; i++)
		free((void *)d->irqs[i].q.percpu);
	for (i = 0; i < d->nr_softirqs; i++)
		free((void *)d->softirqs[i].percpu);
	for (i = 0; i < d->nr_arch; i++)
		free((void *)d->arch[i].percpu);
	free(d->cpus);
	free(d->irqs);
	free(d->softirqs);
	free(d->arch);
	memset(d, 0, sizeof(*d));
}

/* ---- printing ---- */

/* The width of a "CPUn" label and of @d's per-CPU counts. */
static int percpu_width(int width, uint32_t nr_cpus)
{
	return nr_cpus ? max_int(width, 3 + (int)u64_width(nr_cpus - 1)) : width;
}

static void print_delta_cpus(const struct kstat_delta *d)
{
	struct kstat_sample s = {
		.size = sizeof(s), .cpus = d->cpus, .nr_cpus = d->nr_cpu_rows,
		.cputime_size = sizeof(*d->cpus),
		.cpu_total = d->has_total ? &d->total : NULL,
	};

	if (!is_json_context() && !d->nr_cpu_rows && !d->has_total)
		return;
	print_cputimes("cpu", &s, true, true);
	print_string(PRINT_FP, NULL, "%s", "\n");
}

static void print_delta_irqs(const struct kstat_delta *d)
{
	struct kstat_sample s = {
		.size = sizeof(s), .irqs = d->irqs, .nr_irqs = d->nr_irqs,
		.irq_size = sizeof(*d->irqs),
	};
	struct irq_cols w;
	size_t i;

	if (!is_json_context() && !d->nr_irqs)
		return;
	irq_cols_show(&w, &s, d->percpu);
	w.state = true;
	w.cols.nr = 0;	/* the fixed layout: it has the STATE column */
	w.nr_cpus = d->percpu ? d->nr_cpus : 0;
	w.cpu = percpu_width(w.cpu, w.nr_cpus);
	open_json_array("irq");
	print_irq_header(&w);
	for (i = 0; i < d->nr_irqs; i++)
		print_irq_state(&d->irqs[i].q, &d->irqs[i].q,
				delta_state_name(d->irqs[i].state), &w);
	close_json_array();
	print_string(PRINT_FP, NULL, "%s", "\n");
}

static void print_delta_arch(const struct kstat_delta *d)
{
	int nw = 4, cw = 5, pw = 0;
	char fmt[COL_FMT_LEN];
	const struct kstat_arch *r;
	uint32_t nr_cpus = d->percpu ? d->nr_cpus : 0;
	size_t i, k;

	if (!is_json_context() && !d->nr_arch)
		return;
	for (i = 0; i < d->nr_arch; i++) {
		r = &d->arch[i];
		nw = max_int(nw, r->name ? (int)strlen(r->name) : 1);
		cw = max_int(cw, (int)u64_width(r->count));
		for (k = 0; k < r->nr_percpu; k++)
			pw = max_int(pw, (int)u64_width(r->percpu[k].count));
	}
	pw = percpu_width(pw, nr_cpus);
	open_json_array("arch");
	print_string(PRINT_FP, NULL, col_fmt(fmt, "", -nw, "s"), "NAME");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", cw, "s"), "COUNT");
	print_cpu_labels(nr_cpus, pw);
	print_string(PRINT_FP, NULL, " %s", "DESCRIPTION");
	print_nl();
	for (i = 0; i < d->nr_arch; i++) {
		r = &d->arch[i];
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", col_fmt(fmt, "", -nw, "s"),
			     r->name ? r->name : "-");
		print_u64(PRINT_ANY, "count", col_fmt(fmt, " ", cw, PRIu64),
			  r->count);
		if (nr_cpus && !arch_is_global(r))
			print_percpu(PRINT_ANY, r->percpu, r->nr_percpu,
				     nr_cpus, pw);
		else if (nr_cpus)	/* one count for all CPUs */
			for (k = 0; k < nr_cpus; k++)
				print_string(PRINT_FP, NULL,
					     col_fmt(fmt, " ", pw, "s"), "-");
		print_string(PRINT_ANY, "desc", " %s", r->desc ? r->desc : "");
		close_json_object();
		print_nl();
	}
	close_json_array();
	print_string(PRINT_FP, NULL, "%s", "\n");
}

static void print_delta_softirqs(const struct kstat_delta *d)
{
	struct kstat_sample s = {
		.size = sizeof(s), .softirqs = d->softirqs,
		.nr_softirqs = d->nr_softirqs,
		.softirq_size = sizeof(*d->softirqs),
	};
	struct softirq_cols w;
	size_t i;

	if (!is_json_context() && !d->nr_softirqs)
		return;
	softirq_cols_show(&w, &s, d->percpu);
	w.nr_cpus = d->percpu ? d->nr_cpus : 0;
	w.cpu = percpu_width(w.cpu, w.nr_cpus);
	open_json_array("softirq");
	print_softirq_header(&w);
	for (i = 0; i < d->nr_softirqs; i++)
		print_softirq(&d->softirqs[i], 0, &w);
	close_json_array();
}

void print_delta(const struct kstat_delta *d)
{
	if (d->sections & KSTAT_SECTION_CPU)
		print_delta_cpus(d);
	if (d->sections & KSTAT_SECTION_IRQ) {
		print_delta_irqs(d);
		print_delta_arch(d);
	}
	if (d->sections & KSTAT_SECTION_SOFTIRQ)
		print_delta_softirqs(d);
}
