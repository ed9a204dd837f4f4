// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the cpu section.  A KSTAT_A_CPU nest per CPU in CPU_GET
 * replies, packed rows (KSTAT_A_SAMPLE_CPUTIME) in samples, both stored
 * at the caller's sizeof(struct kstat_cputime) (see the ABI notes in
 * libkstat.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

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
	kstat_set_error(h, "a struct kstat_cputime of %zu bytes is invalid: pass sizeof(struct kstat_cputime) (at least %zu bytes, a multiple of 8)",
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

/* ---- samples: packed rows (KSTAT_A_SAMPLE_CPUTIME chunks) ---- */

struct cputime_chunk {
	uint32_t fields;		/* values per row */
	const struct nlattr *ids, *values, *sum;
};

static int cputime_chunk_parse(const struct nlattr *nest,
			       struct cputime_chunk *ch)
{
	const struct nlattr *a;
	int rem, err = 0;

	memset(ch, 0, sizeof(*ch));
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_CPUTIME_FIELDS:
			err = kstat_get_u32(a, &ch->fields);
			break;
		case KSTAT_A_CPUTIME_IDS:
			ch->ids = a;
			break;
		case KSTAT_A_CPUTIME_VALUES:
			ch->values = a;
			break;
		case KSTAT_A_CPUTIME_SUM:
			ch->sum = a;
			break;
		}
		if (err)
			return err;
	}
	if (rem > 0 || !ch->fields || !ch->ids != !ch->values)
		return -EBADMSG;
	if (ch->ids && (kattr_len(ch->ids) % sizeof(uint32_t) ||
			(uint64_t)kattr_len(ch->ids) / sizeof(uint32_t) *
			ch->fields * sizeof(uint64_t) !=
			(uint64_t)kattr_len(ch->values)))
		return -EBADMSG;
	if (ch->sum &&
	    (uint64_t)kattr_len(ch->sum) != (uint64_t)ch->fields * sizeof(uint64_t))
		return -EBADMSG;
	return 0;
}

/* Row @i of @vals (@fields values each) as CPU @cpu: the fields we know. */
static void cputime_row(struct kstat_cputime *c, int cpu, const void *vals,
			uint32_t fields, size_t i)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->nr_ns = fields < KSTAT_CPUTIME_NR ? fields : KSTAT_CPUTIME_NR;
	memcpy(c->ns, (const char *)vals + i * fields * sizeof(uint64_t),
	       c->nr_ns * sizeof(uint64_t));
}

static struct kstat_cputime *state_cpu(struct kstat_state *st, size_t i)
{
	return kstat_cputime_at(st->s.cpus, st->cputime_size, i);
}

/* Whether the state's CPU list ends with the sum. */
static int state_has_sum(struct kstat_state *st)
{
	return st->s.nr_cpus && state_cpu(st, st->s.nr_cpus - 1)->cpu < 0;
}

/* A delta's row replaces CPU @cpu's: its index (rows ascend), or -1. */
static ssize_t state_find_cpu(struct kstat_state *st, int cpu)
{
	size_t lo = 0, hi = st->s.nr_cpus - state_has_sum(st), mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = state_cpu(st, mid)->cpu;
		if (c == cpu)
			return mid;
		if (c < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* A keyframe appends, after the last row and before the sum. */
static int state_append_cpu(struct kstat_state *st,
			    const struct kstat_cputime *c)
{
	int err;

	if (state_has_sum(st) ||
	    (c->cpu >= 0 && st->s.nr_cpus &&
	     state_cpu(st, st->s.nr_cpus - 1)->cpu >= c->cpu))
		return -EBADMSG;
	err = kstat_reserve((void **)&st->s.cpus, &st->cap[KSTAT_SEC_cpu],
			    st->s.nr_cpus + 1, st->cputime_size);
	if (err)
		return err;
	kstat_cputime_store(state_cpu(st, st->s.nr_cpus++), st->cputime_size,
			    c);
	return 0;
}

/* A delta replaces the row it names; a CPU it does not have is -EBADMSG. */
static int state_put_cpu(struct kstat_state *st, const struct kstat_cputime *c,
			 int key)
{
	ssize_t i;

	if (key)
		return state_append_cpu(st, c);
	i = c->cpu < 0 ? (state_has_sum(st) ? (ssize_t)st->s.nr_cpus - 1 : -1) :
			 state_find_cpu(st, c->cpu);
	if (i < 0)
		return -EBADMSG;
	kstat_cputime_store(state_cpu(st, i), st->cputime_size, c);
	return 0;
}

static int cpu_apply(struct kstat_state *st, const struct nlattr *a, int key)
{
	struct cputime_chunk ch;
	struct kstat_cputime c;
	uint32_t cpu;
	size_t i, n;
	int err = cputime_chunk_parse(a, &ch);

	n = ch.ids ? kattr_len(ch.ids) / sizeof(uint32_t) : 0;
	for (i = 0; !err && i < n; i++) {
		memcpy(&cpu, (const char *)kattr_data(ch.ids) + i * sizeof(cpu),
		       sizeof(cpu));
		if (cpu > INT32_MAX)
			return -EBADMSG;
		cputime_row(&c, cpu, kattr_data(ch.values), ch.fields, i);
		err = state_put_cpu(st, &c, key);
	}
	if (!err && ch.sum) {
		cputime_row(&c, -1, kattr_data(ch.sum), ch.fields, 0);
		err = state_put_cpu(st, &c, key);
	}
	return err;
}

/* A keyframe rebuilds the list; deltas replace rows in it. */
static void cpu_reset(struct kstat_state *st)
{
	st->s.nr_cpus = 0;
}

static void cpu_free_state(struct kstat_state *st)
{
	cpu_reset(st);
	free(st->s.cpus);
	st->s.cpus = NULL;
	st->cap[KSTAT_SEC_cpu] = 0;
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
	.sample_attr = KSTAT_A_SAMPLE_CPUTIME,
	.section = KSTAT_SECTION_CPU,
	.add = cpu_add,
	.apply = cpu_apply,
	.reset = cpu_reset,
	.free_reply = cpu_free_reply,
	.free_state = cpu_free_state,
};
