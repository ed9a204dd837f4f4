// SPDX-License-Identifier: GPL-2.0
/*
 * Rates between two samples, and their printers: shared by
 * `kstat watch` (one table per interval) and `kstat top` (a screen).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "print.h"
#include "rates.h"

/* ---- CPU ---- */

static const char *const cpu_cols[KSTAT_CPUTIME_NR] = {
	"%usr", "%nice", "%sys", "%idle", "%iowait",
	"%irq", "%soft", "%steal", "%guest", "%gnice",
};

const char *cpu_share_header(int f)
{
	return f >= 0 && f < KSTAT_CPUTIME_NR ? cpu_cols[f] : NULL;
}

/* @a - @b, or 0 if the counters disagree (read at different instants) */
static uint64_t sub_or_0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

bool cpu_shares(const struct kstat_cputime *now, const struct kstat_sample *b,
		double pct[KSTAT_CPUTIME_NR])
{
	const struct kstat_cputime *then = sample_cpu(b, now->cpu);
	uint64_t d[KSTAT_CPUTIME_NR], total = 0;
	int f;

	if (!then)
		return false;	/* came online this interval */
	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		d[f] = sub_or_0(now->ns[f], then->ns[f]);
		/* guest time is also counted in user/nice */
		if (f != KSTAT_CPUTIME_GUEST && f != KSTAT_CPUTIME_GUEST_NICE)
			total += d[f];
	}
	/*
	 * mpstat's %usr and %nice leave the guest's time out (it has its own
	 * %guest and %gnice), so that the columns add up to 100.
	 */
	d[KSTAT_CPUTIME_USER] = sub_or_0(d[KSTAT_CPUTIME_USER],
					 d[KSTAT_CPUTIME_GUEST]);
	d[KSTAT_CPUTIME_NICE] = sub_or_0(d[KSTAT_CPUTIME_NICE],
					 d[KSTAT_CPUTIME_GUEST_NICE]);
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		pct[f] = total ? 100.0 * d[f] / total : 0.0;
	return true;
}

/* One row of print_cpu_rates(), if @b knows the CPU. */
static void print_cpu_rate(const struct kstat_cputime *now,
			   const struct kstat_sample *b)
{
	double pct[KSTAT_CPUTIME_NR];
	char key[32];
	int f;

	if (!now || !cpu_shares(now, b, pct))
		return;
	open_json_object(NULL);
	if (now->cpu < 0) {
		print_null(PRINT_JSON, "cpu", NULL, NULL);
		print_string(PRINT_FP, NULL, "%-4s", "all");
	} else {
		print_int(PRINT_ANY, "cpu", "%-4d", now->cpu);
	}
	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		/* a share, not the nanoseconds "user" means elsewhere */
		snprintf(key, sizeof(key), "%s_pct", kstat_cputime_name(f));
		print_float(PRINT_ANY, key, " %8.2f", pct[f]);
	}
	close_json_object();
	print_nl();
}

void print_cpu_rates(const struct kstat_sample *s, const struct kstat_sample *b,
		     bool total_only)
{
	size_t i;
	int f;

	print_string(PRINT_FP, NULL, "%-4s", "CPU");
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		print_string(PRINT_FP, NULL, " %8s", cpu_cols[f]);
	print_nl();
	open_json_array("cpu");
	for (i = 0; !total_only && i < s->nr_cpus; i++)
		print_cpu_rate(kstat_sample_cpu(s, i), b);
	print_cpu_rate(s->cpu_total, b);
	close_json_array();
}

/* ---- IRQs ---- */

static enum irq_sort sort_by;

/* Its actions, joined, are not "". */
static bool has_actions(const struct kstat_irq *l)
{
	return l && l->nr_actions && (l->nr_actions > 1 || l->actions[0][0]);
}

static int cmp_irq(const void *a, const void *b)
{
	const struct irq_rate *x = a, *y = b;
	int c;

	switch (sort_by) {
	case IRQ_SORT_RATE:
		if (x->delta != y->delta)
			return x->delta < y->delta ? 1 : -1;
		break;
	case IRQ_SORT_TOTAL:
		if (x->q->count != y->q->count)
			return x->q->count < y->q->count ? 1 : -1;
		break;
	case IRQ_SORT_NAME:
		/* IRQs without an action last */
		c = !has_actions(x->label) - !has_actions(y->label);
		if (!c && x->label && y->label)
			c = irq_actions_cmp(x->label, y->label);
		if (c)
			return c;
		break;
	case IRQ_SORT_IRQ:
		break;
	}
	return x->q->irq < y->q->irq ? -1 : x->q->irq > y->q->irq;
}

size_t irq_rates(const struct kstat_sample *s, const struct kstat_sample *b,
		 const struct irq_labels *names, enum irq_sort by,
		 struct irq_rate **out)
{
	struct irq_rate *r = calloc(s->nr_irqs ? s->nr_irqs : 1, sizeof(*r));
	size_t i, nr = 0;

	*out = r;
	if (!r)
		return 0;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);
		const struct kstat_irq *then = kstat_sample_find_irq(b, q->irq);

		if (!then || q->count < then->count)
			continue;
		r[nr].q = q;
		r[nr].label = irq_label(names, q->irq);
		r[nr++].delta = q->count - then->count;
	}
	sort_by = by;
	qsort(r, nr, sizeof(*r), cmp_irq);
	return nr;
}

void print_irq_rates(const struct irq_rate *r, size_t nr, size_t max,
		     double secs)
{
	struct irq_cols w;
	size_t i;

	irq_cols_rates(&w);
	print_irq_header(&w);
	open_json_array("irq");
	for (i = 0; i < nr && i < max; i++)
		print_irq(r[i].q, r[i].label, r[i].delta / secs, &w);
	close_json_array();
}

/* ---- softirqs ---- */

bool softirq_rate(const struct kstat_softirq *v, const struct kstat_sample *b,
		  double secs, double *rate)
{
	const struct kstat_softirq *then = sample_softirq(b, v->vec);

	if (!then || v->count < then->count)
		return false;	/* not in the baseline, or restarted */
	*rate = (v->count - then->count) / secs;
	return true;
}

void print_softirq_rates(const struct kstat_sample *s,
			 const struct kstat_sample *b, double secs)
{
	struct softirq_cols w;
	double rate;
	size_t i;

	softirq_cols_rates(&w);
	print_softirq_header(&w);
	open_json_array("softirq");
	for (i = 0; i < s->nr_softirqs; i++)
		if (softirq_rate(kstat_sample_softirq(s, i), b, secs, &rate))
			print_softirq(kstat_sample_softirq(s, i), rate, &w);
	close_json_array();
}

/* ---- per CPU, as mpstat -I CPU and -I SCPU ---- */

/* A column of the per-CPU table: an IRQ or a vector with a rate. */
struct pc_col {
	uint32_t irq;
	const char *name;		/* a vector's; NULL for an IRQ */
	char head[24];			/* text: "24/s", "NET_RX/s" */
	const struct kstat_cpu_count *now, *then;
	uint32_t nr_now, nr_then;
	uint64_t delta;			/* all CPUs */
};

/* @c's rate on @cpu: the kernel's 32-bit counts, so a wrap is modular. */
static double pc_rate(const struct pc_col *c, uint32_t cpu, double secs)
{
	uint32_t d = kstat_percpu_at(c->now, c->nr_now, cpu) -
		     kstat_percpu_at(c->then, c->nr_then, cpu);

	return d / secs;
}

static int pc_width(const struct pc_col *c)
{
	return max_int(9, (int)strlen(c->head));
}

/* @lead (the time column, or NULL), then "CPU" or the CPU id. */
static void pc_lead(const char *lead, const char *cpu)
{
	if (lead)
		print_string(PRINT_FP, NULL, "%-8s ", lead);
	print_string(PRINT_FP, NULL, "%4s", cpu);
}

/* Text: a header and a row per online CPU of @s, mpstat's layout. */
static void pc_text(const struct pc_col *c, size_t nr,
		    const struct kstat_sample *s, double secs, const char *lead)
{
	char cpu[16], fmt[COL_FMT_LEN];
	uint32_t n = sample_cpu_span(s), id;
	size_t i;

	pc_lead(lead, "CPU");
	for (i = 0; i < nr; i++)
		print_string(PRINT_FP, NULL, col_fmt(fmt, " ", pc_width(&c[i]), "s"),
			     c[i].head);
	print_nl();
	for (id = 0; id < n; id++) {
		if (!kstat_cpu_is_online(s, id))
			continue;
		snprintf(cpu, sizeof(cpu), "%u", id);
		pc_lead(lead, cpu);
		for (i = 0; i < nr; i++)
			print_float(PRINT_FP, NULL,
				    col_fmt(fmt, " ", pc_width(&c[i]), ".2f"),
				    pc_rate(&c[i], id, secs));
		print_nl();
	}
}

/*
 * JSON: array @key of one object per column, {irq or name, rate,
 * percpu_rate: an array indexed by CPU id}, as "percpu" is for counts.
 */
static void pc_json(const char *key, const struct pc_col *c, size_t nr,
		    const struct kstat_sample *s, double secs)
{
	uint32_t n = sample_cpu_span(s), id;
	size_t i;

	open_json_array(key);
	for (i = 0; i < nr; i++) {
		open_json_object(NULL);
		if (c[i].name)
			print_string(PRINT_JSON, "name", NULL, c[i].name);
		else
			print_uint(PRINT_JSON, "irq", NULL, c[i].irq);
		print_float(PRINT_JSON, "rate", NULL, c[i].delta / secs);
		open_json_array("percpu_rate");
		for (id = 0; id < n; id++)
			print_float(PRINT_JSON, NULL, NULL, pc_rate(&c[i], id, secs));
		close_json_array();
		close_json_object();
	}
	close_json_array();
}

void print_irq_percpu_rates(const struct kstat_sample *s,
			    const struct kstat_sample *b,
			    const struct irq_labels *names, double secs,
			    const char *lead)
{
	struct irq_rate *r;
	size_t nr = irq_rates(s, b, names, IRQ_SORT_IRQ, &r), i;
	struct pc_col *c = calloc(nr ? nr : 1, sizeof(*c));
	const struct kstat_irq *then;

	for (i = 0; c && i < nr; i++) {
		then = kstat_sample_find_irq(b, r[i].q->irq);
		c[i] = (struct pc_col){ .irq = r[i].q->irq, .delta = r[i].delta,
					.now = r[i].q->percpu,
					.nr_now = r[i].q->nr_percpu,
					.then = then->percpu,
					.nr_then = then->nr_percpu };
		snprintf(c[i].head, sizeof(c[i].head), "%u/s", c[i].irq);
	}
	nr = c ? nr : 0;
	pc_text(c, nr, s, secs, lead);
	pc_json("irq", c, nr, s, secs);
	free(c);
	free(r);
}

void print_softirq_percpu_rates(const struct kstat_sample *s,
				const struct kstat_sample *b, double secs,
				const char *lead)
{
	struct pc_col *c = calloc(s->nr_softirqs ? s->nr_softirqs : 1, sizeof(*c));
	const struct kstat_softirq *v, *then;
	size_t i, nr = 0;
	double rate;

	for (i = 0; c && i < s->nr_softirqs; i++) {
		v = kstat_sample_softirq(s, i);
		if (!softirq_rate(v, b, secs, &rate))
			continue;
		then = sample_softirq(b, v->vec);
		c[nr] = (struct pc_col){ .name = v->name, .now = v->percpu,
					 .nr_now = v->nr_percpu,
					 .then = then->percpu,
					 .nr_then = then->nr_percpu,
					 .delta = v->count - then->count };
		snprintf(c[nr++].head, sizeof(c->head), "%.21s/s", v->name);
	}
	pc_text(c, nr, s, secs, lead);
	pc_json("softirq", c, nr, s, secs);
	free(c);
}

/* ---- when a frame is due ---- */

const struct duration_spec frame_length = {
	.step_ns = 1,
	.min_ns = 10 * MSEC_NS, .max_ns = 86400 * SEC_NS,
};

bool frame_due(uint64_t start_ns, uint64_t prev_ns, uint64_t now_ns,
	       uint64_t want_ns)
{
	uint64_t elapsed, gap;

	if (now_ns <= start_ns || prev_ns > now_ns)
		return false;
	elapsed = now_ns - start_ns;
	gap = now_ns - (prev_ns > start_ns ? prev_ns : start_ns);
	/* elapsed + gap / 2 > want, without the rounding of gap / 2 */
	return 2 * elapsed + gap > 2 * want_ns;
}
