// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ labels for watch and export: one GET with metadata (KSTAT_F_META),
 * kept as strings by IRQ number.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstat.h"
#include "irqlabels.h"

static char *join_actions(const struct kstat_irq *q)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < q->nr_actions; i++)
		len += strlen(q->actions[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < q->nr_actions; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, q->actions[i]);
	}
	return s;
}

/* As the "type" of kstat irq show: the flow handler, else the trigger. */
static int label_set(struct irq_label *m, const struct kstat_irq *q)
{
	const char *type = q->name && *q->name ? q->name :
			   q->level ? "level" : "edge";

	m->chip = q->chip ? strdup(q->chip) : NULL;
	m->type = strdup(type);
	m->actions = join_actions(q);
	if (q->has_hwirq)
		snprintf(m->hwirq, sizeof(m->hwirq), "%" PRIu64, q->hwirq);
	return (q->chip && !m->chip) || !m->type || !m->actions ? -1 : 0;
}

void irq_labels_free(struct irq_labels *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].chip);
		free(l->v[i].type);
		free(l->v[i].actions);
	}
	free(l->v);
	l->v = NULL;
	l->nr = 0;
}

static int labels_fill(struct irq_labels *n, const struct kstat_irq_list *list)
{
	size_t i, max = 0;

	for (i = 0; i < list->nr; i++)
		if (list->irqs[i].irq >= max)
			max = (size_t)list->irqs[i].irq + 1;
	n->v = calloc(max ? max : 1, sizeof(*n->v));
	if (!n->v)
		return -1;
	n->nr = max;
	for (i = 0; i < list->nr; i++)
		if (label_set(&n->v[list->irqs[i].irq], &list->irqs[i]))
			return -1;
	return 0;
}

int irq_labels_load(struct irq_labels *l)
{
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_handle *h = kstat_handle();
	struct irq_labels n = { 0 };
	struct kstat_irq_list *list;
	int err;

	f.flags = KSTAT_F_META;
	if (!h || kstat_irq_list_get(h, &f, &list))
		return -1;
	err = labels_fill(&n, list);
	kstat_irq_list_free(list);
	if (err) {
		irq_labels_free(&n);
		return -1;
	}
	irq_labels_free(l);
	*l = n;
	return 0;
}

const struct irq_label *irq_label(const struct irq_labels *l, uint32_t irq)
{
	return irq < l->nr ? &l->v[irq] : NULL;
}
