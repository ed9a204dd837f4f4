/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IRQ labels by IRQ number: the chip, flow type, hardware IRQ and actions
 * that `kstat watch` and `kstat export` print beside the counts.  The
 * summaries carry counts only, so both take the labels from one GET with
 * metadata, again whenever the IRQ set's generation changes.
 */
#ifndef KSTAT_CLI_IRQLABELS_H
#define KSTAT_CLI_IRQLABELS_H

#include <stddef.h>
#include <stdint.h>

struct irq_label {
	char *chip;		/* NULL: none */
	char *type;		/* flow handler, else "level" or "edge" */
	char *actions;		/* comma-separated, "" without any */
	char hwirq[24];		/* decimal, "" without a domain */
};

struct irq_labels {
	struct irq_label *v;	/* by IRQ number */
	size_t nr;
};

/*
 * Replace @l with the current labels: 0, or -1 with @l unchanged (the
 * kernel or memory failed; the counts print without new labels).
 */
int irq_labels_load(struct irq_labels *l);

void irq_labels_free(struct irq_labels *l);

/* The labels of @irq, or NULL if it had none at the last load. */
const struct irq_label *irq_label(const struct irq_labels *l, uint32_t irq);

#endif /* KSTAT_CLI_IRQLABELS_H */
