// SPDX-License-Identifier: GPL-2.0
/*
 * The kstat naming (the default, export-render.h): kstat_cpu_seconds_total,
 * kstat_interrupts_total per IRQ with node_exporter's labels and the parts
 * of them on their own, kstat_interrupts_cpu_total with --percpu,
 * kstat_arch_interrupts_total, kstat_intr_total, kstat_softirqs_total.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export-render.h"
#include "print.h"
#include "utils.h"

static void render_cpus(struct buf *b, const struct kstat_sample *n)
{
	static const char guest[] = "kstat_cpu_guest_seconds_total";
	static const char cpu[] = "kstat_cpu_seconds_total";
	const struct kstat_cputime *t;
	size_t i;
	int f;

	/* the rows only: Prometheus sums the total itself */
	family(b, cpu, "counter", "Seconds the CPUs spent in each mode.");
	for (i = 0; i < n->nr_cpus; i++) {
		t = kstat_sample_cpu(n, i);
		for (f = KSTAT_CPUTIME_USER; f <= KSTAT_CPUTIME_STEAL; f++) {
			buf_printf(b, "%s{cpu=\"%d\",mode=\"%s\"} ", cpu,
				   t->cpu, kstat_cputime_name(f));
			put_seconds(b, t->ns[f]);
		}
	}
	family(b, guest, "counter",
	       "Seconds the CPUs spent running guests (also counted in user and nice).");
	for (i = 0; i < n->nr_cpus; i++) {
		t = kstat_sample_cpu(n, i);
		buf_printf(b, "%s{cpu=\"%d\",mode=\"user\"} ", guest, t->cpu);
		put_seconds(b, t->ns[KSTAT_CPUTIME_GUEST]);
		buf_printf(b, "%s{cpu=\"%d\",mode=\"nice\"} ", guest, t->cpu);
		put_seconds(b, t->ns[KSTAT_CPUTIME_GUEST_NICE]);
	}
}

/* The actions of @l joined by @sep, each escaped. */
static void put_actions(struct buf *b, const struct kstat_irq *l,
			const char *sep)
{
	size_t i;

	for (i = 0; l && i < l->nr_actions; i++) {
		if (i)
			buf_write(b, sep, strlen(sep));
		buf_label(b, l->actions[i]);
	}
}

/*
 * node_exporter's node_interrupts_total labels, from the same fields:
 * type (the IRQ number), info (the chip), devices (the rest of the
 * /proc/interrupts line: "HWIRQ-FLOW ACTION, ACTION", irq_info_devices()
 * as the filter sees it); and each of those on its own: hwirq, flow,
 * actions (comma-separated).  The fields are those kstat irq show prints
 * (struct kstat_irq, irq_type()); all empty for an IRQ without labels.
 */
static void put_irq_labels(struct buf *b, const struct meta *m, uint32_t irq)
{
	const struct kstat_irq *l = irq_label(&m->labels, irq);
	struct buf t = { 0 };
	char hwirq[24] = "";
	size_t devices;

	if (!irq_info_devices(&t, l, NAMES_KSTAT, &devices)) {
		b->oom = true;
		goto out;
	}
	if (l && l->has_hwirq)
		snprintf(hwirq, sizeof(hwirq), "%" PRIu64, l->hwirq);
	buf_printf(b, "{type=\"%u\",info=\"", irq);
	buf_label(b, t.p);
	buf_write(b, "\",devices=\"", 11);
	buf_label(b, t.p + devices);
	buf_printf(b, "\",hwirq=\"%s\",flow=\"", hwirq);
	buf_label(b, l ? irq_type(l) : "");
	buf_write(b, "\",actions=\"", 11);
	put_actions(b, l, ",");
	buf_write(b, "\"}", 2);
out:
	buf_free(&t);
}

/*
 * put_irq_labels() through the cache in @m; uncached (as before) when it
 * cannot grow.
 */
static void put_irq_labels_cached(struct buf *b, struct meta *m, uint32_t irq)
{
	size_t start = m->set_text.len, cap = m->set_cap;

	if (irq >= m->set_cap &&
	    (!grow_array((void **)&m->set_off, &cap, (size_t)irq + 1,
			 sizeof(*m->set_off)) ||
	     !grow_array((void **)&m->set_len, &m->set_cap, cap,
			 sizeof(*m->set_len)))) {
		put_irq_labels(b, m, irq);
		return;
	}
	if (!m->set_len[irq]) {
		put_irq_labels(&m->set_text, m, irq);
		if (m->set_text.oom || m->set_text.len - start > UINT32_MAX ||
		    start > UINT32_MAX) {
			meta_sets_clear(m);
			put_irq_labels(b, m, irq);
			return;
		}
		m->set_off[irq] = start;
		m->set_len[irq] = m->set_text.len - start;
	}
	buf_write(b, m->set_text.p + m->set_off[irq], m->set_len[irq]);
}

/*
 * From the guard: the kernel's 32-bit counts, extended to 64 bits.  With
 * --no-zeros a CPU whose count is 0 has no series, as node_exporter's
 * per-CPU node_interrupts_total.
 */
static void render_irq_percpu(struct buf *b, const struct kstat_sample *n,
			      struct meta *m, const struct counter_guard *g)
{
	static const char name[] = "kstat_interrupts_cpu_total";
	const struct kstat_irq *q;
	struct guard_percpu pc;
	uint32_t c;
	size_t i;

	family(b, name, "counter",
	       "Interrupts per IRQ and CPU (the kernel's 32-bit per-CPU counters, wraps carried).");
	for (i = 0; i < n->nr_irqs; i++) {
		q = kstat_sample_irq(n, i);
		if (!irq_shown(m, q) || !irq_kept(m, NAMES_KSTAT, q->irq))
			continue;
		pc = guard_percpu(g, i);
		for (c = 0; pc.v && c < pc.nr; c++) {
			if (!value_kept(m, pc.v[c]))
				continue;
			buf_printf(b, "%s{type=\"%u\",cpu=\"%u\"} %" PRIu64 "\n",
				   name, q->irq, c, pc.v[c]);
		}
	}
}

static void render_irqs(struct buf *b, const struct kstat_sample *n,
			struct meta *m, const struct counter_guard *g,
			bool percpu)
{
	const struct kstat_irq *q;
	const struct kstat_arch *a;
	size_t i;

	family(b, "kstat_interrupts_total", "counter",
	       "Interrupts per IRQ, all CPUs together.");
	for (i = 0; i < n->nr_irqs; i++) {
		q = kstat_sample_irq(n, i);
		if (!irq_shown(m, q) || !irq_kept(m, NAMES_KSTAT, q->irq) ||
		    !value_kept(m, q->count))
			continue;
		buf_write(b, "kstat_interrupts_total", 22);
		put_irq_labels_cached(b, m, q->irq);
		put_count(b, q->count);
	}
	if (percpu)
		render_irq_percpu(b, n, m, g);
	family(b, "kstat_arch_interrupts_total", "counter",
	       "Architecture interrupt counters (x86: NMI, LOC, ...), all CPUs together.");
	for (i = 0; i < n->nr_arch; i++) {
		a = kstat_sample_arch(n, i);
		if (!arch_kept(m, i, a) || !value_kept(m, a->count))
			continue;
		buf_write(b, "kstat_arch_interrupts_total{type=\"", 34);
		buf_label(b, a->name);
		buf_write(b, "\",info=\"", 8);
		buf_label(b, a->desc);
		buf_printf(b, "\"} %" PRIu64 "\n", a->count);
	}
	render_arch_unread(b, n);
	family(b, "kstat_intr_total", "counter",
	       "Interrupts of every IRQ and reported arch counter (the intr line of /proc/stat, less kstat_arch_interrupts_unread's MCE, MCP and ERR).");
	buf_printf(b, "kstat_intr_total %" PRIu64 "\n", n->intr_sum);
}

static void render_softirqs(struct buf *b, const struct kstat_sample *n)
{
	size_t i;

	family(b, "kstat_softirqs_total", "counter",
	       "Softirqs run per vector, all CPUs together.");
	for (i = 0; i < n->nr_softirqs; i++) {
		const struct kstat_softirq *v = kstat_sample_softirq(n, i);

		buf_write(b, "kstat_softirqs_total{vector=\"", 29);
		put_vector(b, v->name ? v->name : "");
		buf_printf(b, "\"} %" PRIu64 "\n", v->count);
	}
}

void render_kstat(struct buf *b, const struct kstat_sample *n, struct meta *m,
		  const struct counter_guard *g, bool percpu)
{
	if (n->sections & KSTAT_SECTION_CPU)
		render_cpus(b, n);
	if (n->sections & KSTAT_SECTION_IRQ)
		render_irqs(b, n, m, g, percpu);
	if (n->sections & KSTAT_SECTION_SOFTIRQ)
		render_softirqs(b, n);
}
