// SPDX-License-Identifier: GPL-2.0
/*
 * parse-cost: feed a recorded summary stream (tests/fixtures/summary.nl:
 * a 4096-IRQ keyframe batch, then deltas) to a socketless libkstat
 * subscription, for `valgrind --tool=callgrind` to count instructions.
 *
 *   parse-cost FIXTURE key N        the keyframe batch, N times
 *   parse-cost FIXTURE keydelta N   the keyframe batch then the first
 *                                   delta batch, N times
 *   parse-cost FIXTURE irqdump N    a recorded IRQ_GET dump (every reply
 *                                   message) into a kstat_irq_list, N times
 *   parse-cost FIXTURE cpudump N    the same for a CPU_GET dump
 *
 * Each pass renumbers the batch and sample seqs by what the stream spans:
 * a subscriber drops a sample it has had already (a copy, or one the
 * snapshot held), so the same keyframe fed again would cost nothing and
 * measure nothing.
 *
 * bench/parse-cost.sh runs two lengths and subtracts, which leaves the
 * cost of parsing and applying a keyframe, and a delta, per IRQ they
 * carry, and of parsing a dump per object.  It prints the IRQs each
 * carries (the objects of a dump).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

static size_t key_irqs, delta_irqs;

static long samples;

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)arg;
	samples++;
	if (s->keyframe)
		key_irqs = s->nr_irqs_changed;
	else
		delta_irqs = s->nr_irqs_changed;
}

static const struct kstat_sub_ops ops = { .sample = on_sample };

/* Offsets where the first two batches end (after their last part). */
static int batch_ends(const char *d, size_t len, size_t ends[2])
{
	size_t off = 0;
	int n = 0;

	while (off + NLMSG_HDRLEN <= len && n < 2) {
		const struct nlmsghdr *nlh = (const void *)(d + off);
		struct kstat_sub *probe;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > len)
			return -1;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
		/* a batch ends where a sample is delivered */
		probe = kstat_sub_alloc(&ops, NULL);
		key_irqs = delta_irqs = 0;
		{
			size_t o = 0;

			while (o < off) {
				const struct nlmsghdr *m = (const void *)(d + o);

				kstat_sub_feed(probe, m);
				o += NLMSG_ALIGN(m->nlmsg_len);
			}
		}
		kstat_unsubscribe(probe);
		if ((n == 0 && key_irqs) || (n == 1 && delta_irqs))
			ends[n++] = off;
	}
	return n == 2 ? 0 : -1;
}

/* Where the stream's u64 seqs are (batch and sample), to renumber them. */
#define MAX_SEQS	4096
static uint64_t *seqs[MAX_SEQS];
static size_t nr_seqs;

static void find_seqs(char *d, size_t len)
{
	size_t off = 0;

	while (off + NLMSG_HDRLEN <= len && nr_seqs + 64 < MAX_SEQS) {
		struct nlmsghdr *nlh = (void *)(d + off);
		const struct nlattr *a, *b;
		int rem, rem2;

		kattr_for_each(a, (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN),
			       (int)(nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN), rem) {
			if (kattr_type(a) == KSTAT_A_BATCH_SEQ)
				seqs[nr_seqs++] = (uint64_t *)(uintptr_t)kattr_data(a);
			if (kattr_type(a) != KSTAT_A_SAMPLE)
				continue;
			kattr_for_each_nested(b, a, rem2)
				if (kattr_type(b) == KSTAT_A_SAMPLE_SEQ)
					seqs[nr_seqs++] = (uint64_t *)(uintptr_t)kattr_data(b);
		}
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

/* Move every seq on by @by: the next pass is news to the subscriber. */
static void renumber(uint64_t by)
{
	size_t i;
	uint64_t v;

	for (i = 0; i < nr_seqs; i++) {
		memcpy(&v, seqs[i], sizeof(v));
		v += by;
		memcpy(seqs[i], &v, sizeof(v));
	}
}

static void feed(struct kstat_sub *sub, const char *d, size_t from, size_t to)
{
	while (from < to) {
		const struct nlmsghdr *nlh = (const void *)(d + from);

		kstat_sub_feed(sub, nlh);
		from += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

/* Every reply message of a recorded dump, through the request parser. */
static size_t parse_dump(const char *d, size_t len, int irq)
{
	struct kstat_cpu_list cl = { .cputime_size = sizeof(struct kstat_cputime) };
	struct kstat_irq_list il = { 0 };
	size_t off = 0, nr;

	while (off + NLMSG_HDRLEN <= len) {
		const struct nlmsghdr *nlh = (const void *)(d + off);

		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
		    (irq ? kstat_parse_irq_msg(nlh, &il) :
			   kstat_parse_cpu_msg(nlh, &cl)))
			exit(1);
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	nr = irq ? il.nr : cl.nr;
	kstat_irq_list_clear(&il);
	kstat_cpu_list_clear(&cl);
	return nr;
}

static int run_dump(const char *d, size_t len, int irq, long n)
{
	size_t objs = 0;
	long i;

	for (i = 0; i < n; i++)
		objs = parse_dump(d, len, irq);
	printf("objects %zu\n", objs);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len, ends[2];
	struct kstat_sub *sub;
	char *d;
	FILE *f;
	long n, i;

	if (argc != 4 || (strcmp(argv[2], "key") && strcmp(argv[2], "keydelta") &&
			  strcmp(argv[2], "irqdump") && strcmp(argv[2], "cpudump"))) {
		fprintf(stderr, "usage: parse-cost FIXTURE {key|keydelta|irqdump|cpudump} N\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	d = malloc(len);
	if (!d || fread(d, 1, len, f) != len)
		return 1;
	fclose(f);
	n = atol(argv[3]);
	if (!strcmp(argv[2], "irqdump") || !strcmp(argv[2], "cpudump"))
		return run_dump(d, len, argv[2][0] == 'i', n);
	if (batch_ends(d, len, ends))
		return 1;
	find_seqs(d, ends[1]);

	sub = kstat_sub_alloc(&ops, NULL);
	samples = 0;
	for (i = 0; i < n; i++) {
		feed(sub, d, 0, ends[0]);
		if (!strcmp(argv[2], "keydelta"))
			feed(sub, d, ends[0], ends[1]);
		renumber(2);	/* the keyframe's seq and the delta's */
	}
	kstat_unsubscribe(sub);
	printf("keyframe_irqs %zu delta_irqs %zu samples %ld\n", key_irqs,
	       delta_irqs, samples);
	free(d);
	return 0;
}
