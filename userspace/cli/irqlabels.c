// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ labels for watch, top and export: one GET with descriptions.
 */
#include "kstat.h"
#include "irqlabels.h"

void irq_labels_free(struct irq_labels *l)
{
	kstat_sample_free(l->s);
	l->s = NULL;
}

int irq_labels_load(struct irq_labels *l)
{
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_handle *h = kstat_handle();
	struct kstat_sample *s;

	q.sections = KSTAT_SECTION_IRQ;
	q.flags = KSTAT_F_META;
	if (!h || kstat_get(h, &q, &s))
		return -1;
	irq_labels_free(l);
	l->s = s;
	return 0;
}

const struct kstat_irq *irq_label(const struct irq_labels *l, uint32_t irq)
{
	return l->s ? kstat_sample_find_irq(l->s, irq) : NULL;
}
