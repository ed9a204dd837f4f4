// SPDX-License-Identifier: GPL-2.0
/*
 * The parser against recorded kernel messages (tests/fixtures, NAME.nl,
 * made by tests/fixtures/record.sh in the test guest), whatever the
 * recordings are: the GET replies of a recording (a dump's messages, or
 * a do's one) read into one sample whose per-CPU lists add up to their
 * totals, with a CPU row per online CPU; its samples (SUMMARY_NTF, in
 * parts or not) into whole ones through a socketless subscription, in
 * order, none lost, no count going back; its CONFIG_GET reply into a
 * config.
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

/*
 * What every reading must satisfy: per-CPU lists that add up to their
 * total (counts this small never wrapped), a CPU row per online CPU.
 * The number of objects that do not, 0.
 */
static int check_reading(const struct kstat_sample *s, char *what, size_t len)
{
	size_t i, j, percpu = 0, online = 0, described = 0;
	uint64_t sum;
	int bad = 0;

	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);

		for (j = 0, sum = 0; j < q->nr_percpu; j++)
			sum += q->percpu[j].count;
		percpu += q->nr_percpu;
		bad += q->percpu && sum != q->count;
	}
	for (i = 0; i < s->nr_softirqs; i++) {
		const struct kstat_softirq *v = kstat_sample_softirq(s, i);

		for (j = 0, sum = 0; j < v->nr_percpu; j++)
			sum += v->percpu[j].count;
		bad += (v->percpu && sum != v->count) || !v->name;
	}
	for (i = 0; i < s->online_len * 8; i++)
		online += kstat_cpu_is_online(s, i);
	bad += s->nr_cpus && s->nr_cpus != online;
	for (i = 0; i < s->nr_irqs; i++)
		described += kstat_sample_irq(s, i)->has_meta;
	snprintf(what, len, "%zu IRQs (%zu per-CPU counts, %zu described), %zu CPU rows%s, %zu softirqs, %zu arch rows",
		 s->nr_irqs, percpu, described, s->nr_cpus,
		 s->cpu_total ? " and the total" : "", s->nr_softirqs, s->nr_arch);
	return bad;
}

/* The samples of a stream, their counts never going back. */
static uint64_t last_count[65536], last_seq, last_ts;
static int samples, backwards, disorder, bad_samples;
static size_t sample_irqs;

static void check_sample(const struct kstat_sample *s, void *arg)
{
	char what[256];
	size_t i;

	(void)arg;
	for (i = 0; i < s->nr_irqs; i++) {
		const struct kstat_irq *q = kstat_sample_irq(s, i);

		if (q->irq >= 65536)
			continue;
		if (samples && q->count < last_count[q->irq])
			backwards++;
		last_count[q->irq] = q->count;
	}
	disorder += samples && (s->seq != last_seq + 1 || s->timestamp_ns <= last_ts);
	last_seq = s->seq;
	last_ts = s->timestamp_ns;
	bad_samples += check_reading(s, what, sizeof(what));
	sample_irqs = s->nr_irqs;
	samples++;
}

static void read_rec(const struct rec *r)
{
	static const struct kstat_sub_ops ops = { .sample = check_sample };
	struct kstat_family f = { .id = 0, .version = 5, .group = 1 };
	struct kstat_build *b = kstat_build_new();
	struct kstat_config c = { 0 };
	struct kstat_sub *sub = NULL;
	const struct nlmsghdr *nlh;
	size_t off = 0;
	int msgs = 0, err = 0, in_get = 0, bad;
	char what[256];
	uint8_t cmd;

	samples = backwards = disorder = bad_samples = 0;
	memset(last_count, 0, sizeof(last_count));
	while (!err && (nlh = next_msg(r, &off))) {
		msgs++;
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
			if (!in_get)	/* a dump's messages, or a do's one */
				kstat_build_reset(b, 0, 0);
			in_get = 1;
			err = kstat_build_msg(b, nlh);
		} else if (cmd == KSTAT_CMD_CONFIG_GET) {
			err = kstat_parse_config(nlh, &c);
			CHECK(!err && c.interval_ms >= 10 && c.batch >= 1 && c.sections,
			      "%s: the config (interval %u ms, batch %u, sections 0x%x)",
			      r->name, c.interval_ms, c.batch, c.sections);
		}
	}
	CHECK(!err && off == r->len && msgs > 0,
	      "%s: %d messages read (%s)", r->name, msgs, strerror(-err));
	if (in_get) {
		err = kstat_build_finish(b);
		bad = err ? -1 : check_reading(&b->s, what, sizeof(what));
		CHECK(!err && !bad && (b->s.nr_irqs || b->s.cpu_total || b->s.nr_softirqs),
		      "%s: one reading: %s; per-CPU lists add up, a row per online CPU (%d bad)",
		      r->name, err ? strerror(-err) : what, bad);
	}
	if (sub)
		CHECK(samples > 0 && kstat_sub_lost(sub) == 0 && !backwards &&
		      !disorder && !bad_samples,
		      "%s: %d whole samples in order (the last of %zu IRQs), none lost, no count going back, their lists adding up (%d %d %d)",
		      r->name, samples, sample_irqs, backwards, disorder, bad_samples);
	kstat_unsubscribe(sub);
	kstat_build_free(b);
}

int main(void)
{
	const char *dir = fixture_dir();
	struct rec recs[64];
	struct dirent **names;
	int n = 0, i, v, nr = scandir(dir, &names, NULL, alphasort);

	if (nr < 0) {
		printf("not ok - no fixtures: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < nr; i++) {
		size_t len = strlen(names[i]->d_name);

		if (n < 64 && len > 3 && !strcmp(names[i]->d_name + len - 3, ".nl") &&
		    !load(dir, names[i]->d_name, &recs[n]))
			n++;
		free(names[i]);
	}
	free(names);
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
