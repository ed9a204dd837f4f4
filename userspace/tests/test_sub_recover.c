// SPDX-License-Identifier: GPL-2.0
/*
 * Recovering from an overrun, against a fake kernel.  While a socket
 * stays congested the kernel drops answers without a word, so a
 * subscription asks again, once its queue is empty, what is unanswered:
 * nlctrl's GETFAMILY (even one still pending) and the default stream's
 * CONFIG_GET, whose answer the state (and every sample held for it)
 * waits on.  A lookup (kstat_ctrl_lookup(), as kstat_open() and
 * kstat_wait_family() use it) asks again after an overrun, and takes the
 * family's NEWFAMILY for an answer; kstat_wait_family() ends at a signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "unit.h"
#include "fake_kernel.h"

static struct req r[64];
static char filler[500];

/* Multicast @n samples from @seq with filler: more than 8 KiB holds. */
static void flood(struct fake *k, uint64_t seq, int n)
{
	struct msg m;
	int i;

	for (i = 0; i < n; i++) {
		sample_msg(&m, seq + i, 10 + seq + i, seq + i);
		put(&m, 300, filler, sizeof(filler));
		fake_multicast(k, &m, GROUP);
	}
}

static int count(const struct req *q, int n, uint16_t type, uint8_t cmd)
{
	int c = 0;

	for (; n > 0; n--, q++)
		c += q->type == type && q->cmd == cmd;
	return c;
}

/* The default stream, its CONFIG_GET's answer lost in an overrun. */
static void test_config_lost(void)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	const struct req *q;
	struct kstat_sub *sub;
	struct fake k;
	struct seen w;
	int n, ret;

	o.rcvbuf = 8192;
	sub = fake_sub(&k, &w, &o, 1);
	n = sub ? fake_requests(&k, r, 64) : 0;
	if (!req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET))
		exit(1);
	/* the kernel answers into the full buffer: dropped, no word */
	flood(&k, 0, 100);
	ret = drain(sub);
	n = fake_requests(&k, r, 64);
	q = req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET);
	CHECK(ret == 0 && q && count(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY) == 1,
	      "the queue read after the overrun: CONFIG_GET and GETFAMILY asked again (%d, %d requests)",
	      ret, n);
	if (!q)
		exit(unit_exit());
	fake_config_answer(&k, FAMILY, q->seq, KSTAT_SECTION_IRQ, 0);
	drain(sub);
	n = fake_requests(&k, r, 64);
	q = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!q)
		exit(unit_exit());
	fake_get_answer(&k, FAMILY, q->seq, 5, 0);
	ret = drain(sub);
	CHECK(ret >= 2 && !strncmp(w.log, "G5 ", 3) && strstr(w.log, " S"),
	      "then the GET, its state and the sample held for it: \"%s\"", w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* The default stream with its state read, into 8 KiB. */
static struct kstat_sub *joined(struct fake *k, struct seen *w)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *q;
	int n;

	o.rcvbuf = 8192;
	sub = fake_sub(k, w, &o, 1);
	n = sub ? fake_requests(k, r, 64) : 0;
	q = req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET);
	if (!q || fake_config_answer(k, FAMILY, q->seq, KSTAT_SECTION_IRQ, 0) ||
	    drain(sub) < 0)
		exit(1);
	n = fake_requests(k, r, 64);
	q = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!q || fake_get_answer(k, FAMILY, q->seq, 1, 0) || drain(sub) != 1)
		exit(1);
	w->log[0] = '\0';
	return sub;
}

/* GETFAMILY's answer lost, then another overrun: asked again. */
static void test_lookup_lost(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = joined(&k, &w);
	const struct req *q;
	struct msg m;
	int n;

	flood(&k, 0, 100);
	drain(sub);
	n = fake_requests(&k, r, 64);
	CHECK(count(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY) == 1,
	      "an overrun: the family looked up (%d requests)", n);
	/* its answer never comes; another overrun */
	flood(&k, 100, 100);
	drain(sub);
	n = fake_requests(&k, r, 64);
	q = req_find(r, n, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	CHECK(q != NULL, "another overrun: looked up again, the first unanswered (%d requests)",
	      n);
	if (!q)
		exit(unit_exit());
	w.log[0] = '\0';
	ctrl_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, 5, GROUP);
	fake_send(&k, &m, q->seq);
	flood(&k, 200, 1);
	n = drain(sub);
	CHECK(n == 1 && !strcmp(w.log, "L88overrun S200 "),
	      "answered: the same family, the stream goes on; the second overrun's loss is its: \"%s\"",
	      w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* A sample short of a part after an overrun: the loss after it is a gap. */
static void test_overrun_partial(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = joined(&k, &w);
	struct msg m;
	int i;

	part_start(&m, 1, 0, 2, 100);
	fake_multicast(&k, &m, GROUP);
	for (i = 0; i < 100; i++) {	/* another family's: fills it */
		sample_msg(&m, i, 1, 1);
		put(&m, 300, filler, sizeof(filler));
		m.nlh.nlmsg_type = FAMILY + 1;
		fake_multicast(&k, &m, GROUP);
	}
	part_start(&m, 1, 1, 2, 100);	/* dropped: the overrun */
	fake_multicast(&k, &m, GROUP);
	drain(sub);
	sample_msg(&m, 2, 200, 2);
	fake_multicast(&k, &m, GROUP);
	drain(sub);
	sample_msg(&m, 5, 500, 5);	/* 3 and 4 lost, not in an overrun */
	fake_multicast(&k, &m, GROUP);
	drain(sub);
	CHECK(!strcmp(w.log, "L1partial S2 L2gap S5 "),
	      "the overrun's loss is the partial sample, a later one a gap: \"%s\"",
	      w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* PARTS past any sample's: malformed, not a buffer to size for it. */
static void test_parts_bound(void)
{
	struct seen fw;
	struct msg m;
	int err;

	if (!fed_sub(&fw))
		exit(1);
	part_start(&m, 3, 0, 1u << 30, 300);
	err = kstat_sub_feed(fw.sub, &m.nlh);
	CHECK(err == -EBADMSG, "PARTS 2^30: -EBADMSG (%d)", err);
	part_start(&m, 4, 0, 1, 400);
	err = kstat_sub_feed(fw.sub, &m.nlh);
	CHECK(!err && strstr(fw.log, "S4 "), "the next sample is taken: \"%s\"", fw.log);
	kstat_unsubscribe(fw.sub);
}

/* Samples @ts1 then @ts2 while the GET (its state at 1000) is read. */
static void held_two(uint64_t ts1, uint64_t ts2, const char *log)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *q;
	struct fake k;
	struct seen w;
	struct msg m;
	int n;

	o.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.sections = KSTAT_SECTION_IRQ;
	sub = fake_sub(&k, &w, &o, 1);
	n = sub ? fake_requests(&k, r, 64) : 0;
	q = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!q)
		exit(1);
	sample_msg(&m, 1, ts1, 1);
	fake_send(&k, &m, 0);
	sample_msg(&m, 2, ts2, 2);
	fake_send(&k, &m, 0);
	drain(sub);
	fake_get_answer(&k, FAMILY, q->seq, 1000, 0);
	drain(sub);
	CHECK(!strcmp(w.log, log) && w.lost == (log[6] == 'L'),
	      "samples at %llu and %llu during the GET: \"%s\" (expected \"%s\")",
	      (unsigned long long)ts1, (unsigned long long)ts2, w.log, log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

static void test_held_replaced(void)
{
	held_two(2000, 3000, "G1000 L1gap S2 ");
	held_two(500, 3000, "G1000 S2 ");
	held_two(500, 900, "G1000 ");
}

/* An own subscription whose GET is answered at 1: samples from seq 0. */
static struct kstat_sub *own(struct fake *k, struct seen *w, uint32_t *sub_seq)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *q;
	int n;

	o.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.sections = KSTAT_SECTION_IRQ;
	sub = fake_sub(k, w, &o, 1);
	n = sub ? fake_requests(k, r, 64) : 0;
	q = req_find(r, n, FAMILY, KSTAT_CMD_GET);
	if (!q || !req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE) ||
	    fake_get_answer(k, FAMILY, q->seq, 1, 0) || drain(sub) != 1)
		exit(1);
	*sub_seq = req_find(r, n, FAMILY, KSTAT_CMD_SUBSCRIBE)->seq;
	w->log[0] = '\0';
	return sub;
}

/* The last error is the last dispatch's: "" after one that succeeds. */
static void test_last_error(void)
{
	struct fake k;
	struct seen w;
	uint32_t seq;
	struct kstat_sub *sub = own(&k, &w, &seq);
	struct msg m;
	int ret;

	error_msg(&m, -EUSERS, seq, "too many subscriptions for this user");
	fake_send(&k, &m, seq);
	ret = kstat_sub_dispatch(sub);
	CHECK(ret == -EUSERS && kstat_sub_last_error(sub)[0],
	      "a refusal: %d, \"%s\"", ret, kstat_sub_last_error(sub));
	sample_msg(&m, 0, 10, 0);
	fake_send(&k, &m, 0);
	ret = kstat_sub_dispatch(sub);
	CHECK(ret == 1 && !kstat_sub_last_error(sub)[0],
	      "then a dispatch that delivers: %d, last error \"%s\"", ret,
	      kstat_sub_last_error(sub));
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* A malformed sample and a good one in one datagram (a batch). */
static void test_datagram(void)
{
	static char buf[2 * sizeof(struct msg)];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct fake k;
	struct seen w;
	uint32_t seq;
	struct kstat_sub *sub = own(&k, &w, &seq);
	struct msg m;
	size_t len;
	int ret;

	part_start(&m, 0, 0, 1, 10);
	put(&m, KSTAT_A_INTR_SUM, "abc", 3);	/* malformed */
	len = NLMSG_ALIGN(m.nlh.nlmsg_len);
	memcpy(buf, m.buf, len);
	sample_msg(&m, 1, 20, 1);
	memcpy(buf + len, m.buf, m.nlh.nlmsg_len);
	len += m.nlh.nlmsg_len;
	to.nl_pid = k.peer;
	sendto(k.fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to));
	ret = kstat_sub_dispatch(sub);
	CHECK(ret == -EBADMSG && !strcmp(w.log, "S1 "),
	      "one bad message of two: -EBADMSG (%d), the other read: \"%s\"",
	      ret, w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* The GET cannot be sent: the stream is not held for a state never coming. */
static void test_get_unsent(void)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	const struct req *q;
	struct fake k;
	struct seen w;
	struct msg m;
	int n, ret;

	o.fields = KSTAT_CONFIG_INTERVAL;	/* the default's sections */
	o.interval_ms = 500;
	sub = fake_sub(&k, &w, &o, 1);
	n = sub ? fake_requests(&k, r, 64) : 0;
	q = req_find(r, n, FAMILY, KSTAT_CMD_CONFIG_GET);
	if (!q)
		exit(1);
	fake_config_answer(&k, FAMILY, q->seq, KSTAT_SECTION_IRQ, 0);
	close(k.fd);		/* the GET goes nowhere: ECONNREFUSED */
	ret = drain(sub);
	sample_msg(&m, 3, 30, 3);
	kstat_sub_feed(sub, &m.nlh);
	CHECK(ret < 0 && !strcmp(w.log, "S3 "),
	      "the GET unsent: an error (%d), then the stream unheld: \"%s\"",
	      ret, w.log);
	kstat_unsubscribe(sub);
}

/* A socket of ours on the fake's nlctrl, joined to its group. */
static struct nl_sock *ctrl_sock(struct fake *k, int rcvbuf)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (fake_open(k) || !sk || nl_connect(sk, NETLINK_USERSOCK) ||
	    nl_socket_add_membership(sk, GROUP) ||
	    (rcvbuf && setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUF,
				  &rcvbuf, sizeof(rcvbuf))))
		exit(1);
	nl_socket_set_peer_port(sk, k->port);
	k->peer = nl_socket_get_local_port(sk);
	return sk;
}

static struct fake ck;
static int asked;

/* nlctrl that loses its first answer (an overrun took it). */
static void *lossy_nlctrl(void *arg)
{
	struct pollfd p = { .fd = ck.fd, .events = POLLIN };
	struct req q[8];
	struct msg m;
	int i, n;

	(void)arg;
	while (poll(&p, 1, 3000) == 1) {
		n = fake_requests(&ck, q, 8);
		for (i = 0; i < n; i++) {
			if (q[i].cmd != CTRL_CMD_GETFAMILY || ++asked < 2)
				continue;
			ctrl_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, 5, GROUP);
			fake_send(&ck, &m, q[i].seq);
			return NULL;
		}
	}
	return NULL;
}

static void test_ctrl_lookup(void)
{
	struct kstat_buf b = { 0 };
	struct kstat_family f;
	struct nl_sock *sk;
	pthread_t t;
	struct msg m;
	int err;

	/* its NEWFAMILY while we wait: the answer may never come */
	sk = ctrl_sock(&ck, 0);
	ctrl_msg(&m, CTRL_CMD_NEWFAMILY, FAMILY, 6, GROUP);
	fake_multicast(&ck, &m, GROUP);
	err = kstat_ctrl_lookup(sk, &b, KSTAT_FAMILY_NAME, KSTAT_MCGRP_SUMMARY_NAME,
				500, &f);
	CHECK(!err && f.id == FAMILY && f.version == 6 && f.group == GROUP,
	      "a lookup takes the family's NEWFAMILY for its answer (%d)", err);
	nl_socket_free(sk);
	close(ck.fd);

	/* an overrun, and the answer lost: asked again once drained */
	sk = ctrl_sock(&ck, 4096);
	flood(&ck, 0, 100);
	pthread_create(&t, NULL, lossy_nlctrl, NULL);
	err = kstat_ctrl_lookup(sk, &b, KSTAT_FAMILY_NAME, KSTAT_MCGRP_SUMMARY_NAME,
				2000, &f);
	pthread_join(t, NULL);
	CHECK(!err && asked == 2 && f.id == FAMILY,
	      "after an overrun a lookup asks again: %d, asked %d times", err, asked);
	nl_socket_free(sk);
	close(ck.fd);
	free(b.p);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void test_wait_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	int err;

	if (!kstat_wait_family(0)) {
		printf("ok - kstat_wait_family() and a signal: # SKIP the kstat module is loaded here\n");
		return;
	}
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	err = kstat_wait_family(3000);
	CHECK(err == -EINTR && strstr(kstat_open_error(), "waiting"),
	      "a signal ends kstat_wait_family(): %d, \"%s\"", err,
	      kstat_open_error());
}

int main(void)
{
	test_config_lost();
	test_lookup_lost();
	test_overrun_partial();
	test_held_replaced();
	test_last_error();
	test_datagram();
	test_get_unsent();
	test_parts_bound();
	test_ctrl_lookup();
	test_wait_eintr();
	return unit_exit();
}
