// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw: speaks to the kstat family (protocol 5) with hand-made messages
 * (libmnl), to test what libkstat would never send and to read what the
 * kernel sends without libkstat.  It needs the family, but boottime.
 *
 *   nlraw cases [unpriv | subscribe | netns [open]] [-v]
 *                          send the table of malformed and valid requests
 *                          (cases.c); each must get its errno, extack
 *                          and offset.  "unpriv": the table for a user
 *                          without CAP_NET_ADMIN (reads work, CONFIG_SET
 *                          gets EPERM, the limits hold); "subscribe": the
 *                          SUBSCRIBE / UNSUBSCRIBE cases alone; "netns":
 *                          outside the initial network namespace, every
 *                          request refused (EPERM, the gate's extack), or
 *                          with "open" (config netns on) served.  Last
 *                          line "cases: N passed, F failed[, S skipped]"
 *   nlraw fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS]
 *                          random and mutated requests (fuzz.c)
 *   nlraw dump-irqs BYTES [DELAY_MS]
 *                          a GET dump of every IRQ with descriptions and
 *                          per-CPU counts through a socket with
 *                          SO_RCVBUF=BYTES and a BYTES-sized read buffer
 *                          (DELAY_MS between reads: a slow reader).
 *                          Checks that it is one reading (every message
 *                          has the first one's TIMESTAMP and GENERATION,
 *                          no NLM_F_DUMP_INTR), each IRQ comes once in
 *                          ascending order in the IRQS runs and has one
 *                          IRQ description, each run's arrays agree
 *                          (IDS n, COUNTS n, CPUS n records), each
 *                          per-CPU record is the smaller of its two forms
 *                          and INTR_SUM and NR_IRQS come once.  Prints
 *                          "irqs N dupes D msgs M trailers T meta E
 *                          records R bad B result 0" (result -1 and the
 *                          error when the dump failed); exit 0 when all
 *                          holds, 1 otherwise
 *   nlraw dump-counts      a totals dump (GET, sections irq), decoded here:
 *                          "IRQ COUNT" lines; on stderr "reads R msgs M
 *                          runs U irqs N bad B" (one read per dumpit call)
 *   nlraw record-dump WHAT FLAGS FILE [irqs=FIRST-LAST] [cpus=FIRST-LAST]
 *                     [do]
 *                          record the reply messages of a GET dump (or
 *                          do) of the sections WHAT (cpu, irq, softirq,
 *                          all, or a comma list) with FLAGS (1 percpu, 2
 *                          meta), an IRQ range and a CPU range
 *   nlraw record-do WHAT FILE
 *                          record the reply of CONFIG_GET (WHAT config)
 *                          or STATS_GET (WHAT stats)
 *   nlraw record-summary N FILE [SPEC]
 *                          record the messages of N whole samples (all
 *                          their parts, from a first part on): of the
 *                          default stream (join "summary", SUBSCRIBE), or
 *                          with SPEC ("interval=MS,sections=BITS,
 *                          percpu=0|1", any left out) a subscription of
 *                          this socket's own
 *   Recordings are the raw messages back to back: fixtures for the host
 *   unit tests and the parse-cost benchmark (tests/fixtures/record.sh).
 *   nlraw subscribe-storm RATE SECONDS [WORKERS]
 *   nlraw netns-subscribe N SECONDS [own MS]
 *   nlraw sub-race SECONDS
 *                          SUBSCRIBE at a rate, and from N namespaces
 *                          (load.c says what they print)
 *   nlraw boottime         print CLOCK_BOOTTIME in ns, the clock of the
 *                          samples' timestamps (works without the module;
 *                          python3 would do it, in seconds under TCG)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"
#include "nlraw.h"

/* ---- per-CPU records and IRQ runs, decoded by hand ---- */

/*
 * One per-CPU record at @w (at most @left words) for @width CPU ids:
 * its size in words, or 0 when it is malformed.  *@smaller is cleared
 * when the other form would have been smaller (the kernel writes pairs
 * when at most half the CPUs have a count).
 */
static size_t record_check(const uint32_t *w, size_t left, unsigned int width,
			   bool *smaller)
{
	uint32_t h, n, i, nonzero = 0, prev = 0;

	if (!left)
		return 0;
	h = w[0];
	n = h >> 1;
	if (n + 1 > left)
		return 0;
	if (h & KSTAT_CPUS_DENSE) {
		if (n != width)
			return 0;
		for (i = 0; i < n; i++)
			nonzero += w[1 + i] != 0;
		if (2 * nonzero <= width)
			*smaller = false;
		return n + 1;
	}
	if (n % 2)
		return 0;
	for (i = 0; i < n / 2; i++) {
		uint32_t idx = w[1 + 2 * i], count = w[2 + 2 * i];

		if (idx >= width || (i && idx <= prev) || !count)
			return 0;
		prev = idx;
	}
	/* pairs only when at most half the CPUs have a count */
	if (n > width)
		*smaller = false;
	return n + 1;
}

struct run {
	const uint32_t *ids;
	const char *counts;	/* n u64, 4-byte aligned */
	const uint32_t *cpus;
	unsigned int n, cpus_words;
	bool bad;
};

/* Read an IRQS nest; run->bad when its arrays disagree in size. */
static void run_parse(const struct nlattr *nest, struct run *r)
{
	const struct nlattr *a;
	unsigned int ids_len = 0, counts_len = 0;

	memset(r, 0, sizeof(*r));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case KSTAT_A_IRQS_IDS:
			r->ids = mnl_attr_get_payload(a);
			ids_len = mnl_attr_get_payload_len(a);
			break;
		case KSTAT_A_IRQS_COUNTS:
			r->counts = mnl_attr_get_payload(a);
			counts_len = mnl_attr_get_payload_len(a);
			break;
		case KSTAT_A_IRQS_CPUS:
			r->cpus = mnl_attr_get_payload(a);
			r->cpus_words = mnl_attr_get_payload_len(a) / 4;
			r->bad |= mnl_attr_get_payload_len(a) % 4 != 0;
			break;
		}
	}
	r->n = ids_len / 4;
	r->bad |= !r->ids || !r->counts || ids_len % 4 ||
		  counts_len != r->n * 8u || !r->n || r->n > 256;
}

static uint64_t run_count(const struct run *r, unsigned int i)
{
	uint64_t v;

	memcpy(&v, r->counts + 8 * i, 8);
	return v;
}

static uint32_t run_id(const struct run *r, unsigned int i)
{
	uint32_t v;

	memcpy(&v, &r->ids[i], 4);
	return v;
}

/* ---- a dump through a small buffer: one reading, each IRQ once ---- */

struct dump_state {
	unsigned char *seen;	/* per IRQ number: times in runs */
	unsigned char *meta;	/* per IRQ number: descriptions */
	unsigned int ncpu;
	unsigned int irqs, dupes, msgs, intr, nr, metas, records, bad;
	unsigned int unordered, bigger, mixed;
	int64_t last_irq, last_meta;
	uint64_t ts;
	uint32_t gen;
	bool have_ts;
};

static void dump_run(const struct nlattr *a, struct dump_state *st)
{
	struct run r;
	size_t used = 0, sz;
	unsigned int i;
	bool smaller = true;

	run_parse(a, &r);
	if (r.bad) {
		st->bad++;
		return;
	}
	for (i = 0; i < r.n; i++) {
		uint32_t irq = run_id(&r, i);

		if (irq >= (1 << 20)) {
			st->bad++;
			return;
		}
		if ((int64_t)irq <= st->last_irq)
			st->unordered++;
		st->last_irq = irq;
		if (st->seen[irq]++)
			st->dupes++;
		st->irqs++;
		if (!r.cpus)
			continue;
		sz = record_check(r.cpus + used, r.cpus_words - used, st->ncpu,
				  &smaller);
		if (!sz) {
			st->bad++;
			return;
		}
		used += sz;
		st->records++;
	}
	if (!r.cpus || used != r.cpus_words)
		st->bad++;	/* per-CPU counts asked: every IRQ has them */
	if (!smaller)
		st->bigger++;
}

static int irq_meta_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == KSTAT_A_IRQ_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0)
		*(int64_t *)data = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int dump_attr_cb(const struct nlattr *a, void *data)
{
	struct dump_state *st = data;
	int64_t irq = -1;

	switch (mnl_attr_get_type(a)) {
	case KSTAT_A_TIMESTAMP:
		if (st->have_ts && mnl_attr_get_u64(a) != st->ts)
			st->mixed++;
		st->ts = mnl_attr_get_u64(a);
		st->have_ts = true;
		break;
	case KSTAT_A_GENERATION:
		if (st->msgs > 1 && mnl_attr_get_u32(a) != st->gen)
			st->mixed++;
		st->gen = mnl_attr_get_u32(a);
		break;
	case KSTAT_A_INTR_SUM:
		st->intr++;
		break;
	case KSTAT_A_NR_IRQS:
		st->nr++;
		break;
	case KSTAT_A_IRQS:
		dump_run(a, st);
		break;
	case KSTAT_A_IRQ:
		mnl_attr_parse_nested(a, irq_meta_cb, &irq);
		if (irq < 0 || irq >= (1 << 20) || irq <= st->last_meta) {
			st->bad++;
			break;
		}
		st->last_meta = irq;
		st->meta[irq]++;
		st->metas++;
		break;
	}
	return MNL_CB_OK;
}

static int dump_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_state *st = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		st->mixed++;	/* one reading: never inconsistent */
	st->msgs++;
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), dump_attr_cb, data);
}

static int dump_irqs(int bytes, int delay_ms)
{
	struct dump_state st = {
		.seen = calloc(1 << 20, 1), .meta = calloc(1 << 20, 1),
		.ncpu = possible_cpus(), .last_irq = -1, .last_meta = -1,
	};
	struct nlmsghdr *nlh;
	unsigned int i, unmatched = 0;
	int n, ret = MNL_CB_OK;

	if (!st.seen || !st.meta)
		return 1;
	/*
	 * A fresh socket: the kernel sizes dump skbs by the largest read a
	 * socket has done, and open_family() read with a big buffer.
	 */
	mnl_socket_close(nl);
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &bytes,
		       sizeof(bytes)))
		return 1;
	nlh = kstat_msg_put(buf, KSTAT_CMD_GET, NLM_F_DUMP);
	nlh->nlmsg_seq = 42;
	mnl_attr_put_u32(nlh, KSTAT_A_SECTIONS, KSTAT_SECTION_IRQ);
	mnl_attr_put_u32(nlh, KSTAT_A_FLAGS, KSTAT_F_PERCPU | KSTAT_F_META);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (ret > MNL_CB_STOP) {
		/* Read with a buffer no larger than the socket's. */
		n = mnl_socket_recvfrom(nl, buf, bytes < (int)sizeof(buf) ?
					(size_t)bytes : sizeof(buf));
		if (n < 0) {
			perror("nlraw: recv");
			return 1;
		}
		ret = mnl_cb_run(buf, n, 42, 0, dump_msg_cb, &st);
		if (delay_ms)	/* a slow reader: the dump spans more time */
			usleep(delay_ms * 1000);
		/* libmnl stops at a message flagged NLM_F_DUMP_INTR */
		if (ret < 0 && errno == EINTR) {
			st.mixed++;
			ret = MNL_CB_STOP;
		}
	}
	for (i = 0; i < (1 << 20); i++)
		unmatched += st.seen[i] != st.meta[i] && st.seen[i] <= 1;
	printf("irqs %u dupes %u msgs %u trailers %u meta %u records %u bad %u result %d%s%s\n",
	       st.irqs, st.dupes, st.msgs, st.intr, st.metas, st.records,
	       st.bad, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
	if (ret < 0)
		return 1;
	if (st.unordered)
		printf("dump-irqs: %u IRQs out of ascending order\n", st.unordered);
	if (unmatched)
		printf("dump-irqs: %u IRQs without one description, or "
		       "described but not counted\n", unmatched);
	if (st.bigger)
		printf("dump-irqs: %u runs with a per-CPU record in its larger "
		       "form\n", st.bigger);
	if (st.mixed)
		printf("dump-irqs: not one reading: %u messages with another "
		       "timestamp or generation, or NLM_F_DUMP_INTR\n", st.mixed);
	if (st.intr != 1 || st.nr != 1)
		printf("dump-irqs: INTR_SUM %u times, NR_IRQS %u times\n",
		       st.intr, st.nr);
	return st.dupes || st.bad || st.unordered || unmatched || st.bigger ||
	       st.mixed || st.intr != 1 || st.nr != 1 || !st.irqs;
}

/* ---- a totals dump, decoded here ---- */

struct counts_state {
	unsigned int reads, msgs, runs, irqs, bad;
};

static int counts_attr_cb(const struct nlattr *a, void *data)
{
	struct counts_state *st = data;
	struct run r;
	unsigned int i;

	if (mnl_attr_get_type(a) != KSTAT_A_IRQS)
		return MNL_CB_OK;
	run_parse(a, &r);
	st->runs++;
	if (r.bad) {
		st->bad++;
		return MNL_CB_OK;
	}
	for (i = 0; i < r.n; i++) {
		printf("%u %llu\n", run_id(&r, i),
		       (unsigned long long)run_count(&r, i));
		st->irqs++;
	}
	return MNL_CB_OK;
}

static int counts_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	((struct counts_state *)data)->msgs++;
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), counts_attr_cb,
			      data);
}

/*
 * A totals dump (GET of the irq section) on the socket that looked the
 * family up (a 1 MiB read: the kernel's dump skbs are then as large as it
 * makes them), read 64 KiB at a time, decoded without libkstat.
 */
static int dump_counts(void)
{
	struct counts_state st = { 0 };
	struct nlmsghdr *nlh = kstat_msg_put(buf, KSTAT_CMD_GET, NLM_F_DUMP);
	int n, ret = MNL_CB_OK;

	nlh->nlmsg_seq = 44;
	mnl_attr_put_u32(nlh, KSTAT_A_SECTIONS, KSTAT_SECTION_IRQ);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (ret > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(nl, buf, 64 * 1024);
		if (n < 0) {
			perror("nlraw: recv");
			return 1;
		}
		st.reads++;
		ret = mnl_cb_run(buf, n, 44, 0, counts_msg_cb, &st);
	}
	fprintf(stderr, "reads %u msgs %u runs %u irqs %u bad %u\n", st.reads,
		st.msgs, st.runs, st.irqs, st.bad);
	return ret < 0 || st.bad ? 1 : 0;
}

/* ---- recording fixtures ---- */

/* Write the family's messages of one datagram; *@done at DONE or ERROR. */
static int write_msgs(FILE *out, const char *data, int n, int *done)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;

	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR) {
			*done = 1;
			if (nlh->nlmsg_type == NLMSG_ERROR &&
			    ((const struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error) {
				fprintf(stderr, "nlraw: the request failed: %s\n",
					strerror(-((const struct nlmsgerr *)
						   mnl_nlmsg_get_payload(nlh))->error));
				return -1;
			}
			continue;
		}
		if (fwrite(nlh, nlh->nlmsg_len, 1, out) != 1)
			return -1;
	}
	return 0;
}

/* "cpu", "irq", "softirq", "all" or a comma list: KSTAT_SECTION_* bits. */
static uint32_t parse_sections(const char *what)
{
	char copy[64], *tok, *save;
	uint32_t bits = 0;

	snprintf(copy, sizeof(copy), "%s", what);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "cpu"))
			bits |= KSTAT_SECTION_CPU;
		else if (!strcmp(tok, "irq"))
			bits |= KSTAT_SECTION_IRQ;
		else if (!strcmp(tok, "softirq"))
			bits |= KSTAT_SECTION_SOFTIRQ;
		else if (!strcmp(tok, "all"))
			bits |= KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ |
				KSTAT_SECTION_SOFTIRQ;
		else
			return 0;
	}
	return bits;
}

/* "KEY=FIRST-LAST" into *@first and *@last; false if it is not @key's. */
static bool parse_range(const char *arg, const char *key, uint32_t *first,
			uint32_t *last)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(arg, key, k) || arg[k] != '=')
		return false;
	*first = strtoul(arg + k + 1, &end, 0);
	*last = *end == '-' ? strtoul(end + 1, NULL, 0) : *first;
	return true;
}

static int record_dump(int argc, char **argv)
{
	uint32_t sections = parse_sections(argv[0]), first, last;
	uint16_t flags = NLM_F_DUMP;
	struct nlmsghdr *nlh;
	int n, i, done = 0;
	FILE *out;

	if (!sections)
		return 2;
	for (i = 3; i < argc; i++)
		if (!strcmp(argv[i], "do"))
			flags = NLM_F_ACK;
	nlh = kstat_msg_put(buf, KSTAT_CMD_GET, flags);
	mnl_attr_put_u32(nlh, KSTAT_A_SECTIONS, sections);
	mnl_attr_put_u32(nlh, KSTAT_A_FLAGS, strtoul(argv[1], NULL, 0));
	for (i = 3; i < argc; i++) {
		if (parse_range(argv[i], "irqs", &first, &last)) {
			mnl_attr_put_u32(nlh, KSTAT_A_IRQ_FIRST, first);
			mnl_attr_put_u32(nlh, KSTAT_A_IRQ_LAST, last);
		} else if (parse_range(argv[i], "cpus", &first, &last)) {
			mnl_attr_put_u32(nlh, KSTAT_A_CPU_FIRST, first);
			mnl_attr_put_u32(nlh, KSTAT_A_CPU_LAST, last);
		} else if (strcmp(argv[i], "do")) {
			return 2;
		}
	}
	nlh->nlmsg_seq = 7;
	out = fopen(argv[2], "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (!done) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0 || write_msgs(out, buf, n, &done))
			return 1;
	}
	return fclose(out) ? 1 : 0;
}

static int record_do(const char *what, const char *path)
{
	struct nlmsghdr *nlh;
	int n, done = 0;
	FILE *out;

	if (!strcmp(what, "config"))
		nlh = kstat_msg_put(buf, KSTAT_CMD_CONFIG_GET, NLM_F_ACK);
	else if (!strcmp(what, "stats"))
		nlh = kstat_msg_put(buf, KSTAT_CMD_STATS_GET, NLM_F_ACK);
	else
		return 2;
	nlh->nlmsg_seq = 8;
	out = fopen(path, "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (!done) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0 || write_msgs(out, buf, n, &done))
			return 1;
	}
	return fclose(out) ? 1 : 0;
}

struct part_info {
	uint32_t part, parts;
};

static int part_cb(const struct nlattr *a, void *data)
{
	struct part_info *p = data;

	if (mnl_attr_get_type(a) == KSTAT_A_PART)
		p->part = mnl_attr_get_u32(a);
	if (mnl_attr_get_type(a) == KSTAT_A_PARTS)
		p->parts = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

/* "interval=MS,sections=BITS,percpu=0|1" into a config nest of @nlh. */
static int put_spec(struct nlmsghdr *nlh, const char *spec)
{
	char copy[128], *tok, *save;
	struct nlattr *nest = mnl_attr_nest_start(nlh, KSTAT_A_CONFIG);

	snprintf(copy, sizeof(copy), "%s", spec);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long v;

		if (!eq)
			return -1;
		*eq = 0;
		v = strtoul(eq + 1, NULL, 0);
		if (!strcmp(tok, "interval"))
			mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_INTERVAL_MS, v);
		else if (!strcmp(tok, "sections"))
			mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_SECTIONS, v);
		else if (!strcmp(tok, "percpu"))
			mnl_attr_put_u8(nlh, KSTAT_A_CONFIG_PERCPU, v);
		else
			return -1;
	}
	mnl_attr_nest_end(nlh, nest);
	return 0;
}

/*
 * Samples as they come: from the first message that is a sample's part 0
 * on, every message of the family, until @count samples ended (a last
 * part).  The SUBSCRIBE's ACK is not written.
 */
static int record_summary(int count, const char *path, const char *spec)
{
	struct nlmsghdr *nlh;
	uint32_t grp = 0;
	int n, got = 0, started = 0;
	FILE *out;

	if (!spec) {
		grp = summary_group();
		if (!grp || mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP,
						  &grp, sizeof(grp)))
			return 1;
	}
	nlh = kstat_msg_put(buf, KSTAT_CMD_SUBSCRIBE, NLM_F_ACK);
	nlh->nlmsg_seq = 9;
	if (spec && put_spec(nlh, spec))
		return 2;
	out = fopen(path, "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (got < count) {
		const struct nlmsghdr *m;

		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			perror("nlraw: recv");
			return 1;
		}
		for (m = (struct nlmsghdr *)buf; mnl_nlmsg_ok(m, n) && got < count;
		     m = mnl_nlmsg_next(m, &n)) {
			struct part_info p = { 0 };

			if (m->nlmsg_type == NLMSG_ERROR) {
				if (((const struct nlmsgerr *)
				     mnl_nlmsg_get_payload(m))->error) {
					fprintf(stderr, "nlraw: SUBSCRIBE refused\n");
					return 1;
				}
				continue;
			}
			if (m->nlmsg_type != family)
				continue;
			mnl_attr_parse(m, sizeof(struct genlmsghdr), part_cb, &p);
			if (!p.parts) {
				fprintf(stderr, "nlraw: a sample without PARTS\n");
				return 1;
			}
			/* the first sample we see may have begun before */
			if (!started && p.part)
				continue;
			started = 1;
			if (fwrite(m, m->nlmsg_len, 1, out) != 1)
				return 1;
			got += p.part + 1 == p.parts;
		}
	}
	return fclose(out) ? 1 : 0;
}

static int print_boottime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts))
		return 1;
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "boottime"))
		return print_boottime();
	if (open_family()) {
		fprintf(stderr, "nlraw: cannot find the kstat family\n");
		return 1;
	}
	if (argc >= 2 && !strcmp(argv[1], "cases"))
		return run_cases(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "fuzz"))
		return run_fuzz(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "subscribe-storm") ||
			  !strcmp(argv[1], "netns-subscribe") ||
			  !strcmp(argv[1], "sub-race")))
		return run_load(argc - 1, argv + 1);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "dump-irqs"))
		return dump_irqs(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 0);
	if (argc == 2 && !strcmp(argv[1], "dump-counts"))
		return dump_counts();
	if (argc >= 5 && argc <= 8 && !strcmp(argv[1], "record-dump"))
		return record_dump(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "record-do"))
		return record_do(argv[2], argv[3]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "record-summary"))
		return record_summary(atoi(argv[2]), argv[3],
				      argc == 5 ? argv[4] : NULL);
	fprintf(stderr, "usage: nlraw cases [unpriv | subscribe | netns [open]] [-v] | "
		"fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS] | "
		"dump-irqs BYTES [DELAY_MS] | dump-counts | "
		"record-dump WHAT FLAGS FILE [irqs=A-B] [cpus=A-B] [do] | "
		"record-do config|stats FILE | "
		"record-summary N FILE [SPEC] | boottime | "
		"subscribe-storm RATE SECONDS [WORKERS] | "
		"netns-subscribe N SECONDS [own MS] | sub-race SECONDS\n");
	return 2;
}
