// SPDX-License-Identifier: GPL-2.0
/*
 * The parser against recorded kernel messages (tests/fixtures, NAME.nl, made
 * by tests/fixtures/record.sh in the test guest): every GET dump in a
 * recording reads into one sample, and every summary stream into whole
 * samples through a socketless subscription, none lost, their IRQ counts
 * never going back within a generation.
 *
 * Recordings of another protocol than this library's (the genl header's
 * version, below 5) are not read: the test skips, saying so, until they
 * are recorded again.  $KSTAT_FIXTURES names another directory.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "summary_msg.h"

struct rec {
	char name[256];
	char *data;
	size_t len;
};

static const char *fixture_dir(void)
{
	static char dir[PATH_MAX + 32];
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (getenv("KSTAT_FIXTURES"))
		return getenv("KSTAT_FIXTURES");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return "tests/fixtures";
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(dir, sizeof(dir), "%s/../../tests/fixtures", exe);
	return dir;
}

static int load(const char *dir, const char *name, struct rec *r)
{
	char path[PATH_MAX + 256];
	FILE *in;
	long len;

	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(path, "rb");
	if (!in)
		return -errno;
	fseek(in, 0, SEEK_END);
	len = ftell(in);
	rewind(in);
	r->data = malloc(len ? len : 1);
	r->len = r->data && fread(r->data, 1, len, in) == (size_t)len ? len : 0;
	fclose(in);
	return r->len ? 0 : -EIO;
}

/* The next message of @r at *@off, or NULL at the end (or a bad one). */
static const struct nlmsghdr *next_msg(const struct rec *r, size_t *off)
{
	const struct nlmsghdr *nlh = (const void *)(r->data + *off);

	if (*off + NLMSG_HDRLEN > r->len || nlh->nlmsg_len < NLMSG_HDRLEN ||
	    *off + nlh->nlmsg_len > r->len)
		return NULL;
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
	return nlh;
}

/* The protocol version of @r's first kstat message, or 0. */
static int version_of(const struct rec *r)
{
	const struct nlmsghdr *nlh;
	size_t off = 0;

	while ((nlh = next_msg(r, &off)))
		if (nlh->nlmsg_type > GENL_ID_CTRL &&
		    nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
			return ((const struct genlmsghdr *)NLMSG_DATA(nlh))->version;
	return 0;
}

/* Counts of the last sample, by IRQ, to see that none goes back. */
static uint64_t last_count[65536];
static uint32_t last_gen;
static int samples, backwards;

static void check_sample(const struct kstat_sample *s, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);

		if (q->irq >= 65536)
			continue;
		if (samples && s->generation == last_gen &&
		    q->count < last_count[q->irq])
			backwards++;
		last_count[q->irq] = q->count;
	}
	last_gen = s->generation;
	samples++;
}

static void read_rec(const struct rec *r)
{
	static const struct kstat_sub_ops ops = { .sample = check_sample };
	struct kstat_family f = { .id = 0, .version = 5, .group = 1 };
	struct kstat_build *b = kstat_build_new();
	struct kstat_sub *sub = NULL;
	const struct nlmsghdr *nlh;
	size_t off = 0, irqs = 0;
	int dumps = 0, msgs = 0, err = 0, in_dump = 0;
	uint8_t cmd;

	samples = backwards = 0;
	while (!err && (nlh = next_msg(r, &off))) {
		msgs++;
		if (nlh->nlmsg_type == NLMSG_DONE && in_dump) {
			err = kstat_build_finish(b);
			irqs += b->s.nr_irqs;
			dumps++;
			in_dump = 0;
			continue;
		}
		if (nlh->nlmsg_type <= GENL_ID_CTRL ||
		    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
			continue;
		cmd = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
		if (cmd == KSTAT_CMD_SUMMARY_NTF) {
			if (!sub) {
				sub = kstat_sub_alloc(&ops, NULL, NULL);
				f.id = nlh->nlmsg_type;
				kstat_sub_start(sub, &f);
			}
			err = kstat_sub_feed(sub, nlh);
		} else if (cmd == KSTAT_CMD_GET) {
			if (!in_dump)
				kstat_build_reset(b, 0, 0);
			in_dump = 1;
			err = kstat_build_msg(b, nlh);
		}
	}
	CHECK(!err && off == r->len && msgs > 0,
	      "%s: %d messages read (%s)", r->name, msgs, strerror(-err));
	if (dumps)
		CHECK(irqs > 0 || strstr(r->name, "cpu") || strstr(r->name, "softirq"),
		      "%s: %d dump(s), %zu IRQs", r->name, dumps, irqs);
	if (sub)
		CHECK(samples > 0 && kstat_sub_lost(sub) == 0 && !backwards,
		      "%s: %d whole samples, none lost, no count going back (%d)",
		      r->name, samples, backwards);
	kstat_unsubscribe(sub);
	kstat_build_free(b);
}

int main(void)
{
	const char *dir = fixture_dir();
	struct rec recs[64];
	struct dirent *e;
	int n = 0, i, v;
	DIR *d = opendir(dir);

	if (!d) {
		printf("not ok - no fixtures: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);

		if (len > 3 && !strcmp(e->d_name + len - 3, ".nl") &&
		    !load(dir, e->d_name, &recs[n]))
			n++;
	}
	closedir(d);
	if (!n) {
		printf("not ok - no recordings (*.nl) in %s\n", dir);
		return 1;
	}
	for (i = 0; i < n; i++) {
		v = version_of(&recs[i]);
		if (v < KSTAT_PROTOCOL_BASE) {
			printf("SKIP: tests/fixtures/%s is a protocol %d recording; this libkstat reads %d and later: record them again (tests/fixtures/record.sh)\n",
			       recs[i].name, v, KSTAT_PROTOCOL_BASE);
			for (i = 0; i < n; i++)
				free(recs[i].data);
			return 77;
		}
	}
	for (i = 0; i < n; i++) {
		read_rec(&recs[i]);
		free(recs[i].data);
	}
	return unit_exit();
}
