// SPDX-License-Identifier: GPL-2.0
/*
 * The section table against what came before it: every recorded fixture
 * (tests/fixtures, NAME.nl) parses, through the request parsers and a
 * socketless subscription, to the same values as the per-kind parsers
 * it replaced.  The values are pinned as digests, printed by this test
 * when built against the library before the table (KSTAT_DIGEST_PRINT=1).
 *
 * Also the keyframe path that applies IRQs in place: a keyframe whose IRQ
 * set differs from the last one (IRQs added, removed, the set shrinking)
 * leaves exactly its IRQs, and deltas then find them; the same with
 * packed chunks (dense keyframes, deltas of increments).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "summary_msg.h"
#include "fixture.h"

/* ---- digests: FNV-1a over every value a parser fills ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

#define MIX(h, v) ((h) = fnv((h), &(v), sizeof(v)))

static uint64_t mix_str(uint64_t h, const char *s)
{
	return s ? fnv(h, s, strlen(s) + 1) : fnv(h, "", 1);
}

static uint64_t mix_percpu(uint64_t h, const uint32_t *p, uint32_t n)
{
	MIX(h, n);
	return p ? fnv(h, p, n * sizeof(*p)) : h;
}

static uint64_t mix_cpu(uint64_t h, const struct kstat_cputime *c)
{
	MIX(h, c->cpu);
	MIX(h, c->nr_ns);
	return fnv(h, c->ns, sizeof(c->ns));
}

static uint64_t mix_irq(uint64_t h, const struct kstat_irq *q, int meta)
{
	size_t i;

	MIX(h, q->irq);
	MIX(h, q->count);
	h = mix_percpu(h, q->percpu, q->nr_percpu);
	if (!meta)
		return h;
	h = mix_str(h, q->chip);
	MIX(h, q->has_hwirq);
	MIX(h, q->hwirq);
	MIX(h, q->level);
	h = mix_str(h, q->name);
	for (i = 0; i < q->nr_actions; i++)
		h = mix_str(h, q->actions[i]);
	return h;
}

static uint64_t mix_arch(uint64_t h, const struct kstat_arch *r)
{
	h = mix_str(h, r->name);
	h = mix_str(h, r->desc);
	MIX(h, r->count);
	return mix_percpu(h, r->percpu, r->nr_percpu);
}

static uint64_t mix_softirq(uint64_t h, const struct kstat_softirq *v)
{
	MIX(h, v->vec);
	h = mix_str(h, v->name);
	MIX(h, v->count);
	return mix_percpu(h, v->percpu, v->nr_percpu);
}

/* Every message of fixture @name through @fn; 0 or -errno. */
static int parse_all(const char *name,
		     int (*fn)(const struct nlmsghdr *, void *), void *out)
{
	struct fixture f;
	int msgs, err;

	if (fixture_load(name, &f))
		return -EIO;
	err = for_each_msg(&f, fn, out, &msgs);
	free(f.data);
	return err;
}

static uint64_t digest_irq_dump(const char *name)
{
	struct kstat_irq_list l = { 0 };
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	if (parse_all(name, irq_fn, &l))
		h = 0;
	for (i = 0; h && i < l.nr; i++)
		h = mix_irq(h, &l.irqs[i], 1);
	for (i = 0; h && i < l.nr_arch; i++)
		h = mix_arch(h, &l.arch[i]);
	if (h) {
		MIX(h, l.has_totals);
		MIX(h, l.intr_sum);
		MIX(h, l.nr_irqs);
		h = fnv(h, l.online, l.online_len);
	}
	kstat_irq_list_clear(&l);
	return h;
}

static uint64_t digest_cpu_dump(const char *name)
{
	struct kstat_cpu_list l = { .cputime_size = sizeof(struct kstat_cputime) };
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	if (parse_all(name, cpu_fn, &l))
		h = 0;
	for (i = 0; h && i < l.nr; i++)
		h = mix_cpu(h, &l.cpus[i]);
	kstat_cpu_list_clear(&l);
	return h;
}

static uint64_t digest_softirq(const char *name)
{
	struct kstat_softirq_list l = { 0 };
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	if (parse_all(name, softirq_fn, &l))
		h = 0;
	for (i = 0; h && i < l.nr; i++)
		h = mix_softirq(h, &l.vecs[i]);
	if (h)
		h = fnv(h, l.online, l.online_len);
	kstat_softirq_list_clear(&l);
	return h;
}

/* Every sample a subscriber is handed, every value in it. */
static void on_digest_sample(const struct kstat_sample *s, void *arg)
{
	uint64_t *h = arg;
	size_t i;

	MIX(*h, s->seq);
	MIX(*h, s->timestamp_ns);
	MIX(*h, s->generation);
	MIX(*h, s->keyframe);
	MIX(*h, s->config_changed);
	MIX(*h, s->sections);
	MIX(*h, s->intr_sum);
	for (i = 0; i < s->nr_cpus; i++)
		*h = mix_cpu(*h, &s->cpus[i]);
	for (i = 0; i < s->nr_irqs; i++)
		*h = mix_irq(*h, &s->irqs[i], 0);
	*h = fnv(*h, s->irqs_changed, s->nr_irqs_changed * sizeof(uint32_t));
	for (i = 0; i < s->nr_softirqs; i++)
		*h = mix_softirq(*h, &s->softirqs[i]);
	for (i = 0; i < s->nr_arch; i++)
		*h = mix_arch(*h, &s->arch[i]);
}

static const struct kstat_sub_ops digest_ops = { .sample = on_digest_sample };

static int feed_fn(const struct nlmsghdr *nlh, void *sub)
{
	return kstat_sub_feed(sub, nlh);
}

static uint64_t digest_summary(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct kstat_sub *sub = kstat_sub_alloc(&digest_ops, &h);
	if (!sub || parse_all(name, feed_fn, sub))
		h = 0;
	kstat_unsubscribe(sub);
	return h;
}

static const struct {
	const char *fixture;
	uint64_t (*digest)(const char *name);
	/*
	 * By the parsers before the section table (libkstat at 09b4692
	 * gives the same for the three formats it reads); the packed chunks
	 * of irq-dump-totals and summary (which those parsers cannot read):
	 * by this library, whose chunk parsers were checked against
	 * independent decoders, and test_fixtures matches the packed dump
	 * against the nest dump IRQ by IRQ.  The fixtures were recorded
	 * again for protocol version 3 (their formats unchanged): these
	 * values are what libkstat at 497c94c, which gave the values pinned
	 * before for the earlier recording, gives for this one.  Those
	 * recordings are kept in tests/fixtures/v3/.  The ones of protocol
	 * version 4 (32-bit count chunks, which libkstat before 9c959df
	 * cannot read) are pinned at what this library gives, the library
	 * that gives the values pinned above for v3/.
	 */
	uint64_t want;
} digests[] = {
	{ "v3/irq-dump-totals.nl", digest_irq_dump, 0xcc575da79b1acb18ULL },
	{ "v3/irq-dump-all.nl", digest_irq_dump, 0xd4a1d476f3efe812ULL },
	{ "v3/cpu-dump.nl", digest_cpu_dump, 0x030cd73a1c696357ULL },
	{ "v3/softirq-percpu.nl", digest_softirq, 0x449ce24d12def798ULL },
	{ "v3/summary.nl", digest_summary, 0x86cf44d019f951b0ULL },
	{ "irq-dump-totals.nl", digest_irq_dump, 0xb7c3f57a65dde78dULL },
	{ "irq-dump-all.nl", digest_irq_dump, 0x944c0d42fc766574ULL },
	{ "cpu-dump.nl", digest_cpu_dump, 0x0f30adda7789cf32ULL },
	{ "softirq-percpu.nl", digest_softirq, 0xe35c6ef382fad52bULL },
	{ "summary.nl", digest_summary, 0xf55957e06cd3807aULL },
};

static void test_fixture_digests(void)
{
	size_t i;

	for (i = 0; i < sizeof(digests) / sizeof(digests[0]); i++) {
		uint64_t h = digests[i].digest(digests[i].fixture);

		if (getenv("KSTAT_DIGEST_PRINT"))
			printf("%s 0x%016llxULL\n", digests[i].fixture,
			       (unsigned long long)h);
		CHECK(h && h == digests[i].want,
		      "%s parses to the values of the parsers before the section table (0x%016llx)",
		      digests[i].fixture, (unsigned long long)h);
	}
}

/* ---- keyframes that change the IRQ set ---- */

/* A sample @seq with @n IRQs (count irq * 1000 + seq), alone in a batch. */
static int feed_irqs(struct kstat_sub *sub, uint64_t seq, int key,
		     const uint32_t *irqs, int n, uint32_t percpu_irq)
{
	uint32_t cpus[2] = { (uint32_t)seq, 7 };
	struct msg m;
	size_t at;
	int i;

	msg_start(&m, seq, 0, 1);
	sample_open(&m, seq, key);
	for (i = 0; i < n; i++) {
		at = nest_open(&m, KSTAT_A_SAMPLE_IRQ);
		put_u32(&m, KSTAT_A_IRQ_ID, irqs[i]);
		put_u64(&m, KSTAT_A_IRQ_COUNT, irqs[i] * 1000ULL + seq);
		if (irqs[i] == percpu_irq)
			put(&m, KSTAT_A_IRQ_PERCPU, cpus, sizeof(cpus));
		nest_close(&m, at);
	}
	put_u64(&m, KSTAT_A_SAMPLE_INTR_SUM, seq);
	sample_close(&m);
	return kstat_sub_feed(sub, &m.nlh);
}

struct irq_state {
	int samples;
	size_t nr;
	uint32_t irq[16];
	uint64_t count[16];
	uint32_t nr_percpu[16];
	size_t nr_changed;
};

static void on_irq_sample(const struct kstat_sample *s, void *arg)
{
	struct irq_state *w = arg;
	size_t i;

	w->samples++;
	w->nr = s->nr_irqs < 16 ? s->nr_irqs : 16;
	for (i = 0; i < w->nr; i++) {
		w->irq[i] = s->irqs[i].irq;
		w->count[i] = s->irqs[i].count;
		w->nr_percpu[i] = s->irqs[i].percpu ? s->irqs[i].nr_percpu : 0;
	}
	w->nr_changed = s->nr_irqs_changed;
}

static const struct kstat_sub_ops irq_ops = { .sample = on_irq_sample };

/* Does the state hold exactly @irqs, each with the count of sample @seq? */
static int holds(const struct irq_state *w, const uint32_t *irqs, int n,
		 const uint64_t *seq)
{
	int i;

	if (w->nr != (size_t)n)
		return 0;
	for (i = 0; i < n; i++)
		if (w->irq[i] != irqs[i] || w->count[i] != irqs[i] * 1000ULL + seq[i])
			return 0;
	return 1;
}

static void test_keyframe_irq_set(void)
{
	static const uint32_t k1[] = { 1, 2, 3, 5 }, k2[] = { 1, 3, 4, 5, 6 },
			      d3[] = { 4 }, d4[] = { 2 }, k5[] = { 1, 3 };
	static const uint64_t s2[] = { 2, 2, 2, 2, 2 }, s3[] = { 2, 2, 3, 2, 2 },
			      s5[] = { 5, 5 }, s6[] = { 6, 6 }, s7[] = { 7, 7 };
	struct irq_state w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&irq_ops, &w);
	int err;

	feed_irqs(sub, 1, 1, k1, 4, 0);
	feed_irqs(sub, 2, 1, k2, 5, 0);
	CHECK(w.samples == 2 && holds(&w, k2, 5, s2) && w.nr_changed == 5,
	      "a keyframe that adds and removes IRQs leaves exactly its own (%zu)",
	      w.nr);
	feed_irqs(sub, 3, 0, d3, 1, 0);
	CHECK(w.samples == 3 && holds(&w, k2, 5, s3) && w.nr_changed == 1,
	      "a delta then finds an IRQ the keyframe added");
	err = feed_irqs(sub, 4, 0, d4, 1, 0);
	CHECK(err == -EBADMSG && w.samples == 3,
	      "a delta naming an IRQ the keyframe removed is malformed (%d)",
	      err);
	feed_irqs(sub, 5, 1, k5, 2, 0);
	CHECK(w.samples == 4 && holds(&w, k5, 2, s5),
	      "a keyframe with fewer IRQs drops the rest (%zu)", w.nr);
	feed_irqs(sub, 6, 1, k5, 2, 3);
	CHECK(w.samples == 5 && holds(&w, k5, 2, s6) && w.nr_percpu[1] == 2 &&
	      !w.nr_percpu[0], "per-CPU counts in a keyframe are kept");
	feed_irqs(sub, 7, 1, k5, 2, 0);
	CHECK(w.samples == 6 && holds(&w, k5, 2, s7) && !w.nr_percpu[1],
	      "a keyframe without per-CPU counts drops the old ones");
	kstat_unsubscribe(sub);
}

/* ---- packed cputime rows (KSTAT_A_SAMPLE_CPUTIME) ---- */

/* Field @f of CPU @cpu (-1: the sum) in sample @seq. */
static uint64_t ct_value(int cpu, uint32_t f, uint64_t seq)
{
	return (uint64_t)(cpu + 2) * 1000000 + f * 1000 + seq;
}

/* One chunk: @nr rows of @fields values (@short_by fewer), the sum if @sum. */
struct ct_chunk {
	uint32_t fields;
	int nr;
	uint32_t ids[4];
	int sum;
	int short_by;
};

static void put_ct_chunk(struct msg *m, uint64_t seq, const struct ct_chunk *c)
{
	uint64_t vals[4 * 16];
	size_t at = nest_open(m, KSTAT_A_SAMPLE_CPUTIME);
	uint32_t f;
	int i, n = 0;

	put_u32(m, KSTAT_A_CPUTIME_FIELDS, c->fields);
	if (c->nr) {
		for (i = 0; i < c->nr; i++)
			for (f = 0; f < c->fields; f++)
				vals[n++] = ct_value(c->ids[i], f, seq);
		put(m, KSTAT_A_CPUTIME_IDS, c->ids, c->nr * sizeof(uint32_t));
		put(m, KSTAT_A_CPUTIME_VALUES, vals,
		    (n - c->short_by) * sizeof(uint64_t));
	}
	if (c->sum) {
		for (f = 0; f < c->fields; f++)
			vals[f] = ct_value(-1, f, seq);
		put(m, KSTAT_A_CPUTIME_SUM, vals, c->fields * sizeof(uint64_t));
	}
	nest_close(m, at);
}

/* A sample @seq of cputime chunks only, alone in a batch. */
static int feed_cputime(struct kstat_sub *sub, uint64_t seq, int key,
			const struct ct_chunk *c, int n)
{
	struct msg m;
	int i;

	msg_start(&m, seq, 0, 1);
	sample_open(&m, seq, key);
	for (i = 0; i < n; i++)
		put_ct_chunk(&m, seq, &c[i]);
	sample_close(&m);
	return kstat_sub_feed(sub, &m.nlh);
}

/* ---- the same with packed chunks ---- */

/*
 * A sample @seq alone in a batch: a keyframe's IRQs as one dense chunk
 * from 0 (count irq * 1000 + seq), a delta's as ids with increment 1.
 * @bad: a keyframe with increments, or a dense chunk in a delta.
 */
static int feed_chunk(struct kstat_sub *sub, uint64_t seq, int key,
		      const uint32_t *irqs, int n, int bad)
{
	uint8_t present[4] = { 0 };
	uint64_t counts[16];
	uint32_t ids[16], incs[16];
	struct msg m;
	size_t at;
	int i;

	msg_start(&m, seq, 0, 1);
	sample_open(&m, seq, key);
	for (i = 0; i < n; i++) {
		present[irqs[i] / 8] |= 1 << (irqs[i] % 8);
		counts[i] = irqs[i] * 1000ULL + seq;
		ids[i] = irqs[i];
		incs[i] = 1;
	}
	at = nest_open(&m, KSTAT_A_SAMPLE_IRQS);
	if (key == !bad) {
		put_u32(&m, KSTAT_A_IRQS_FIRST, 0);
		put(&m, KSTAT_A_IRQS_PRESENT, present, sizeof(present));
		put(&m, KSTAT_A_IRQS_COUNTS, counts, n * sizeof(uint64_t));
	} else {
		put(&m, KSTAT_A_IRQS_IDS, ids, n * sizeof(uint32_t));
		put(&m, KSTAT_A_IRQS_INCREMENTS, incs, n * sizeof(uint32_t));
	}
	nest_close(&m, at);
	put_u64(&m, KSTAT_A_SAMPLE_INTR_SUM, seq);
	sample_close(&m);
	return kstat_sub_feed(sub, &m.nlh);
}

struct ct_state {
	int samples;
	uint32_t sections;
	size_t nr;
	struct kstat_cputime cpus[8];
};

static void on_ct_sample(const struct kstat_sample *s, void *arg)
{
	struct ct_state *w = arg;

	w->samples++;
	w->sections = s->sections;
	w->nr = s->nr_cpus < 8 ? s->nr_cpus : 8;
	memcpy(w->cpus, s->cpus, w->nr * sizeof(w->cpus[0]));
}

static const struct kstat_sub_ops ct_ops = { .sample = on_ct_sample };

/* Does row @i hold CPU @cpu with @nr_ns values of sample @seq, zeros after? */
static int ct_row(const struct ct_state *w, size_t i, int cpu, uint32_t nr_ns,
		  uint64_t seq)
{
	const struct kstat_cputime *c = &w->cpus[i];
	uint32_t f;

	if (i >= w->nr || c->cpu != cpu || c->nr_ns != nr_ns)
		return 0;
	for (f = 0; f < KSTAT_CPUTIME_NR; f++)
		if (c->ns[f] != (f < nr_ns ? ct_value(cpu, f, seq) : 0))
			return 0;
	return 1;
}

static void test_packed_cputime(void)
{
	const uint32_t nr = KSTAT_CPUTIME_NR;
	const struct ct_chunk k1[] = {
		{ nr, 2, { 0, 1 }, 0, 0 }, { nr, 1, { 3 }, 0, 0 },
		{ nr, 0, { 0 }, 1, 0 },
	};
	const struct ct_chunk d2[] = { { nr, 1, { 1 }, 0, 0 },
				       { nr, 0, { 0 }, 1, 0 } };
	const struct ct_chunk d3[] = { { nr + 2, 1, { 3 }, 0, 0 } };
	const struct ct_chunk d4[] = { { nr - 2, 1, { 0 }, 0, 0 } };
	const struct ct_chunk d5[] = { { nr, 0, { 0 }, 0, 0 } };
	const struct ct_chunk d6[] = { { nr, 1, { 2 }, 0, 0 } };
	const struct ct_chunk d8[] = { { nr, 1, { 1 }, 0, 1 } };
	const struct ct_chunk k9[] = { { nr, 2, { 1, 0 }, 1, 0 } };
	struct ct_state w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&ct_ops, &w);
	int err;

	feed_cputime(sub, 1, 1, k1, 3);
	CHECK(w.samples == 1 && w.nr == 4 && ct_row(&w, 0, 0, nr, 1) &&
	      ct_row(&w, 1, 1, nr, 1) && ct_row(&w, 2, 3, nr, 1) &&
	      ct_row(&w, 3, -1, nr, 1) && (w.sections & KSTAT_SECTION_CPU),
	      "a keyframe's chunks make the rows, then the sum (%zu)", w.nr);
	feed_cputime(sub, 2, 0, d2, 2);
	CHECK(w.samples == 2 && w.nr == 4 && ct_row(&w, 0, 0, nr, 1) &&
	      ct_row(&w, 1, 1, nr, 2) && ct_row(&w, 2, 3, nr, 1) &&
	      ct_row(&w, 3, -1, nr, 2),
	      "a delta replaces the rows and the sum it has, keeps the others");
	feed_cputime(sub, 3, 0, d3, 1);
	CHECK(w.samples == 3 && ct_row(&w, 2, 3, nr, 3) &&
	      ct_row(&w, 1, 1, nr, 2),
	      "more fields than the library knows: each row's extra ones skipped");
	feed_cputime(sub, 4, 0, d4, 1);
	CHECK(w.samples == 4 && ct_row(&w, 0, 0, nr - 2, 4),
	      "fewer fields: nr_ns says so, the slots after them are 0");
	feed_cputime(sub, 5, 0, d5, 1);
	CHECK(w.samples == 5 && w.nr == 4 && ct_row(&w, 2, 3, nr, 3) &&
	      (w.sections & KSTAT_SECTION_CPU),
	      "an empty chunk: a sample with the section, nothing changed");
	err = feed_cputime(sub, 6, 0, d6, 1);
	CHECK(err == -EBADMSG && w.samples == 5,
	      "a delta naming a CPU the keyframe did not have is malformed (%d)",
	      err);
	feed_cputime(sub, 7, 1, k1, 3);
	err = feed_cputime(sub, 8, 0, d8, 1);
	CHECK(w.samples == 6 && err == -EBADMSG,
	      "VALUES not ids * FIELDS long is malformed (%d)", err);
	err = feed_cputime(sub, 9, 1, k9, 1);
	CHECK(err == -EBADMSG, "a keyframe's rows out of order are malformed (%d)",
	      err);
	kstat_unsubscribe(sub);
}

static void test_chunks(void)
{
	static const uint32_t k1[] = { 1, 2, 3, 5 }, k2[] = { 1, 3, 4, 5, 30 },
			      d3[] = { 4, 30 }, d4[] = { 2 }, k5[] = { 1, 3 };
	static const uint64_t s2[] = { 2, 2, 2, 2, 2 },
			      s3[] = { 2, 2, 3, 2, 3 }, s9[] = { 9, 9 };
	struct irq_state w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&irq_ops, &w);
	int err;

	feed_chunk(sub, 1, 1, k1, 4, 0);
	feed_chunk(sub, 2, 1, k2, 5, 0);
	CHECK(w.samples == 2 && holds(&w, k2, 5, s2) && w.nr_changed == 5,
	      "a dense keyframe that adds and removes IRQs leaves exactly its own (%zu)",
	      w.nr);
	feed_chunk(sub, 3, 0, d3, 2, 0);
	CHECK(w.samples == 3 && holds(&w, k2, 5, s3) && w.nr_changed == 2,
	      "a delta's increments add to the counts held");
	err = feed_chunk(sub, 4, 0, d4, 1, 0);
	CHECK(err == -EBADMSG && w.samples == 3,
	      "a delta's increment for an IRQ the keyframe removed is malformed (%d)",
	      err);
	err = feed_chunk(sub, 5, 1, k5, 2, 1);
	CHECK(err == -EBADMSG, "increments in a keyframe are malformed (%d)",
	      err);
	feed_chunk(sub, 6, 1, k2, 5, 0);
	err = feed_chunk(sub, 7, 0, d3, 2, 1);
	CHECK(err == -EBADMSG && w.samples == 4,
	      "a dense chunk in a delta is malformed (%d)", err);
	feed_irqs(sub, 8, 1, k5, 2, 3);
	feed_chunk(sub, 9, 1, k5, 2, 0);
	CHECK(w.samples == 6 && holds(&w, k5, 2, s9) && !w.nr_percpu[1],
	      "a dense keyframe drops per-CPU counts a nest brought");
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_fixture_digests();
	test_keyframe_irq_set();
	test_packed_cputime();
	test_chunks();
	return unit_exit();
}
