// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the softirq section.  SOFTIRQ_GET replies fill a struct
 * kstat_softirq_list (kstat_softirq_get()); samples replace the
 * subscriber's vector by number.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"

int kstat_parse_softirq_nest(const struct nlattr *nest, struct kstat_softirq *s)
{
	const struct nlattr *a;
	int rem, err = 0;

	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_SOFTIRQ_VEC:
			err = kstat_get_u32(a, &s->vec);
			break;
		case KSTAT_A_SOFTIRQ_NAME:
			err = kstat_get_str(a, &s->name);
			break;
		case KSTAT_A_SOFTIRQ_COUNT:
			err = kstat_get_u64(a, &s->count);
			break;
		case KSTAT_A_SOFTIRQ_PERCPU:
			err = kstat_get_percpu(a, &s->percpu, &s->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return s->name && rem <= 0 ? 0 : -EBADMSG;
}

void kstat_softirq_free(struct kstat_softirq *v)
{
	free(v->name);
	free(v->percpu);
}

static int softirq_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_softirq_list *l = r->list[KSTAT_SEC_softirq];
	int err;

	if (!l)
		return 0;
	err = kstat_grow((void **)&l->vecs, l->nr, sizeof(*l->vecs));
	if (err)
		return err;
	/* counted before it is parsed: the list's clear frees what it got */
	return kstat_parse_softirq_nest(a, &l->vecs[l->nr++]);
}

void kstat_softirq_list_clear(struct kstat_softirq_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		kstat_softirq_free(&l->vecs[i]);
	free(l->vecs);
	free(l->online);
	memset(l, 0, sizeof(*l));
}

void kstat_softirq_list_free(struct kstat_softirq_list *l)
{
	if (!l)
		return;
	kstat_softirq_list_clear(l);
	free(l);
}

int kstat_softirq_get(struct kstat_handle *h, const struct kstat_filter *f,
		      struct kstat_softirq_list **out)
{
	struct kstat_softirq_list *l = calloc(1, sizeof(*l));
	struct kstat_reply reply = { .list[KSTAT_SEC_softirq] = l };
	uint32_t cpu_first;
	int err;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	err = kstat_section_get(h, KSTAT_CMD_SOFTIRQ_GET, 0, f, &reply,
				&cpu_first);
	if (err) {
		kstat_softirq_list_free(l);
		return err;
	}
	l->cpu_first = cpu_first;
	*out = l;
	return 0;
}

static void softirq_free_reply(struct kstat_reply *r)
{
	struct kstat_softirq_list *l = r->list[KSTAT_SEC_softirq];

	if (l)
		kstat_softirq_list_clear(l);
}

/* The state's slot for vector @vec: its old value freed, or a new one. */
static struct kstat_softirq *softirq_entry(struct kstat_state *st,
					   uint32_t vec, int *err)
{
	size_t i;

	for (i = 0; i < st->s.nr_softirqs; i++) {
		if (st->s.softirqs[i].vec == vec) {
			kstat_softirq_free(&st->s.softirqs[i]);
			return &st->s.softirqs[i];
		}
	}
	*err = st->s.nr_softirqs >= 64 ? -EBADMSG :	/* no kernel has more */
	       kstat_reserve((void **)&st->s.softirqs, &st->cap[KSTAT_SEC_softirq],
			     st->s.nr_softirqs + 1, sizeof(*st->s.softirqs));
	return *err ? NULL : &st->s.softirqs[st->s.nr_softirqs++];
}

static int softirq_apply(struct kstat_state *st, const struct nlattr *a,
			 int key)
{
	struct kstat_softirq v = { 0 }, *dst;
	int err = kstat_parse_softirq_nest(a, &v);

	(void)key;
	dst = err ? NULL : softirq_entry(st, v.vec, &err);
	if (!dst) {
		kstat_softirq_free(&v);
		return err;
	}
	*dst = v;
	return 0;
}

/* A keyframe rebuilds the vectors; the array is kept for them. */
static void softirq_reset(struct kstat_state *st)
{
	size_t i;

	for (i = 0; i < st->s.nr_softirqs; i++)
		kstat_softirq_free(&st->s.softirqs[i]);
	st->s.nr_softirqs = 0;
}

static void softirq_free_state(struct kstat_state *st)
{
	softirq_reset(st);
	free(st->s.softirqs);
	st->s.softirqs = NULL;
	st->cap[KSTAT_SEC_softirq] = 0;
}

const struct kstat_section kstat_section_softirq = {
	.name = "softirq",
	.reply_attr = KSTAT_A_SOFTIRQ,
	.sample_attr = KSTAT_A_SAMPLE_SOFTIRQ,
	.section = KSTAT_SECTION_SOFTIRQ,
	.add = softirq_add,
	.apply = softirq_apply,
	.reset = softirq_reset,
	.free_reply = softirq_free_reply,
	.free_state = softirq_free_state,
};
