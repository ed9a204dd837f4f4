// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the irq section and what travels with it: the arch rows,
 * the intr sum, and (in replies) nr_irqs and the online CPU bitmap.
 * IRQ_GET replies fill a struct kstat_irq_list; samples update the
 * subscriber's IRQs by number, in place.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"

/* ---- IRQs ---- */

static int add_action(struct kstat_irq *q, const struct nlattr *a)
{
	char *name = NULL;
	int err;

	err = kstat_get_str(a, &name);
	if (!err)
		err = kstat_grow((void **)&q->actions, q->nr_actions,
				 sizeof(*q->actions));
	if (err) {
		free(name);
		return err;
	}
	q->actions[q->nr_actions++] = name;
	return 0;
}

static size_t rec_check(const char *p, size_t avail, uint32_t nr_cpus);
static int percpu_from_rec(struct kstat_irq *q, const char *rec,
			   uint32_t nr_cpus, uint32_t count);

/* What a nest's attributes left to do once all are read. */
struct irq_nest {
	int seen;			/* 1 id, 2 count, 4 nr_cpus */
	uint32_t nr_cpus;
	const struct nlattr *cpus;	/* a per-CPU record */
};

static int parse_irq_attr(const struct nlattr *a, struct kstat_irq *q,
			  struct irq_nest *n)
{
	int *seen = &n->seen;

	uint8_t level = 0;
	int err;

	switch (kattr_type(a)) {
	case KSTAT_A_IRQ_ID:
		*seen |= 1;
		return kstat_get_u32(a, &q->irq);
	case KSTAT_A_IRQ_COUNT:
		*seen |= 2;
		return kstat_get_u64(a, &q->count);
	case KSTAT_A_IRQ_PERCPU:
		return kstat_get_percpu(a, &q->percpu, &q->nr_percpu);
	case KSTAT_A_IRQ_CHIP:
		return kstat_get_str(a, &q->chip);
	case KSTAT_A_IRQ_HWIRQ:
		q->has_hwirq = 1;
		return kstat_get_u64(a, &q->hwirq);
	case KSTAT_A_IRQ_LEVEL:
		err = kstat_get_u8(a, &level);
		q->level = level;
		return err;
	case KSTAT_A_IRQ_NAME:
		return kstat_get_str(a, &q->name);
	case KSTAT_A_IRQ_ACTION:
		return add_action(q, a);
	case KSTAT_A_IRQ_NR_CPUS:
		*seen |= 4;
		return kstat_get_u32(a, &n->nr_cpus);
	case KSTAT_A_IRQ_CPUS:
		n->cpus = a;
		return 0;
	default:
		return 0;	/* newer kernel: skip */
	}
}

/* A nest's record, once its count and the arrays' length are known. */
static int irq_nest_record(struct kstat_irq *q, const struct irq_nest *n)
{
	size_t words = kattr_len(n->cpus) / sizeof(uint32_t);

	if (!(n->seen & 4) || !n->nr_cpus || n->nr_cpus > (1u << 20) ||
	    kattr_len(n->cpus) % sizeof(uint32_t) || !words ||
	    rec_check(kattr_data(n->cpus), words, n->nr_cpus) != words)
		return -EBADMSG;
	return percpu_from_rec(q, kattr_data(n->cpus), n->nr_cpus,
			       (uint32_t)q->count);
}

/* One IRQ nest into @q (zeroed by the caller). */
int kstat_parse_irq_nest(const struct nlattr *nest, struct kstat_irq *q)
{
	struct irq_nest n = { 0 };
	const struct nlattr *a;
	int rem, err;

	kattr_for_each_nested(a, nest, rem) {
		err = parse_irq_attr(a, q, &n);
		if (err)
			return err;
	}
	/* id and count are required; leftover bytes are corruption */
	if ((n.seen & 3) != 3 || rem > 0)
		return -EBADMSG;
	return n.cpus ? irq_nest_record(q, &n) : 0;
}

void kstat_irq_free(struct kstat_irq *q)
{
	size_t i;

	/* Most IRQs own nothing: skip the calls to free(). */
	if (!q->actions && !q->percpu && !q->chip && !q->name)
		return;
	for (i = 0; i < q->nr_actions; i++)
		free(q->actions[i]);
	free(q->actions);
	free(q->percpu);
	free(q->chip);
	free(q->name);
}

/* Header words (length | type << 16) of a totals-only IRQ nest's two. */
#define IRQ_ID_HDR	((uint32_t)(NLA_HDRLEN + 4) | KSTAT_A_IRQ_ID << 16)
#define IRQ_COUNT_HDR	((uint32_t)(NLA_HDRLEN + 8) | KSTAT_A_IRQ_COUNT << 16)
#define IRQ_NEST_LEN	(NLA_HDRLEN + NLA_HDRLEN + 4 + NLA_HDRLEN + 8)
#define NLA_FLAGS_WORD	((uint32_t)(NLA_F_NESTED | NLA_F_NET_BYTEORDER) << 16)

/* The 32-bit header word at @p. */
static inline uint32_t hdr_word(const char *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * Is the nest at @p, of attribute type @type, an IRQ with totals only
 * (the shape of every IRQ in a totals dump or a keyframe)?  Then its
 * number and count.  Whole header words are compared.
 */
static inline int irq_totals_at(const char *p, uint32_t type, uint32_t *irq,
				uint64_t *count)
{
	if ((hdr_word(p) & ~NLA_FLAGS_WORD) != (IRQ_NEST_LEN | type << 16) ||
	    hdr_word(p + NLA_HDRLEN) != IRQ_ID_HDR ||
	    hdr_word(p + 2 * NLA_HDRLEN + 4) != IRQ_COUNT_HDR)
		return 0;
	memcpy(irq, p + 2 * NLA_HDRLEN, sizeof(*irq));
	memcpy(count, p + 3 * NLA_HDRLEN + 4, sizeof(*count));
	return 1;
}

/*
 * A reply's run of IRQ nests into its list: thousands in a dump, so
 * appended here, not through a call each, and totals-only ones filled
 * without the general parse.
 */
static int irq_add_run(struct kstat_reply *r, const struct nlattr *a, int len)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];
	struct kstat_irq *q;
	int rem = len, err;

	for (; kattr_ok(a, rem) && kattr_type(a) == KSTAT_A_IRQ;
	     a = kattr_next(a, &rem)) {
		if (!l)
			continue;
		err = kstat_reserve((void **)&l->irqs, &r->irqs_cap, l->nr + 1,
				    sizeof(*q));
		if (err)
			return err;
		q = &l->irqs[l->nr++];	/* counted first: the clear frees it */
		memset(q, 0, sizeof(*q));
		if (irq_totals_at((const char *)a, KSTAT_A_IRQ, &q->irq, &q->count))
			continue;
		err = kstat_parse_irq_nest(a, q);
		if (err)
			return err;
	}
	return len - rem;
}

/* ---- packed chunks of IRQ totals (enum kstat_irqs_attr) ---- */

#define CHUNK_MAX	KSTAT_IRQS_CHUNK_MAX

/* A chunk, its IRQ numbers decoded: see the UAPI. */
struct irqs_chunk {
	uint32_t ids[CHUNK_MAX];
	const char *counts;		/* __u64[nr] or __u32[nr], or NULL */
	int counts32;			/* counts is __u32[nr] (COUNTS32) */
	const char *incs;		/* __u32[nr], when counts is NULL */
	size_t nr;
	uint32_t nr_cpus;		/* per-CPU arrays' length, 0: none */
	const char *rec[CHUNK_MAX];	/* each IRQ's per-CPU record */
};

/*
 * The most CPU ids a per-CPU array may span: far above any kernel's
 * NR_CPUS (8192), low enough that a corrupt length allocates little.
 */
#define NR_CPUS_MAX	(1u << 20)	/* as irq_nest_record()'s */

/* The __u32 word @i of @p (attribute data is only 4-byte aligned). */
static inline uint32_t word_at(const char *p, size_t i)
{
	uint32_t w;

	memcpy(&w, p + i * sizeof(w), sizeof(w));
	return w;
}

/*
 * Words of the per-CPU record at @p, @avail words there, checked against
 * arrays of @nr_cpus (see "Per-CPU records" in the UAPI); 0 if corrupt.
 */
static size_t rec_check(const char *p, size_t avail, uint32_t nr_cpus)
{
	uint32_t hdr = word_at(p, 0), v = hdr & KSTAT_CPUS_VALUE, i, idx;
	int64_t prev = -1;

	switch (hdr & KSTAT_CPUS_KIND) {
	case KSTAT_CPUS_ONE:
		return v < nr_cpus ? 1 : 0;
	case KSTAT_CPUS_DENSE:
		return v == nr_cpus && avail >= 1 + (size_t)v ? 1 + v : 0;
	case KSTAT_CPUS_PAIRS:
		if (v > nr_cpus || avail < 1 + 2 * (size_t)v)
			return 0;
		for (i = 0; i < v; i++) {
			idx = word_at(p, 1 + 2 * i);
			if (idx >= nr_cpus || idx <= prev)
				return 0;
			prev = idx;
		}
		return 1 + 2 * (size_t)v;
	default:
		return 0;
	}
}

/* A chunk's records, one per IRQ, located and checked. */
static int recs_index(struct irqs_chunk *c, const struct nlattr *nr_cpus,
		      const struct nlattr *cpus)
{
	const char *p = kattr_data(cpus);
	size_t avail, i, words;

	if (kstat_get_u32(nr_cpus, &c->nr_cpus) || !c->nr_cpus ||
	    c->nr_cpus > NR_CPUS_MAX || kattr_len(cpus) % sizeof(uint32_t))
		return -EBADMSG;
	avail = kattr_len(cpus) / sizeof(uint32_t);
	for (i = 0; i < c->nr; i++) {
		words = avail ? rec_check(p, avail, c->nr_cpus) : 0;
		if (!words)
			return -EBADMSG;
		c->rec[i] = p;
		p += words * sizeof(uint32_t);
		avail -= words;
	}
	return avail ? -EBADMSG : 0;
}

/*
 * Record @rec as a whole array into @out (@nr_cpus counts): CPUs it does
 * not list have 0; ONE's CPU has @count, the IRQ's (mod 2^32).
 */
static void rec_decode(const char *rec, uint32_t nr_cpus, uint32_t count,
		       uint32_t *out)
{
	uint32_t hdr = word_at(rec, 0), v = hdr & KSTAT_CPUS_VALUE, i;

	if ((hdr & KSTAT_CPUS_KIND) == KSTAT_CPUS_DENSE) {
		memcpy(out, rec + sizeof(hdr), (size_t)v * sizeof(*out));
		return;
	}
	memset(out, 0, (size_t)nr_cpus * sizeof(*out));
	if ((hdr & KSTAT_CPUS_KIND) == KSTAT_CPUS_ONE) {
		out[v] = count;
		return;
	}
	for (i = 0; i < v; i++)
		out[word_at(rec, 1 + 2 * i)] = word_at(rec, 2 + 2 * i);
}

/*
 * @q's per-CPU array from a record, as long as the record's arrays,
 * reusing the one it has when that is as long.
 */
static int percpu_from_rec(struct kstat_irq *q, const char *rec,
			   uint32_t nr_cpus, uint32_t count)
{
	uint32_t *p = q->percpu;

	if (nr_cpus != q->nr_percpu || !p) {
		p = realloc(p, (size_t)nr_cpus * sizeof(*p));
		if (!p)
			return -ENOMEM;
		q->percpu = p;
		q->nr_percpu = nr_cpus;
	}
	rec_decode(rec, nr_cpus, count, p);
	return 0;
}

/* How many elements of @size an array attribute holds; -1: not whole. */
static long array_len(const struct nlattr *a, size_t size)
{
	size_t len = kattr_len(a);

	return len % size ? -1 : (long)(len / size);
}

/* A dense chunk's bitmap into IRQ numbers; their number. */
static size_t decode_present(const struct nlattr *first,
			     const struct nlattr *present, uint32_t *ids)
{
	const uint8_t *p = kattr_data(present);
	size_t i, n = 0, len = kattr_len(present);
	uint32_t base;
	unsigned int bits;

	memcpy(&base, kattr_data(first), sizeof(base));
	for (i = 0; i < len; i++, base += 8)
		for (bits = p[i]; bits; bits &= bits - 1)
			ids[n++] = base + __builtin_ctz(bits);
	return n;
}

/*
 * How many IRQs the chunk's counts (64- or 32-bit, one of the two) or
 * increments hold, exactly one of the three being there; -1 if not.
 */
static long chunk_values(const struct nlattr *cnt, const struct nlattr *cnt32,
			 const struct nlattr *incs)
{
	if (!!cnt + !!cnt32 + !!incs != 1)
		return -1;
	if (cnt)
		return array_len(cnt, sizeof(uint64_t));
	return array_len(cnt32 ? cnt32 : incs, sizeof(uint32_t));
}

static int parse_chunk(const struct nlattr *nest, struct irqs_chunk *c)
{
	const struct nlattr *a, *cnt = NULL, *ids = NULL, *incs = NULL;
	const struct nlattr *cnt32 = NULL;
	const struct nlattr *first = NULL, *present = NULL;
	const struct nlattr *nr_cpus = NULL, *cpus = NULL;
	uint32_t base;
	long nr;
	int rem;

	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_IRQS_FIRST:
			first = a;
			break;
		case KSTAT_A_IRQS_PRESENT:
			present = a;
			break;
		case KSTAT_A_IRQS_COUNTS:
			cnt = a;
			break;
		case KSTAT_A_IRQS_COUNTS32:
			cnt32 = a;
			break;
		case KSTAT_A_IRQS_IDS:
			ids = a;
			break;
		case KSTAT_A_IRQS_INCREMENTS:
			incs = a;
			break;
		case KSTAT_A_IRQS_NR_CPUS:
			nr_cpus = a;
			break;
		case KSTAT_A_IRQS_CPUS:
			cpus = a;
			break;
		}
	}
	/*
	 * one of the counts (64- or 32-bit) and increments; a bitmap (with
	 * its base) or ids; per-CPU records with their arrays' length, or
	 * neither
	 */
	if (rem > 0 || !present == !ids || !first != !present ||
	    !nr_cpus != !cpus)
		return -EBADMSG;
	nr = chunk_values(cnt, cnt32, incs);
	if (nr < 0 || nr > CHUNK_MAX)
		return -EBADMSG;
	if (present) {
		if (kstat_get_u32(first, &base) ||
		    kattr_len(present) > CHUNK_MAX / 8 ||
		    base >= (1u << 24) ||
		    decode_present(first, present, c->ids) != (size_t)nr)
			return -EBADMSG;
	} else {
		if (array_len(ids, sizeof(uint32_t)) != nr)
			return -EBADMSG;
		memcpy(c->ids, kattr_data(ids), nr * sizeof(uint32_t));
	}
	c->counts = cnt ? kattr_data(cnt) : cnt32 ? kattr_data(cnt32) : NULL;
	c->counts32 = !!cnt32;
	c->incs = incs ? kattr_data(incs) : NULL;
	c->nr = nr;
	c->nr_cpus = 0;
	return cpus ? recs_index(c, nr_cpus, cpus) : 0;
}

static inline uint64_t chunk_count(const struct irqs_chunk *c, size_t i)
{
	uint64_t v;

	if (c->counts32)
		return word_at(c->counts, i);
	memcpy(&v, c->counts + i * sizeof(v), sizeof(v));
	return v;
}

static inline uint32_t chunk_inc(const struct irqs_chunk *c, size_t i)
{
	uint32_t v;

	memcpy(&v, c->incs + i * sizeof(v), sizeof(v));
	return v;
}

/*
 * ---- per-CPU arrays of packed dumps, carved from blocks the list owns ----
 *
 * A dump with per-CPU counts has an array for each of its thousands of
 * IRQs: one malloc() and free() each cost more than decoding the record
 * (3.1x a totals dump's parse, issue 26).  The arrays are carved from
 * blocks instead, the first as large as the handle's last dump needed,
 * each further one twice the last: never moved, so the IRQs' pointers
 * hold.  An IRQ parsed from a nest still owns its array.
 */
struct kstat_percpu_pool {
	struct kstat_percpu_pool *next;	/* the block filled before */
	size_t cap, used;		/* in words */
	uint32_t words[];
};

/* Words a first block takes at least: 64 IRQs' arrays at 8 CPUs. */
#define POOL_MIN_WORDS	512

/* @n words for one IRQ's array, from @l's blocks; @hint sizes a first. */
static uint32_t *percpu_take(struct kstat_irq_list *l, size_t n, size_t hint)
{
	struct kstat_percpu_pool *p = l->percpu_pool;
	size_t cap;

	if (!p || p->cap - p->used < n) {
		cap = p ? 2 * p->cap : hint;
		if (cap < POOL_MIN_WORDS)
			cap = POOL_MIN_WORDS;
		if (cap < n)
			cap = n;
		if (cap > (SIZE_MAX - sizeof(*p)) / sizeof(uint32_t))
			return NULL;
		p = malloc(sizeof(*p) + cap * sizeof(uint32_t));
		if (!p)
			return NULL;
		p->next = l->percpu_pool;
		p->cap = cap;
		p->used = 0;
		l->percpu_pool = p;
	}
	p->used += n;
	return p->words + p->used - n;
}

/* Is @a carved from one of the blocks at @p? */
static int percpu_pooled(const struct kstat_percpu_pool *p, const uint32_t *a)
{
	for (; p; p = p->next)
		if ((uintptr_t)a - (uintptr_t)p->words <
		    p->used * sizeof(uint32_t))
			return 1;
	return 0;
}

static void percpu_pool_free(struct kstat_percpu_pool *p)
{
	struct kstat_percpu_pool *next;

	for (; p; p = next) {
		next = p->next;
		free(p);
	}
}

/* Words the per-CPU arrays of @l's packed dump took, for the next's hint. */
size_t kstat_irq_list_percpu_words(const struct kstat_irq_list *l)
{
	const struct kstat_percpu_pool *p;
	size_t n = 0;

	for (p = l->percpu_pool; p; p = p->next)
		n += p->used;
	return n;
}

/* @q's per-CPU array, from @rec, carved from @r's list's blocks. */
static int percpu_from_rec_pooled(struct kstat_reply *r, struct kstat_irq *q,
				  const char *rec, uint32_t nr_cpus)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];

	q->percpu = percpu_take(l, nr_cpus, r->percpu_hint);
	if (!q->percpu)
		return -ENOMEM;
	q->nr_percpu = nr_cpus;
	rec_decode(rec, nr_cpus, (uint32_t)q->count, q->percpu);
	return 0;
}

/* A GET reply's chunk: its IRQs appended to the list, totals only. */
static int irqs_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];
	struct irqs_chunk c;
	struct kstat_irq *q;
	size_t i;
	int err = parse_chunk(a, &c);

	if (err || !l)
		return err;
	if (c.incs)
		return -EBADMSG;	/* increments belong in deltas */
	err = kstat_reserve((void **)&l->irqs, &r->irqs_cap, l->nr + c.nr,
			    sizeof(*q));
	if (err)
		return err;
	/* one store of each entry (a memset of the run is slower) */
	q = &l->irqs[l->nr];
	for (i = 0; i < c.nr; i++) {
		q[i] = (struct kstat_irq){ .irq = c.ids[i],
					   .count = chunk_count(&c, i) };
		if (!c.nr_cpus)
			continue;
		err = percpu_from_rec_pooled(r, &q[i], c.rec[i], c.nr_cpus);
		if (err) {
			l->nr += i + 1;	/* the clear frees them */
			return err;
		}
	}
	l->nr += c.nr;
	return 0;
}

static int slot_reserve(struct kstat_state *st, uint32_t irq)
{
	size_t old = st->nr_slots, i;

	if (irq < old)
		return 0;
	if (irq >= (1u << 24))
		return -EBADMSG;	/* no kernel has that many IRQs */
	if (kstat_reserve((void **)&st->slot, &st->nr_slots, (size_t)irq + 1,
			  sizeof(*st->slot)))
		return -ENOMEM;
	for (i = old; i < st->nr_slots; i++)
		st->slot[i] = -1;
	return 0;
}

/* Per-CPU counts into @dst, reusing its array when the size is the same. */
static int copy_percpu(struct kstat_irq *dst, const struct nlattr *a)
{
	uint32_t n = kattr_len(a) / sizeof(uint32_t);
	uint32_t *p = dst->percpu;

	if (kattr_len(a) % sizeof(uint32_t))
		return -EBADMSG;
	if (n != dst->nr_percpu || !p) {
		p = realloc(p, n ? n * sizeof(*p) : 1);
		if (!p)
			return -ENOMEM;
		dst->percpu = p;
		dst->nr_percpu = n;
	}
	memcpy(p, kattr_data(a), n * sizeof(*p));
	return 0;
}

/* A sample's IRQ nest: id, count and maybe per-CPU counts, no metadata. */
static int parse_sample_irq(const struct nlattr *nest, uint32_t *irq,
			    uint64_t *count, const struct nlattr **percpu)
{
	const struct nlattr *a;
	int rem, seen = 0;

	if (irq_totals_at((const char *)nest, KSTAT_A_SAMPLE_IRQ, irq, count))
		return 0;
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_IRQ_ID:
			seen |= 1;
			if (kstat_get_u32(a, irq))
				return -EBADMSG;
			break;
		case KSTAT_A_IRQ_COUNT:
			seen |= 2;
			if (kstat_get_u64(a, count))
				return -EBADMSG;
			break;
		case KSTAT_A_IRQ_PERCPU:
			*percpu = a;
			break;
		}
	}
	return seen == 3 && rem <= 0 ? 0 : -EBADMSG;
}

/* Forget entries from @from on: their slots, their per-CPU arrays. */
static void irq_truncate(struct kstat_state *st, size_t from)
{
	size_t i;

	for (i = from; i < st->s.nr_irqs; i++) {
		struct kstat_irq *q = &st->s.irqs[i];

		st->slot[q->irq] = -1;	/* slots cover every IRQ we added */
		free(q->percpu);
		q->percpu = NULL;
		q->nr_percpu = 0;
	}
	if (st->s.nr_irqs > from)
		st->s.nr_irqs = from;
}

/*
 * The state's entry for @irq.  A keyframe lists every IRQ in ascending
 * order, which is the entries' order: while the IRQ set is unchanged,
 * its next IRQ is the next entry, and nothing needs looking up.  Where it
 * differs, the entries from there on are dropped and it appends.
 */
static struct kstat_irq *irq_entry(struct kstat_state *st, uint32_t irq,
				   int key, int *err)
{
	size_t pos = st->key_pos;

	if (key && pos < st->s.nr_irqs && st->s.irqs[pos].irq == irq) {
		st->key_pos++;
		return &st->s.irqs[pos];
	}
	*err = slot_reserve(st, irq);
	if (*err)
		return NULL;
	if (st->slot[irq] >= 0 && (!key || (size_t)st->slot[irq] < pos))
		return &st->s.irqs[st->slot[irq]];
	if (!key) {
		*err = -EBADMSG;	/* a delta may not add an IRQ */
		return NULL;
	}
	irq_truncate(st, pos);
	*err = kstat_reserve((void **)&st->s.irqs, &st->cap[KSTAT_SEC_irq],
			     st->s.nr_irqs + 1, sizeof(*st->s.irqs));
	if (*err)
		return NULL;
	st->slot[irq] = st->s.nr_irqs;
	st->key_pos = st->s.nr_irqs + 1;
	return &st->s.irqs[st->s.nr_irqs++];
}

/*
 * Where a sample's IRQ has its per-CPU counts: a dense array (in a
 * nest), a record (in a chunk), or neither (NULL).
 */
struct percpu_src {
	const struct nlattr *dense;
	const char *rec;
	uint32_t nr_cpus;
};

static int percpu_set(struct kstat_irq *dst, const struct percpu_src *src)
{
	if (src->rec)
		return percpu_from_rec(dst, src->rec, src->nr_cpus,
				       (uint32_t)dst->count);
	return copy_percpu(dst, src->dense);
}

/*
 * A piece of a record too large for one chunk, after the first piece of
 * the same IRQ (see "Per-CPU IRQ counts, sparse" in docs/protocol.md):
 * its pairs go into the array the first piece set.
 */
static int percpu_merge(struct kstat_irq *dst, const struct percpu_src *src)
{
	uint32_t hdr, n, i, idx;

	if (!src->rec || !dst->percpu || dst->nr_percpu != src->nr_cpus)
		return -EBADMSG;
	hdr = word_at(src->rec, 0);
	if ((hdr & KSTAT_CPUS_KIND) != KSTAT_CPUS_PAIRS)
		return -EBADMSG;
	n = hdr & KSTAT_CPUS_VALUE;
	for (i = 0; i < n; i++) {
		idx = word_at(src->rec, 1 + 2 * i);
		dst->percpu[idx] = word_at(src->rec, 2 + 2 * i);
	}
	return 0;
}

/* Is @irq the IRQ this sample set last (the next piece of its record)? */
static int irq_continues(const struct kstat_state *st, uint32_t irq,
			 const struct percpu_src *percpu)
{
	return percpu && percpu->rec && st->s.nr_irqs_changed &&
	       st->changed[st->s.nr_irqs_changed - 1] == irq;
}

/* @irq's entry takes @count, noted as changed by this sample. */
static int irq_set(struct kstat_state *st, uint32_t irq, uint64_t count,
		   const struct percpu_src *percpu, int key)
{
	struct kstat_irq *dst;
	int err = 0, more = irq_continues(st, irq, percpu);

	dst = irq_entry(st, irq, key, &err);
	if (!dst)
		return err;
	dst->irq = irq;
	dst->count = count;
	if (more)
		return percpu_merge(dst, percpu);
	if (percpu) {
		err = percpu_set(dst, percpu);
		if (err)
			return err;
	} else if (key && dst->percpu) {
		/* a keyframe is the whole truth: no per-CPU counts now */
		free(dst->percpu);
		dst->percpu = NULL;
		dst->nr_percpu = 0;
	}
	err = kstat_reserve((void **)&st->changed, &st->cap_changed,
			    st->s.nr_irqs_changed + 1, sizeof(*st->changed));
	if (err)
		return err;
	st->changed[st->s.nr_irqs_changed++] = irq;
	st->s.irqs_changed = st->changed;
	return 0;
}

/* One IRQ nest of a sample into its entry. */
static int irq_apply(struct kstat_state *st, const struct nlattr *nest, int key)
{
	struct percpu_src src = { 0 };
	uint64_t count = 0;
	uint32_t irq = 0;
	int err = parse_sample_irq(nest, &irq, &count, &src.dense);

	return err ? err : irq_set(st, irq, count, src.dense ? &src : NULL, key);
}

/*
 * A keyframe's dense chunk, the hot path: while its IRQs are the next
 * entries of an unchanged IRQ set (without per-CPU counts to drop), they
 * are set in place; from the first that differs, one by one.
 */
static int irqs_apply_key(struct kstat_state *st, const struct irqs_chunk *c)
{
	struct kstat_irq *irqs = st->s.irqs;
	struct percpu_src src = { .nr_cpus = c->nr_cpus };
	uint32_t *changed;
	size_t pos = st->key_pos, n = st->s.nr_irqs_changed, i, room;
	int err;

	err = kstat_reserve((void **)&st->changed, &st->cap_changed,
			    n + c->nr, sizeof(*st->changed));
	if (err)
		return err;
	changed = st->changed;
	room = st->s.nr_irqs - pos;
	if (room > c->nr)
		room = c->nr;
	if (c->nr_cpus)
		room = 0;	/* with records: one by one, below */
	for (i = 0; i < room; i++) {
		if (irqs[pos + i].irq != c->ids[i] || irqs[pos + i].percpu)
			break;
		irqs[pos + i].count = chunk_count(c, i);
		changed[n + i] = c->ids[i];
	}
	st->key_pos = pos + i;
	st->s.nr_irqs_changed = n + i;
	st->s.irqs_changed = changed;
	for (; i < c->nr; i++) {
		src.rec = c->nr_cpus ? c->rec[i] : NULL;
		err = irq_set(st, c->ids[i], chunk_count(c, i),
			      src.rec ? &src : NULL, 1);
		if (err)
			return err;
	}
	return 0;
}

/* A delta's chunk: each IRQ's count grows by its increment. */
static int irqs_apply_delta(struct kstat_state *st, const struct irqs_chunk *c)
{
	struct percpu_src src = { .nr_cpus = c->nr_cpus };
	size_t i;
	int32_t slot;
	int err;

	if (!c->incs)
		return -EBADMSG;	/* a delta carries increments */
	for (i = 0; i < c->nr; i++) {
		slot = c->ids[i] < st->nr_slots ? st->slot[c->ids[i]] : -1;
		if (slot < 0)
			return -EBADMSG;	/* a delta may not add an IRQ */
		src.rec = c->nr_cpus ? c->rec[i] : NULL;
		err = irq_set(st, c->ids[i],
			      st->s.irqs[slot].count + chunk_inc(c, i),
			      src.rec ? &src : NULL, 0);
		if (err)
			return err;
	}
	return 0;
}

static int irqs_apply(struct kstat_state *st, const struct nlattr *a, int key)
{
	struct irqs_chunk c;
	int err = parse_chunk(a, &c);

	if (err)
		return err;
	if (!key)
		return irqs_apply_delta(st, &c);
	return c.incs ? -EBADMSG : irqs_apply_key(st, &c);
}

/*
 * The hot path of a keyframe, which carries thousands of IRQs: a run of
 * totals-only nests, each the next entry of an unchanged IRQ set (one
 * without per-CPU counts to drop), with room to note it.  The state is
 * held in locals (no strict aliasing here: every store would reload it).
 * Returns the bytes taken; 0 sends the nest at @a to irq_apply().
 */
static int irq_key_run(struct kstat_state *st, const struct nlattr *a, int len)
{
	const char *p = (const char *)a;
	struct kstat_irq *irqs = st->s.irqs;
	uint32_t *changed = st->changed, irq;
	size_t pos = st->key_pos, n = st->s.nr_irqs_changed, k, room;
	uint64_t count;
	int rem = len;

	room = st->s.nr_irqs - pos;
	if (st->cap_changed - n < room)
		room = st->cap_changed - n;
	for (k = 0; k < room && rem >= IRQ_NEST_LEN; k++) {
		if (!irq_totals_at(p, KSTAT_A_SAMPLE_IRQ, &irq, &count) ||
		    irqs[pos + k].irq != irq || irqs[pos + k].percpu)
			break;		/* another IRQ, or counts to drop */
		irqs[pos + k].count = count;
		changed[n + k] = irq;
		p += IRQ_NEST_LEN;
		rem -= IRQ_NEST_LEN;
	}
	st->key_pos = pos + k;
	st->s.nr_irqs_changed = n + k;
	return len - rem;
}

static int irq_apply_run(struct kstat_state *st, const struct nlattr *a,
			 int len, int key)
{
	int rem = len, err;

	while (kattr_ok(a, rem) && kattr_type(a) == KSTAT_A_SAMPLE_IRQ) {
		err = key ? irq_key_run(st, a, rem) : 0;
		if (err) {
			a = (const struct nlattr *)((const char *)a + err);
			rem -= err;
			continue;
		}
		err = irq_apply(st, a, key);
		if (err)
			return err;
		a = kattr_next(a, &rem);
	}
	return len - rem;
}

static void irq_reset(struct kstat_state *st)
{
	st->key_pos = 0;
}

/* A keyframe's IRQs are the whole set: the entries it did not reach go. */
static void irq_finish(struct kstat_state *st)
{
	if (st->s.keyframe)
		irq_truncate(st, st->key_pos);
}

/* The entries (and what they own), then the arrays behind them. */
static void irq_free_state(struct kstat_state *st)
{
	irq_truncate(st, 0);
	free(st->s.irqs);
	st->s.irqs = NULL;
	st->cap[KSTAT_SEC_irq] = 0;
	free(st->slot);
	st->slot = NULL;
	st->nr_slots = 0;
	free(st->changed);
	st->changed = NULL;
	st->s.irqs_changed = NULL;
	st->cap_changed = 0;
}

void kstat_irq_list_clear(struct kstat_irq_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		/* carved from the blocks, freed with them below */
		if (l->percpu_pool &&
		    percpu_pooled(l->percpu_pool, l->irqs[i].percpu))
			l->irqs[i].percpu = NULL;
		kstat_irq_free(&l->irqs[i]);
	}
	percpu_pool_free(l->percpu_pool);
	for (i = 0; i < l->nr_arch; i++)
		kstat_arch_free(&l->arch[i]);
	free(l->irqs);
	free(l->arch);
	free(l->online);
	free(l->arch_unread);
	memset(l, 0, sizeof(*l));
}

void kstat_irq_list_free(struct kstat_irq_list *l)
{
	if (!l)
		return;
	kstat_irq_list_clear(l);
	free(l);
}

/* The list holds the arch rows, intr sum and bitmap too: one clear. */
static void irq_free_reply(struct kstat_reply *r)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];

	if (l)
		kstat_irq_list_clear(l);
	r->irqs_cap = 0;
}

const struct kstat_section kstat_section_irq = {
	.name = "irq",
	.reply_attr = KSTAT_A_IRQ,
	.sample_attr = KSTAT_A_SAMPLE_IRQ,
	.add_run = irq_add_run,
	.apply_run = irq_apply_run,
	.reset = irq_reset,
	.finish = irq_finish,
	.free_reply = irq_free_reply,
	.free_state = irq_free_state,
};

/* Chunks go into the irq section's list and state: it frees them. */
const struct kstat_section kstat_section_irqs = {
	.name = "irqs",
	.reply_attr = KSTAT_A_IRQS,
	.sample_attr = KSTAT_A_SAMPLE_IRQS,
	.add = irqs_add,
	.apply = irqs_apply,
};

/* ---- arch rows ---- */

int kstat_parse_arch_nest(const struct nlattr *nest, struct kstat_arch *r)
{
	const struct nlattr *a;
	int rem, err = 0;

	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_ARCH_NAME:
			err = kstat_get_str(a, &r->name);
			break;
		case KSTAT_A_ARCH_DESC:
			err = kstat_get_str(a, &r->desc);
			break;
		case KSTAT_A_ARCH_COUNT:
			err = kstat_get_u64(a, &r->count);
			break;
		case KSTAT_A_ARCH_PERCPU:
			err = kstat_get_percpu(a, &r->percpu, &r->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return r->name && rem <= 0 ? 0 : -EBADMSG;
}

void kstat_arch_free(struct kstat_arch *r)
{
	free(r->name);
	free(r->desc);
	free(r->percpu);
}

static int arch_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];
	int err;

	if (!l)
		return 0;
	err = kstat_grow((void **)&l->arch, l->nr_arch, sizeof(*l->arch));
	if (err)
		return err;
	return kstat_parse_arch_nest(a, &l->arch[l->nr_arch++]);
}

/* Rows are matched by name: a delta carries the count, not the desc. */
static int arch_apply(struct kstat_state *st, const struct nlattr *a, int key)
{
	struct kstat_arch r = { 0 };
	size_t i;
	int err = kstat_parse_arch_nest(a, &r);

	(void)key;
	for (i = 0; !err && i < st->s.nr_arch; i++) {
		if (strcmp(st->s.arch[i].name, r.name))
			continue;
		st->s.arch[i].count = r.count;
		kstat_arch_free(&r);
		return 0;
	}
	if (!err)
		err = kstat_reserve((void **)&st->s.arch, &st->cap[KSTAT_SEC_arch],
				    st->s.nr_arch + 1, sizeof(r));
	if (err) {
		kstat_arch_free(&r);
		return err;
	}
	st->s.arch[st->s.nr_arch++] = r;
	return 0;
}

/* A keyframe rebuilds the rows; the array is kept for them. */
static void arch_reset(struct kstat_state *st)
{
	size_t i;

	for (i = 0; i < st->s.nr_arch; i++)
		kstat_arch_free(&st->s.arch[i]);
	st->s.nr_arch = 0;
}

static void arch_free_state(struct kstat_state *st)
{
	arch_reset(st);
	free(st->s.arch);
	st->s.arch = NULL;
	st->cap[KSTAT_SEC_arch] = 0;
}

const struct kstat_section kstat_section_arch = {
	.name = "arch",
	.reply_attr = KSTAT_A_ARCH,
	.sample_attr = KSTAT_A_SAMPLE_ARCH,
	.add = arch_add,
	.apply = arch_apply,
	.reset = arch_reset,
	.free_state = arch_free_state,
};

/* ---- the intr sum, and a dump's nr_irqs and online CPUs ---- */

static int intr_sum_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];

	if (!l)
		return 0;
	l->has_totals = 1;
	return kstat_get_u64(a, &l->intr_sum);
}

/* Every sample with the irq section has the sum: it marks the section. */
static int intr_sum_apply(struct kstat_state *st, const struct nlattr *a,
			  int key)
{
	(void)key;
	return kstat_get_u64(a, &st->s.intr_sum);
}

const struct kstat_section kstat_section_intr_sum = {
	.name = "intr_sum",
	.reply_attr = KSTAT_A_INTR_SUM,
	.sample_attr = KSTAT_A_SAMPLE_INTR_SUM,
	.section = KSTAT_SECTION_IRQ,
	.add = intr_sum_add,
	.apply = intr_sum_apply,
};

static int nr_irqs_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];

	return l ? kstat_get_u32(a, &l->nr_irqs) : 0;
}

const struct kstat_section kstat_section_nr_irqs = {
	.name = "nr_irqs",
	.reply_attr = KSTAT_A_NR_IRQS,
	.add = nr_irqs_add,
};

/* A row the module cannot read: its name, after the others'. */
static int arch_unread_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *l = r->list[KSTAT_SEC_irq];
	size_t have = l && l->arch_unread ? strlen(l->arch_unread) + 1 : 0;
	char *name = NULL, *s;
	int err;

	if (!l)
		return 0;
	err = kstat_get_str(a, &name);
	if (err)
		return err;
	s = realloc(l->arch_unread, have + strlen(name) + 1);
	if (!s) {
		free(name);
		return -ENOMEM;
	}
	if (have)
		s[have - 1] = ' ';
	strcpy(s + have, name);
	l->arch_unread = s;
	free(name);
	return 0;
}

const struct kstat_section kstat_section_arch_unread = {
	.name = "arch_unread",
	.reply_attr = KSTAT_A_ARCH_UNREAD,
	.add = arch_unread_add,
};

/* IRQ and softirq replies both carry the bitmap; each list keeps it. */
static int online_add(struct kstat_reply *r, const struct nlattr *a)
{
	struct kstat_irq_list *irqs = r->list[KSTAT_SEC_irq];
	struct kstat_softirq_list *softirqs = r->list[KSTAT_SEC_softirq];

	if (irqs)
		return kstat_get_bytes(a, &irqs->online, &irqs->online_len);
	if (softirqs)
		return kstat_get_bytes(a, &softirqs->online,
				       &softirqs->online_len);
	return 0;
}

const struct kstat_section kstat_section_online = {
	.name = "online",
	.reply_attr = KSTAT_A_ONLINE_CPUS,
	.add = online_add,
};
