// SPDX-License-Identifier: GPL-2.0
/*
 * A stream of a reader's own (issue 27), against a fake kernel (a
 * NETLINK_USERSOCK socket that answers the subscription's requests):
 * - SUBSCRIBE carries KSTAT_A_CONFIG with the fields asked for, and no
 *   group is joined: the default stream's multicast does not reach it;
 * - each sample says its stream (KSTAT_A_SUMMARY_STREAM), and summaries
 *   of the default stream are not taken for it;
 * - an overrun costs a GETFAMILY, never a SUBSCRIBE: the kernel's next
 *   message is a snapshot, which resyncs it and reports the loss;
 * - a reload (the family back under another id) sends the same options;
 * - struct kstat_sub_opts is read with the size it carries;
 * - CONFIG_GET's KSTAT_A_LIMITS and STATS_GET's KSTAT_A_STREAM nests
 *   parse, the streams at the caller's stride.
 * Before, kstat_subscribe() had no options: SUBSCRIBE carried nothing.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "fake_kernel.h"

#define FAMILY	0x21
#define GROUP	3
#define STREAM	5
#define OVERRUN_GROUP	9

/* What the stream's samples said of themselves. */
static uint32_t last_stream;
static struct kstat_config last_config;

static void on_stream_sample(const struct kstat_sample *s, void *arg)
{
	last_stream = s->stream;
	last_config = s->config;
	on_sample(s, arg);
}

static const struct kstat_sub_ops stream_ops = {
	.sample = on_stream_sample, .lost = on_lost, .family = on_family,
};

/* The config nest of a SUBSCRIBE, into @c with the fields it had. */
static unsigned int req_config(const struct req *r, struct kstat_sub_opts *c)
{
	const struct nlattr *a, *b;
	unsigned int fields = 0;
	uint8_t u8 = 0;
	int rem, rem2;

	memset(c, 0, sizeof(*c));
	kattr_for_each(a, (const struct nlattr *)r->attrs, r->len, rem) {
		if (kattr_type(a) != KSTAT_A_CONFIG)
			continue;
		fields |= 1u << 31;	/* the nest is there */
		kattr_for_each_nested(b, a, rem2) {
			switch (kattr_type(b)) {
			case KSTAT_A_CONFIG_INTERVAL_MS:
				kstat_get_u32(b, &c->interval_ms);
				fields |= KSTAT_CONFIG_INTERVAL;
				break;
			case KSTAT_A_CONFIG_SECTIONS:
				kstat_get_u32(b, &c->sections);
				fields |= KSTAT_CONFIG_SECTIONS;
				break;
			case KSTAT_A_CONFIG_PERCPU:
				kstat_get_u8(b, &u8);
				c->percpu = u8;
				fields |= KSTAT_CONFIG_PERCPU;
				break;
			case KSTAT_A_CONFIG_BATCH:
				fields |= KSTAT_CONFIG_BATCH;
				break;
			case KSTAT_A_CONFIG_KEYFRAME:
				fields |= KSTAT_CONFIG_KEYFRAME;
				break;
			}
		}
	}
	return fields;
}

/* A snapshot of our stream: keyframe @seq with the stream's config. */
static void stream_snapshot(struct msg *m, uint64_t seq, uint32_t stream)
{
	size_t cfg;

	msg_start(m, seq, 0, 1);
	put(m, KSTAT_A_SNAPSHOT, NULL, 0);
	put_u32(m, KSTAT_A_SUMMARY_STREAM, stream);
	sample_open(m, seq, 1);
	cfg = nest_open(m, KSTAT_A_SAMPLE_CONFIG);
	put_u32(m, KSTAT_A_CONFIG_INTERVAL_MS, 200);
	put_u32(m, KSTAT_A_CONFIG_SECTIONS, KSTAT_SECTION_IRQ);
	nest_close(m, cfg);
	put_u64(m, KSTAT_A_SAMPLE_INTR_SUM, seq);
	sample_close(m);
}

/* A delta of our stream, unicast. */
static void stream_delta(struct msg *m, uint64_t seq, uint32_t stream)
{
	msg_start(m, seq, 0, 1);
	put_u32(m, KSTAT_A_SUMMARY_STREAM, stream);
	piece(m, seq, 0);
}

static const struct kstat_sub_opts want = {
	.size = sizeof(struct kstat_sub_opts),
	.fields = KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS,
	.interval_ms = 200, .sections = KSTAT_SECTION_IRQ,
};

/*
 * A subscription to a stream of its own, joined by a NEWFAMILY: its
 * SUBSCRIBE in *@r.  0 or -errno.
 */
static int setup(struct fake *k, struct kstat_sub **subp, struct seen *w,
		 struct req *r)
{
	struct kstat_sub *sub = kstat_sub_alloc(&stream_ops, w);
	const struct req *subscribe;
	struct req rs[8];
	struct msg m;
	int err, n;

	memset(w, 0, sizeof(*w));
	*subp = sub;
	kstat_sub_set_opts(sub, &want);
	err = fake_open(k, sub);
	if (err)
		return err;
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, KSTAT_FAMILY_VERSION, GROUP);
	fake_unicast(k, &m, 0);
	kstat_sub_dispatch(sub);
	n = fake_requests(k, rs, 8);
	subscribe = req_find(rs, n, FAMILY, KSTAT_CMD_SUBSCRIBE);
	if (!subscribe)
		return -ENOMSG;
	*r = *subscribe;
	return 0;
}

static void test_subscribe(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub_opts got;
	struct kstat_sub *sub;
	struct req r;
	struct seen w;
	unsigned int fields;
	struct msg m;
	int err;

	err = setup(&k, &sub, &w, &r);
	CHECK(!err, "NEWFAMILY: SUBSCRIBE sent (%s)", strerror(-err));
	if (err)
		goto out;
	fields = req_config(&r, &got);
	CHECK(fields == (1u << 31 | KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_SECTIONS) &&
	      got.interval_ms == 200 && got.sections == KSTAT_SECTION_IRQ,
	      "SUBSCRIBE carries KSTAT_A_CONFIG: interval 200, sections irq, nothing else (fields 0x%x)",
	      fields);

	delta_msg(&m, 1);
	put_u32(&m, KSTAT_A_SUMMARY_STREAM, 0);
	fake_multicast(&k, &m, GROUP);
	kstat_sub_dispatch(sub);
	CHECK(w.samples == 0, "no group joined: the default stream's multicast does not come");

	stream_snapshot(&m, 40, STREAM);
	fake_unicast(&k, &m, r.seq);
	kstat_sub_dispatch(sub);
	CHECK(w.samples == 1 && last_stream == STREAM &&
	      kstat_sub_stream(sub) == STREAM &&
	      last_config.interval_ms == 200 &&
	      last_config.sections == KSTAT_SECTION_IRQ,
	      "the snapshot is delivered with its stream %u and config (%d samples, stream %u, interval %u)",
	      STREAM, w.samples, last_stream, last_config.interval_ms);

	delta_msg(&m, 41);	/* no stream: the default stream's */
	fake_unicast(&k, &m, 0);
	stream_delta(&m, 41, STREAM);
	fake_unicast(&k, &m, 0);
	kstat_sub_dispatch(sub);
	CHECK(w.samples == 2 && w.delivered_seq[1] == 41 && w.lost == w.reload_lost,
	      "a default-stream summary is not taken; the stream's 41 is, nothing lost (%d samples)",
	      w.samples);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* An overrun: GETFAMILY only; the kernel's snapshot resyncs. */
static void test_overrun(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub *sub;
	struct req r, rs[16];
	struct seen w;
	uint64_t s;
	int err, n, small = 4096, before;
	struct msg m;

	err = setup(&k, &sub, &w, &r);
	if (err) {
		CHECK(0, "setup (%s)", strerror(-err));
		goto out;
	}
	stream_snapshot(&m, 100, STREAM);
	fake_unicast(&k, &m, r.seq);
	kstat_sub_dispatch(sub);
	/*
	 * A user socket's unicast to a full queue blocks or fails without
	 * marking the receiver overrun, as the kernel's does: a group of the
	 * fake's own carries the stream's messages instead.
	 */
	setsockopt(kstat_sub_fd(sub), SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	setsockopt(kstat_sub_fd(sub), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
		   &(int){ OVERRUN_GROUP }, sizeof(int));
	for (s = 101; s < 301; s++) {
		stream_delta(&m, s, STREAM);
		fake_multicast(&k, &m, OVERRUN_GROUP);
	}
	while (kstat_sub_dispatch(sub) > 0)
		;
	n = fake_requests(&k, rs, 16);
	CHECK(req_count(rs, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY) == 1 &&
	      req_count(rs, n, FAMILY, KSTAT_CMD_SUBSCRIBE) == 0,
	      "after the overrun: one GETFAMILY, no SUBSCRIBE (%d requests)", n);
	if (req_find(rs, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY)) {
		ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, KSTAT_FAMILY_VERSION,
				GROUP);
		fake_unicast(&k, &m, req_find(rs, n, GENL_ID_CTRL,
					      CTRL_CMD_GETFAMILY)->seq);
	}
	before = w.samples;
	stream_snapshot(&m, 301, STREAM);	/* the kernel's resync */
	fake_unicast(&k, &m, 0);
	stream_delta(&m, 302, STREAM);
	fake_unicast(&k, &m, 0);
	kstat_sub_dispatch(sub);
	CHECK(w.samples == before + 2 && w.delivered_seq[w.samples - 1] == 302,
	      "the kernel's snapshot 301 resyncs at once, 302 follows (%d new samples)",
	      w.samples - before);
	CHECK(w.lost - w.reload_lost + (uint64_t)(w.samples - 1) == 302 - 100,
	      "every sample from 101 to 302 delivered or reported lost (%d delivered, %llu lost)",
	      w.samples - 1, (unsigned long long)(w.lost - w.reload_lost));
	n = fake_requests(&k, rs, 16);
	CHECK(req_count(rs, n, FAMILY, KSTAT_CMD_SUBSCRIBE) == 0,
	      "the family as it was: still no SUBSCRIBE (%d requests)", n);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* A reload: the same options to the new family. */
static void test_reload(void)
{
	struct fake k = { .fd = -1 };
	struct kstat_sub_opts got;
	const struct req *again;
	struct kstat_sub *sub;
	struct req r, rs[16];
	struct seen w;
	struct msg m;
	int err, n;

	err = setup(&k, &sub, &w, &r);
	if (err) {
		CHECK(0, "setup (%s)", strerror(-err));
		goto out;
	}
	ctrl_family_msg(&m, CTRL_CMD_DELFAMILY, FAMILY, KSTAT_FAMILY_VERSION, GROUP);
	fake_unicast(&k, &m, 0);
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY + 1, KSTAT_FAMILY_VERSION,
			GROUP + 1);
	fake_unicast(&k, &m, 0);
	kstat_sub_dispatch(sub);
	n = fake_requests(&k, rs, 16);
	again = req_find(rs, n, FAMILY + 1, KSTAT_CMD_SUBSCRIBE);
	CHECK(again && req_config(again, &got) == (1u << 31 | KSTAT_CONFIG_INTERVAL |
						   KSTAT_CONFIG_SECTIONS) &&
	      got.interval_ms == 200 && got.sections == KSTAT_SECTION_IRQ,
	      "back under a new id: SUBSCRIBE to it with the same options");
	ctrl_family_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY + 2, KSTAT_FAMILY_VERSION + 1,
			GROUP);
	fake_unicast(&k, &m, 0);
	err = kstat_sub_dispatch(sub);
	n = fake_requests(&k, rs, 16);
	CHECK(err == -EPROTO && !req_find(rs, n, FAMILY + 2, KSTAT_CMD_SUBSCRIBE),
	      "a module of another version: refused, no SUBSCRIBE (%d)", err);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* struct kstat_sub_opts: read with the size it carries. */
static void test_opts_sizes(void)
{
	struct kstat_handle *h = kstat_handle_alloc_offline();
	struct {
		struct kstat_sub_opts o;
		uint64_t newer;
	} big = { KSTAT_SUB_OPTS_INIT, 0 };
	struct kstat_sub_opts in, o = KSTAT_SUB_OPTS_INIT;
	int err;

	CHECK(offsetof(struct kstat_sub_opts, size) == 0 &&
	      sizeof(struct kstat_sub_opts) >= KSTAT_SUB_OPTS_SIZE_1_1,
	      "struct kstat_sub_opts: size first, %zu bytes (1.1: %zu)",
	      sizeof(struct kstat_sub_opts), KSTAT_SUB_OPTS_SIZE_1_1);
	CHECK(KSTAT_SUB_OPTS_SIZE_1_1 == (sizeof(size_t) == 8 ? 32 : 28) &&
	      KSTAT_LIMITS_SIZE_1_1 == 16 && KSTAT_STREAM_SIZE_1_1 == 56,
	      "the 1.1 sizes: options %zu, limits %zu, stream %zu",
	      KSTAT_SUB_OPTS_SIZE_1_1, KSTAT_LIMITS_SIZE_1_1,
	      KSTAT_STREAM_SIZE_1_1);
	o.size = 0;	/* not started from KSTAT_SUB_OPTS_INIT */
	err = kstat_sub_opts_take(h, &o, &in);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "KSTAT_SUB_OPTS_INIT"),
	      "options without their size: -EINVAL, \"%s\"", kstat_last_error(h));
	o.size = sizeof(o);
	o.fields = 1u << 20;
	err = kstat_sub_opts_take(h, &o, &in);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "unknown fields"),
	      "an unknown fields bit: -EINVAL, \"%s\"", kstat_last_error(h));
	big.o.size = sizeof(big);
	big.o.fields = KSTAT_CONFIG_INTERVAL;
	big.o.interval_ms = 250;
	err = kstat_sub_opts_take(h, &big.o, &in);
	CHECK(err == 0 && in.interval_ms == 250 && in.size == sizeof(in),
	      "newer, larger options with their new field 0: taken (%d)", err);
	big.newer = 1;
	err = kstat_sub_opts_take(h, &big.o, &in);
	CHECK(err == -E2BIG, "newer options with their new field set: -E2BIG (%d)", err);
	kstat_close(h);
}

/* CONFIG_GET's limits, STATS_GET's streams at a larger stride. */
static void test_parse(void)
{
	struct {
		struct kstat_stream s;
		uint64_t newer;
	} *wide;
	struct kstat_stream_list l = { .stream_size = sizeof(*wide) };
	struct kstat_limits lim;
	struct msg m;
	size_t nest, cfg;
	uint32_t id;
	int err;

	msg_start(&m, 0, 0, 1);
	nest = nest_open(&m, KSTAT_A_LIMITS);
	put_u32(&m, KSTAT_A_LIMITS_MIN_INTERVAL_MS, 250);
	put_u32(&m, KSTAT_A_LIMITS_MAX_STREAMS, 16);
	put_u32(&m, KSTAT_A_LIMITS_MAX_MEMBERS_USER, 64);
	put_u32(&m, KSTAT_A_LIMITS_MAX_MEMBERS_NET, 256);
	put_u32(&m, KSTAT_A_LIMITS_MAX_MEMBERS_NET + 1, 7);	/* newer */
	nest_close(&m, nest);
	err = kstat_parse_limits_msg(&m.nlh, &lim);
	CHECK(err == 0 && lim.min_interval_ms == 250 && lim.max_streams == 16 &&
	      lim.max_members_user == 64 && lim.max_members_net == 256,
	      "limits: 250 ms, 16 streams, 64 per user, 256 per netns (%d)", err);
	msg_start(&m, 0, 0, 1);
	CHECK(kstat_parse_limits_msg(&m.nlh, &lim) == -ENOENT,
	      "no limits in the reply (an older module): -ENOENT");

	msg_start(&m, 0, 0, 1);
	for (id = 0; id < 3; id++) {
		nest = nest_open(&m, KSTAT_A_STREAM);
		put_u32(&m, KSTAT_A_STREAM_ID, id);
		cfg = nest_open(&m, KSTAT_A_STREAM_CONFIG);
		put_u32(&m, KSTAT_A_CONFIG_INTERVAL_MS, 1000 - 400 * id);
		put_u32(&m, KSTAT_A_CONFIG_SECTIONS, KSTAT_SECTION_IRQ);
		nest_close(&m, cfg);
		put_u32(&m, KSTAT_A_STREAM_MEMBERS, id);
		put_u64(&m, KSTAT_A_STREAM_SAMPLES, 10 + id);
		put_u64(&m, KSTAT_A_STREAM_BYTES, 1000 + id);
		put_u64(&m, KSTAT_A_STREAM_RESYNCS, id);
		nest_close(&m, nest);
	}
	err = kstat_parse_streams_msg(&m.nlh, &l);
	wide = (void *)l.streams;
	CHECK(err == 0 && l.nr == 3 && wide[0].s.id == 0 && wide[2].s.id == 2 &&
	      wide[2].s.config.interval_ms == 200 && wide[2].s.members == 2 &&
	      wide[1].s.samples == 11 && wide[1].s.bytes == 1001 &&
	      wide[2].s.resyncs == 2 && wide[2].newer == 0,
	      "3 streams at a caller's stride of %zu: id, config, members, samples, bytes, resyncs (%d)",
	      sizeof(*wide), err);
	free(l.streams);
}

int main(void)
{
	test_subscribe();
	test_overrun();
	test_reload();
	test_opts_sizes();
	test_parse();
	return unit_exit();
}
