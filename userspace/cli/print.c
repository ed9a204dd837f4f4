// SPDX-License-Identifier: GPL-2.0
/*
 * One printer per object; see print.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

/* "CPU0 CPU1 ..." right-aligned in columns of @width (text only). */
void print_cpu_labels(uint32_t nr, int width)
{
	char label[16], fmt[COL_FMT_LEN];
	uint32_t c;

	col_fmt(fmt, " ", width, "s");
	for (c = 0; c < nr; c++) {
		snprintf(label, sizeof(label), "CPU%u", c);
		print_string(PRINT_FP, NULL, fmt, label);
	}
}

/*
 * Array "percpu": the count of each CPU id below @nr_cpus from the sparse
 * list @v (sorted by CPU), 0 where it has none; text columns of @width.
 */
void print_percpu(enum output_type t, const struct kstat_cpu_count *v,
		  uint32_t nr, uint32_t nr_cpus, int width)
{
	char fmt[COL_FMT_LEN];
	uint32_t c, i = 0;

	col_fmt(fmt, " ", width, "u");
	open_json_array("percpu");
	for (c = 0; c < nr_cpus; c++) {
		while (i < nr && v[i].cpu < c)
			i++;
		print_uint(t, NULL, fmt, i < nr && v[i].cpu == c ? v[i].count : 0);
	}
	close_json_array();
}

/* The widest of @width and the counts of @v. */
static int counts_width(const struct kstat_cpu_count *v, uint32_t nr, int width)
{
	uint32_t i;

	for (i = 0; v && i < nr; i++)
		width = max_int(width, (int)u64_width(v[i].count));
	return width;
}

/* ... and of the labels "CPU0" to "CPUn" of @nr_cpus columns. */
static int label_width(int width, uint32_t nr_cpus)
{
	return nr_cpus ? max_int(width, 3 + (int)u64_width(nr_cpus - 1)) : width;
}

uint32_t sample_cpu_span(const struct kstat_sample *s)
{
	uint32_t n = nr_possible_cpus(), c;

	for (c = n; c < s->online_len * 8; c++)
		if (kstat_cpu_is_online(s, c))
			n = c + 1;
	return n;
}

bool sample_has_percpu(const struct kstat_sample *s)
{
	return s->flags & KSTAT_F_PERCPU;
}

bool arch_is_global(const struct kstat_arch *a)
{
	return !a->percpu && a->name &&
	       (!strcmp(a->name, "ERR") || !strcmp(a->name, "MIS"));
}

/* ---- CPU times ---- */

/*
 * @ns as seconds with two decimals, rounded to the nearest 10 ms, in
 * integers (no binary rounding): the counters move by the 4 ms tick, so
 * the third decimal would only show the tick's phase.
 */
static void secs_text(char *buf, size_t len, uint64_t ns)
{
	uint64_t cs = ns / 10000000 + (ns % 10000000 >= 5000000);

	snprintf(buf, len, "%" PRIu64 ".%02" PRIu64, cs / 100, cs % 100);
}

/* Field @f's value of @c as text in @unit. */
static void cputime_text(char *buf, size_t len, const struct kstat_cputime *c,
			 int f, enum cputime_unit unit)
{
	if (unit == CPUTIME_SECS)
		secs_text(buf, len, c->ns[f]);
	else
		snprintf(buf, len, "%" PRIu64, c->ns[f]);
}

/* Field @f's column header: "user(s)", or "user" in nanoseconds. */
static void cputime_header(char *buf, size_t len, int f,
			   enum cputime_unit unit)
{
	snprintf(buf, len, "%s%s", kstat_cputime_name(f),
		 unit == CPUTIME_SECS ? "(s)" : "");
}

static void cpu_cols_fit(struct cpu_cols *w, const struct kstat_cputime *c,
			 enum cputime_unit unit)
{
	char buf[32];
	int f;

	w->cpu = max_int(w->cpu, c->cpu < 0 ? 5 : (int)u64_width((uint64_t)c->cpu));
	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		cputime_text(buf, sizeof(buf), c, f, unit);
		w->ns[f] = max_int(w->ns[f], (int)strlen(buf));
	}
}

/* A row; @w NULL: JSON only.  JSON is nanoseconds in every unit. */
static void print_cputime(const struct kstat_cputime *c,
			  const struct cpu_cols *w, enum cputime_unit unit)
{
	enum output_type t = w ? PRINT_ANY : PRINT_JSON;
	char fmt[COL_FMT_LEN], buf[32];
	int f;

	open_json_object(NULL);
	if (c->cpu < 0)
		print_null(t, "cpu", w ? col_fmt(fmt, "", w->cpu, "s") : NULL,
			   "total");
	else
		print_int(t, "cpu", w ? col_fmt(fmt, "", w->cpu, "d") : NULL,
			  c->cpu);
	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		print_u64(PRINT_JSON, kstat_cputime_name(f), NULL, c->ns[f]);
		if (!w)
			continue;
		cputime_text(buf, sizeof(buf), c, f, unit);
		print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->ns[f], "s"), buf);
	}
	close_json_object();
	if (w)
		print_nl();
}

void print_cputimes_in(const char *key, const struct kstat_sample *s,
		       bool total, bool text, enum cputime_unit unit)
{
	const struct kstat_cputime *tot = total ? s->cpu_total : NULL;
	struct cpu_cols w = { .cpu = 3 };	/* "CPU" */
	char fmt[COL_FMT_LEN], head[32];
	size_t i;
	int f;

	for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
		cputime_header(head, sizeof(head), f, unit);
		w.ns[f] = (int)strlen(head);
	}
	for (i = 0; i < s->nr_cpus; i++)
		cpu_cols_fit(&w, kstat_sample_cpu(s, i), unit);
	if (tot)
		cpu_cols_fit(&w, tot, unit);
	open_json_array(key);
	if (text) {
		print_string(PRINT_FP, NULL, col_fmt(fmt, "", w.cpu, "s"), "CPU");
		for (f = 0; f < KSTAT_CPUTIME_NR; f++) {
			cputime_header(head, sizeof(head), f, unit);
			print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w.ns[f], "s"),
				     head);
		}
		print_nl();
	}
	for (i = 0; i < s->nr_cpus; i++)
		print_cputime(kstat_sample_cpu(s, i), text ? &w : NULL, unit);
	if (tot)
		print_cputime(tot, text ? &w : NULL, unit);
	close_json_array();
}

void print_cputimes(const char *key, const struct kstat_sample *s,
		    bool total, bool text)
{
	print_cputimes_in(key, s, total, text, CPUTIME_SECS);
}

/* ---- IRQs ---- */

const char *irq_type(const struct kstat_irq *q)
{
	if (q->name && *q->name)
		return q->name;
	return q->level ? "level" : "edge";
}

char *irq_actions_join(const struct kstat_irq *q, const char *sep)
{
	size_t i, len = 1;
	char *s, *a;

	for (i = 0; i < q->nr_actions; i++)
		len += name_esc_len(q->actions[i]) + strlen(sep);
	s = calloc(1, len);
	for (i = 0; s && i < q->nr_actions; i++) {
		a = name_escape(q->actions[i]);
		if (!a) {
			free(s);
			return NULL;
		}
		if (i)
			strcat(s, sep);
		strcat(s, a);
		free(a);
	}
	return s;
}

/* Character @*pos of @q's actions joined by ",", then move on; 0: end. */
static unsigned char actions_next(const struct kstat_irq *q, size_t *act,
				  size_t *pos)
{
	while (*act < q->nr_actions) {
		const char *a = q->actions[*act];

		if (a[*pos])
			return (unsigned char)a[(*pos)++];
		*pos = 0;
		if (++*act < q->nr_actions)
			return ',';
	}
	return 0;
}

int irq_actions_cmp(const struct kstat_irq *a, const struct kstat_irq *b)
{
	size_t ia = 0, pa = 0, ib = 0, pb = 0;
	unsigned char ca, cb;

	do {
		ca = actions_next(a, &ia, &pa);
		cb = actions_next(b, &ib, &pb);
	} while (ca && ca == cb);
	return ca - cb;
}

/* -o's names, the text headings (PERCPU's are CPU0 CPU1 ...) */
static const char *const irq_col_names[IRQ_COL_NR] = {
	"IRQ", "COUNT", "PERCPU", "CHIP", "HWIRQ", "TYPE", "ACTIONS",
};

/* show's table without -o: every column, PERCPU with @percpu. */
static void irq_cols_default(struct irq_col_list *l, bool percpu)
{
	int c;

	l->nr = 0;
	for (c = 0; c < IRQ_COL_NR; c++)
		if (c != IRQ_COL_PERCPU || percpu)
			l->c[l->nr++] = (enum irq_col)c;
}

bool irq_col_list_has(const struct irq_col_list *l, enum irq_col c)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->c[i] == c)
			return true;
	return false;
}

/* Column @name of @n bytes, or IRQ_COL_NR. */
static enum irq_col irq_col_find(const char *name, size_t n)
{
	int c;

	for (c = 0; c < IRQ_COL_NR; c++)
		if (strlen(irq_col_names[c]) == n &&
		    !strncasecmp(irq_col_names[c], name, n))
			return (enum irq_col)c;
	return IRQ_COL_NR;
}

/* "unknown column 'X'; columns are: IRQ, COUNT, ..." */
static void irq_col_unknown(char *err, size_t len, const char *name, size_t n)
{
	size_t used;
	int c;

	snprintf(err, len, "unknown column '%.*s'; columns are: ", (int)n, name);
	for (c = 0; c < IRQ_COL_NR; c++) {
		used = strlen(err);
		snprintf(err + used, len - used, "%s%s", c ? ", " : "",
			 irq_col_names[c]);
	}
}

int irq_col_list_parse(struct irq_col_list *l, const char *list, char *err,
		       size_t len)
{
	const char *p = list, *end;
	enum irq_col c;
	size_t n;

	l->nr = 0;
	do {
		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		c = irq_col_find(p, n);
		if (c == IRQ_COL_NR) {
			irq_col_unknown(err, len, p, n);
			return -1;
		}
		/* twice would print a JSON key twice */
		if (irq_col_list_has(l, c)) {
			snprintf(err, len, "column '%.*s' given twice", (int)n, p);
			return -1;
		}
		l->c[l->nr++] = c;
		p = end + 1;
	} while (end);
	return 0;
}

/* Text width of @q's actions as show prints them. */
static int actions_width(const struct kstat_irq *q, const struct irq_cols *w)
{
	size_t i, n = 0;

	for (i = 0; i < q->nr_actions; i++)
		n += name_esc_len(q->actions[i]) +
		     (i ? strlen(w->actions_sep) : 0);
	return q->nr_actions ? (int)n : (int)strlen(w->no_actions);
}

void irq_cols_show(struct irq_cols *w, const struct kstat_sample *s,
		   bool percpu)
{
	const struct kstat_irq *q;
	size_t i;

	*w = (struct irq_cols){ .t = PRINT_ANY, .percpu = percpu,
				.labels = true, .detail = true,
				.irq = 3, .count = 5, .chip = 4, .hwirq = 5,
				.type = 4, .actions = 7, .count_head = "COUNT",
				.chip_lead = " ", .actions_sep = ", ",
				.no_actions = "-",
				.nr_cpus = percpu ? sample_cpu_span(s) : 0 };
	irq_cols_default(&w->cols, percpu);
	for (i = 0; i < s->nr_irqs; i++) {
		q = kstat_sample_irq(s, i);
		w->actions = max_int(w->actions, actions_width(q, w));
		w->irq = max_int(w->irq, (int)u64_width(q->irq));
		w->count = max_int(w->count, (int)u64_width(q->count));
		w->chip = max_int(w->chip, q->chip ? (int)name_esc_len(q->chip) : 1);
		if (q->has_hwirq)
			w->hwirq = max_int(w->hwirq, (int)u64_width(q->hwirq));
		w->type = max_int(w->type, (int)name_esc_len(irq_type(q)));
		w->cpu = counts_width(q->percpu, q->nr_percpu, w->cpu);
	}
	w->cpu = label_width(w->cpu, w->nr_cpus);
}

void irq_cols_rates(struct irq_cols *w)
{
	*w = (struct irq_cols){ .t = PRINT_ANY, .rate = true, .labels = true,
				.irq = 8, .rate_w = 12, .count = 14,
				.chip = 10, .count_head = "TOTAL",
				.chip_lead = "  ", .actions_sep = ",",
				.no_actions = "" };
}

void irq_cols_json(struct irq_cols *w, const struct kstat_sample *s)
{
	bool percpu = sample_has_percpu(s);

	*w = (struct irq_cols){ .t = PRINT_JSON, .percpu = percpu,
				.nr_cpus = percpu ? sample_cpu_span(s) : 0 };
}

/*
 * Text width of column @c, negative for left-aligned; a left-aligned last
 * column gets none (no trailing blanks).
 */
static int irq_col_width(const struct irq_cols *w, enum irq_col c, bool last)
{
	switch (c) {
	case IRQ_COL_IRQ:	return w->irq;
	case IRQ_COL_COUNT:	return w->count;
	case IRQ_COL_HWIRQ:	return w->hwirq;
	case IRQ_COL_PERCPU:	return w->cpu;
	case IRQ_COL_CHIP:	return last ? 0 : -w->chip;
	case IRQ_COL_TYPE:	return last ? 0 : -w->type;
	default:		return last ? 0 : -w->actions;
	}
}

/* show's headings, one per column of w->cols. */
static void print_irq_col_heads(const struct irq_cols *w)
{
	char fmt[COL_FMT_LEN];
	const char *name;
	enum irq_col c;
	size_t i;

	for (i = 0; i < w->cols.nr; i++) {
		c = w->cols.c[i];
		name = c == IRQ_COL_COUNT ? w->count_head : irq_col_names[c];
		if (c == IRQ_COL_PERCPU)
			print_cpu_labels(w->nr_cpus, w->cpu);
		else
			print_string(PRINT_FP, NULL,
				     col_fmt(fmt, i ? " " : "",
					     irq_col_width(w, c, i + 1 == w->cols.nr),
					     "s"), name);
	}
	print_nl();
}

void print_irq_header(const struct irq_cols *w)
{
	char fmt[COL_FMT_LEN];

	if (w->t != PRINT_ANY || w->no_header)
		return;
	if (w->cols.nr) {
		print_irq_col_heads(w);
		return;
	}
	print_string(PRINT_FP, NULL, col_fmt(fmt, "", w->irq, "s"), "IRQ");
	if (w->rate)
		print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->rate_w, "s"),
			     "RATE/s");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->count, "s"),
		     w->count_head);
	if (w->percpu)
		print_cpu_labels(w->nr_cpus, w->cpu);
	if (w->state)
		print_string(PRINT_FP, NULL, " %-5s", "STATE");
	if (w->labels) {
		print_string(PRINT_FP, NULL,
			     col_fmt(fmt, w->chip_lead, -w->chip, "s"), "CHIP");
		if (w->detail) {
			print_string(PRINT_FP, NULL,
				     col_fmt(fmt, " ", w->hwirq, "s"), "HWIRQ");
			print_string(PRINT_FP, NULL,
				     col_fmt(fmt, " ", -w->type, "s"), "TYPE");
		}
		print_string(PRINT_FP, NULL, " %s", "ACTIONS");
	}
	print_nl();
}

static void print_irq_chip(const struct kstat_irq *l, enum output_type t,
			   const char *lead, int width)
{
	char fmt[COL_FMT_LEN];

	col_fmt(fmt, lead, width, "s");
	if (l && l->chip)
		print_string(t, "chip", fmt, l->chip);
	else
		print_null(t, "chip", fmt, "-");
}

static void print_irq_hwirq(const struct kstat_irq *l, enum output_type t,
			    const char *lead, int width)
{
	char fmt[COL_FMT_LEN];

	if (l && l->has_hwirq)
		print_u64(t, "hwirq", col_fmt(fmt, lead, width, PRIu64),
			  l->hwirq);
	else
		print_null(t, "hwirq", col_fmt(fmt, lead, width, "s"), "-");
}

static void print_irq_type(const struct kstat_irq *l, enum output_type t,
			   const char *lead, int width)
{
	char fmt[COL_FMT_LEN];

	col_fmt(fmt, lead, width, "s");
	if (l)
		print_string(t, "type", fmt, irq_type(l));
	else
		print_null(t, "type", fmt, "-");
}

/* The actions joined by w->actions_sep, padded in text to -@width. */
static void print_irq_actions(const struct kstat_irq *l,
			      const struct irq_cols *w, const char *lead,
			      int width)
{
	char fmt[COL_FMT_LEN], sep[COL_FMT_LEN];
	size_t i;
	int used;

	snprintf(fmt, sizeof(fmt), "%s%%s", lead);
	snprintf(sep, sizeof(sep), "%s%%s", w->actions_sep);
	open_json_array("actions");
	for (i = 0; l && i < l->nr_actions; i++)
		print_string(w->t, NULL, i ? sep : fmt, l->actions[i]);
	close_json_array();
	if (!l || !l->nr_actions)
		print_string(PRINT_FP, NULL, fmt, w->no_actions);
	if (width >= 0)		/* no padding; JSON-only callers set no seps */
		return;
	used = l ? actions_width(l, w) : (int)strlen(w->no_actions);
	if (-width > used)
		print_string(PRINT_FP, NULL, col_fmt(fmt, "", -width - used, "s"),
			     "");
}

void print_irq_labels(const struct kstat_irq *l, const struct irq_cols *w)
{
	enum output_type dt = w->detail ? w->t : PRINT_JSON;

	print_irq_chip(l, w->t, w->chip_lead, -w->chip);
	print_irq_hwirq(l, dt, " ", w->hwirq);
	print_irq_type(l, dt, " ", -w->type);
	print_irq_actions(l, w, " ", 0);
}

/* Column @i of w->cols: counts from @q, labels from @l. */
static void print_irq_cell(const struct kstat_irq *q, const struct kstat_irq *l,
			   size_t i, const struct irq_cols *w)
{
	enum irq_col c = w->cols.c[i];
	int width = irq_col_width(w, c, i + 1 == w->cols.nr);
	const char *lead = i ? " " : "";
	char fmt[COL_FMT_LEN];

	switch (c) {
	case IRQ_COL_IRQ:
		print_uint(w->t, "irq", col_fmt(fmt, lead, width, "u"), q->irq);
		break;
	case IRQ_COL_COUNT:
		print_u64(w->t, "count", col_fmt(fmt, lead, width, PRIu64),
			  q->count);
		break;
	case IRQ_COL_PERCPU:
		print_percpu(w->t, q->percpu, q->nr_percpu, w->nr_cpus, width);
		break;
	case IRQ_COL_CHIP:
		print_irq_chip(l, w->t, lead, width);
		break;
	case IRQ_COL_HWIRQ:
		print_irq_hwirq(l, w->t, lead, width);
		break;
	case IRQ_COL_TYPE:
		print_irq_type(l, w->t, lead, width);
		break;
	default:
		print_irq_actions(l, w, lead, width);
	}
}

/* Unknown counts: null, and "-" in each text column. */
static void print_irq_unknown(const struct irq_cols *w)
{
	char fmt[COL_FMT_LEN];
	uint32_t c;

	print_null(w->t, "count", col_fmt(fmt, " ", w->count, "s"), "-");
	if (!w->percpu)
		return;
	print_null(PRINT_JSON, "percpu", NULL, NULL);
	col_fmt(fmt, " ", w->cpu, "s");
	for (c = 0; c < w->nr_cpus; c++)
		print_string(PRINT_FP, NULL, fmt, "-");
}

static void print_irq_row(const struct kstat_irq *q,
			  const struct kstat_irq *label, double rate,
			  const char *state, const struct irq_cols *w)
{
	char fmt[COL_FMT_LEN];
	size_t i;

	open_json_object(NULL);
	if (w->cols.nr) {
		for (i = 0; i < w->cols.nr; i++)
			print_irq_cell(q, label, i, w);
		goto out;
	}
	print_uint(w->t, "irq", col_fmt(fmt, "", w->irq, "u"), q->irq);
	if (w->rate)
		print_float(w->t, "rate", col_fmt(fmt, " ", w->rate_w, ".1f"),
			    rate);
	if (w->state && state && !strcmp(state, "gone")) {
		print_irq_unknown(w);
	} else {
		print_u64(w->t, "count", col_fmt(fmt, " ", w->count, PRIu64),
			  q->count);
		if (w->percpu)
			print_percpu(w->t, q->percpu, q->nr_percpu, w->nr_cpus,
				     w->cpu);
	}
	if (w->state)
		print_string(w->t, "state", " %-5s", state);
	if (w->labels)
		print_irq_labels(label, w);
out:
	close_json_object();
	if (w->t == PRINT_ANY)
		print_nl();
}

void print_irq(const struct kstat_irq *q, const struct kstat_irq *label,
	       double rate, const struct irq_cols *w)
{
	print_irq_row(q, label, rate, NULL, w);
}

void print_irq_state(const struct kstat_irq *q, const struct kstat_irq *label,
		     const char *state, const struct irq_cols *w)
{
	print_irq_row(q, label, 0, state, w);
}

/* ---- softirqs ---- */

void softirq_cols_show(struct softirq_cols *w, const struct kstat_sample *s,
		       bool percpu)
{
	const struct kstat_softirq *v;
	size_t i;

	*w = (struct softirq_cols){ .t = PRINT_ANY, .percpu = percpu,
				    .name = 4, .count = 5,
				    .nr_cpus = percpu ? sample_cpu_span(s) : 0 };
	for (i = 0; i < s->nr_softirqs; i++) {
		v = kstat_sample_softirq(s, i);
		w->name = max_int(w->name, (int)strlen(v->name));
		w->count = max_int(w->count, (int)u64_width(v->count));
		w->cpu = counts_width(v->percpu, v->nr_percpu, w->cpu);
	}
	w->cpu = label_width(w->cpu, w->nr_cpus);
	col_fmt(w->name_fmt, "", -w->name, "s");
	col_fmt(w->count_fmt, " ", w->count, PRIu64);
}

void softirq_cols_rates(struct softirq_cols *w)
{
	*w = (struct softirq_cols){ .t = PRINT_ANY, .rate = true, .name = 10,
				    .rate_w = 12, .count = 14 };
	col_fmt(w->name_fmt, "", -w->name, "s");
	col_fmt(w->rate_fmt, " ", w->rate_w, ".1f");
	col_fmt(w->count_fmt, " ", w->count, PRIu64);
}

void softirq_cols_line(struct softirq_cols *w)
{
	*w = (struct softirq_cols){ .t = PRINT_ANY, .rate = true, .line = true };
	strcpy(w->name_fmt, " %s");
	strcpy(w->rate_fmt, " %.0f");
}

void softirq_cols_json(struct softirq_cols *w, const struct kstat_sample *s)
{
	bool percpu = sample_has_percpu(s);

	*w = (struct softirq_cols){ .t = PRINT_JSON, .percpu = percpu,
				    .nr_cpus = percpu ? sample_cpu_span(s) : 0 };
}

void print_softirq_header(const struct softirq_cols *w)
{
	char fmt[COL_FMT_LEN];

	if (w->t != PRINT_ANY)
		return;
	if (w->line) {
		print_string(PRINT_FP, NULL, "%s", "SOFTIRQ/s");
		return;
	}
	print_string(PRINT_FP, NULL, col_fmt(fmt, "", -w->name, "s"), "NAME");
	if (w->rate)
		print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->rate_w, "s"),
			     "RATE/s");
	print_string(PRINT_FP, NULL, col_fmt(fmt, " ", w->count, "s"),
		     w->rate ? "TOTAL" : "COUNT");
	if (w->percpu)
		print_cpu_labels(w->nr_cpus, w->cpu);
	print_nl();
}

void print_softirq(const struct kstat_softirq *v, double rate,
		   const struct softirq_cols *w)
{
	bool text = w->t == PRINT_ANY;

	open_json_object(NULL);
	print_string(w->t, "name", text ? w->name_fmt : NULL, v->name);
	if (w->rate)
		print_float(w->t, "rate", text ? w->rate_fmt : NULL, rate);
	print_u64(text && w->count_fmt[0] ? w->t : PRINT_JSON, "count",
		  text && w->count_fmt[0] ? w->count_fmt : NULL, v->count);
	if (w->percpu)
		print_percpu(w->t, v->percpu, v->nr_percpu, w->nr_cpus, w->cpu);
	close_json_object();
	if (!w->line && w->t == PRINT_ANY)
		print_nl();
}

/* ---- arch rows, the intr sum ---- */

void print_arch(const struct kstat_arch *a, uint32_t nr_cpus)
{
	open_json_object(NULL);
	print_string(PRINT_JSON, "name", NULL, a->name);
	print_u64(PRINT_JSON, "count", NULL, a->count);
	if (nr_cpus && !arch_is_global(a))
		print_percpu(PRINT_JSON, a->percpu, a->nr_percpu, nr_cpus, 0);
	close_json_object();
}

void print_intr(uint64_t sum)
{
	print_u64(PRINT_ANY, "intr", " intr %" PRIu64, sum);
}
