// SPDX-License-Identifier: GPL-2.0
/*
 * Parser unit tests: replies are built here the way the kernel builds them
 * (same attributes, same nesting), then fed to libkstat's parsers.  Also
 * malformed replies: every one must be rejected with -EBADMSG, never
 * crash or be half-accepted silently.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"

static struct nl_msg *new_msg(uint8_t cmd)
{
	struct nl_msg *m = nlmsg_alloc_size(1 << 16);

	genlmsg_put(m, 0, 0, 0x20, 0, 0, cmd, 1);
	return m;
}

static void put_irq(struct nl_msg *m, uint32_t irq, uint64_t count,
		    const uint32_t *percpu, int ncpu, int meta)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u32(m, KSTAT_A_IRQ_ID, irq);
	nla_put_u64(m, KSTAT_A_IRQ_COUNT, count);
	if (percpu)
		nla_put(m, KSTAT_A_IRQ_PERCPU, ncpu * 4, percpu);
	if (meta) {
		nla_put_string(m, KSTAT_A_IRQ_CHIP, "IO-APIC");
		nla_put_u64(m, KSTAT_A_IRQ_HWIRQ, 2);
		nla_put_u8(m, KSTAT_A_IRQ_LEVEL, 0);
		nla_put_string(m, KSTAT_A_IRQ_NAME, "edge");
		nla_put_string(m, KSTAT_A_IRQ_ACTION, "timer");
		nla_put_string(m, KSTAT_A_IRQ_ACTION, "other");
		nla_put_u32(m, 200, 7);	/* from a newer kernel: skipped */
	}
	nla_nest_end(m, n);
}

static void test_irq_ok(void)
{
	uint32_t pc[3] = { 5, 7, 0 };
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	uint8_t online = 0x3;
	int err;

	put_irq(m, 0, 12, pc, 3, 1);
	put_irq(m, 9, 4294967295ULL, NULL, 0, 0);
	nla_put_u64(m, KSTAT_A_INTR_SUM, 1234);
	nla_put_u32(m, KSTAT_A_NR_IRQS, 64);
	nla_put(m, KSTAT_A_ONLINE_CPUS, 1, &online);
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);

	CHECK(err == 0, "IRQ reply parses (err %d)", err);
	CHECK(l.nr == 2, "two IRQs (got %zu)", l.nr);
	CHECK(l.irqs[0].irq == 0 && l.irqs[0].count == 12, "IRQ 0 count 12");
	CHECK(l.irqs[0].nr_percpu == 3 && l.irqs[0].percpu[1] == 7,
	      "per-CPU counts copied");
	CHECK(l.irqs[0].chip && !strcmp(l.irqs[0].chip, "IO-APIC"), "chip");
	CHECK(l.irqs[0].has_hwirq && l.irqs[0].hwirq == 2, "hwirq");
	CHECK(l.irqs[0].nr_actions == 2 &&
	      !strcmp(l.irqs[0].actions[1], "other"), "both actions, in order");
	CHECK(l.irqs[1].count == 4294967295ULL && !l.irqs[1].chip,
	      "totals-only IRQ has no metadata");
	CHECK(l.has_totals && l.intr_sum == 1234 && l.nr_irqs == 64,
	      "trailer: intr sum and nr_irqs");
	CHECK(kstat_cpu_is_online(l.online, l.online_len, 1) &&
	      !kstat_cpu_is_online(l.online, l.online_len, 2) &&
	      !kstat_cpu_is_online(l.online, l.online_len, 800),
	      "online bitmap, bounds-checked");
	nlmsg_free(m);
	/* l lives on the stack: hand its contents to a heap list to free */
	{
		struct kstat_irq_list *heap = malloc(sizeof(*heap));

		*heap = l;
		kstat_irq_list_free(heap);
	}
}

/* Each builder makes one broken reply. */
static void bad_count_len(struct nl_msg *m)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u32(m, KSTAT_A_IRQ_ID, 1);
	nla_put_u32(m, KSTAT_A_IRQ_COUNT, 1);	/* u32 where u64 belongs */
	nla_nest_end(m, n);
}

static void bad_no_id(struct nl_msg *m)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u64(m, KSTAT_A_IRQ_COUNT, 1);
	nla_nest_end(m, n);
}

static void bad_percpu_len(struct nl_msg *m)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u32(m, KSTAT_A_IRQ_ID, 1);
	nla_put_u64(m, KSTAT_A_IRQ_COUNT, 1);
	nla_put(m, KSTAT_A_IRQ_PERCPU, 6, "abcdef");
	nla_nest_end(m, n);
}

static void bad_unterminated(struct nl_msg *m)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u32(m, KSTAT_A_IRQ_ID, 1);
	nla_put_u64(m, KSTAT_A_IRQ_COUNT, 1);
	nla_put(m, KSTAT_A_IRQ_CHIP, 4, "abcd");
	nla_nest_end(m, n);
}

/* ---- packed chunks (KSTAT_A_IRQS) ---- */

/* A dense chunk from @first: @present bytes, then @n counts. */
static void put_dense(struct nl_msg *m, uint32_t first, const uint8_t *present,
		      int plen, const uint64_t *counts, int n)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put_u32(m, KSTAT_A_IRQS_FIRST, first);
	nla_put(m, KSTAT_A_IRQS_PRESENT, plen, present);
	nla_put(m, KSTAT_A_IRQS_COUNTS, n * 8, counts);
	nla_nest_end(m, c);
}

static void test_irqs_chunks(void)
{
	static const uint8_t present[2] = { 0x05, 0x80 };	/* 0, 2, 15 */
	static const uint64_t counts[3] = { 10, 12, 4294967295ULL };
	static const uint32_t ids[2] = { 300, 7 };
	static const uint64_t lcounts[2] = { 30, 70 };
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	struct nlattr *c;
	int err, i;

	/* 40 dense chunks: the list grows across its capacities */
	for (i = 0; i < 40; i++)
		put_dense(m, 256 * i, present, 2, counts, 3);
	c = nla_nest_start(m, KSTAT_A_IRQS);
	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS, sizeof(lcounts), lcounts);
	nla_nest_end(m, c);
	nla_put_u64(m, KSTAT_A_INTR_SUM, 1234);
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == 122, "dense and listed chunks parse (%d, %zu)",
	      err, l.nr);
	CHECK(l.nr == 122 && l.irqs[0].irq == 0 && l.irqs[1].irq == 2 &&
	      l.irqs[2].irq == 15 && l.irqs[2].count == 4294967295ULL &&
	      l.irqs[118].irq == 256 * 39 + 2 && l.irqs[118].count == 12,
	      "a dense chunk's bits are its IRQs, in order, with their counts");
	CHECK(l.nr == 122 && l.irqs[120].irq == 300 && l.irqs[121].irq == 7 &&
	      l.irqs[121].count == 70 && !l.irqs[121].percpu &&
	      !l.irqs[121].chip, "a listed chunk keeps its order");
	kstat_irq_list_clear(&l);
	nlmsg_free(m);
}

/*
 * 32-bit counts (KSTAT_A_IRQS_COUNTS32), what a version 4 dump sends
 * (and a keyframe where the counts fit), beside 64-bit ones, which a
 * keyframe still sends where a running total passed 2^32.
 */
static void test_irqs_counts32(void)
{
	static const uint8_t present[2] = { 0x05, 0x80 };	/* 0, 2, 15 */
	static const uint32_t counts32[3] = { 10, 12, 4294967295U };
	static const uint64_t counts[3] = { 1, 4294967296ULL, 3 };
	static const uint32_t ids[2] = { 300, 7 };
	static const uint32_t lcounts[2] = { 30, 70 };
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	struct nlattr *c;
	int err;

	c = nla_nest_start(m, KSTAT_A_IRQS);
	nla_put_u32(m, KSTAT_A_IRQS_FIRST, 0);
	nla_put(m, KSTAT_A_IRQS_PRESENT, 2, present);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, sizeof(counts32), counts32);
	nla_nest_end(m, c);
	put_dense(m, 256, present, 2, counts, 3);
	c = nla_nest_start(m, KSTAT_A_IRQS);
	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, sizeof(lcounts), lcounts);
	nla_nest_end(m, c);
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == 8, "32-bit chunks parse beside a 64-bit one (%d, %zu)",
	      err, l.nr);
	CHECK(l.nr == 8 && l.irqs[0].irq == 0 && l.irqs[0].count == 10 &&
	      l.irqs[2].irq == 15 && l.irqs[2].count == 4294967295ULL,
	      "a dense chunk's 32-bit counts, the largest whole");
	CHECK(l.nr == 8 && l.irqs[4].irq == 258 &&
	      l.irqs[4].count == 4294967296ULL,
	      "a 64-bit chunk after it keeps its counts above 2^32");
	CHECK(l.nr == 8 && l.irqs[6].irq == 300 && l.irqs[6].count == 30 &&
	      l.irqs[7].irq == 7 && l.irqs[7].count == 70,
	      "a listed chunk's 32-bit counts, in its order");
	kstat_irq_list_clear(&l);
	nlmsg_free(m);
}

/* ---- per-CPU records in chunks (KSTAT_A_IRQS_CPUS) ---- */

/* A listed chunk of @n IRQs with @nr_cpus-long arrays as @words records. */
static void put_recs(struct nl_msg *m, const uint32_t *ids,
		     const uint64_t *counts, int n, uint32_t nr_cpus,
		     const uint32_t *words, int nw)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put(m, KSTAT_A_IRQS_IDS, n * 4, ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS, n * 8, counts);
	nla_put_u32(m, KSTAT_A_IRQS_NR_CPUS, nr_cpus);
	nla_put(m, KSTAT_A_IRQS_CPUS, nw * 4, words);
	nla_nest_end(m, c);
}

/* Every form, decoded to the dense array the library always gave. */
static void test_irqs_records(void)
{
	static const uint32_t ids[4] = { 24, 25, 26, 27 };
	/* 2^32 + 9: ONE's count is the IRQ's mod 2^32 */
	static const uint64_t counts[4] = { 4294967305ULL, 12, 0, 15 };
	static const uint32_t words[] = {
		KSTAT_CPUS_ONE | 5,			/* 24: all on CPU 5 */
		KSTAT_CPUS_PAIRS | 2, 1, 5, 7, 7,	/* 25: CPUs 1 and 7 */
		KSTAT_CPUS_PAIRS | 0,			/* 26: none */
		KSTAT_CPUS_DENSE | 8, 1, 2, 3, 4, 5, 0, 0, 0,	/* 27 */
	};
	static const uint32_t want[4][8] = {
		{ 0, 0, 0, 0, 0, 9, 0, 0 },
		{ 0, 5, 0, 0, 0, 0, 0, 7 },
		{ 0 },
		{ 1, 2, 3, 4, 5, 0, 0, 0 },
	};
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	int err, i, ok = 1;

	put_recs(m, ids, counts, 4, 8, words, sizeof(words) / 4);
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == 4, "a chunk with records parses (%d, %zu)",
	      err, l.nr);
	for (i = 0; i < 4 && (size_t)i < l.nr; i++)
		ok &= l.irqs[i].irq == ids[i] && l.irqs[i].nr_percpu == 8 &&
		      l.irqs[i].percpu &&
		      !memcmp(l.irqs[i].percpu, want[i], sizeof(want[i]));
	CHECK(ok && l.nr == 4,
	      "ONE, PAIRS, empty PAIRS and DENSE give the dense arrays");
	kstat_irq_list_clear(&l);
	nlmsg_free(m);
}

/*
 * A dump's per-CPU arrays are carved from blocks the list owns: more
 * IRQs than a first block holds (512 words: 64 IRQs at 8 CPUs) take
 * several, and every array still holds its own IRQ's counts; the list's
 * clear frees them (test_memory.sh runs this under valgrind), and an IRQ
 * from a nest still owns its array.
 */
static void test_irqs_records_pooled(void)
{
	enum { N = 32, CHUNKS = 10 };
	uint32_t ids[N], words[N];
	uint64_t counts[N];
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	uint32_t pc[8] = { 0, 0, 3, 0, 0, 0, 0, 0 };
	size_t i;
	int err, k, ok = 1;

	for (k = 0; k < CHUNKS; k++) {
		for (i = 0; i < N; i++) {
			ids[i] = k * N + i;
			counts[i] = ids[i] + 1;
			words[i] = KSTAT_CPUS_ONE | (ids[i] % 8);
		}
		put_recs(m, ids, counts, N, 8, words, N);
	}
	put_irq(m, 1000, 3, pc, 8, 0);	/* a nest: its own array */
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == N * CHUNKS + 1,
	      "%d chunks of records parse (%d, %zu)", CHUNKS, err, l.nr);
	for (i = 0; i < l.nr && i < N * CHUNKS; i++)
		ok &= l.irqs[i].nr_percpu == 8 &&
		      l.irqs[i].percpu[i % 8] == i + 1 &&
		      l.irqs[i].percpu[(i + 1) % 8] == 0;
	CHECK(ok, "each IRQ's array from the blocks holds its own counts");
	CHECK(l.percpu_pool && kstat_irq_list_percpu_words(&l) == N * CHUNKS * 8,
	      "the arrays took %d words of blocks (%zu)", N * CHUNKS * 8,
	      kstat_irq_list_percpu_words(&l));
	CHECK(l.nr == N * CHUNKS + 1 && l.irqs[N * CHUNKS].percpu[2] == 3,
	      "a nest's array beside them");
	kstat_irq_list_clear(&l);
	CHECK(!l.percpu_pool && !l.nr, "the clear lets the blocks go");
	nlmsg_free(m);
}

/* A nest's record (KSTAT_A_IRQ_CPUS) instead of the dense array. */
static void put_irq_rec(struct nl_msg *m, uint32_t irq, uint64_t count,
			uint32_t nr_cpus, const uint32_t *words, int nw)
{
	struct nlattr *n = nla_nest_start(m, KSTAT_A_IRQ);

	nla_put_u32(m, KSTAT_A_IRQ_ID, irq);
	nla_put_u64(m, KSTAT_A_IRQ_COUNT, count);
	if (nr_cpus)
		nla_put_u32(m, KSTAT_A_IRQ_NR_CPUS, nr_cpus);
	nla_put(m, KSTAT_A_IRQ_CPUS, nw * 4, words);
	nla_put_string(m, KSTAT_A_IRQ_CHIP, "dummy");
	nla_nest_end(m, n);
}

static void test_irq_nest_records(void)
{
	static const uint32_t one[] = { KSTAT_CPUS_ONE | 4095 };
	static const uint32_t pairs[] = { KSTAT_CPUS_PAIRS | 2, 0, 3, 9, 4 };
	struct kstat_irq_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
	int err;

	put_irq_rec(m, 30, 11, 4096, one, 1);
	put_irq_rec(m, 31, 7, 4096, pairs, 5);
	err = kstat_parse_irq_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == 2, "nests with records parse (%d, %zu)", err,
	      l.nr);
	CHECK(l.nr == 2 && l.irqs[0].nr_percpu == 4096 &&
	      l.irqs[0].percpu[4095] == 11 && l.irqs[0].percpu[0] == 0 &&
	      l.irqs[1].percpu[0] == 3 && l.irqs[1].percpu[9] == 4 &&
	      l.irqs[1].percpu[1] == 0 && !strcmp(l.irqs[1].chip, "dummy"),
	      "a nest's ONE and PAIRS give the dense arrays, beside metadata");
	kstat_irq_list_clear(&l);
	nlmsg_free(m);
}

static void bad_nest_rec_no_len(struct nl_msg *m)
{
	static const uint32_t one[] = { KSTAT_CPUS_ONE | 1 };

	put_irq_rec(m, 30, 11, 0, one, 1);
}

static void bad_nest_rec_extra(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_ONE | 1, 0 };

	put_irq_rec(m, 30, 11, 8, w, 2);
}

static void bad_rec(struct nl_msg *m, const uint32_t *words, int nw,
		    uint32_t nr_cpus)
{
	static const uint32_t ids[1] = { 24 };
	static const uint64_t counts[1] = { 3 };

	put_recs(m, ids, counts, 1, nr_cpus, words, nw);
}

static void bad_rec_index(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_ONE | 8 };

	bad_rec(m, w, 1, 8);
}

static void bad_rec_order(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_PAIRS | 2, 3, 1, 2, 1 };

	bad_rec(m, w, 5, 8);
}

static void bad_rec_short(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_PAIRS | 2, 3, 1 };

	bad_rec(m, w, 3, 8);
}

static void bad_rec_dense_len(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_DENSE | 2, 1, 2 };

	bad_rec(m, w, 3, 8);
}

static void bad_rec_kind(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_KIND | 1 };

	bad_rec(m, w, 1, 8);
}

static void bad_rec_extra(struct nl_msg *m)
{
	static const uint32_t w[] = { KSTAT_CPUS_ONE | 1, KSTAT_CPUS_ONE | 2 };

	bad_rec(m, w, 2, 8);
}

static void bad_rec_no_len(struct nl_msg *m)
{
	static const uint32_t ids[1] = { 24 };
	static const uint64_t counts[1] = { 3 };
	static const uint32_t w[] = { KSTAT_CPUS_ONE | 1 };
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put(m, KSTAT_A_IRQS_IDS, 4, ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS, 8, counts);
	nla_put(m, KSTAT_A_IRQS_CPUS, 4, w);
	nla_nest_end(m, c);
}

static void bad_popcount(struct nl_msg *m)
{
	static const uint8_t present[1] = { 0x07 };
	static const uint64_t counts[2] = { 1, 2 };

	put_dense(m, 0, present, 1, counts, 2);
}

static void bad_counts_len(struct nl_msg *m)
{
	static const uint8_t present[1] = { 0x01 };
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put_u32(m, KSTAT_A_IRQS_FIRST, 0);
	nla_put(m, KSTAT_A_IRQS_PRESENT, 1, present);
	nla_put_u32(m, KSTAT_A_IRQS_COUNTS, 1);
	nla_nest_end(m, c);
}

static void bad_counts32_len(struct nl_msg *m)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);
	static const uint8_t present[1] = { 0x03 };	/* two IRQs */
	static const uint32_t counts[1] = { 5 };	/* one count */

	nla_put_u32(m, KSTAT_A_IRQS_FIRST, 0);
	nla_put(m, KSTAT_A_IRQS_PRESENT, 1, present);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, sizeof(counts), counts);
	nla_nest_end(m, c);
}

static void bad_counts32_odd(struct nl_msg *m)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);
	static const uint32_t ids[1] = { 4 };

	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, 6, "\1\0\0\0\0\0");
	nla_nest_end(m, c);
}

static void bad_counts_both(struct nl_msg *m)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);
	static const uint32_t ids[1] = { 4 }, c32[1] = { 5 };
	static const uint64_t c64[1] = { 5 };

	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS, sizeof(c64), c64);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, sizeof(c32), c32);
	nla_nest_end(m, c);
}

static void bad_counts32_incs(struct nl_msg *m)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);
	static const uint32_t ids[1] = { 4 }, c32[1] = { 5 };

	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_INCREMENTS, sizeof(c32), c32);
	nla_put(m, KSTAT_A_IRQS_COUNTS32, sizeof(c32), c32);
	nla_nest_end(m, c);
}

static void bad_no_first(struct nl_msg *m)
{
	static const uint8_t present[1] = { 0x01 };
	static const uint64_t counts[1] = { 1 };
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put(m, KSTAT_A_IRQS_PRESENT, 1, present);
	nla_put(m, KSTAT_A_IRQS_COUNTS, 8, counts);
	nla_nest_end(m, c);
}

static void bad_ids_counts(struct nl_msg *m)
{
	static const uint32_t ids[2] = { 1, 2 };
	static const uint64_t counts[1] = { 1 };
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_COUNTS, sizeof(counts), counts);
	nla_nest_end(m, c);
}

static void bad_reply_increments(struct nl_msg *m)
{
	static const uint32_t ids[1] = { 1 }, incs[1] = { 1 };
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put(m, KSTAT_A_IRQS_IDS, sizeof(ids), ids);
	nla_put(m, KSTAT_A_IRQS_INCREMENTS, sizeof(incs), incs);
	nla_nest_end(m, c);
}

static void bad_too_wide(struct nl_msg *m)
{
	static uint8_t present[KSTAT_IRQS_CHUNK_MAX / 8 + 1];
	static const uint64_t counts[1] = { 1 };

	present[KSTAT_IRQS_CHUNK_MAX / 8] = 1;
	put_dense(m, 0, present, sizeof(present), counts, 1);
}

/* (libnl drops a nest left empty: a base alone is the smallest) */
static void bad_base_only(struct nl_msg *m)
{
	struct nlattr *c = nla_nest_start(m, KSTAT_A_IRQS);

	nla_put_u32(m, KSTAT_A_IRQS_FIRST, 0);
	nla_nest_end(m, c);
}

static void bad_intr_len(struct nl_msg *m)
{
	nla_put_u32(m, KSTAT_A_INTR_SUM, 1);
}

static void test_irq_bad(void)
{
	static const struct {
		const char *what;
		void (*build)(struct nl_msg *m);
	} cases[] = {
		{ "count of the wrong length", bad_count_len },
		{ "IRQ without an id", bad_no_id },
		{ "per-CPU array not a multiple of 4", bad_percpu_len },
		{ "unterminated chip string", bad_unterminated },
		{ "intr sum of the wrong length", bad_intr_len },
		{ "a chunk with more counts than present bits", bad_popcount },
		{ "a chunk's counts not whole u64s", bad_counts_len },
		{ "fewer 32-bit counts than present bits", bad_counts32_len },
		{ "a chunk's 32-bit counts not whole u32s", bad_counts32_odd },
		{ "a chunk with 64- and 32-bit counts both", bad_counts_both },
		{ "a chunk with 32-bit counts and increments", bad_counts32_incs },
		{ "a bitmap without its first IRQ", bad_no_first },
		{ "listed ids and counts that disagree", bad_ids_counts },
		{ "increments in a GET reply", bad_reply_increments },
		{ "a bitmap wider than a chunk", bad_too_wide },
		{ "a chunk of a base alone", bad_base_only },
		{ "a record's CPU past the array", bad_rec_index },
		{ "a record's pairs out of order", bad_rec_order },
		{ "a record shorter than its pairs", bad_rec_short },
		{ "a dense record of another length", bad_rec_dense_len },
		{ "a record of an unknown form", bad_rec_kind },
		{ "more records than IRQs", bad_rec_extra },
		{ "records without the arrays' length", bad_rec_no_len },
		{ "a nest's record without the array's length", bad_nest_rec_no_len },
		{ "a nest's record with words left over", bad_nest_rec_extra },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kstat_irq_list *l = calloc(1, sizeof(*l));
		struct nl_msg *m = new_msg(KSTAT_CMD_IRQ_GET);
		int err;

		cases[i].build(m);
		err = kstat_parse_irq_msg(nlmsg_hdr(m), l);
		CHECK(err == -EBADMSG, "rejects %s (err %d)", cases[i].what, err);
		kstat_irq_list_free(l);
		nlmsg_free(m);
	}
}

static void test_truncated_header(void)
{
	struct kstat_irq_list l = { 0 };
	struct nlmsghdr nlh = { .nlmsg_len = NLMSG_HDRLEN + 2 };

	CHECK(kstat_parse_irq_msg(&nlh, &l) == -EBADMSG,
	      "rejects a message shorter than the genl header");
}

static void test_cpu(void)
{
	struct kstat_cpu_list l = { 0 };
	struct nl_msg *m = new_msg(KSTAT_CMD_CPU_GET);
	struct nlattr *n;
	int i, err;

	for (int cpu = 0; cpu < 20; cpu++) {
		n = nla_nest_start(m, KSTAT_A_CPU);
		nla_put_u32(m, KSTAT_A_CPU_ID, cpu);
		for (i = 0; i < KSTAT_CPUTIME_NR; i++)
			nla_put_u64(m, KSTAT_A_CPU_USER + i, cpu * 100 + i);
		nla_nest_end(m, n);
	}
	err = kstat_parse_cpu_msg(nlmsg_hdr(m), &l);
	CHECK(err == 0 && l.nr == 20, "20 CPUs parse across array growth");
	CHECK(l.cpus[19].cpu == 19 &&
	      l.cpus[19].ns[KSTAT_CPUTIME_GUEST_NICE] == 1909,
	      "fields land in order");
	CHECK(!strcmp(kstat_cputime_name(KSTAT_CPUTIME_GUEST_NICE),
		      "guest_nice") && !kstat_cputime_name(KSTAT_CPUTIME_NR),
	      "field names");
	free(l.cpus);
	nlmsg_free(m);
}

int main(void)
{
	test_irq_ok();
	test_irqs_chunks();
	test_irqs_counts32();
	test_irqs_records_pooled();
	test_irqs_records();
	test_irq_nest_records();
	test_irq_bad();
	test_truncated_header();
	test_cpu();
	return unit_exit();
}
