// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw: speaks to the kstat family with hand-made messages (libmnl), to
 * test what libkstat would never send.
 *
 *   nlraw cases [unpriv | subscribe] [-v]
 *                          send the table of malformed and valid requests
 *                          (cases.c); each must get its errno and extack;
 *                          "unpriv": the table for a user without
 *                          CAP_NET_ADMIN (reads work, changes get EPERM);
 *                          "subscribe": the SUBSCRIBE cases alone
 *   nlraw fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS]
 *                          random and mutated requests (fuzz.c)
 *   nlraw dump-irqs BYTES [DELAY_MS]
 *                          dump every IRQ with per-CPU counts through a
 *                          socket with SO_RCVBUF=BYTES and a BYTES-sized
 *                          read buffer; check each IRQ comes exactly once
 *                          (exit 3: the kernel flagged NLM_F_DUMP_INTR)
 *   nlraw dump-trailer STABLE CHANGING CMD
 *                          a list dump of IRQ CHANGING then IRQ STABLE
 *                          many times, with metadata and per-CPU counts
 *                          of CPU 0 (a nest per IRQ), laid out (from
 *                          probing dumps: the nest's size sets the read
 *                          size) so that its trailer's header fits in
 *                          the last IRQs' reply buffer and its body does
 *                          not; CMD (sh -c) runs
 *                          after the first buffer is read, to change
 *                          CHANGING's descriptor.  Exit 3: NLM_F_DUMP_INTR
 *                          came, 0: the dump looked consistent, 2: the
 *                          layout could not be made (says why)
 *   nlraw dump-trailer STABLE CHANGING CMD packed
 *                          the same without metadata: the IRQs come in
 *                          packed chunks, and the layout is found by
 *                          probing list lengths and read sizes
 *   nlraw dump-counts      a totals dump (no attributes), decoded here:
 *                          "IRQ COUNT" lines; on stderr the reads it took
 *                          (one per dumpit call) and its chunks with 32-
 *                          and 64-bit counts
 *   nlraw record-dump CMD FLAGS FILE
 *                          record the reply messages of a CMD (cpu, irq,
 *                          softirq) dump with KSTAT_A_SEL_FLAGS=FLAGS
 *   nlraw record-summary N FILE
 *                          join "summary", send SUBSCRIBE, record the
 *                          messages of N whole batches
 *   Recordings are the raw messages back to back: fixtures for the host
 *   unit tests and the parse-cost benchmark.
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

/* ---- dump through a small buffer ---- */

struct dump_state {
	unsigned char *seen;	/* per IRQ number: times reported */
	unsigned int irqs, dupes, msgs, intr, interrupted;
};

static int irq_nest_cb(const struct nlattr *a, void *data)
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

	if (mnl_attr_get_type(a) == KSTAT_A_INTR_SUM)
		st->intr++;
	if (mnl_attr_get_type(a) != KSTAT_A_IRQ)
		return MNL_CB_OK;
	mnl_attr_parse_nested(a, irq_nest_cb, &irq);
	if (irq < 0 || irq >= (1 << 20))
		return MNL_CB_ERROR;
	if (st->seen[irq]++)
		st->dupes++;
	st->irqs++;
	return MNL_CB_OK;
}

static int dump_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_state *st = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		st->interrupted++;
	st->msgs++;
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), dump_attr_cb, data);
}

static int dump_irqs(int bytes, int delay_ms)
{
	struct dump_state st = { .seen = calloc(1 << 20, 1) };
	struct nlmsghdr *nlh;
	int n, ret = MNL_CB_OK;

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
	nlh = kstat_msg_put(buf, KSTAT_CMD_IRQ_GET, NLM_F_DUMP);
	nlh->nlmsg_seq = 42;
	/* a nest per IRQ (per-CPU counts alone come packed in chunks) */
	mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, KSTAT_F_PERCPU | KSTAT_F_META);
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
			st.interrupted++;
			ret = MNL_CB_STOP;
		}
	}
	printf("irqs %u dupes %u msgs %u trailers %u interrupted %u result %d%s%s\n",
	       st.irqs, st.dupes, st.msgs, st.intr, st.interrupted, ret,
	       ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
	if (ret < 0)
		return 1;
	/* NLM_F_DUMP_INTR: the IRQ set changed; the caller must retry */
	if (st.interrupted)
		return 3;
	return st.dupes || st.intr != 1;
}

/* ---- a totals dump, decoded here: its shape and its counts ---- */

struct counts_state {
	unsigned int reads, chunks, counts32, counts64, irqs;
	int bad;
};

/* One chunk (KSTAT_A_IRQS): "IRQ COUNT" per IRQ, decoded by hand. */
static void counts_chunk(const struct nlattr *nest, struct counts_state *st)
{
	const struct nlattr *a, *first = NULL, *present = NULL, *ids = NULL;
	const struct nlattr *c32 = NULL, *c64 = NULL;
	uint32_t irq[KSTAT_IRQS_CHUNK_MAX], w;
	unsigned int n = 0, i, bit, len, width;
	const uint8_t *p;
	uint64_t v;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case KSTAT_A_IRQS_FIRST: first = a; break;
		case KSTAT_A_IRQS_PRESENT: present = a; break;
		case KSTAT_A_IRQS_IDS: ids = a; break;
		case KSTAT_A_IRQS_COUNTS32: c32 = a; break;
		case KSTAT_A_IRQS_COUNTS: c64 = a; break;
		}
	}
	st->chunks++;
	st->counts32 += !!c32;
	st->counts64 += !!c64;
	if (first && present) {
		p = mnl_attr_get_payload(present);
		for (bit = 0; bit < mnl_attr_get_payload_len(present) * 8u &&
		     n < KSTAT_IRQS_CHUNK_MAX; bit++)
			if (p[bit / 8] >> (bit % 8) & 1)
				irq[n++] = mnl_attr_get_u32(first) + bit;
	} else if (ids) {
		for (i = 0; i < mnl_attr_get_payload_len(ids) / 4 &&
		     n < KSTAT_IRQS_CHUNK_MAX; i++)
			memcpy(&irq[n++], (const char *)mnl_attr_get_payload(ids) + 4 * i, 4);
	}
	a = c32 ? c32 : c64;
	width = c32 ? 4 : 8;
	len = a ? mnl_attr_get_payload_len(a) : 0;
	if (!a || !!c32 == !!c64 || len != n * width) {
		st->bad++;
		return;
	}
	for (i = 0; i < n; i++) {
		if (c32) {
			memcpy(&w, (const char *)mnl_attr_get_payload(a) + 4 * i, 4);
			v = w;
		} else {
			memcpy(&v, (const char *)mnl_attr_get_payload(a) + 8 * i, 8);
		}
		printf("%u %llu\n", irq[i], (unsigned long long)v);
		st->irqs++;
	}
}

static int counts_attr_cb(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == KSTAT_A_IRQS)
		counts_chunk(a, data);
	return MNL_CB_OK;
}

static int counts_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), counts_attr_cb,
			      data);
}

/*
 * A totals dump (IRQ_GET without attributes) on the socket that looked
 * the family up (a 1 MiB read: the kernel's dump skbs are then as large
 * as it makes them, 32 KiB), read 64 KiB at a time, decoded without
 * libkstat: "IRQ COUNT" lines, then on stderr the reads it took (one per
 * dumpit call), its chunks and how many had 32- and 64-bit counts.
 */
static int dump_counts(void)
{
	struct counts_state st = { 0 };
	struct nlmsghdr *nlh = kstat_msg_put(buf, KSTAT_CMD_IRQ_GET, NLM_F_DUMP);
	int n, ret = MNL_CB_OK;

	nlh->nlmsg_seq = 44;
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
	fprintf(stderr, "reads %u chunks %u counts32 %u counts64 %u irqs %u bad %d\n",
		st.reads, st.chunks, st.counts32, st.counts64, st.irqs, st.bad);
	return ret < 0 || st.bad ? 1 : 0;
}

/* ---- a trailer that does not fit after its header ---- */

#define TRAILER_BUF	8192	/* first recv size: the dump's skbs from the 2nd */

/*
 * A nest per IRQ (metadata asked), or, for "packed", the IRQs in chunks
 * with their per-CPU records.
 */
static uint32_t trailer_flags = KSTAT_F_PERCPU | KSTAT_F_META;

/* What one reply buffer (one dumpit call) held. */
struct reply_buf {
	int bytes;
	unsigned int irqs;	/* KSTAT_A_IRQ nests */
	unsigned int chunks;	/* KSTAT_A_IRQS chunks */
	unsigned int nest;	/* the aligned size of one */
	int trailer;		/* size of the message with KSTAT_A_INTR_SUM */
	int done, intr;
};

static int reply_attr_cb(const struct nlattr *a, void *data)
{
	struct reply_buf *r = data;

	if (mnl_attr_get_type(a) == KSTAT_A_IRQ) {
		r->irqs++;
		r->nest = MNL_ALIGN(mnl_attr_get_len(a));
	}
	if (mnl_attr_get_type(a) == KSTAT_A_IRQS)
		r->chunks++;
	if (mnl_attr_get_type(a) == KSTAT_A_INTR_SUM)
		r->trailer = 1;
	return MNL_CB_OK;
}

static void reply_parse(const char *data, int n, struct reply_buf *r)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;
	int had;

	memset(r, 0, sizeof(*r));
	r->bytes = n;
	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			r->intr = 1;
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR) {
			r->done = 1;
			continue;
		}
		had = r->trailer;
		mnl_attr_parse(nlh, sizeof(struct genlmsghdr), reply_attr_cb, r);
		if (!had && r->trailer)
			r->trailer = nlh->nlmsg_len;
	}
}

/*
 * One list dump of @n IRQs (@changing, then @stable), read with
 * @bufsize-byte buffers into @r (up to @max buffers); @cmd runs after
 * the first.  Returns the number of buffers, or -1.
 */
static int trailer_dump(uint32_t stable, uint32_t changing, unsigned int n,
			int bufsize, const char *cmd, struct reply_buf *r,
			int max)
{
	struct nlmsghdr *nlh;
	struct nlattr *list;
	unsigned int i;
	int got = 0, len;

	/* A fresh socket: it has not read with a larger buffer before. */
	mnl_socket_close(nl);
	nl = nl_open();
	if (!nl)
		return -1;
	nlh = kstat_msg_put(buf, KSTAT_CMD_IRQ_GET, NLM_F_DUMP);
	nlh->nlmsg_seq = 43;
	mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, trailer_flags);
	mnl_attr_put_u32(nlh, KSTAT_A_SEL_CPU_FIRST, 0);
	mnl_attr_put_u32(nlh, KSTAT_A_SEL_CPU_LAST, 0);
	list = mnl_attr_nest_start(nlh, KSTAT_A_SEL_IRQ_LIST);
	for (i = 0; i < n; i++) {
		uint32_t irq = i ? stable : changing;

		memcpy((char *)mnl_nlmsg_get_payload_tail(nlh), &irq, 4);
		nlh->nlmsg_len += 4;
	}
	list->nla_len = (char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)list;
	list->nla_type = KSTAT_A_SEL_IRQ_LIST;	/* binary, not a nest */
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		len = mnl_socket_recvfrom(nl, buf, bufsize);
		if (len < 0 || got == max)
			return -1;
		reply_parse(buf, len, &r[got]);
		if (!got && cmd && system(cmd))
			fprintf(stderr, "nlraw: \"%s\" failed\n", cmd);
	} while (!r[got++].done);
	return got;
}

static void print_bufs(const char *what, const struct reply_buf *r, int n)
{
	int i;

	printf("%s:", what);
	for (i = 0; i < n; i++)
		printf(" [%d bytes, %u %s%s%s%s]", r[i].bytes,
		       r[i].chunks ? r[i].chunks : r[i].irqs,
		       r[i].chunks ? "chunks" : "irqs", r[i].trailer ? ", trailer" : "",
		       r[i].intr ? ", DUMP_INTR" : "", r[i].done ? ", done" : "");
	printf("\n");
}

/*
 * Probe a dump read with @bufsize-byte buffers: the first two buffers'
 * IRQs, the second's nest and the trailer's size.  False (said why)
 * unless the second buffer is full of the stable IRQ's nests.
 */
static bool trailer_probe(uint32_t stable, uint32_t changing, int bufsize,
			  unsigned int *k1, unsigned int *k2,
			  unsigned int *nest, int *trailer)
{
	struct reply_buf r[64];
	int n;

	n = trailer_dump(stable, changing, 2048, bufsize, NULL, r, 64);
	if (n < 3) {
		printf("layout: the probe took %d buffers\n", n);
		return false;
	}
	print_bufs("probe", r, n);
	*k1 = r[0].irqs;
	*k2 = r[1].irqs;
	*nest = r[1].nest;
	*trailer = r[n - 1].trailer ? r[n - 1].trailer : r[n - 2].trailer;
	if (!*nest || !*trailer || bufsize - r[1].bytes >= (int)*nest) {
		printf("layout: the second buffer is not a full %d bytes of %u-byte IRQs\n",
		       bufsize, *nest);
		return false;
	}
	return true;
}

/*
 * A read size from @min on at which a buffer of IRQ nests of @nest bytes
 * leaves between @hdr and @trailer - 1 bytes after its header: room for
 * the trailer's header, not its body.  The nests' size is the IRQ's
 * (metadata included), so the read size is what can be chosen.
 */
static int trailer_bufsize(int min, unsigned int nest, int hdr, int trailer)
{
	int size;

	for (size = min; size < min + (int)nest; size++)
		if ((size - 2 * hdr) % (int)nest < trailer - hdr)
			return size;
	return min;
}

static int dump_trailer(uint32_t stable, uint32_t changing, const char *cmd)
{
	const int hdr = NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr));
	struct reply_buf r[64];
	int n, room, trailer, intr = 0, i, size;
	unsigned int k1, k2, nest, m;

	/* Probe: how many IRQs the first two buffers take, and sizes. */
	if (!trailer_probe(stable, changing, TRAILER_BUF, &k1, &k2, &nest,
			   &trailer))
		return 2;
	size = trailer_bufsize(TRAILER_BUF, nest, hdr, trailer);
	if (size != TRAILER_BUF &&
	    !trailer_probe(stable, changing, size, &k1, &k2, &nest, &trailer))
		return 2;
	/* Third buffer: m IRQs, then room for a header but not a trailer. */
	m = (size - hdr - hdr) / nest;
	room = size - hdr - (int)(m * nest);
	if (room < hdr || room >= trailer) {
		printf("layout: no IRQ count leaves between %d and %d bytes\n",
		       hdr, trailer - 1);
		return 2;
	}
	printf("plan: %d-byte reads, %u + %u + %u IRQs of %u bytes, then %d bytes for a %d-byte trailer\n",
	       size, k1, k2, m, nest, room, trailer);

	n = trailer_dump(stable, changing, k1 + k2 + m, size, cmd, r, 64);
	if (n < 0)
		return 1;
	print_bufs("dump", r, n);
	for (i = 0; i < n; i++)
		intr |= r[i].intr;
	if (n < 4 || r[2].irqs != m || r[2].trailer || !r[3].trailer) {
		printf("layout: the dump did not go as planned\n");
		return 2;
	}
	return intr ? 3 : 0;
}

/*
 * Did a dump of @n buffers put its trailer alone in the last, after its
 * header fitted in the one before and its body did not?
 */
static bool trailer_put_again(const struct reply_buf *r, int n, int bufsize,
			      int hdr)
{
	return n >= 4 && r[n - 1].trailer && !r[n - 1].chunks &&
	       !r[n - 1].irqs && !r[n - 2].trailer &&
	       bufsize - r[n - 2].bytes >= hdr;
}

/*
 * The same proof through packed chunks: a buffer takes whole chunks, and
 * a chunk's size steps with its IRQs, so rather than compute a layout,
 * probe list lengths (512: a buffer's worth of chunks and more, every
 * length of the last chunk) and read sizes until the trailer is put
 * again.  A probe is one dump of a few buffers.
 */
static int dump_trailer_packed(uint32_t stable, uint32_t changing,
			       const char *cmd)
{
	const int hdr = NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr));
	struct reply_buf r[64];
	int n, size, intr = 0, i;
	unsigned int len;

	trailer_flags = KSTAT_F_PERCPU;
	for (size = TRAILER_BUF; size < TRAILER_BUF + 256; size += 16)
		for (len = 1024; len < 1024 + 512; len++) {
			n = trailer_dump(stable, changing, len, size, NULL, r, 64);
			if (n < 0)
				return 1;
			if (trailer_put_again(r, n, size, hdr))
				goto found;
		}
	n = trailer_dump(stable, changing, 1024, TRAILER_BUF, NULL, r, 64);
	print_bufs("probe", r, n);
	printf("layout: no list length and read size put the trailer again\n");
	return 2;
found:
	print_bufs("probe", r, n);
	printf("plan: %d-byte reads, %u IRQs in chunks, %d bytes left for a %d-byte trailer\n",
	       size, len, size - r[n - 2].bytes, r[n - 1].trailer);
	n = trailer_dump(stable, changing, len, size, cmd, r, 64);
	if (n < 0)
		return 1;
	print_bufs("dump", r, n);
	for (i = 0; i < n; i++)
		intr |= r[i].intr;
	if (!trailer_put_again(r, n, size, hdr)) {
		printf("layout: the dump did not go as planned\n");
		return 2;
	}
	return intr ? 3 : 0;
}

/* ---- recording fixtures ---- */

static int write_msgs(FILE *out, const char *data, int n, int *done)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;

	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR) {
			*done = 1;
			if (nlh->nlmsg_type == NLMSG_ERROR &&
			    ((const struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error)
				return -1;
			continue;
		}
		if (fwrite(nlh, nlh->nlmsg_len, 1, out) != 1)
			return -1;
	}
	return 0;
}

static int record_dump(const char *what, uint32_t flags, const char *path)
{
	struct nlmsghdr *nlh;
	int n, done = 0;
	FILE *out;

	if (!strcmp(what, "cpu")) {
		nlh = kstat_msg_put(buf, KSTAT_CMD_CPU_GET, NLM_F_DUMP);
	} else if (!strcmp(what, "irq")) {
		nlh = kstat_msg_put(buf, KSTAT_CMD_IRQ_GET, NLM_F_DUMP);
		mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, flags);
	} else if (!strcmp(what, "softirq")) {
		/* a do: one reply, then the ACK */
		nlh = kstat_msg_put(buf, KSTAT_CMD_SOFTIRQ_GET, NLM_F_ACK);
		mnl_attr_put_u32(nlh, KSTAT_A_SEL_FLAGS, flags);
	} else {
		return 2;
	}
	nlh->nlmsg_seq = 7;
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

static int first_part(const struct nlmsghdr *nlh)
{
	struct part_info p = { 0 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), part_cb, &p);
	return p.parts && p.part == 0;
}

/* Is @nlh the last part of its batch? */
static int last_part(const struct nlmsghdr *nlh)
{
	struct part_info p = { 0 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), part_cb, &p);
	return p.parts && p.part + 1 == p.parts;
}

static int record_summary(int count, const char *path)
{
	struct nlmsghdr *nlh;
	uint32_t grp = 0;
	int n, got = 0, done = 0, started = 0;
	FILE *out;

	grp = summary_group();
	if (!grp ||
	    mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		return 1;
	nlh = kstat_msg_put(buf, KSTAT_CMD_SUBSCRIBE, 0);
	out = fopen(path, "w");
	if (!out || mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 1;
	while (got < count) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return 1;
		nlh = (struct nlmsghdr *)buf;
		if (nlh->nlmsg_type != family)
			continue;	/* the ACK of SUBSCRIBE */
		/* the first batch we see may have started before we joined */
		if (!got && !started && !first_part(nlh))
			continue;
		started = 1;
		if (write_msgs(out, buf, n, &done))
			return 1;
		got += last_part(nlh);
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
			  !strcmp(argv[1], "netns-subscribe")))
		return run_load(argc - 1, argv + 1);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "dump-irqs"))
		return dump_irqs(atoi(argv[2]), argc == 4 ? atoi(argv[3]) : 0);
	if (argc == 6 && !strcmp(argv[1], "dump-trailer") &&
	    !strcmp(argv[5], "packed"))
		return dump_trailer_packed(strtoul(argv[2], NULL, 0),
					   strtoul(argv[3], NULL, 0), argv[4]);
	if (argc == 5 && !strcmp(argv[1], "dump-trailer"))
		return dump_trailer(strtoul(argv[2], NULL, 0),
				    strtoul(argv[3], NULL, 0), argv[4]);
	if (argc == 2 && !strcmp(argv[1], "dump-counts"))
		return dump_counts();
	if (argc == 5 && !strcmp(argv[1], "record-dump"))
		return record_dump(argv[2], strtoul(argv[3], NULL, 0), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "record-summary"))
		return record_summary(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: nlraw cases [unpriv | subscribe] [-v] | "
		"fuzz [-n COUNT] [-s SEED] [-t SECONDS] [-d SECONDS] | dump-irqs BYTES | "
		"dump-trailer STABLE CHANGING CMD [packed] | dump-counts | "
		"record-dump CMD FLAGS FILE | record-summary N FILE | boottime | "
		"subscribe-storm RATE SECONDS [WORKERS] | netns-subscribe N SECONDS\n");
	return 2;
}
