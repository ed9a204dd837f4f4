// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ labels for watch, top and export: one GET with metadata
 * (KSTAT_F_META), indexed by IRQ number.
 */
#include <stdlib.h>

#include "kstat.h"
#include "irqlabels.h"

void irq_labels_free(struct irq_labels *l)
{
	kstat_irq_list_free(l->list);
	free(l->by_irq);
	l->list = NULL;
	l->by_irq = NULL;
	l->nr = 0;
}

int irq_labels_load(struct irq_labels *l)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_handle *h = kstat_handle();
	struct irq_labels n = { 0 };
	size_t i;

	f.flags = KSTAT_F_META;
	if (!h || kstat_irq_list_get(h, &f, &n.list))
		return -1;
	for (i = 0; i < n.list->nr; i++)
		if (n.list->irqs[i].irq >= n.nr)
			n.nr = (size_t)n.list->irqs[i].irq + 1;
	n.by_irq = calloc(n.nr ? n.nr : 1, sizeof(*n.by_irq));
	if (!n.by_irq) {
		irq_labels_free(&n);
		return -1;
	}
	for (i = 0; i < n.list->nr; i++)
		n.by_irq[n.list->irqs[i].irq] = &n.list->irqs[i];
	irq_labels_free(l);
	*l = n;
	return 0;
}

const struct kstat_irq *irq_label(const struct irq_labels *l, uint32_t irq)
{
	return irq < l->nr ? l->by_irq[irq] : NULL;
}
