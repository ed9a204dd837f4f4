// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the cpu section.  A KSTAT_A_CPU nest per CPU in CPU_GET
 * replies and KSTAT_A_SAMPLE_CPU in samples, both stored at the caller's
 * sizeof(struct kstat_cputime) (see the ABI notes in libkstat.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"

int kstat_parse_cpu_nest(const struct nlattr *nest, struct kstat_cputime *c)
{
	const struct nlattr *a;
	uint32_t cpu = 0;
	int rem, t, err = 0;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	c->nr_ns = KSTAT_CPUTIME_NR;
	kattr_for_each_nested(a, nest, rem) {
		t = kattr_type(a);
		if (t == KSTAT_A_CPU_ID) {
			err = kstat_get_u32(a, &cpu);
			if (!err && cpu > INT32_MAX)
				err = -EBADMSG;
			c->cpu = cpu;
		} else if (t >= KSTAT_A_CPU_USER && t <= KSTAT_A_CPU_GUEST_NICE) {
			err = kstat_get_u64(a, &c->ns[t - KSTAT_A_CPU_USER]);
		}
		if (err)
			return err;
	}
	return rem > 0 ? -EBADMSG : 0;
}

int kstat_cputime_size_check(struct kstat_handle *h, size_t size)
{
	if (size >= KSTAT_CPUTIME_SIZE_1_0 && size % sizeof(uint64_t) == 0)
		return 0;
	kstat_set_error(h, "a struct kstat_cputime of %zu bytes is invalid: pass sizeof(struct kstat_cputime) (at least %d bytes, a multiple of 8)",
			size, KSTAT_CPUTIME_SIZE_1_0);
	return -EINVAL;
}

void kstat_cputime_store(void *dst, size_t size, const struct kstat_cputime *c)
{
	struct kstat_cputime t = *c;
	size_t slots = (size - offsetof(struct kstat_cputime, ns)) /
		       sizeof(t.ns[0]);

	if (size == sizeof(t)) {	/* the common case: same header */
		memcpy(dst, c, sizeof(t));
		return;
	}
	if (slots < t.nr_ns)
		t.nr_ns = slots;
	kstat_copy_out(dst, size, &t, sizeof(t));
}

void kstat_cpu_list_clear(struct kstat_cpu_list *l)
{
	size_t stride = l->cputime_size;

	free(l->cpus);
	memset(l, 0, sizeof(*l));
	l->cputime_size = stride;
}

void kstat_cpu_list_free(struct kstat_cpu_list *l)
{
	if (!l)
		return;
	kstat_cpu_list_clear(l);
	free(l);
}

static int cpu_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_cpu_list *l = r->list[KSTAT_SEC_cpu];
	size_t stride;
	struct kstat_cputime c;
	int err;

	if (!l)
		return 0;
	stride = l->cputime_size ? l->cputime_size : sizeof(c);
	err = kstat_parse_cpu_nest(a, &c);
	if (!err)
		err = kstat_grow((void **)&l->cpus, l->nr, stride);
	if (err)
		return err;
	kstat_cputime_store(kstat_cputime_at(l->cpus, stride, l->nr++), stride,
			    &c);
	return 0;
}

/* A sample's CPUs replace the last sample's: the first one restarts the list. */
static int cpu_apply(struct kstat_state *st, const struct nlattr *a, int key)
{
	struct kstat_cputime c;
	int err;

	(void)key;
	if (!st->cpus_reset) {
		st->s.nr_cpus = 0;
		st->cpus_reset = 1;
	}
	err = kstat_parse_cpu_nest(a, &c);
	if (!err)
		err = kstat_reserve((void **)&st->s.cpus, &st->cap[KSTAT_SEC_cpu],
				    st->s.nr_cpus + 1, st->cputime_size);
	if (err)
		return err;
	kstat_cputime_store(kstat_cputime_at(st->s.cpus, st->cputime_size,
					     st->s.nr_cpus++),
			    st->cputime_size, &c);
	return 0;
}

static void cpu_free_reply(struct kstat_reply *r)
{
	struct kstat_cpu_list *l = r->list[KSTAT_SEC_cpu];

	if (l)
		kstat_cpu_list_clear(l);
}

const struct kstat_section kstat_section_cpu = {
	.name = "cpu",
	.reply_attr = KSTAT_A_CPU,
	.sample_attr = KSTAT_A_SAMPLE_CPU,
	.section = KSTAT_SECTION_CPU,
	.add = cpu_add,
	.apply = cpu_apply,
	.free_reply = cpu_free_reply,
};
