/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's cardinality control, as node_exporter's interrupts
 * collector has it: one regular expression that keeps (include) or drops
 * (exclude) IRQs and arch rows by "TYPE;INFO;DEVICES" (the labels of
 * node_interrupts_total, unescaped: "25;PCI-MSI;1048576-edge eth0",
 * "LOC;Local timer interrupts;"), so that node_exporter's
 * --collector.interrupts.name-include/-exclude values carry over; and
 * whether series whose value is 0 are served.  The names are built by the
 * renderers' irq_filter_text() (export-render.h), from the same text as
 * their labels; the decisions are cached with the labels (struct meta).
 *
 * The flags are the exporter's: changing them restarts the exporter, never
 * the module, and other readers are not affected.
 */
#ifndef KSTAT_CLI_EXPORT_FILTER_H
#define KSTAT_CLI_EXPORT_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct irq_filter {
	regex_t re;
	bool has_re;		/* a regex was given */
	bool exclude;		/* it drops what matches; else keeps only that */
	bool drop_zeros;	/* series whose value is 0 are not served */
};

/*
 * Compile @regex (POSIX extended, unanchored, as node_exporter's Go
 * regexp.MatchString) into @f.  0, or -1 with why in @err.
 */
int irq_filter_set(struct irq_filter *f, const char *regex, bool exclude,
		   char *err, size_t len);

void irq_filter_free(struct irq_filter *f);

/* Whether a row named @name ("TYPE;INFO;DEVICES") is served. */
bool irq_filter_keeps(const struct irq_filter *f, const char *name);

#endif
