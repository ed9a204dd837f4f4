/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's renderers: one per naming (--names), each writing the
 * data families of one sample as the Prometheus text format (0.0.4).
 *
 *   kstat (the default, export-kstat.c): kstat_* families, totals per IRQ
 *	and arch row, per-CPU IRQ counts with --percpu;
 *   node (export-node.c): node_exporter's families, label sets and
 *	semantics (node_cpu_seconds_total, node_interrupts_total per CPU,
 *	node_softirqs_functions_total, ...), so that dashboards and rules
 *	built for node_exporter work unchanged.
 *
 * A renderer reads the sample as guarded (export-counters.h: counters
 * never go back) and the IRQ labels of the last GET with descriptions;
 * the exporter's own kstat_exporter_* health lines are the same under
 * every naming (export.c).
 */
#ifndef KSTAT_CLI_EXPORT_RENDER_H
#define KSTAT_CLI_EXPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libkstat.h>

#include "export-counters.h"
#include "export-filter.h"
#include "irqlabels.h"

#define NSEC_PER_SEC	((uint64_t)1000000000)

/* A growable text buffer: out of memory sets oom and stops writing. */
struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

void buf_write(struct buf *b, const char *s, size_t n);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A label value: the names' rule of every output (invalid UTF-8 and
 * control bytes as \xHH), then the exposition format's escapes (\\ \").
 */
void buf_label(struct buf *b, const char *str);
void buf_free(struct buf *b);

/* IRQ labels, reloaded when the IRQ set changes. */
struct meta {
	struct irq_labels labels;
	bool loaded;
	uint32_t generation;	/* of the sample that asked for them */
	/*
	 * Each IRQ's label set as rendered from these labels, by IRQ
	 * number: written once, copied by every render until the labels
	 * are loaded again (len 0: not yet).  Used by the kstat naming.
	 */
	struct buf set_text;
	uint32_t *set_off, *set_len;
	size_t set_cap;
	/*
	 * The exporter's IRQ filter (NULL: none) and its decision for each
	 * IRQ (by number) and arch row (by index), made once per load of
	 * the labels as the label sets are: KEEP_* below.
	 */
	const struct irq_filter *filter;
	uint8_t *irq_keep, *arch_keep;
	size_t irq_keep_cap, arch_keep_cap;
};

/* The labels were loaded again: forget what was made from the old ones. */
void meta_sets_clear(struct meta *m);

/* "# HELP" and "# TYPE" of a family. */
void family(struct buf *b, const char *name, const char *type,
	    const char *help);
/* One unlabelled value: its family and the line. */
void own_value(struct buf *b, const char *name, const char *type,
	       const char *help, uint64_t value);
/* "@ns in seconds\n", 9 decimals. */
void put_seconds(struct buf *b, uint64_t ns);
/* " @v\n", without printf's parsing (thousands of lines per render). */
void put_count(struct buf *b, uint64_t v);
/*
 * As /proc/interrupts: an IRQ without an action (free, or chained, whose
 * action has no name) and with no count is not shown.  An IRQ whose
 * labels are not known yet is.
 */
bool irq_shown(const struct meta *m, const struct kstat_irq *q);

/*
 * A softirq vector as node_exporter's node_softirqs_total names it: the
 * kernel's name in lower case, IRQ_POLL by its pre-4.5 name block_iopoll.
 */
void put_vector(struct buf *b, const char *name);

/*
 * kstat_arch_interrupts_unread: the arch rows this kstat.ko cannot read
 * (a module: x86's MCE, MCP, ERR, MIS), one series each, so that a rule on
 * MCE can tell "none" from "not known here".  Both namings serve it:
 * node_exporter has MCE rows, so a site that turns its interrupts
 * collector off for --names node must still learn that MCEs are not
 * watched.
 */
void render_arch_unread(struct buf *b, const struct kstat_sample *n);

enum export_names {
	NAMES_KSTAT,	/* kstat_* (the default) */
	NAMES_NODE,	/* node_exporter's */
};

/*
 * The info and devices labels of an IRQ with labels @l (NULL: not known
 * yet, both "") as naming @names serves them, unescaped, into @t (emptied
 * first) as "INFO\0DEVICES\0"; DEVICES at *@devices.  info is the chip;
 * devices the rest of the /proc/interrupts line, "HWIRQ-FLOW ACTION,
 * ACTION" (the kstat naming: the flow as irq_type() names it, the "-"
 * only after a hwirq), or node_exporter's split of that line at white
 * space (the node naming: "-edge timer" without a hwirq).  Every
 * renderer's labels and the filter's names come from here.  false: out
 * of memory.
 */
bool irq_info_devices(struct buf *t, const struct kstat_irq *l,
		      enum export_names names, size_t *devices);

/*
 * The name the IRQ filter matches, as node_exporter's interrupts
 * collector builds it from the labels it serves: "TYPE;INFO;DEVICES"
 * ("25;PCI-MSI;1048576-edge eth0", unescaped), into @t.  false: out of
 * memory.
 */
bool irq_filter_text(struct buf *t, uint32_t irq, const struct kstat_irq *l,
		     enum export_names names);

/*
 * Whether IRQ @irq's series are served under naming @names: m->filter's
 * decision on its name, made once per load of the labels.  With a regex,
 * an IRQ whose labels are not known is not served: its name would be its
 * number only, and the decision could change when they come.
 */
bool irq_kept(struct meta *m, enum export_names names, uint32_t irq);

/*
 * The same for the arch row @a, the @i-th of the sample: named
 * "NAME;DESCRIPTION;" (node_exporter: info the description, devices "").
 */
bool arch_kept(struct meta *m, size_t i, const struct kstat_arch *a);

/* Whether a series of value @v is served (--no-zeros: not when 0). */
static inline bool value_kept(const struct meta *m, uint64_t v)
{
	return v || !m->filter || !m->filter->drop_zeros;
}

/*
 * The data families of @n (a guarded copy: @g holds its per-CPU IRQ counts
 * extended to 64 bits), in the sections it carries.
 */
void render_kstat(struct buf *b, const struct kstat_sample *n, struct meta *m,
		  const struct counter_guard *g, bool percpu);
void render_node(struct buf *b, const struct kstat_sample *n,
		 struct meta *m, const struct counter_guard *g);

#endif /* KSTAT_CLI_EXPORT_RENDER_H */
