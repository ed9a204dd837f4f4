// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the one parser.  GET replies and SUMMARY_NTF parts have one
 * shape (docs/protocol.md, "Objects"), and both are read here into a
 * struct kstat_build, message by message, then made a struct
 * kstat_sample by kstat_build_finish().
 *
 * Every length is checked before it is read, and attributes a newer
 * module adds are skipped.  What breaks the protocol (arrays of lengths
 * that disagree, IRQs or CPUs out of order, a record running past its
 * array) is -EBADMSG, never half a sample.
 *
 * The arrays grow in place, at the library's element sizes; per-CPU
 * lists, strings and action lists go to one pool.  Its addresses change
 * as it grows, so the elements hold offsets into it (+ 1, 0 for none)
 * until the sample is whole, and only then pointers.
 */
#include <stdlib.h>
#include <linux/genetlink.h>

#include "internal.h"

/* An IRQ's description (KSTAT_A_IRQ), merged into its IRQ at the end. */
struct kstat_meta {
	uint32_t irq;
	uint32_t nr_actions;
	size_t chip, name, actions;	/* pool offsets + 1 */
	uint64_t hwirq;
	int has_hwirq, level;
};

#define OFF(off)	((void *)(uintptr_t)(off))

static int arr_reserve(struct kstat_arr *a, size_t size, size_t more)
{
	size_t cap = a->cap ? a->cap : 16;
	void *p;

	if (a->nr + more <= a->cap)
		return 0;
	if (more > SIZE_MAX / size / 2 - a->nr)
		return -ENOMEM;
	while (cap < a->nr + more)
		cap *= 2;
	p = realloc(a->p, cap * size);
	if (!p)
		return -ENOMEM;
	a->p = p;
	a->cap = cap;
	return 0;
}

/* A new element, zeroed, or NULL. */
static void *arr_push(struct kstat_arr *a, size_t size)
{
	void *e;

	if (arr_reserve(a, size, 1))
		return NULL;
	e = (char *)a->p + a->nr++ * size;
	memset(e, 0, size);
	return e;
}

/* Room for @len bytes in the pool, 8-aligned: its offset + 1, or 0. */
static size_t pool_alloc(struct kstat_build *b, size_t len)
{
	size_t off = (b->pool.nr + 7) & ~(size_t)7;

	b->pool.nr = off;
	if (arr_reserve(&b->pool, 1, len))
		return 0;
	b->pool.nr += len;
	return off + 1;
}

static void *pool_at(struct kstat_build *b, size_t off)
{
	return (char *)b->pool.p + off - 1;
}

/* A string attribute into the pool: its offset + 1, or -errno. */
static long pool_str(struct kstat_build *b, const struct nlattr *a)
{
	const char *str = kattr_str(a);
	size_t off;

	if (!str)
		return -EBADMSG;
	off = pool_alloc(b, strlen(str) + 1);
	if (!off)
		return -ENOMEM;
	strcpy(pool_at(b, off), str);
	return off;
}

/* The same into a pointer field, as its offset + 1: 0 or -errno. */
static int pool_str_at(struct kstat_build *b, const struct nlattr *a,
		       const char **field)
{
	long off = pool_str(b, a);

	*field = off > 0 ? OFF(off) : NULL;
	return off < 0 ? off : 0;
}

/* An offset + 1 kept in a pointer field, into the pointer. */
static const void *fix(struct kstat_build *b, const void *p)
{
	return p ? pool_at(b, (uintptr_t)p) : NULL;
}

/*
 * One per-CPU record at @w, @avail words: the header word h, then h >> 1
 * words, dense counts or (index, count) pairs (KSTAT_CPUS_DENSE).  Its
 * non-zero counts go to the pool as a list; the words it took, or
 * -EBADMSG.
 */
static long rec_take(struct kstat_build *b, const uint32_t *w, size_t avail,
		     const struct kstat_cpu_count **list, uint32_t *nr)
{
	uint32_t h, n, i, idx, cnt, first = b->s.cpu_first, k = 0;
	int dense;
	struct kstat_cpu_count *out;
	size_t off;

	if (!avail)
		return -EBADMSG;
	b->s.flags |= KSTAT_F_PERCPU;
	h = w[0];
	n = h >> 1;
	dense = h & KSTAT_CPUS_DENSE;
	if (n > avail - 1 || (!dense && (n & 1)))
		return -EBADMSG;
	off = pool_alloc(b, (size_t)(dense ? n : n / 2) * sizeof(*out));
	if (!off)
		return -ENOMEM;
	out = pool_at(b, off);
	for (i = 0; i < (dense ? n : n / 2); i++) {
		idx = dense ? i : w[1 + 2 * i];
		cnt = dense ? w[1 + i] : w[2 + 2 * i];
		if (idx > UINT32_MAX - first ||
		    (!dense && i && idx <= w[2 * i - 1]))
			return -EBADMSG;	/* out of order */
		if (cnt)
			out[k++] = (struct kstat_cpu_count){ first + idx, cnt };
	}
	b->pool.nr = off - 1 + k * sizeof(*out);
	*list = k ? OFF(off) : NULL;
	*nr = k;
	return 1 + n;
}

/* A record that is its attribute's whole content (softirq, arch). */
static int rec_attr(struct kstat_build *b, const struct nlattr *a,
		    const struct kstat_cpu_count **list, uint32_t *nr)
{
	size_t words = kattr_len(a) / 4;
	long took;

	if (kattr_len(a) % 4)
		return -EBADMSG;
	took = rec_take(b, kattr_data(a), words, list, nr);
	return took < 0 ? (int)took : (size_t)took == words ? 0 : -EBADMSG;
}

static int take_cpu(struct kstat_build *b, const struct nlattr *nest)
{
	struct kstat_cputime c = { .cpu = -1 }, *dst;
	const struct nlattr *a;
	uint32_t id;
	int rem, t;

	kattr_for_each_nested(a, nest, rem) {
		t = kattr_type(a);
		if (t == KSTAT_A_CPU_ID) {
			if (kattr_get(a, &id, sizeof(id)) || id > INT32_MAX)
				return -EBADMSG;
			c.cpu = id;
		} else if (t >= KSTAT_A_CPU_USER && t <= KSTAT_A_CPU_GUEST_NICE &&
			   kattr_get(a, &c.ns[t - KSTAT_A_CPU_USER],
				     sizeof(uint64_t))) {
			return -EBADMSG;
		}
	}
	if (c.cpu < 0) {
		b->total = c;
		b->s.cpu_total = &b->total;
		return 0;
	}
	b->s.flags |= KSTAT_F_PERCPU;
	dst = b->cpus.p;
	if (b->cpus.nr && dst[b->cpus.nr - 1].cpu >= c.cpu)
		return -EBADMSG;	/* ascending, each once */
	dst = arr_push(&b->cpus, sizeof(c));
	if (!dst)
		return -ENOMEM;
	*dst = c;
	return 0;
}

/* A run of IRQs: ids, 64-bit counts, and with percpu one record each. */
static int take_irqs(struct kstat_build *b, const struct nlattr *nest)
{
	const struct nlattr *a, *ids = NULL, *counts = NULL, *cpus = NULL;
	const uint32_t *id, *w;
	struct kstat_irq *q, *last;
	size_t n, i, words, at = 0;
	long took;
	int rem;

	kattr_for_each_nested(a, nest, rem) {
		if (kattr_type(a) == KSTAT_A_IRQS_IDS)
			ids = a;
		else if (kattr_type(a) == KSTAT_A_IRQS_COUNTS)
			counts = a;
		else if (kattr_type(a) == KSTAT_A_IRQS_CPUS)
			cpus = a;
	}
	if (!ids || !counts || kattr_len(ids) % 4 ||
	    kattr_len(counts) != kattr_len(ids) * 2 ||
	    (cpus && kattr_len(cpus) % 4))
		return -EBADMSG;
	n = kattr_len(ids) / 4;
	if (arr_reserve(&b->irqs, sizeof(*q), n))
		return -ENOMEM;
	id = kattr_data(ids);
	w = cpus ? kattr_data(cpus) : NULL;
	words = cpus ? kattr_len(cpus) / 4 : 0;
	last = b->irqs.nr ? (struct kstat_irq *)b->irqs.p + b->irqs.nr - 1 : NULL;
	for (i = 0; i < n; i++) {
		if (last && id[i] <= last->irq)
			return -EBADMSG;	/* ascending, each once */
		q = last = (struct kstat_irq *)b->irqs.p + b->irqs.nr++;
		memset(q, 0, sizeof(*q));
		q->irq = id[i];
		memcpy(&q->count, (const char *)kattr_data(counts) + i * 8, 8);
		if (!w)
			continue;
		took = rec_take(b, w + at, words - at, &q->percpu, &q->nr_percpu);
		if (took < 0)
			return took;
		at += took;
	}
	return at == words ? 0 : -EBADMSG;
}

static int take_meta(struct kstat_build *b, const struct nlattr *nest)
{
	struct kstat_meta *m = arr_push(&b->metas, sizeof(*m));
	const struct nlattr *a;
	int rem, has_id = 0;
	uint8_t level = 0;
	long err = 0;

	if (!m)
		return -ENOMEM;
	kattr_for_each_nested(a, nest, rem)
		m->nr_actions += kattr_type(a) == KSTAT_A_IRQ_ACTION;
	if (m->nr_actions) {
		m->actions = pool_alloc(b, m->nr_actions * sizeof(char *));
		if (!m->actions)
			return -ENOMEM;
		m->nr_actions = 0;
	}
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_IRQ_ID:
			has_id = 1;
			err = kattr_get(a, &m->irq, sizeof(m->irq));
			break;
		case KSTAT_A_IRQ_CHIP:
			m->chip = err = pool_str(b, a);
			break;
		case KSTAT_A_IRQ_NAME:
			m->name = err = pool_str(b, a);
			break;
		case KSTAT_A_IRQ_HWIRQ:
			m->has_hwirq = 1;
			err = kattr_get(a, &m->hwirq, sizeof(m->hwirq));
			break;
		case KSTAT_A_IRQ_LEVEL:
			err = kattr_get(a, &level, sizeof(level));
			m->level = level;
			break;
		case KSTAT_A_IRQ_ACTION:
			err = pool_str(b, a);
			if (err > 0)
				((uintptr_t *)pool_at(b, m->actions))[m->nr_actions++] = err;
			break;
		}
		if (err < 0)
			return err;
	}
	return has_id ? 0 : -EBADMSG;
}

static int take_softirq(struct kstat_build *b, const struct nlattr *nest)
{
	struct kstat_softirq *v = arr_push(&b->softirqs, sizeof(*v));
	const struct nlattr *a;
	int rem, err = 0;

	if (!v)
		return -ENOMEM;
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_SOFTIRQ_VEC:
			err = kattr_get(a, &v->vec, sizeof(v->vec));
			break;
		case KSTAT_A_SOFTIRQ_NAME:
			err = pool_str_at(b, a, &v->name);
			break;
		case KSTAT_A_SOFTIRQ_COUNT:
			err = kattr_get(a, &v->count, sizeof(v->count));
			break;
		case KSTAT_A_SOFTIRQ_PERCPU:
			err = rec_attr(b, a, &v->percpu, &v->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

static int take_arch(struct kstat_build *b, const struct nlattr *nest)
{
	struct kstat_arch *r = arr_push(&b->arch, sizeof(*r));
	const struct nlattr *a;
	int rem, err = 0;

	if (!r)
		return -ENOMEM;
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_ARCH_NAME:
			err = pool_str_at(b, a, &r->name);
			break;
		case KSTAT_A_ARCH_DESC:
			err = pool_str_at(b, a, &r->desc);
			break;
		case KSTAT_A_ARCH_COUNT:
			err = kattr_get(a, &r->count, sizeof(r->count));
			break;
		case KSTAT_A_ARCH_PERCPU:
			err = rec_attr(b, a, &r->percpu, &r->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return r->name ? 0 : -EBADMSG;
}

/* "MCE MCP ...": the ARCH_UNREAD rows, joined. */
static int take_unread(struct kstat_build *b, const struct nlattr *a)
{
	const char *s = kattr_str(a);
	size_t len = s ? strlen(s) : 0;
	char *p;

	if (!s)
		return -EBADMSG;
	if (arr_reserve(&b->unread, 1, len + 2))
		return -ENOMEM;
	p = (char *)b->unread.p + b->unread.nr;
	if (b->unread.nr)
		p[-1] = ' ';
	memcpy(p, s, len + 1);
	b->unread.nr += len + 1;
	return 0;
}

int kstat_build_msg(struct kstat_build *b, const struct nlmsghdr *nlh)
{
	struct kstat_sample *s = &b->s;
	const struct nlattr *head, *a;
	int len, rem, err = kstat_msg_attrs(nlh, &head, &len);

	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		if (err)
			break;
		switch (kattr_type(a)) {
		case KSTAT_A_TIMESTAMP:
			err = kattr_get(a, &s->timestamp_ns, 8);
			break;
		case KSTAT_A_SEQ:
			err = kattr_get(a, &s->seq, 8);
			break;
		case KSTAT_A_GENERATION:
			err = kattr_get(a, &s->generation, 4);
			break;
		case KSTAT_A_CPU:
			s->sections |= KSTAT_SECTION_CPU;
			err = take_cpu(b, a);
			break;
		case KSTAT_A_IRQS:
			s->sections |= KSTAT_SECTION_IRQ;
			err = take_irqs(b, a);
			break;
		case KSTAT_A_IRQ:
			s->flags |= KSTAT_F_META;
			err = take_meta(b, a);
			break;
		case KSTAT_A_SOFTIRQ:
			s->sections |= KSTAT_SECTION_SOFTIRQ;
			err = take_softirq(b, a);
			break;
		case KSTAT_A_ARCH:
			s->sections |= KSTAT_SECTION_IRQ;
			err = take_arch(b, a);
			break;
		case KSTAT_A_INTR_SUM:
			s->sections |= KSTAT_SECTION_IRQ;
			err = kattr_get(a, &s->intr_sum, 8);
			break;
		case KSTAT_A_NR_IRQS:
			s->sections |= KSTAT_SECTION_IRQ;
			err = kattr_get(a, &s->kernel_nr_irqs, 4);
			break;
		case KSTAT_A_ONLINE_CPUS:
			if (b->online_off)
				break;	/* every message has it */
			b->online_off = pool_alloc(b, kattr_len(a));
			if (!b->online_off) {
				err = -ENOMEM;
				break;
			}
			memcpy(pool_at(b, b->online_off), kattr_data(a),
			       kattr_len(a));
			s->online_len = kattr_len(a);
			break;
		case KSTAT_A_ARCH_UNREAD:
			err = take_unread(b, a);
			break;
		}
	}
	return err;
}

static int by_irq(const void *key, const void *elem)
{
	uint32_t irq = *(const uint32_t *)key, e = ((const struct kstat_irq *)elem)->irq;

	return irq < e ? -1 : irq > e;
}

int kstat_build_finish(struct kstat_build *b)
{
	struct kstat_sample *s = &b->s;
	struct kstat_meta *m = b->metas.p;
	struct kstat_irq *q = b->irqs.p;
	struct kstat_softirq *v = b->softirqs.p;
	struct kstat_arch *r = b->arch.p;
	const char **actions;
	size_t i, j, unread = 0;

	if (b->unread.nr) {
		unread = pool_alloc(b, b->unread.nr);
		if (!unread)
			return -ENOMEM;
		memcpy(pool_at(b, unread), b->unread.p, b->unread.nr);
	}
	/* the pool is whole: its offsets become pointers */
	for (i = 0; i < b->irqs.nr; i++)
		q[i].percpu = fix(b, q[i].percpu);
	for (i = 0; i < b->metas.nr; i++, m++) {
		/* bsearch() of no array (NULL) is undefined, even of 0 */
		struct kstat_irq *t = !b->irqs.nr ? NULL :
			bsearch(&m->irq, b->irqs.p, b->irqs.nr, sizeof(*t),
				by_irq);

		actions = m->actions ? pool_at(b, m->actions) : NULL;
		for (j = 0; j < m->nr_actions; j++)
			actions[j] = pool_at(b, (uintptr_t)actions[j]);
		if (!t)
			continue;	/* described, not counted: not ours */
		t->chip = fix(b, OFF(m->chip));
		t->name = fix(b, OFF(m->name));
		t->actions = actions;
		t->nr_actions = m->nr_actions;
		t->hwirq = m->hwirq;
		t->has_hwirq = m->has_hwirq;
		t->level = m->level;
		t->has_meta = 1;
	}
	for (i = 0; i < b->softirqs.nr; i++) {
		v[i].name = fix(b, v[i].name);
		v[i].percpu = fix(b, v[i].percpu);
	}
	for (i = 0; i < b->arch.nr; i++) {
		r[i].name = fix(b, r[i].name);
		r[i].desc = fix(b, r[i].desc);
		r[i].percpu = fix(b, r[i].percpu);
	}
	s->size = sizeof(*s);
	s->online = fix(b, OFF(b->online_off));
	s->arch_unread = fix(b, OFF(unread));
	s->cpus = b->cpus.p;
	s->nr_cpus = b->cpus.nr;
	s->cputime_size = sizeof(struct kstat_cputime);
	s->irqs = b->irqs.p;
	s->nr_irqs = b->irqs.nr;
	s->irq_size = sizeof(struct kstat_irq);
	s->arch = b->arch.p;
	s->nr_arch = b->arch.nr;
	s->arch_size = sizeof(struct kstat_arch);
	s->softirqs = b->softirqs.p;
	s->nr_softirqs = b->softirqs.nr;
	s->softirq_size = sizeof(struct kstat_softirq);
	return 0;
}

struct kstat_build *kstat_build_new(void)
{
	return calloc(1, sizeof(struct kstat_build));
}

void kstat_build_reset(struct kstat_build *b, uint32_t cpu_first,
		       uint32_t sections)
{
	memset(&b->s, 0, sizeof(b->s));
	b->s.cpu_first = cpu_first;
	b->s.sections = sections;
	b->cpus.nr = b->irqs.nr = b->metas.nr = 0;
	b->arch.nr = b->softirqs.nr = b->pool.nr = b->unread.nr = 0;
	b->online_off = 0;
}

void kstat_build_free(struct kstat_build *b)
{
	if (!b)
		return;
	free(b->cpus.p);
	free(b->irqs.p);
	free(b->metas.p);
	free(b->arch.p);
	free(b->softirqs.p);
	free(b->pool.p);
	free(b->unread.p);
	free(b);
}

void kstat_sample_free(struct kstat_sample *s)
{
	/* the public struct is the first member of its build */
	kstat_build_free((struct kstat_build *)s);
}

/* ---- reading a sample ---- */

const struct kstat_irq *kstat_sample_find_irq(const struct kstat_sample *s,
					      uint32_t irq)
{
	size_t lo = 0, hi = s->nr_irqs, mid;
	const struct kstat_irq *q;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		q = kstat_sample_irq(s, mid);
		if (q->irq == irq)
			return q;
		if (q->irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

uint32_t kstat_percpu_at(const struct kstat_cpu_count *percpu, size_t nr,
			 uint32_t cpu)
{
	size_t lo = 0, hi = nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (percpu[mid].cpu == cpu)
			return percpu[mid].count;
		if (percpu[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int kstat_cpu_is_online(const struct kstat_sample *s, unsigned int cpu)
{
	return s->online && cpu / 8 < s->online_len &&
	       (s->online[cpu / 8] >> (cpu % 8)) & 1;
}
