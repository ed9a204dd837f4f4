// SPDX-License-Identifier: GPL-2.0
/*
 * The node naming (kstat export prometheus --names node, export-render.h):
 * node_exporter's families, label sets and semantics, so that dashboards
 * and rules built for node_exporter work unchanged:
 *
 *   node_cpu_seconds_total{cpu,mode}        cpu collector (1.5)
 *   node_cpu_guest_seconds_total{cpu,mode}  cpu collector (user, nice)
 *   node_interrupts_total{cpu,devices,info,type}  interrupts collector
 *   node_intr_total                         stat collector
 *   node_softirqs_total{vector}             stat collector, --collector.stat.softirq
 *   node_softirqs_functions_total{cpu,type} softirqs collector (upstream
 *                                           1.7 on; 1.5 has none)
 *
 * node_exporter reads /proc/stat, /proc/interrupts and /proc/softirqs;
 * this renders the same rows from one sample.  node_interrupts_total has
 * one series per IRQ (or arch row) and online CPU, as the columns of
 * /proc/interrupts, and no total; info and devices are what node_exporter
 * makes of the /proc/interrupts line: the text after the CPU columns split
 * at white space, info the first field (the chip), devices the others
 * joined by one space ("1-edge i8042", "-edge timer" without a hwirq,
 * actions joined by ", " as /proc prints them).  Arch rows: info the
 * description, devices "".  Labels are written in node_exporter's order
 * (sorted), so both pages read alike.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-render.h"

/* node_exporter 1.5's modes, in /proc/stat's order (kstat's enum's). */
static const char *const cpu_modes[] = {
	[KSTAT_CPUTIME_USER] = "user",
	[KSTAT_CPUTIME_NICE] = "nice",
	[KSTAT_CPUTIME_SYSTEM] = "system",
	[KSTAT_CPUTIME_IDLE] = "idle",
	[KSTAT_CPUTIME_IOWAIT] = "iowait",
	[KSTAT_CPUTIME_IRQ] = "irq",
	[KSTAT_CPUTIME_SOFTIRQ] = "softirq",
	[KSTAT_CPUTIME_STEAL] = "steal",
};

/*
 * As node_exporter's cpu collector: user and nice include guest time (as
 * /proc/stat's do), and node_cpu_guest_seconds_total says how much.
 */
static void node_cpus(struct buf *b, const struct kstat_sample *n)
{
	static const char cpu[] = "node_cpu_seconds_total";
	static const char guest[] = "node_cpu_guest_seconds_total";
	const struct kstat_cputime *t;
	size_t i;
	int f;

	family(b, cpu, "counter", "Seconds the CPUs spent in each mode.");
	for (i = 0; i < n->nr_cpus; i++) {
		t = kstat_sample_cpu(n, i);
		for (f = KSTAT_CPUTIME_USER; f <= KSTAT_CPUTIME_STEAL; f++) {
			buf_printf(b, "%s{cpu=\"%d\",mode=\"%s\"} ", cpu,
				   t->cpu, cpu_modes[f]);
			put_seconds(b, t->ns[f]);
		}
	}
	family(b, guest, "counter",
	       "Seconds the CPUs spent in guests (VMs) for each mode.");
	for (i = 0; i < n->nr_cpus; i++) {
		t = kstat_sample_cpu(n, i);
		buf_printf(b, "%s{cpu=\"%d\",mode=\"nice\"} ", guest, t->cpu);
		put_seconds(b, t->ns[KSTAT_CPUTIME_GUEST_NICE]);
		buf_printf(b, "%s{cpu=\"%d\",mode=\"user\"} ", guest, t->cpu);
		put_seconds(b, t->ns[KSTAT_CPUTIME_GUEST]);
	}
}

/* The online CPUs: the columns of /proc/interrupts and /proc/softirqs. */
struct cols {
	int *cpu;		/* ids, ascending as the sample's rows */
	size_t nr;
	uint64_t *v;		/* scratch: one row's counts, by column */
};

static bool cols_init(struct cols *c, const struct kstat_sample *n)
{
	size_t i;

	c->nr = n->nr_cpus;
	c->cpu = calloc(c->nr + 1, sizeof(*c->cpu));
	c->v = calloc(c->nr + 1, sizeof(*c->v));
	if (!c->cpu || !c->v)
		return false;
	for (i = 0; i < c->nr; i++)
		c->cpu[i] = kstat_sample_cpu(n, i)->cpu;
	return true;
}

static void cols_free(struct cols *c)
{
	free(c->cpu);
	free(c->v);
}

/* A sparse per-CPU list (CPUs at 0 left out) into c->v, by column. */
static void cols_fill(struct cols *c, const struct kstat_cpu_count *pc,
		      uint32_t nr)
{
	size_t i, k = 0;
	uint32_t j;

	memset(c->v, 0, c->nr * sizeof(*c->v));
	for (j = 0; pc && j < nr; j++) {
		/* both ascending: a merge; a CPU not online is not a column */
		while (k < c->nr && c->cpu[k] < (int)pc[j].cpu)
			k++;
		if (k < c->nr && c->cpu[k] == (int)pc[j].cpu)
			c->v[k] = pc[j].count;
		else
			for (i = 0; i < c->nr; i++)	/* not sorted after all */
				if (c->cpu[i] == (int)pc[j].cpu)
					c->v[i] = pc[j].count;
	}
}

/*
 * ,devices="...",info="...",type="IRQ"} of one IRQ: irq_info_devices()'s
 * node_exporter split of its /proc/interrupts text, the filter's too.
 * Without labels (not loaded yet) both are "".
 */
static void node_irq_labels(struct buf *b, const struct kstat_irq *l,
			    uint32_t irq)
{
	struct buf t = { 0 };
	size_t devices;

	if (irq_info_devices(&t, l, NAMES_NODE, &devices)) {
		buf_write(b, ",devices=\"", 10);
		buf_label(b, t.p + devices);
		buf_write(b, "\",info=\"", 8);
		buf_label(b, t.p);
		buf_printf(b, "\",type=\"%u\"}", irq);
	} else {
		b->oom = true;
	}
	buf_free(&t);
}

/*
 * x86's rows that /proc/interrupts prints only while their vector is in
 * use, which a module cannot tell (kernel/arch.c): left out while zero on
 * every CPU, as /proc most likely leaves them out.
 */
static bool arch_maybe_hidden(const char *name)
{
	static const char *const rows[] = { "PLT", "HYP", "HRE", "HVS" };
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(name, rows[i]))
			return true;
	return false;
}

/*
 * x86's ERR and MIS have one count for all CPUs: node_exporter leaves
 * such rows out (fewer columns than CPUs).
 */
static bool arch_global(const char *name)
{
	return !strcmp(name, "ERR") || !strcmp(name, "MIS");
}

/*
 * One row's series, one per column: prefix cpu="ID" then @rest.  With
 * --no-zeros a column whose count is 0 has none, as node_exporter's
 * --no-collector.interrupts.include-zeros.
 */
static void node_interrupt_row(struct buf *b, const struct meta *m,
			       const struct cols *c, const struct buf *rest)
{
	static const char name[] = "node_interrupts_total{cpu=\"";
	size_t k;

	for (k = 0; k < c->nr; k++) {
		if (!value_kept(m, c->v[k]))
			continue;
		buf_write(b, name, sizeof(name) - 1);
		buf_printf(b, "%d\"", c->cpu[k]);
		buf_write(b, rest->p, rest->len);
		put_count(b, c->v[k]);
	}
}

static void node_irqs(struct buf *b, const struct kstat_sample *n,
		      struct meta *m, const struct counter_guard *g,
		      struct cols *c)
{
	const struct kstat_irq *q;
	const struct kstat_arch *a;
	struct guard_percpu pc;
	struct buf rest = { 0 };
	size_t i, k;
	bool any;

	family(b, "node_interrupts_total", "counter", "Interrupt details.");
	for (i = 0; i < n->nr_irqs; i++) {
		q = kstat_sample_irq(n, i);
		if (!irq_shown(m, q) || !irq_kept(m, NAMES_NODE, q->irq))
			continue;
		pc = guard_percpu(g, i);
		for (k = 0; k < c->nr; k++)
			c->v[k] = pc.v && c->cpu[k] >= 0 &&
				  (uint32_t)c->cpu[k] < pc.nr ?
				  pc.v[c->cpu[k]] : 0;
		rest.len = 0;
		node_irq_labels(&rest, irq_label(&m->labels, q->irq), q->irq);
		node_interrupt_row(b, m, c, &rest);
	}
	for (i = 0; i < n->nr_arch; i++) {
		a = kstat_sample_arch(n, i);
		if (!a->name || arch_global(a->name) || !arch_kept(m, i, a))
			continue;
		cols_fill(c, a->percpu, a->nr_percpu);
		for (any = false, k = 0; k < c->nr; k++)
			any |= c->v[k] != 0;
		if (!any && arch_maybe_hidden(a->name))
			continue;
		rest.len = 0;
		buf_write(&rest, ",devices=\"\",info=\"", 18);
		buf_label(&rest, a->desc);
		buf_write(&rest, "\",type=\"", 8);
		buf_label(&rest, a->name);
		buf_write(&rest, "\"}", 2);
		if (rest.oom)
			b->oom = true;
		node_interrupt_row(b, m, c, &rest);
	}
	buf_free(&rest);
	family(b, "node_intr_total", "counter",
	       "Total number of interrupts serviced.");
	buf_printf(b, "node_intr_total %" PRIu64 "\n", n->intr_sum);
}

static void node_softirqs(struct buf *b, const struct kstat_sample *n,
			  struct cols *c)
{
	const struct kstat_softirq *v;
	size_t i, k;

	family(b, "node_softirqs_total", "counter", "Number of softirq calls.");
	for (i = 0; i < n->nr_softirqs; i++) {
		v = kstat_sample_softirq(n, i);
		buf_write(b, "node_softirqs_total{vector=\"", 28);
		put_vector(b, v->name ? v->name : "");
		buf_write(b, "\"}", 2);
		put_count(b, v->count);
	}
	family(b, "node_softirqs_functions_total", "counter",
	       "Softirq counts per CPU.");
	for (i = 0; i < n->nr_softirqs; i++) {
		v = kstat_sample_softirq(n, i);
		cols_fill(c, v->percpu, v->nr_percpu);
		for (k = 0; k < c->nr; k++) {
			buf_printf(b, "node_softirqs_functions_total{cpu=\"%d\",type=\"",
				   c->cpu[k]);
			buf_label(b, v->name ? v->name : "");
			buf_write(b, "\"}", 2);
			put_count(b, c->v[k]);
		}
	}
}

void render_node(struct buf *b, const struct kstat_sample *n,
		 struct meta *m, const struct counter_guard *g)
{
	struct cols c = { 0 };

	if (!cols_init(&c, n)) {
		b->oom = true;
		goto out;
	}
	if (n->sections & KSTAT_SECTION_CPU)
		node_cpus(b, n);
	if (n->sections & KSTAT_SECTION_IRQ) {
		node_irqs(b, n, m, g, &c);
		render_arch_unread(b, n);
	}
	if (n->sections & KSTAT_SECTION_SOFTIRQ)
		node_softirqs(b, n, &c);
out:
	cols_free(&c);
}
