/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libkstat internals shared between the request side and the parsers. */
#ifndef LIBKSTAT_INTERNAL_H
#define LIBKSTAT_INTERNAL_H

#include "libkstat.h"

/* Free what a list holds and zero it, keeping the list itself. */
void kstat_cpu_list_clear(struct kstat_cpu_list *l);
void kstat_irq_list_clear(struct kstat_irq_list *l);
void kstat_softirq_list_clear(struct kstat_softirq_list *l);

#endif
