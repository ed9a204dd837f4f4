// SPDX-License-Identifier: GPL-2.0
/*
 * A sample kept past its callback; see sample.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sample.h"
#include "utils.h"

static size_t str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/* @src into the string block at *@at, or NULL for NULL. */
static const char *put_str(struct sample_copy *d, size_t *at, const char *src)
{
	char *p = d->strings + *at;

	if (!src)
		return NULL;
	memcpy(p, src, strlen(src) + 1);
	*at += strlen(src) + 1;
	return p;
}

/* @n counts of @src into the per-CPU block at *@pat, or NULL for NULL. */
static const struct kstat_cpu_count *put_percpu(struct sample_copy *d,
						size_t *pat,
						const struct kstat_cpu_count *src,
						uint32_t n)
{
	struct kstat_cpu_count *p = d->percpu + *pat;

	if (!src)
		return NULL;
	memcpy(p, src, n * sizeof(*p));
	*pat += n;
	return p;
}

#define GROW(d, arr, cap, n) \
	grow_array((void **)&(d)->arr, &(d)->cap, (n), sizeof(*(d)->arr))

int sample_copy(struct sample_copy *d, const struct kstat_sample *s)
{
	size_t i, nr_percpu = 0, nr_str = str_size(s->arch_unread), at = 0,
	       pat = 0;

	d->valid = false;
	for (i = 0; i < s->nr_irqs; i++)
		nr_percpu += kstat_sample_irq(s, i)->nr_percpu;
	for (i = 0; i < s->nr_softirqs; i++) {
		nr_str += str_size(kstat_sample_softirq(s, i)->name);
		nr_percpu += kstat_sample_softirq(s, i)->nr_percpu;
	}
	for (i = 0; i < s->nr_arch; i++) {
		nr_str += str_size(kstat_sample_arch(s, i)->name) +
			  str_size(kstat_sample_arch(s, i)->desc);
		nr_percpu += kstat_sample_arch(s, i)->nr_percpu;
	}
	if (!GROW(d, cpus, cap_cpus, s->nr_cpus + 1) ||
	    !GROW(d, irqs, cap_irqs, s->nr_irqs) ||
	    !GROW(d, softirqs, cap_softirqs, s->nr_softirqs) ||
	    !GROW(d, arch, cap_arch, s->nr_arch) ||
	    !GROW(d, percpu, cap_percpu, nr_percpu + 1) ||
	    !GROW(d, strings, cap_strings, nr_str) ||
	    !GROW(d, online, cap_online, s->online_len + 1))
		return -1;
	if (s->online)
		memcpy(d->online, s->online, s->online_len);

	d->s = (struct kstat_sample){
		.size = sizeof(d->s), .seq = s->seq,
		.timestamp_ns = s->timestamp_ns, .generation = s->generation,
		.sections = s->sections, .from_get = s->from_get,
		.cpu_first = s->cpu_first,
		.cpus = d->cpus, .nr_cpus = s->nr_cpus,
		.cputime_size = sizeof(*d->cpus),
		.irqs = d->irqs, .nr_irqs = s->nr_irqs,
		.irq_size = sizeof(*d->irqs),
		.arch = d->arch, .nr_arch = s->nr_arch,
		.arch_size = sizeof(*d->arch),
		.intr_sum = s->intr_sum, .kernel_nr_irqs = s->kernel_nr_irqs,
		.arch_unread = put_str(d, &at, s->arch_unread),
		.softirqs = d->softirqs, .nr_softirqs = s->nr_softirqs,
		.softirq_size = sizeof(*d->softirqs),
		.online = s->online ? d->online : NULL,
		.online_len = s->online ? s->online_len : 0,
	};
	for (i = 0; i < s->nr_cpus; i++)
		d->cpus[i] = *kstat_sample_cpu(s, i);
	if (s->cpu_total) {
		d->cpus[s->nr_cpus] = *s->cpu_total;
		d->s.cpu_total = &d->cpus[s->nr_cpus];
	}
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);

		d->irqs[i] = (struct kstat_irq){ .irq = q->irq,
			.count = q->count, .nr_percpu = q->percpu ? q->nr_percpu : 0,
			.percpu = put_percpu(d, &pat, q->percpu, q->nr_percpu) };
	}
	for (i = 0; i < s->nr_softirqs; i++) {
		const struct kstat_softirq *v = kstat_sample_softirq(s, i);

		d->softirqs[i] = (struct kstat_softirq){ .vec = v->vec,
			.count = v->count, .name = put_str(d, &at, v->name),
			.nr_percpu = v->percpu ? v->nr_percpu : 0,
			.percpu = put_percpu(d, &pat, v->percpu, v->nr_percpu) };
	}
	for (i = 0; i < s->nr_arch; i++) {
		const struct kstat_arch *a = kstat_sample_arch(s, i);

		d->arch[i] = (struct kstat_arch){ .count = a->count,
			.name = put_str(d, &at, a->name),
			.desc = put_str(d, &at, a->desc),
			.nr_percpu = a->percpu ? a->nr_percpu : 0,
			.percpu = put_percpu(d, &pat, a->percpu, a->nr_percpu) };
	}
	d->valid = true;
	return 0;
}

void sample_copy_free(struct sample_copy *d)
{
	free(d->cpus);
	free(d->irqs);
	free(d->softirqs);
	free(d->arch);
	free(d->percpu);
	free(d->strings);
	free(d->online);
	memset(d, 0, sizeof(*d));
}

const struct kstat_cputime *sample_cpu(const struct kstat_sample *s, int cpu)
{
	size_t i;

	if (cpu < 0)
		return s->cpu_total;
	for (i = 0; i < s->nr_cpus; i++)
		if (kstat_sample_cpu(s, i)->cpu == cpu)
			return kstat_sample_cpu(s, i);
	return NULL;
}

const struct kstat_softirq *sample_softirq(const struct kstat_sample *s,
					   uint32_t vec)
{
	size_t i;

	for (i = 0; i < s->nr_softirqs; i++)
		if (kstat_sample_softirq(s, i)->vec == vec)
			return kstat_sample_softirq(s, i);
	return NULL;
}
