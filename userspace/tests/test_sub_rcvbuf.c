// SPDX-License-Identifier: GPL-2.0
/*
 * The receive buffer, against a fake kernel that multicasts faster than
 * the subscription reads: an overflow (ENOBUFS) is lost(n, overrun) with
 * n the samples missed, and the family is looked up again (the overflow
 * may have taken nlctrl's news).  A buffer that cannot hold one sample
 * of the stream is said plainly: a warning with the bytes it needs, then
 * -ENOBUFS from kstat_sub_dispatch() after 8 overruns in a row.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "fake_kernel.h"

static struct req r[32];
static char filler[6000];

/* A subscription of the default stream with the state read. */
static struct kstat_sub *joined(struct fake *k, struct seen *w, int rcvbuf)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *q;
	int n;

	o.rcvbuf = rcvbuf;
	sub = fake_sub(k, w, &o, 1);
	n = sub ? fake_requests(k, r, 32) : 0;
	q = req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET);
	if (!q || fake_config_answer(k, FAMILY, q->seq, KSTAT_SECTION_IRQ, 0) ||
	    drain(sub) < 0)
		exit(1);
	n = fake_requests(k, r, 32);
	q = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!q || fake_get_answer(k, FAMILY, q->seq, 1, 0) || drain(sub) != 1)
		exit(1);
	w->log[0] = '\0';
	w->samples = 0;
	return sub;
}

static void test_overrun(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = joined(&k, &w, 8192);
	struct msg m;
	int i, ret, n;

	CHECK(kstat_sub_rcvbuf(sub) == 8192, "the buffer asked for: %d bytes",
	      kstat_sub_rcvbuf(sub));
	for (i = 0; i < 200; i++) {
		sample_msg(&m, i, 10 + i, i);
		put(&m, 300, filler, 500);
		fake_multicast(&k, &m, GROUP);
	}
	ret = drain(sub);
	sample_msg(&m, 200, 210, 200);	/* the first after the flood */
	fake_multicast(&k, &m, GROUP);
	ret += drain(sub);
	n = fake_requests(&k, r, 32);
	CHECK(ret > 1 && ret < 200 && (uint64_t)ret + w.lost == 201 &&
	      strstr(w.log, "overrun S200 ") && !strstr(w.log, "gap"),
	      "200 samples into a small buffer, then one: %d delivered, %llu lost as an overrun",
	      ret, (unsigned long long)w.lost);
	CHECK(req_find(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY) != NULL,
	      "the family is looked up again");
	kstat_unsubscribe(sub);
	close(k.fd);
}

static void test_too_small(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = joined(&k, &w, 4096);
	struct msg m;
	int i, p, ret = 0;

	for (i = 0; i < 12 && ret >= 0; i++) {
		for (p = 0; p < 3; p++) {
			part_start(&m, i, p, 3, 10 + i);
			put(&m, 300, filler, sizeof(filler));
			fake_multicast(&k, &m, GROUP);
		}
		ret = kstat_sub_dispatch(sub);
		while (ret == 0 && kstat_sub_dispatch(sub) > 0)
			;
	}
	CHECK(w.samples == 0 && strstr(w.warning, "3 messages") &&
	      strstr(w.warning, "bytes or more"),
	      "samples of 3 parts of 6 KiB into 4 KiB: a warning \"%s\"", w.warning);
	CHECK(ret == -ENOBUFS && i <= 10 &&
	      strstr(kstat_sub_last_error(sub), "cannot hold one sample") &&
	      strstr(kstat_sub_last_error(sub), "8 overruns"),
	      "then -ENOBUFS (%d) after %d samples: \"%s\"", ret, i,
	      kstat_sub_last_error(sub));
	kstat_unsubscribe(sub);
	close(k.fd);
}

int main(void)
{
	test_overrun();
	test_too_small();
	return unit_exit();
}
