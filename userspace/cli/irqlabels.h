/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IRQ labels by IRQ number: the chip, hardware IRQ, flow type and actions
 * that `kstat watch`, `kstat top` and `kstat export` print beside the
 * counts.  Samples carry counts only, so they take the labels from one
 * GET with descriptions (KSTAT_F_META), again whenever the generation
 * changes.  A label is that GET's struct kstat_irq, printed by the IRQ
 * printer of print.h as `kstat irq show` prints it.
 */
#ifndef KSTAT_CLI_IRQLABELS_H
#define KSTAT_CLI_IRQLABELS_H

#include <stdint.h>

#include <libkstat.h>

struct irq_labels {
	struct kstat_sample *s;		/* the GET's answer, or NULL */
};

/*
 * Replace @l with the current labels: 0, or -1 with @l unchanged (the
 * kernel or memory failed; the counts print without new labels).
 */
int irq_labels_load(struct irq_labels *l);

void irq_labels_free(struct irq_labels *l);

/* The labels of @irq, or NULL if it had none at the last load. */
const struct kstat_irq *irq_label(const struct irq_labels *l, uint32_t irq);

#endif /* KSTAT_CLI_IRQLABELS_H */
