// SPDX-License-Identifier: GPL-2.0
/*
 * A subscription's stream, fed by hand (no socket): samples delivered
 * whole and in order; a sample in parts put together by SEQ over PART /
 * PARTS and delivered once, with what every part carried; loss counted
 * from the sequence numbers (a gap), a sample whose parts did not all
 * come (partial, its first or a middle one missing), copies and older
 * samples dropped without a word; a malformed sample refused while the
 * stream goes on; attributes of a newer module skipped.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "summary_msg.h"

static struct seen w;

static int feed(struct msg *m)
{
	return kstat_sub_feed(w.sub, &m->nlh);
}

/* Sample @seq as one part of @parts, with @sum as content. */
static int part(uint64_t seq, uint32_t p, uint32_t parts)
{
	struct msg m;

	part_start(&m, seq, p, parts, seq * 1000);
	put_u64(&m, KSTAT_A_INTR_SUM, seq);
	return feed(&m);
}

static int whole(uint64_t seq)
{
	return part(seq, 0, 1);
}

static int expect(const char *what, const char *log)
{
	int same = !strcmp(w.log, log);

	CHECK(same, "%s: \"%s\" (expected \"%s\")", what, w.log, log);
	w.log[0] = '\0';
	return same;
}

/* Sample 7 in three parts: cpu, then irqs, then softirqs. */
static void test_parts(void)
{
	static const uint32_t ids[] = { 1, 2 };
	static const uint64_t counts[] = { 10, 20 };
	struct msg m;
	int err;

	part_start(&m, 7, 0, 3, 7000);
	put_cpu(&m, -1, 5);
	err = feed(&m);
	part_start(&m, 7, 1, 3, 7000);
	put_irqs(&m, ids, counts, 2, NULL, 0);
	put_u64(&m, KSTAT_A_INTR_SUM, 30);
	err = err ?: feed(&m);
	CHECK(!err && !w.log[0], "two of three parts: nothing yet");
	part_start(&m, 7, 2, 3, 7000);
	put_softirq(&m, 1, "TIMER", 4, NULL, 0);
	put_u32(&m, 250, 1);	/* a newer module's: skipped */
	err = err ?: feed(&m);
	expect("the third part: the sample, once", "S7 ");
	CHECK(!err && w.last_sum == 30, "what every part carried (intr sum %llu)",
	      (unsigned long long)w.last_sum);
}

/* The sample as delivered, for test_parts_content(). */
static struct kstat_sample got;
static size_t got_irqs, got_softirqs;
static int got_cpu;

static void keep(const struct kstat_sample *s, void *arg)
{
	(void)arg;
	got = *s;
	got_irqs = s->nr_irqs;
	got_softirqs = s->nr_softirqs;
	got_cpu = s->cpu_total && s->cpu_total->ns[0] == 5;
}

static void test_parts_content(void)
{
	static const uint32_t ids[] = { 1, 2 };
	static const uint64_t counts[] = { 10, 20 };
	static const struct kstat_sub_ops ops = { .sample = keep };
	struct kstat_family f = { .id = FAMILY, .version = 5, .group = 1 };
	struct kstat_sub *sub = kstat_sub_alloc(&ops, NULL, NULL);
	struct msg m;

	kstat_sub_start(sub, &f);
	part_start(&m, 3, 0, 2, 77);
	put_cpu(&m, -1, 5);
	put_irqs(&m, ids, counts, 1, NULL, 0);
	kstat_sub_feed(sub, &m.nlh);
	part_start(&m, 3, 1, 2, 77);
	put_irqs(&m, ids + 1, counts + 1, 1, NULL, 0);
	put_softirq(&m, 1, "TIMER", 4, NULL, 0);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(got.seq == 3 && got.timestamp_ns == 77 && got_cpu &&
	      got_irqs == 2 && got_softirqs == 1 && !got.from_get &&
	      got.sections == (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			       KSTAT_SECTION_SOFTIRQ),
	      "a sample in two parts: CPU, both IRQ runs, the softirq, all sections");
	kstat_unsubscribe(sub);
}

int main(void)
{
	struct msg m;
	int err;

	if (!fed_sub(&w))
		return 1;
	whole(1);
	whole(2);
	whole(3);
	expect("in order", "S1 S2 S3 ");
	whole(6);
	expect("seq 4 and 5 missing", "L2gap S6 ");
	whole(6);
	whole(5);
	expect("a copy, an older one: dropped, no loss", "");
	test_parts();
	part(8, 0, 3);
	part(8, 1, 3);
	whole(9);
	expect("a sample whose last part never came", "L1partial S9 ");
	part(10, 1, 2);
	whole(11);
	expect("a sample whose first part never came", "L1partial S11 ");
	part(12, 0, 3);
	part(12, 2, 3);
	part(13, 0, 2);
	part(13, 1, 2);
	expect("a sample whose middle part never came", "L1partial S13 ");
	part(15, 1, 2);
	whole(16);
	expect("14 missing, 15's first part missing", "L1gap L1partial S16 ");
	CHECK(kstat_sub_lost(w.sub) == 2 + 1 + 1 + 1 + 2 && w.lost == 7,
	      "kstat_sub_lost() counts every one (%llu)",
	      (unsigned long long)kstat_sub_lost(w.sub));

	part_start(&m, 17, 0, 1, 17000);
	put(&m, KSTAT_A_INTR_SUM, "abc", 3);
	err = feed(&m);
	CHECK(err == -EBADMSG && strstr(kstat_sub_last_error(w.sub), "malformed"),
	      "a malformed sample: -EBADMSG, \"%s\"", kstat_sub_last_error(w.sub));
	msg_init(&m, FAMILY, KSTAT_CMD_SUMMARY_NTF, 0);
	put_u64(&m, KSTAT_A_INTR_SUM, 1);
	CHECK(feed(&m) == -EBADMSG, "a sample without seq: -EBADMSG");
	part_start(&m, 18, 2, 2, 1);
	CHECK(feed(&m) == -EBADMSG, "part 2 of 2: -EBADMSG");
	whole(19);
	expect("the stream goes on", "L1gap S19 ");
	kstat_unsubscribe(w.sub);

	test_parts_content();
	return unit_exit();
}
