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
};

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
 * The data families of @n (a guarded copy: @g holds its per-CPU IRQ counts
 * extended to 64 bits), in the sections it carries.
 */
void render_kstat(struct buf *b, const struct kstat_sample *n, struct meta *m,
		  const struct counter_guard *g, bool percpu);
void render_node(struct buf *b, const struct kstat_sample *n,
		 const struct meta *m, const struct counter_guard *g);

#endif /* KSTAT_CLI_EXPORT_RENDER_H */
