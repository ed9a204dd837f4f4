// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers against recorded kernel replies (tests/fixtures/NAME.nl, made by
 * scripts/record-fixtures.sh in the test guest with 4096 synthetic IRQs):
 * dumps, a softirq reply, and a summary stream of a keyframe and deltas,
 * fed to a socketless subscription.  Also what a subscriber does with a
 * stream that lost a message or was cut short.
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
#include "fixture.h"

static int ascending_unique(const struct kstat_irq_list *l)
{
	size_t i;

	for (i = 1; i < l->nr; i++)
		if (l->irqs[i].irq <= l->irqs[i - 1].irq)
			return 0;
	return 1;
}

/* The IRQ whose action is @name, or -1. */
static int64_t irq_by_action(const struct kstat_irq_list *l, const char *name)
{
	size_t i, j;

	for (i = 0; i < l->nr; i++)
		for (j = 0; j < l->irqs[i].nr_actions; j++)
			if (!strcmp(l->irqs[i].actions[j], name))
				return l->irqs[i].irq;
	return -1;
}

static int64_t sim7 = -1;	/* the IRQ record.sh fires in summaries */

/*
 * The recordings checked: tests/fixtures/NAME.nl, made by this protocol
 * version's module, then tests/fixtures/v3/NAME.nl, made by a module of
 * protocol version 3 (before the 32-bit count chunks), which this library
 * still reads.  fx(NAME) is NAME in the set being checked.
 */
static const char *const fixture_sets[] = { "", "v3/" };
static const char *fixture_set = "";

static const char *fx(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s%s", fixture_set, name);
	return path;
}

/*
 * The packed totals dump against the nest dump recorded just after it
 * (record.sh): the same IRQs in the same order, and the same counts but
 * for the few IRQs live meanwhile, whose counts only grew.  The nests'
 * parser is the one older libraries had, so this checks the chunks'.
 */
static void check_totals_match(const struct kstat_irq_list *tot,
			       const struct kstat_irq_list *all)
{
	size_t i, same_irq = 0, same_count = 0, grew = 0;

	for (i = 0; i < tot->nr && tot->nr == all->nr; i++) {
		same_irq += tot->irqs[i].irq == all->irqs[i].irq;
		same_count += tot->irqs[i].count == all->irqs[i].count;
		grew += tot->irqs[i].count < all->irqs[i].count;
	}
	CHECK(tot->nr == all->nr && same_irq == tot->nr,
	      "packed and nest dumps: the same IRQs in order (%zu of %zu, %zu)",
	      same_irq, tot->nr, all->nr);
	CHECK(same_count + grew == tot->nr && grew <= 16,
	      "packed and nest dumps: the same counts but %zu live IRQs that grew",
	      grew);
}

/* Do an IRQ's per-CPU counts sum to its count (mod 2^32)? */
static int sums_to_count(const struct kstat_irq *q)
{
	uint32_t sum = 0, c;

	for (c = 0; c < q->nr_percpu; c++)
		sum += q->percpu[c];
	return q->percpu && sum == (uint32_t)q->count;
}

/*
 * The dump with per-CPU counts alone (records in chunks, recorded after
 * the nest dump @all): the same IRQs, the same arrays but for the few
 * live IRQs, each summing to its count; and its bytes within 2x the
 * totals dump's (@tot_bytes), where @all's dense nests were far more.
 */
static void check_percpu_dump(const struct kstat_irq_list *tot,
			      size_t tot_bytes, const struct kstat_irq_list *all)
{
	struct kstat_irq_list *l = calloc(1, sizeof(*l));
	size_t i, same = 0, sums = 0, n = 0;
	struct fixture f;
	int msgs, err;

	CHECK(!fixture_load(fx("irq-dump-percpu.nl"), &f), "irq-dump-percpu.nl loads");
	err = for_each_msg(&f, irq_fn, l, &msgs);
	CHECK(!err && l->nr == all->nr && ascending_unique(l),
	      "percpu dump: %zu IRQs in %d messages (err %d)", l->nr, msgs, err);
	for (i = 0; i < l->nr && l->nr == all->nr; i++) {
		const struct kstat_irq *a = &all->irqs[i], *q = &l->irqs[i];

		n++;
		sums += sums_to_count(q);
		same += q->irq == a->irq && q->nr_percpu == a->nr_percpu &&
			q->percpu && a->percpu &&
			!memcmp(q->percpu, a->percpu, q->nr_percpu * 4);
	}
	CHECK(n && sums == n, "every IRQ's per-CPU counts sum to its count (%zu of %zu)",
	      sums, n);
	CHECK(n && same + 16 >= n,
	      "the arrays are the nest dump's but for live IRQs (%zu of %zu)",
	      same, n);
	CHECK(f.len <= 2 * tot_bytes,
	      "percpu dump %zu bytes within 2x the totals dump's %zu", f.len,
	      tot_bytes);
	(void)tot;
	kstat_irq_list_free(l);
	free(f.data);
}

static void test_irq_dumps(void)
{
	struct kstat_irq_list *l = calloc(1, sizeof(*l)), *tot;
	struct fixture f;
	size_t i, sims = 0, tot_bytes;
	int msgs, err;

	CHECK(!fixture_load(fx("irq-dump-totals.nl"), &f), "irq-dump-totals.nl loads");
	err = for_each_msg(&f, irq_fn, l, &msgs);
	CHECK(!err && l->nr >= 4096, "totals dump: %zu IRQs in %d messages (err %d)",
	      l->nr, msgs, err);
	CHECK(ascending_unique(l), "each IRQ once, ascending");
	CHECK(l->has_totals && l->intr_sum > 0 && l->nr_irqs >= l->nr,
	      "trailer: intr %llu, nr_irqs %u",
	      (unsigned long long)l->intr_sum, l->nr_irqs);
	CHECK(!l->irqs[0].chip && !l->irqs[0].percpu && !l->nr_arch,
	      "totals only: no metadata, per-CPU counts or arch rows");
	tot = l;
	tot_bytes = f.len;
	free(f.data);

	l = calloc(1, sizeof(*l));
	CHECK(!fixture_load(fx("irq-dump-all.nl"), &f), "irq-dump-all.nl loads");
	err = for_each_msg(&f, irq_fn, l, &msgs);
	CHECK(!err && l->nr >= 4096 && ascending_unique(l),
	      "full dump: %zu IRQs in %d messages", l->nr, msgs);
	for (i = 0; i < l->nr; i++)
		if (l->irqs[i].chip && !strcmp(l->irqs[i].chip, "dummy") &&
		    l->irqs[i].nr_actions == 1 &&
		    !strncmp(l->irqs[i].actions[0], "kstat-sim-", 10))
			sims++;
	CHECK(sims == 4096, "4096 synthetic IRQs with chip and action (%zu)", sims);
	CHECK(l->irqs[0].percpu && l->irqs[0].nr_percpu >= 1,
	      "per-CPU counts present (%u CPUs)", l->irqs[0].nr_percpu);
	CHECK(l->nr_arch > 0 && !strcmp(l->arch[0].name, "NMI") &&
	      l->arch[0].desc && l->arch[0].percpu, "arch rows, NMI first");
	sim7 = irq_by_action(l, "kstat-sim-7");
	CHECK(sim7 >= 0, "kstat-sim-7 is IRQ %lld", (long long)sim7);
	check_totals_match(tot, l);
	check_percpu_dump(tot, tot_bytes, l);
	kstat_irq_list_free(tot);
	kstat_irq_list_free(l);
	free(f.data);
}

static void test_cpu_softirq(void)
{
	struct kstat_cpu_list *c = calloc(1, sizeof(*c));
	struct kstat_softirq_list *s = calloc(1, sizeof(*s));
	struct fixture f;
	int msgs;

	CHECK(!fixture_load(fx("cpu-dump.nl"), &f) &&
	      !for_each_msg(&f, cpu_fn, c, &msgs) && c->nr >= 1 &&
	      c->cpus[0].cpu == 0 && c->cpus[0].ns[KSTAT_CPUTIME_IDLE] > 0,
	      "cpu dump: %zu CPUs", c->nr);
	free(f.data);
	CHECK(!fixture_load(fx("softirq-percpu.nl"), &f) &&
	      !for_each_msg(&f, softirq_fn, s, &msgs) && s->nr == 10 &&
	      !strcmp(s->vecs[0].name, "HI") && !strcmp(s->vecs[9].name, "RCU") &&
	      s->vecs[1].percpu && s->vecs[1].count > 0,
	      "softirq reply: 10 vectors, HI..RCU, per-CPU counts");
	free(f.data);
	kstat_cpu_list_free(c);
	kstat_softirq_list_free(s);
}

/* ---- the summary stream ---- */

struct seen {
	int samples, keyframes, lost_calls;
	uint64_t lost, last_seq, sim_count[8];
	size_t key_irqs, max_delta_irqs;
	int seq_ok;
};

static void on_sample(const struct kstat_sample *s, void *arg)
{
	struct seen *w = arg;
	size_t i;

	if (w->samples && s->seq != w->last_seq + 1)
		w->seq_ok = 0;
	w->last_seq = s->seq;
	if (s->keyframe) {
		w->keyframes++;
		w->key_irqs = s->nr_irqs;
	} else if (s->nr_irqs_changed > w->max_delta_irqs) {
		w->max_delta_irqs = s->nr_irqs_changed;
	}
	for (i = 0; i < s->nr_irqs; i++)
		if (s->irqs[i].irq == sim7 && w->samples < 8)
			w->sim_count[w->samples] = s->irqs[i].count;
	w->samples++;
}

static void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	struct seen *w = arg;

	(void)why;
	w->lost += n;
	w->lost_calls++;
}

static const struct kstat_sub_ops ops = { .sample = on_sample, .lost = on_lost };

static int feed_fn(const struct nlmsghdr *nlh, void *sub)
{
	kstat_sub_feed(sub, nlh);
	return 0;
}

/* A stream with per-CPU counts: every IRQ's array sums to its count. */
struct seen_percpu {
	int samples, keyframes, bad;
	size_t irqs;
	uint32_t sim_cpu1[8];
};

static void on_percpu_sample(const struct kstat_sample *s, void *arg)
{
	struct seen_percpu *w = arg;
	size_t i;

	w->keyframes += s->keyframe;
	w->irqs = s->nr_irqs;
	for (i = 0; i < s->nr_irqs; i++) {
		if (!sums_to_count(&s->irqs[i]))
			w->bad++;
		if (s->irqs[i].irq == sim7 && w->samples < 8 &&
		    s->irqs[i].nr_percpu > 1)
			w->sim_cpu1[w->samples] = s->irqs[i].percpu[1];
	}
	w->samples++;
}

static void test_summary_percpu(void)
{
	static const struct kstat_sub_ops pops = { .sample = on_percpu_sample };
	struct seen_percpu w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&pops, &w);
	struct fixture f;
	int msgs;

	CHECK(!fixture_load(fx("summary-percpu.nl"), &f), "summary-percpu.nl loads");
	for_each_msg(&f, feed_fn, sub, &msgs);
	CHECK(w.samples == 4 && w.keyframes >= 1 && w.irqs >= 4096,
	      "4 samples with per-CPU records (%d, %d keyframes, %zu IRQs)",
	      w.samples, w.keyframes, w.irqs);
	CHECK(!w.bad, "every IRQ's per-CPU counts sum to its count (%d not)",
	      w.bad);
	CHECK(w.sim_cpu1[3] > w.sim_cpu1[0],
	      "the IRQ fired on CPU 1: its count there grows (%u -> %u)",
	      w.sim_cpu1[0], w.sim_cpu1[3]);
	kstat_unsubscribe(sub);
	free(f.data);
}

static void test_summary(void)
{
	struct seen w = { .seq_ok = 1 };
	struct kstat_sub *sub = kstat_sub_alloc(&ops, &w);
	struct fixture f;
	int msgs;

	CHECK(!fixture_load(fx("summary.nl"), &f), "summary.nl loads");
	for_each_msg(&f, feed_fn, sub, &msgs);
	CHECK(w.samples == 4 && w.keyframes == 1 && w.lost == 0,
	      "4 samples, the first a keyframe, none lost (%d, %d, %llu) from %d messages",
	      w.samples, w.keyframes, (unsigned long long)w.lost, msgs);
	CHECK(w.seq_ok, "consecutive seq");
	CHECK(w.key_irqs >= 4096, "keyframe carries all %zu IRQs", w.key_irqs);
	CHECK(w.max_delta_irqs < 20, "deltas carry only changed IRQs (max %zu)",
	      w.max_delta_irqs);
	CHECK(w.sim_count[3] > w.sim_count[0],
	      "the fired IRQ's applied count grows (%llu -> %llu)",
	      (unsigned long long)w.sim_count[0], (unsigned long long)w.sim_count[3]);
	kstat_unsubscribe(sub);

	/* Without the keyframe's second part, a subscriber reports the loss
	 * and delivers nothing (the deltas have no base) until a keyframe.
	 */
	memset(&w, 0, sizeof(w));
	w.seq_ok = 1;
	sub = kstat_sub_alloc(&ops, &w);
	{
		const struct nlmsghdr *nlh = (const void *)f.data;
		size_t off = 0;
		int i = 0;

		while (off < f.len) {
			nlh = (const void *)(f.data + off);
			if (i++ != 1)
				kstat_sub_feed(sub, nlh);
			off += NLMSG_ALIGN(nlh->nlmsg_len);
		}
	}
	CHECK(w.samples == 0 && w.lost == 1,
	      "a keyframe missing a part: %d delivered, %llu lost",
	      w.samples, (unsigned long long)w.lost);
	kstat_unsubscribe(sub);

	/* Truncated messages: rejected, never read past their end. */
	memset(&w, 0, sizeof(w));
	sub = kstat_sub_alloc(&ops, &w);
	{
		struct nlmsghdr *copy = malloc(((struct nlmsghdr *)f.data)->nlmsg_len);
		uint32_t len = ((struct nlmsghdr *)f.data)->nlmsg_len, cut;
		int bad = 0;

		for (cut = NLMSG_HDRLEN; cut < len; cut += 97) {
			memcpy(copy, f.data, cut);
			copy->nlmsg_len = cut;
			if (kstat_sub_feed(sub, copy) == -EBADMSG)
				bad++;
		}
		CHECK(bad > 0 && w.samples == 0,
		      "truncated summaries rejected (%d of them), nothing delivered", bad);
		free(copy);
	}
	kstat_unsubscribe(sub);
	free(f.data);
}

/* ---- struct kstat_cputime at the caller's size ---- */

/*
 * A program built against a newer libkstat.h, whose struct kstat_cputime
 * has grown (three more ns[] slots), and run against this library.
 */
struct newer_cputime {
	struct kstat_cputime c;
	uint64_t later[3];
};

static int same_cputime(const struct kstat_cputime *a,
			const struct kstat_cputime *b)
{
	return a->cpu == b->cpu && !memcmp(a->ns, b->ns, sizeof(a->ns));
}

/* Every element of @l at its stride matches @ref; the tails are 0. */
static int list_matches(const struct kstat_cpu_list *l,
			const struct kstat_cpu_list *ref, size_t stride)
{
	static const uint64_t zero[3];
	size_t i;

	if (l->nr != ref->nr || l->cputime_size != stride)
		return 0;
	for (i = 0; i < l->nr; i++) {
		const struct newer_cputime *e = (const void *)((const char *)l->cpus + i * stride);

		if (!same_cputime(&e->c, &ref->cpus[i]) ||
		    e->c.nr_ns != KSTAT_CPUTIME_NR ||
		    (stride == sizeof(*e) && memcmp(e->later, zero, sizeof(zero))))
			return 0;
	}
	return 1;
}

static struct kstat_cpu_list *cpu_dump_at(const struct fixture *f,
					  size_t stride)
{
	struct kstat_cpu_list *l = calloc(1, sizeof(*l));
	int msgs;

	l->cputime_size = stride;
	if (for_each_msg(f, cpu_fn, l, &msgs)) {
		kstat_cpu_list_free(l);
		return NULL;
	}
	return l;
}

struct cpu_seen {
	size_t stride;
	int samples, bad;
	struct kstat_cputime total;	/* the last sample's, cpu -1 */
};

static void on_cpu_sample(const struct kstat_sample *s, void *arg)
{
	struct cpu_seen *w = arg;
	const struct kstat_cputime *last;
	size_t i;

	w->samples++;
	for (i = 0; i < s->nr_cpus; i++) {
		const struct newer_cputime *e = (const void *)((const char *)s->cpus + i * w->stride);

		if (e->c.nr_ns != KSTAT_CPUTIME_NR ||
		    (w->stride == sizeof(*e) &&
		     (e->later[0] || e->later[1] || e->later[2])))
			w->bad++;
	}
	last = (const void *)((const char *)s->cpus + (s->nr_cpus - 1) * w->stride);
	if (last->cpu != -1)
		w->bad++;
	w->total = *last;
}

static void feed_summary_at(const struct fixture *f, size_t stride,
			    struct cpu_seen *w)
{
	static const struct kstat_sub_ops cpu_ops = { .sample = on_cpu_sample,
						      .lost = on_lost };
	struct kstat_sub *sub = kstat_sub_alloc_sz(&cpu_ops, stride, w);
	int msgs;

	w->stride = stride;
	if (sub)
		for_each_msg(f, feed_fn, sub, &msgs);
	kstat_unsubscribe(sub);
}

static void test_cputime_stride(void)
{
	struct kstat_cpu_list *ref, *newer, *old;
	struct cpu_seen seen_newer = { 0 }, seen_ours = { 0 };
	struct fixture f;
	union {
		struct kstat_cputime c;
		unsigned char bytes[KSTAT_CPUTIME_SIZE_1_0 + 16];
	} one;
	size_t i;
	int intact = 1;

	CHECK(!fixture_load(fx("cpu-dump.nl"), &f), "cpu-dump.nl loads");
	ref = cpu_dump_at(&f, sizeof(struct kstat_cputime));
	newer = cpu_dump_at(&f, sizeof(struct newer_cputime));
	old = cpu_dump_at(&f, KSTAT_CPUTIME_SIZE_1_0);
	CHECK(ref && newer && list_matches(newer, ref, sizeof(struct newer_cputime)),
	      "a newer program's bigger cputime: cpus[i] at its stride (%zu), same values, its new slots 0",
	      sizeof(struct newer_cputime));
	CHECK(ref && old && list_matches(old, ref, KSTAT_CPUTIME_SIZE_1_0),
	      "a 1.0 program's cputime: cpus[i] at %zu bytes, same values",
	      KSTAT_CPUTIME_SIZE_1_0);
	kstat_cpu_list_free(ref);
	kstat_cpu_list_free(newer);
	kstat_cpu_list_free(old);
	free(f.data);

	/* One element stored at the 1.0 size writes nothing after it. */
	memset(&one, 0xa5, sizeof(one));
	kstat_cputime_store(&one, KSTAT_CPUTIME_SIZE_1_0,
			    &(struct kstat_cputime){ .cpu = 1,
						     .nr_ns = KSTAT_CPUTIME_NR });
	for (i = KSTAT_CPUTIME_SIZE_1_0; i < sizeof(one); i++)
		intact &= one.bytes[i] == 0xa5;
	CHECK(intact && one.c.cpu == 1 && one.c.ns[0] == 0,
	      "a 1.0-sized cputime: nothing written past its %zu bytes",
	      KSTAT_CPUTIME_SIZE_1_0);

	/* A subscription's samples, at the caller's stride too. */
	CHECK(!fixture_load(fx("summary.nl"), &f), "summary.nl loads");
	feed_summary_at(&f, sizeof(struct newer_cputime), &seen_newer);
	feed_summary_at(&f, sizeof(struct kstat_cputime), &seen_ours);
	CHECK(seen_newer.samples == 4 && seen_newer.bad == 0 &&
	      seen_ours.samples == 4 &&
	      same_cputime(&seen_newer.total, &seen_ours.total) &&
	      seen_newer.total.ns[KSTAT_CPUTIME_IDLE] > 0,
	      "samples at a newer program's stride: %d samples, total last, same values, new slots 0",
	      seen_newer.samples);
	CHECK(!kstat_sub_alloc_sz(&ops, KSTAT_CPUTIME_SIZE_1_0 - 8, NULL),
	      "a subscription refuses a cputime below the 1.0 size");
	free(f.data);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(fixture_sets) / sizeof(fixture_sets[0]); i++) {
		fixture_set = fixture_sets[i];
		printf("# fixtures: tests/fixtures/%s\n", fixture_set);
		sim7 = -1;
		test_irq_dumps();
		test_cpu_softirq();
		test_summary();
		test_summary_percpu();
		test_cputime_stride();
	}
	return unit_exit();
}
