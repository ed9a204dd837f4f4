// SPDX-License-Identifier: GPL-2.0
/*
 * A handle against a fake kernel (fake_kernel.h): a query becomes one
 * GET dump with exactly its attributes; kstat_get_send() and
 * kstat_get_recv() read it from an event loop (-EAGAIN until whole, one
 * GET at a time); the kernel's refusal is -errno with its extack in
 * kstat_last_error(), emptied by the next call; kstat_get() gives up at
 * the handle's timeout, and the late answer is not taken for the next
 * one's.  Config, limits and stats: the nests read, CONFIG_SET with the
 * fields asked and nothing else, answered by a thread playing the kernel.
 * An IRQ list as long as one attribute holds (16,382) is one request.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "unit.h"
#include "fake_kernel.h"

static struct fake k;
static struct kstat_handle *h;
static struct req r[8];

static const struct req *one_request(uint8_t cmd)
{
	int n = fake_requests(&k, r, 8);

	return n == 1 && r[0].cmd == cmd ? &r[0] : NULL;
}

static void test_query(void)
{
	static const uint32_t ids[] = { 3 };
	static const uint64_t counts[] = { 30 };
	static const uint32_t cpus[] = { 1 << 1 | KSTAT_CPUS_DENSE, 6 };
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s = NULL;
	const struct req *g;
	struct msg m;
	int err;

	q.sections = KSTAT_SECTION_IRQ;
	q.flags = KSTAT_F_PERCPU | KSTAT_F_META;
	q.irq_first = 3;
	q.irq_last = 9;
	q.cpu_first = 1;
	q.cpu_last = 2;
	err = kstat_get_send(h, &q);
	g = one_request(KSTAT_CMD_GET);
	CHECK(!err && g && g->type == FAMILY && (g->flags & NLM_F_DUMP) &&
	      req_u32(g, 0, KSTAT_A_SECTIONS) == KSTAT_SECTION_IRQ &&
	      req_u32(g, 0, KSTAT_A_FLAGS) == (KSTAT_F_PERCPU | KSTAT_F_META) &&
	      req_u32(g, 0, KSTAT_A_IRQ_FIRST) == 3 && req_u32(g, 0, KSTAT_A_IRQ_LAST) == 9 &&
	      req_u32(g, 0, KSTAT_A_CPU_FIRST) == 1 && req_u32(g, 0, KSTAT_A_CPU_LAST) == 2 &&
	      !req_attr(g, 0, KSTAT_A_IRQ_LIST),
	      "a query: a GET dump with exactly its attributes");
	if (!g)
		exit(unit_exit());
	err = kstat_get_recv(h, &s);
	CHECK(err == -EAGAIN && !s, "nothing yet: -EAGAIN (%d)", err);
	CHECK(kstat_get_send(h, &q) == -EBUSY && strstr(kstat_last_error(h), "in flight"),
	      "one GET at a time: -EBUSY, \"%s\"", kstat_last_error(h));
	CHECK(kstat_config_get(h, &(struct kstat_config){ 0 }) == -EBUSY,
	      "no other request meanwhile: -EBUSY");
	reply_start(&m, g->seq, 555);
	put_irqs(&m, ids, counts, 1, cpus, 2);
	fake_send(&k, &m, g->seq);
	err = kstat_get_recv(h, &s);
	CHECK(err == -EAGAIN, "a first message: still -EAGAIN (%d)", err);
	reply_start(&m, g->seq, 555);
	put_u64(&m, KSTAT_A_INTR_SUM, 99);
	fake_send(&k, &m, g->seq);
	done_msg(&m, 0, NULL);
	fake_send(&k, &m, g->seq);
	err = kstat_get_recv(h, &s);
	CHECK(!err && s && s->from_get && s->timestamp_ns == 555 && s->intr_sum == 99 &&
	      s->nr_irqs == 1 && s->cpu_first == 1 &&
	      kstat_sample_irq(s, 0)->percpu[0].cpu == 1 &&
	      s->sections == KSTAT_SECTION_IRQ && !kstat_last_error(h)[0],
	      "the answer whole: one sample, per-CPU ids from CPU 1 (%d)", err);
	kstat_sample_free(s);
	err = kstat_get_recv(h, &s);
	CHECK(err == -EINVAL && !s, "no GET in flight: -EINVAL (%d)", err);

	q = (struct kstat_query)KSTAT_QUERY_INIT;
	q.irqs = ids;
	q.nr_irqs = 1;
	err = kstat_get_send(h, &q);
	g = one_request(KSTAT_CMD_GET);
	CHECK(!err && g && req_u32(g, 0, KSTAT_A_IRQ_LIST) == 3 &&
	      !req_attr(g, 0, KSTAT_A_SECTIONS) && !req_attr(g, 0, KSTAT_A_FLAGS) &&
	      !req_attr(g, 0, KSTAT_A_CPU_FIRST),
	      "an IRQ list; sections, flags and CPUs left to the kernel");
	/* refused: -errno and the kernel's text, emptied by the next call */
	error_msg(&m, -EINVAL, g ? g->seq : 0,
		  "select IRQs by a range or by a list, not both");
	fake_send(&k, &m, g ? g->seq : 0);
	err = kstat_get_recv(h, &s);
	CHECK(err == -EINVAL && !s && !strcmp(kstat_last_error(h),
			"select IRQs by a range or by a list, not both"),
	      "refused: -EINVAL, \"%s\"", kstat_last_error(h));
	err = kstat_get_send(h, NULL);
	g = one_request(KSTAT_CMD_GET);
	CHECK(!err && !kstat_last_error(h)[0] && g && !req_attr(g, 0, KSTAT_A_SECTIONS),
	      "the next call empties kstat_last_error(); NULL: everything");
	done_msg(&m, -EPERM, "kstat answers in the initial network namespace only (config netns)");
	fake_send(&k, &m, g ? g->seq : 0);
	err = kstat_get_recv(h, &s);
	CHECK(err == -EPERM && strstr(kstat_last_error(h), "config netns"),
	      "a dump refused at its end: -EPERM, \"%s\"", kstat_last_error(h));
}

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_timeout(void)
{
	struct kstat_sample *s = NULL;
	const struct req *g;
	struct timespec t0;
	int64_t took;
	int err;

	kstat_set_timeout(h, 100);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = kstat_get(h, NULL, &s);
	took = ms_since(&t0);
	g = one_request(KSTAT_CMD_GET);
	CHECK(err == -ETIMEDOUT && !s && took >= 100 && took < 1000 &&
	      strstr(kstat_last_error(h), "100 ms"),
	      "no answer: -ETIMEDOUT after %lld ms, \"%s\"", (long long)took,
	      kstat_last_error(h));
	/* the next GET, then the late answer to the last, then its own */
	err = kstat_get_send(h, NULL);
	CHECK(!err && kstat_get(h, NULL, &s) == -EBUSY, "kstat_get() during a GET: -EBUSY");
	if (g)
		fake_get_answer(&k, FAMILY, g->seq, 1, 111);
	g = one_request(KSTAT_CMD_GET);
	if (g)
		fake_get_answer(&k, FAMILY, g->seq, 2, 222);
	while (!err && (err = kstat_get_recv(h, &s)) == -EAGAIN)
		;
	CHECK(!err && s && s->intr_sum == 222,
	      "the late answer is not taken for the next GET's (%d, %llu)", err,
	      s ? (unsigned long long)s->intr_sum : 0ULL);
	kstat_sample_free(s);
	kstat_set_timeout(h, 5000);
}

/* The kernel's side of config, limits and stats, in a thread. */
static struct req set_req;
static int answered;

static void *kernel_thread(void *arg)
{
	struct pollfd p = { .fd = k.fd, .events = POLLIN };
	struct req q[4];
	struct msg m;
	size_t at;
	int n, i;

	(void)arg;
	while (poll(&p, 1, 2000) == 1) {
		n = fake_requests(&k, q, 4);
		for (i = 0; i < n; i++) {
			answered++;
			if (q[i].cmd == KSTAT_CMD_CONFIG_GET) {
				fake_config_answer(&k, FAMILY, q[i].seq, 5, 1);
			} else if (q[i].cmd == KSTAT_CMD_STATS_GET) {
				msg_init(&m, FAMILY, KSTAT_CMD_STATS_GET, q[i].seq);
				at = nest_open(&m, KSTAT_A_STATS);
				put_u64(&m, KSTAT_A_STATS_TICKS, 12);
				put_u64(&m, KSTAT_A_STATS_DELIVERY_FAILURES, 3);
				put_u8(&m, KSTAT_A_STATS_LISTENING, 1);
				put_u32(&m, KSTAT_A_STATS_GENERATION, 9);
				put_u32(&m, 99, 1);	/* newer: skipped */
				nest_close(&m, at);
				fake_send(&k, &m, q[i].seq);
			} else if (q[i].cmd == KSTAT_CMD_CONFIG_SET) {
				set_req = q[i];
				if (req_u32(&q[i], KSTAT_A_CONFIG, KSTAT_A_CONFIG_BATCH) == 99)
					error_msg(&m, -ERANGE, q[i].seq, "batch above 64");
				else
					error_msg(&m, 0, q[i].seq, NULL);
				fake_send(&k, &m, q[i].seq);
			} else {	/* the end */
				error_msg(&m, 0, q[i].seq, NULL);
				fake_send(&k, &m, q[i].seq);
				return NULL;
			}
		}
	}
	return NULL;
}

static void test_config(void)
{
	struct kstat_config c = { 0 };
	struct kstat_limits l = { 0 };
	struct kstat_stats st = { 0 };
	pthread_t t;
	int err;

	pthread_create(&t, NULL, kernel_thread, NULL);
	err = kstat_config_get(h, &c);
	CHECK(!err && c.interval_ms == 1000 && c.batch == 1 && c.sections == 5 &&
	      c.percpu == 1 && c.netns == 0, "config: every field (%d)", err);
	err = kstat_limits_get(h, &l);
	CHECK(!err && l.min_interval_ms == 250 && l.max_subscriptions == 64,
	      "limits (%d)", err);
	err = kstat_stats_get(h, &st);
	CHECK(!err && st.ticks == 12 && st.delivery_failures == 3 &&
	      st.listening == 1 && st.running == 0 && st.generation == 9,
	      "stats, a newer attribute skipped (%d)", err);
	c.interval_ms = 500;
	c.netns = 1;
	err = kstat_config_set(h, &c, KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_NETNS);
	CHECK(!err && (set_req.flags & NLM_F_ACK) &&
	      req_u32(&set_req, KSTAT_A_CONFIG, KSTAT_A_CONFIG_INTERVAL_MS) == 500 &&
	      req_u32(&set_req, KSTAT_A_CONFIG, KSTAT_A_CONFIG_NETNS) == 1 &&
	      !req_attr(&set_req, KSTAT_A_CONFIG, KSTAT_A_CONFIG_BATCH) &&
	      !req_attr(&set_req, KSTAT_A_CONFIG, KSTAT_A_CONFIG_SECTIONS),
	      "config set: the fields asked, and an ACK (%d)", err);
	c.batch = 99;
	err = kstat_config_set(h, &c, KSTAT_CONFIG_BATCH);
	CHECK(err == -ERANGE && !strcmp(kstat_last_error(h), "batch above 64"),
	      "config set refused: %d, \"%s\"", err, kstat_last_error(h));
	l.min_interval_ms = 100;
	err = kstat_limits_set(h, &l, KSTAT_LIMITS_MIN_INTERVAL);
	CHECK(!err && req_u32(&set_req, KSTAT_A_LIMITS, KSTAT_A_LIMITS_MIN_INTERVAL_MS) == 100 &&
	      !req_attr(&set_req, KSTAT_A_LIMITS, KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS) &&
	      !kstat_last_error(h)[0],
	      "limits set: the field asked (%d)", err);
	err = kstat_config_set(h, &c, 1 << 9);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "unknown fields"),
	      "unknown fields: -EINVAL, \"%s\"", kstat_last_error(h));
	kstat_request(h, kstat_msg(FAMILY, NLM_F_ACK, KSTAT_CMD_UNSUBSCRIBE),
		      NULL, NULL);	/* ends the thread */
	pthread_join(t, NULL);
}

/* The longest IRQ list one attribute holds: one request, all of it. */
static void test_irq_list_long(void)
{
	static uint32_t ids[16382];
	static char buf[70000];
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_sample *s = NULL;
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	const struct nlattr *a;
	uint32_t last = 0;
	ssize_t len;
	size_t i;
	int err;

	for (i = 0; i < 16382; i++)
		ids[i] = i * 2;
	q.irqs = ids;
	q.nr_irqs = 16382;
	err = kstat_get_send(h, &q);
	len = recv(k.fd, buf, sizeof(buf), MSG_DONTWAIT);
	a = (const void *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);
	if (len > 0 && kattr_type(a) == KSTAT_A_IRQ_LIST && kattr_len(a) == 16382 * 4)
		memcpy(&last, (const char *)kattr_data(a) + 16381 * 4, 4);
	CHECK(!err && len == (ssize_t)nlh->nlmsg_len && last == 16381 * 2,
	      "a list of 16,382 IRQs: one GET of %zd bytes, its last IRQ %u (%d, \"%s\")",
	      len, last, err, kstat_last_error(h));
	q.nr_irqs = 16383;
	CHECK(kstat_get_send(h, &q) == -ERANGE, "16,383: refused (-ERANGE)");
	if (err)
		return;
	fake_get_answer(&k, FAMILY, nlh->nlmsg_seq, 1, 1);
	while ((err = kstat_get_recv(h, &s)) == -EAGAIN)
		;
	kstat_sample_free(s);
}

int main(void)
{
	uint32_t port;

	if (fake_open(&k) || kstat_open_peer(&h, NETLINK_USERSOCK, k.port,
					     FAMILY, &port)) {
		printf("not ok - a handle on a fake kernel\n");
		return 1;
	}
	k.peer = port;
	CHECK(kstat_family_id(h) == FAMILY && kstat_fd(h) >= 0,
	      "a handle on a fake kernel");
	test_query();
	kstat_set_timeout(h, 2000);
	test_config();
	test_timeout();
	test_irq_list_long();
	kstat_close(h);
	close(k.fd);
	return unit_exit();
}
