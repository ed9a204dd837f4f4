// SPDX-License-Identifier: GPL-2.0
/*
 * A summary sample kept past its callback; see sample.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sample.h"
#include "utils.h"

/* Strings change rarely (arch descriptions, never softirq names). */
static bool set_str(char **dst, const char *src)
{
	if (!src)
		src = "";
	if (*dst && !strcmp(*dst, src))
		return true;
	free(*dst);
	*dst = strdup(src);
	return *dst != NULL;
}

static bool copy_irqs(struct sample_copy *d, const struct kstat_sample *s)
{
	struct kstat_sample *n = &d->s;
	size_t i, nr_percpu = 0, at = 0;

	for (i = 0; i < s->nr_irqs; i++)
		if (s->irqs[i].percpu)
			nr_percpu += s->irqs[i].nr_percpu;
	if (!grow_array((void **)&n->irqs, &d->cap_irqs, s->nr_irqs,
			sizeof(*n->irqs)) ||
	    !grow_array((void **)&d->percpu, &d->cap_percpu, nr_percpu,
			sizeof(*d->percpu)))
		return false;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = &s->irqs[i];

		n->irqs[i] = (struct kstat_irq){ .irq = q->irq,
						 .count = q->count };
		if (!q->percpu)
			continue;
		n->irqs[i].percpu = d->percpu + at;
		n->irqs[i].nr_percpu = q->nr_percpu;
		memcpy(d->percpu + at, q->percpu,
		       q->nr_percpu * sizeof(*d->percpu));
		at += q->nr_percpu;
	}
	n->nr_irqs = s->nr_irqs;
	return true;
}

static bool copy_rows(struct sample_copy *d, const struct kstat_sample *s)
{
	struct kstat_sample *n = &d->s;
	size_t i;

	if (!grow_array((void **)&n->softirqs, &d->cap_softirqs,
			s->nr_softirqs, sizeof(*n->softirqs)) ||
	    !grow_array((void **)&n->arch, &d->cap_arch, s->nr_arch,
			sizeof(*n->arch)))
		return false;
	for (i = 0; i < s->nr_softirqs; i++) {
		n->softirqs[i].vec = s->softirqs[i].vec;
		n->softirqs[i].count = s->softirqs[i].count;
		if (!set_str(&n->softirqs[i].name, s->softirqs[i].name))
			return false;
	}
	n->nr_softirqs = s->nr_softirqs;
	for (i = 0; i < s->nr_arch; i++) {
		n->arch[i].count = s->arch[i].count;
		if (!set_str(&n->arch[i].name, s->arch[i].name) ||
		    !set_str(&n->arch[i].desc, s->arch[i].desc))
			return false;
	}
	n->nr_arch = s->nr_arch;
	return true;
}

int sample_copy(struct sample_copy *d, const struct kstat_sample *s)
{
	struct kstat_sample *n = &d->s;

	d->valid = false;
	if (!grow_array((void **)&n->cpus, &d->cap_cpus, s->nr_cpus,
			sizeof(*n->cpus)) ||
	    !copy_irqs(d, s) || !copy_rows(d, s))
		return -1;
	memcpy(n->cpus, s->cpus, s->nr_cpus * sizeof(*n->cpus));
	n->nr_cpus = s->nr_cpus;
	n->seq = s->seq;
	n->timestamp_ns = s->timestamp_ns;
	n->generation = s->generation;
	n->keyframe = s->keyframe;
	n->config_changed = s->config_changed;
	n->config = s->config;
	n->sections = s->sections;
	n->intr_sum = s->intr_sum;
	d->valid = true;
	return 0;
}

void sample_copy_free(struct sample_copy *d)
{
	size_t i;

	for (i = 0; i < d->cap_softirqs; i++)
		free(d->s.softirqs[i].name);
	for (i = 0; i < d->cap_arch; i++) {
		free(d->s.arch[i].name);
		free(d->s.arch[i].desc);
	}
	free(d->s.cpus);
	free(d->s.irqs);
	free(d->s.softirqs);
	free(d->s.arch);
	free(d->percpu);
	memset(d, 0, sizeof(*d));
}

const struct kstat_irq *sample_irq(const struct kstat_sample *s, uint32_t irq)
{
	size_t lo = 0, hi = s->nr_irqs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->irqs[mid].irq == irq)
			return &s->irqs[mid];
		if (s->irqs[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct kstat_cputime *sample_cpu(const struct kstat_sample *s, int cpu)
{
	size_t i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

const struct kstat_softirq *sample_softirq(const struct kstat_sample *s,
					   uint32_t vec)
{
	size_t i;

	for (i = 0; i < s->nr_softirqs; i++)
		if (s->softirqs[i].vec == vec)
			return &s->softirqs[i];
	return NULL;
}
