// SPDX-License-Identifier: GPL-2.0
/*
 * parse-cost: feed a recorded summary stream (tests/fixtures/summary.nl:
 * a 4096-IRQ keyframe batch, then deltas) to a socketless libkstat
 * subscription, for `valgrind --tool=callgrind` to count instructions.
 *
 *   parse-cost FIXTURE key N        the keyframe batch, N times
 *   parse-cost FIXTURE keydelta N   the keyframe batch then the first
 *                                   delta batch, N times
 *
 * bench/parse-cost.sh runs both and subtracts, which leaves the cost of
 * parsing and applying a keyframe, and a delta, per IRQ they carry.
 * It prints the IRQs each carries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

static size_t key_irqs, delta_irqs;

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)arg;
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

static void feed(struct kstat_sub *sub, const char *d, size_t from, size_t to)
{
	while (from < to) {
		const struct nlmsghdr *nlh = (const void *)(d + from);

		kstat_sub_feed(sub, nlh);
		from += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

int main(int argc, char **argv)
{
	size_t len, ends[2];
	struct kstat_sub *sub;
	char *d;
	FILE *f;
	long n, i;

	if (argc != 4 || (strcmp(argv[2], "key") && strcmp(argv[2], "keydelta"))) {
		fprintf(stderr, "usage: parse-cost FIXTURE {key|keydelta} N\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		return 1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	d = malloc(len);
	if (!d || fread(d, 1, len, f) != len || batch_ends(d, len, ends))
		return 1;
	fclose(f);
	n = atol(argv[3]);

	sub = kstat_sub_alloc(&ops, NULL);
	for (i = 0; i < n; i++) {
		feed(sub, d, 0, ends[0]);
		if (!strcmp(argv[2], "keydelta"))
			feed(sub, d, ends[0], ends[1]);
	}
	kstat_unsubscribe(sub);
	printf("keyframe_irqs %zu delta_irqs %zu\n", key_irqs, delta_irqs);
	free(d);
	return 0;
}
