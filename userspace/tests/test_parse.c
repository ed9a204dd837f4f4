// SPDX-License-Identifier: GPL-2.0
/*
 * The one parser (lib/parse.c) on hand-made messages: a GET dump of two
 * messages with every object, read into one sample (CPU rows, IRQ runs
 * across messages with their per-CPU lists, IRQ descriptions merged into
 * their IRQs, softirqs, arch rows, the trailer); attributes a newer
 * module adds are skipped, at the top and in every nest; and every
 * malformed message is -EBADMSG, never half a sample.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "summary_msg.h"

/* The first message: CPU rows, a run of IRQs 0, 1, 9, IRQ 1 described. */
static void first_msg(struct msg *m)
{
	static const uint32_t ids[] = { 0, 1, 9 };
	static const uint64_t counts[] = { 12, 5000000000ULL, 0 };
	/* 0: dense 3 counts; 1: one pair (2, 8); 9: empty */
	static const uint32_t cpus[] = { 3 << 1 | KSTAT_CPUS_DENSE, 5, 0, 7,
					 2 << 1, 2, 8, 0 };
	size_t n;

	reply_start(m, 42, 1000);
	put_cpu(m, -1, 100);
	put_cpu(m, 0, 10);
	put_cpu(m, 2, 20);
	put_irqs(m, ids, counts, 3, cpus, 8);
	n = nest_open(m, KSTAT_A_IRQ);
	put_u32(m, KSTAT_A_IRQ_ID, 1);
	put_str(m, KSTAT_A_IRQ_CHIP, "IO-APIC");
	put_u64(m, KSTAT_A_IRQ_HWIRQ, 1);
	put_u8(m, KSTAT_A_IRQ_LEVEL, 1);
	put_str(m, KSTAT_A_IRQ_NAME, "fasteoi");
	put_str(m, KSTAT_A_IRQ_ACTION, "i8042");
	put_str(m, KSTAT_A_IRQ_ACTION, "other");
	put_u32(m, 99, 1);		/* a newer module's: skipped */
	nest_close(m, n);
	put_u32(m, 200, 1);		/* a newer module's: skipped */
}

/* The second: another run (IRQ 20), softirqs, arch rows, the trailer. */
static void second_msg(struct msg *m)
{
	static const uint32_t ids[] = { 20 };
	static const uint64_t counts[] = { 77 };
	static const uint32_t cpus[] = { 4 << 1, 0, 70, 3, 7 };
	static const uint32_t srec[] = { 2 << 1 | KSTAT_CPUS_DENSE, 0, 9 };
	size_t n;

	reply_start(m, 42, 1000);
	put_irqs(m, ids, counts, 1, cpus, 5);
	n = nest_open(m, KSTAT_A_IRQ);
	put_u32(m, KSTAT_A_IRQ_ID, 20);
	put_str(m, KSTAT_A_IRQ_CHIP, "PCI-MSI");
	nest_close(m, n);
	n = nest_open(m, KSTAT_A_IRQ);	/* no counts for it: ignored */
	put_u32(m, KSTAT_A_IRQ_ID, 21);
	nest_close(m, n);
	put_arch(m, "NMI", "Non-maskable interrupts", 3, NULL, 0);
	put_arch(m, "LOC", "Local timer interrupts", 900, srec, 3);
	put_u64(m, KSTAT_A_INTR_SUM, 5000000089ULL);
	put_u32(m, KSTAT_A_NR_IRQS, 64);
	put_str(m, KSTAT_A_ARCH_UNREAD, "MCE");
	put_str(m, KSTAT_A_ARCH_UNREAD, "MCP");
	put_softirq(m, 0, "HI", 1, NULL, 0);
	put_softirq(m, 1, "TIMER", 99, srec, 3);
}

static void test_dump(void)
{
	struct kstat_build *b = kstat_build_new();
	const struct kstat_irq *q;
	const struct kstat_arch *r;
	const struct kstat_softirq *v;
	struct kstat_sample *s = &b->s;
	struct msg m;
	int err;

	kstat_build_reset(b, 0, KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			  KSTAT_SECTION_SOFTIRQ);
	first_msg(&m);
	err = kstat_build_msg(b, &m.nlh);
	second_msg(&m);
	err = err ?: kstat_build_msg(b, &m.nlh);
	err = err ?: kstat_build_finish(b);
	CHECK(err == 0, "a dump of two messages reads (%d)", err);
	if (err)
		exit(unit_exit());
	CHECK(s->size == sizeof(*s) && s->timestamp_ns == 1000 &&
	      s->generation == 7 && s->seq == 0,
	      "header: timestamp, generation");
	CHECK(s->cpu_total && s->cpu_total->cpu == -1 &&
	      s->cpu_total->ns[KSTAT_CPUTIME_USER] == 100 &&
	      s->cpu_total->ns[KSTAT_CPUTIME_GUEST_NICE] == 109,
	      "the CPU total apart, every field");
	CHECK(s->nr_cpus == 2 && s->cputime_size == sizeof(struct kstat_cputime) &&
	      kstat_sample_cpu(s, 0)->cpu == 0 && kstat_sample_cpu(s, 1)->cpu == 2 &&
	      kstat_sample_cpu(s, 1)->ns[KSTAT_CPUTIME_NICE] == 21,
	      "each CPU's row, the total not among them");
	CHECK(s->nr_irqs == 4 && s->irq_size == sizeof(struct kstat_irq) &&
	      kstat_sample_irq(s, 3)->irq == 20,
	      "four IRQs from two runs in two messages");
	q = kstat_sample_irq(s, 0);
	CHECK(q->count == 12 && q->nr_percpu == 2 && q->percpu[0].cpu == 0 &&
	      q->percpu[0].count == 5 && q->percpu[1].cpu == 2 &&
	      q->percpu[1].count == 7 && !q->has_meta && !q->chip,
	      "IRQ 0: a dense record, its zero left out");
	q = kstat_sample_irq(s, 1);
	CHECK(q->count == 5000000000ULL && q->nr_percpu == 1 &&
	      q->percpu[0].cpu == 2 && q->percpu[0].count == 8,
	      "IRQ 1: a 64-bit count, a record of one pair");
	CHECK(q->has_meta && !strcmp(q->chip, "IO-APIC") && q->has_hwirq &&
	      q->hwirq == 1 && q->level == 1 && !strcmp(q->name, "fasteoi") &&
	      q->nr_actions == 2 && !strcmp(q->actions[0], "i8042") &&
	      !strcmp(q->actions[1], "other"),
	      "IRQ 1's description merged into it, actions in order");
	q = kstat_sample_irq(s, 2);
	CHECK(q->irq == 9 && q->count == 0 && q->nr_percpu == 0 && !q->percpu,
	      "IRQ 9: an empty record, no list");
	q = kstat_sample_find_irq(s, 20);
	CHECK(q && q->count == 77 && q->nr_percpu == 2 && q->percpu[1].cpu == 3 &&
	      q->percpu[1].count == 7 && q->has_meta && !q->has_hwirq &&
	      !strcmp(q->chip, "PCI-MSI") && !q->name && q->nr_actions == 0,
	      "IRQ 20 found by number: pairs (0 left out), its description");
	CHECK(!kstat_sample_find_irq(s, 21) && !kstat_sample_find_irq(s, 2) &&
	      !kstat_sample_find_irq(s, 99),
	      "no IRQ 21 (described, not counted), 2 or 99");
	CHECK(s->nr_arch == 2 && s->arch_size == sizeof(struct kstat_arch),
	      "two arch rows");
	r = kstat_sample_arch(s, 1);
	CHECK(!strcmp(kstat_sample_arch(s, 0)->name, "NMI") &&
	      !kstat_sample_arch(s, 0)->percpu && !strcmp(r->name, "LOC") &&
	      !strcmp(r->desc, "Local timer interrupts") && r->count == 900 &&
	      r->nr_percpu == 1 && r->percpu[0].cpu == 1 && r->percpu[0].count == 9,
	      "arch rows: names, counts, a per-CPU list");
	CHECK(s->intr_sum == 5000000089ULL && s->kernel_nr_irqs == 64 &&
	      s->arch_unread && !strcmp(s->arch_unread, "MCE MCP"),
	      "intr sum, nr_irqs, the unread rows joined (\"%s\")",
	      s->arch_unread ? s->arch_unread : "");
	v = kstat_sample_softirq(s, 1);
	CHECK(s->nr_softirqs == 2 && !strcmp(kstat_sample_softirq(s, 0)->name, "HI") &&
	      v->vec == 1 && !strcmp(v->name, "TIMER") && v->count == 99 &&
	      v->nr_percpu == 1 && kstat_percpu_at(v->percpu, v->nr_percpu, 1) == 9 &&
	      kstat_percpu_at(v->percpu, v->nr_percpu, 0) == 0,
	      "softirqs with a per-CPU list");
	CHECK(kstat_cpu_is_online(s, 3) && !kstat_cpu_is_online(s, 4) &&
	      !kstat_cpu_is_online(s, 4000) && s->online_len == 1,
	      "online bitmap, bounds-checked");
	CHECK(s->sections == (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
			      KSTAT_SECTION_SOFTIRQ),
	      "all three sections (0x%x)", s->sections);
	CHECK(s->flags == (KSTAT_F_PERCPU | KSTAT_F_META),
	      "flags: per-CPU detail and descriptions (0x%x)", s->flags);
	kstat_sample_free(s);
}

/* Per-CPU ids start at the query's first CPU. */
static void test_cpu_first(void)
{
	static const uint32_t ids[] = { 3 };
	static const uint64_t counts[] = { 9 };
	static const uint32_t cpus[] = { 2 << 1 | KSTAT_CPUS_DENSE, 4, 5 };
	struct kstat_build *b = kstat_build_new();
	const struct kstat_irq *q;
	struct msg m;
	int err;

	kstat_build_reset(b, 8, KSTAT_SECTION_IRQ);
	reply_start(&m, 1, 1);
	put_irqs(&m, ids, counts, 1, cpus, 3);
	err = kstat_build_msg(b, &m.nlh) ?: kstat_build_finish(b);
	q = kstat_sample_irq(&b->s, 0);
	CHECK(!err && b->s.cpu_first == 8 && q->nr_percpu == 2 &&
	      q->percpu[0].cpu == 8 && q->percpu[1].cpu == 9 &&
	      b->s.sections == KSTAT_SECTION_IRQ && !b->s.cpu_total,
	      "a GET from CPU 8: records for CPUs 8 and 9");
	kstat_sample_free(&b->s);
}

/* A record of no count: no list, yet the sample says it has per-CPU detail. */
static void test_empty_record(void)
{
	static const uint32_t ids[] = { 3 };
	static const uint64_t counts[] = { 0 };
	static const uint32_t cpus[] = { 0 };	/* no pair */
	struct kstat_build *b = kstat_build_new();
	const struct kstat_irq *q;
	struct msg m;
	int err;

	kstat_build_reset(b, 0, KSTAT_SECTION_IRQ);
	reply_start(&m, 1, 1);
	put_irqs(&m, ids, counts, 1, cpus, 1);
	err = kstat_build_msg(b, &m.nlh) ?: kstat_build_finish(b);
	q = kstat_sample_irq(&b->s, 0);
	CHECK(!err && !q->percpu && !q->nr_percpu &&
	      b->s.flags == KSTAT_F_PERCPU,
	      "an empty record: no list, flags say per-CPU (0x%x)", b->s.flags);
	kstat_sample_free(&b->s);
}

/* A description and no counts at all: nothing to merge it into. */
static void test_meta_alone(void)
{
	struct kstat_build *b = kstat_build_new();
	struct msg m;
	size_t n;
	int err;

	kstat_build_reset(b, 0, KSTAT_SECTION_IRQ);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_IRQ);
	put_u32(&m, KSTAT_A_IRQ_ID, 5);
	put_str(&m, KSTAT_A_IRQ_CHIP, "x");
	nest_close(&m, n);
	err = kstat_build_msg(b, &m.nlh) ?: kstat_build_finish(b);
	CHECK(!err && b->s.nr_irqs == 0, "a description without counts: no IRQ (%d)", err);
	kstat_sample_free(&b->s);
}

/* @m, one malformed message: -EBADMSG. */
static void bad(const char *what, struct msg *m)
{
	struct kstat_build *b = kstat_build_new();
	int err;

	kstat_build_reset(b, 0, 0);
	err = kstat_build_msg(b, &m->nlh);
	CHECK(err == -EBADMSG, "%s: -EBADMSG (%d)", what, err);
	kstat_build_free(b);
}

static void irqs_msg(struct msg *m, const uint32_t *ids, const uint64_t *c,
		     int n, const uint32_t *cpus, int words)
{
	reply_start(m, 1, 1);
	put_irqs(m, ids, c, n, cpus, words);
}

static void test_malformed(void)
{
	static const uint32_t ids[] = { 4, 5 }, down[] = { 5, 4 };
	static const uint64_t c[] = { 1, 2 };
	static const uint32_t past[] = { 4 << 1 | KSTAT_CPUS_DENSE, 1, 2, 3, 4,
					 2 << 1 | KSTAT_CPUS_DENSE, 1 };
	static const uint32_t odd[] = { 3 << 1, 0, 1, 2, 0 };
	static const uint32_t unsorted[] = { 4 << 1, 3, 1, 1, 1, 0 };
	static const uint32_t extra[] = { 0, 0, 5 };
	struct msg m;
	size_t n;

	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_IRQS);
	put(&m, KSTAT_A_IRQS_IDS, ids, 8);
	put(&m, KSTAT_A_IRQS_COUNTS, c, 12);
	nest_close(&m, n);
	bad("counts of another length than ids", &m);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_IRQS);
	put(&m, KSTAT_A_IRQS_IDS, ids, 8);
	nest_close(&m, n);
	bad("ids without counts", &m);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_IRQS);
	put(&m, KSTAT_A_IRQS_IDS, ids, 6);
	put(&m, KSTAT_A_IRQS_COUNTS, c, 12);
	nest_close(&m, n);
	bad("ids not a multiple of 4 bytes", &m);
	irqs_msg(&m, down, c, 2, NULL, 0);
	bad("IRQs out of order in a run", &m);
	irqs_msg(&m, ids, c, 2, NULL, 0);
	put_irqs(&m, ids + 1, c, 1, NULL, 0);
	bad("a run that goes back to an IRQ of the one before", &m);
	irqs_msg(&m, ids, c, 2, past, 7);
	bad("a record running past its array", &m);
	irqs_msg(&m, ids, c, 1, odd, 5);
	bad("pairs of an odd number of words", &m);
	irqs_msg(&m, ids, c, 1, unsorted, 5);
	bad("pairs out of order", &m);
	irqs_msg(&m, ids, c, 2, extra, 3);
	bad("words left over after the records", &m);
	irqs_msg(&m, ids, c, 2, extra, 1);
	bad("fewer records than IRQs", &m);

	reply_start(&m, 1, 1);
	put_cpu(&m, 3, 1);
	put_cpu(&m, 1, 1);
	bad("CPU rows out of order", &m);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_CPU);
	put_u32(&m, KSTAT_A_CPU_USER, 1);
	nest_close(&m, n);
	bad("a u64 of 4 bytes", &m);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_SOFTIRQ);
	put(&m, KSTAT_A_SOFTIRQ_NAME, "HI", 2);
	nest_close(&m, n);
	bad("a string without its NUL", &m);
	reply_start(&m, 1, 1);
	put_softirq(&m, 1, "TIMER", 1, past, 7);
	bad("a softirq record longer than its attribute", &m);
	reply_start(&m, 1, 1);
	n = nest_open(&m, KSTAT_A_IRQ);
	put_str(&m, KSTAT_A_IRQ_CHIP, "x");
	nest_close(&m, n);
	bad("an IRQ description without its id", &m);
	reply_start(&m, 1, 1);
	put_u64(&m, KSTAT_A_INTR_SUM, 1);
	memset(m.buf + m.nlh.nlmsg_len, 0, 6);
	m.nlh.nlmsg_len += 6;		/* bytes that are no attribute */
	bad("a message its attributes do not fill", &m);
	reply_start(&m, 1, 1);
	m.nlh.nlmsg_len = NLMSG_HDRLEN + 2;
	bad("no genl header", &m);
}

int main(void)
{
	test_dump();
	test_cpu_first();
	test_empty_record();
	test_meta_alone();
	test_malformed();
	return unit_exit();
}
