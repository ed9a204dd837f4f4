// SPDX-License-Identifier: GPL-2.0
/*
 * The library's waits and reads: a timeout of 0 polls once (an answer
 * queued already is not a timeout); an overrun that fails the take of a
 * message kstat_recv() peeked at is -ENOBUFS, and the message comes at
 * the next call (recv() is ours here, to make that race happen).  A
 * signal ends kstat_get() and kstat_sub_loop() with -EINTR, so that a
 * program can quit on Ctrl-C.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "unit.h"
#include "fake_kernel.h"

static struct fake k;
static struct kstat_handle *h;
static int take_enobufs;	/* the next take fails with ENOBUFS */

/* The library's recv(): its takes (NULL, MSG_TRUNC) may fail on demand. */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	if (take_enobufs && !buf && (flags & MSG_TRUNC)) {
		take_enobufs = 0;
		errno = ENOBUFS;
		return -1;
	}
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

static void test_poll_zero(void)
{
	int sv[2], err;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		exit(1);
	err = kstat_poll(sv[0], kstat_deadline(0), 0);
	CHECK(err == -ETIMEDOUT, "timeout 0, nothing queued: -ETIMEDOUT (%d)", err);
	if (write(sv[1], "x", 1) != 1)
		exit(1);
	err = kstat_poll(sv[0], kstat_deadline(0), 0);
	CHECK(err == 0, "timeout 0, data queued: ready, not -ETIMEDOUT (%d)", err);
	err = kstat_poll(sv[0], kstat_deadline(-1), 0);
	CHECK(err == 0, "no timeout, data queued: ready (%d)", err);
	close(sv[0]);
	close(sv[1]);
}

static void test_recv_take(void)
{
	struct msg m;
	ssize_t n;

	sample_msg(&m, 1, 10, 1);
	fake_send(&k, &m, 0);
	take_enobufs = 1;
	n = kstat_recv(h->sk, &h->buf);
	CHECK(n == -ENOBUFS, "an overrun between peek and take: -ENOBUFS (%zd)", n);
	n = kstat_recv(h->sk, &h->buf);
	CHECK(n == (ssize_t)m.nlh.nlmsg_len,
	      "the message peeked at comes at the next call (%zd)", n);
	n = kstat_recv(h->sk, &h->buf);
	CHECK(n == -EAGAIN, "then nothing (%zd)", n);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* SIGALRM in @ms, caught by a handler that does nothing. */
static void alarm_in(int ms)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_sec = ms / 1000,
					      .tv_usec = ms % 1000 * 1000 } };

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;	/* poll() is never restarted */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static int64_t ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void test_get_eintr(void)
{
	struct kstat_sample *s = NULL;
	struct timespec t0;
	struct req r[4];
	int64_t took;
	int err;

	kstat_set_timeout(h, 3000);
	alarm_in(200);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = kstat_get(h, NULL, &s);	/* the fake never answers */
	took = ms_since(&t0);
	CHECK(err == -EINTR && !s && took < 2000 &&
	      strstr(kstat_last_error(h), "signal"),
	      "a signal ends kstat_get(): %d after %lld ms, \"%s\"", err,
	      (long long)took, kstat_last_error(h));
	fake_requests(&k, r, 4);
	err = kstat_get_send(h, NULL);
	CHECK(!err, "the GET was given up: the next may be sent (%d)", err);
	fake_requests(&k, r, 4);
	kstat_close(h);
	h = NULL;
}

static struct fake sk;

/* A sample after 1.5 s: kstat_sub_loop() returns by then at the latest. */
static void *late_sample(void *arg)
{
	struct msg m;

	(void)arg;
	usleep(1500 * 1000);
	sample_msg(&m, 1, 10, 1);
	fake_send(&sk, &m, 0);
	return NULL;
}

static void test_loop_eintr(void)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub;
	struct timespec t0;
	struct req r[4];
	struct seen w;
	pthread_t t;
	int err, n;

	o.fields = KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU;
	o.sections = KSTAT_SECTION_IRQ;
	sub = fake_sub(&sk, &w, &o, 1);
	n = sub ? fake_requests(&sk, r, 4) : 0;
	if (!req_find(r, n, FAMILY, KSTAT_CMD_GET))
		exit(1);
	fake_get_answer(&sk, FAMILY, req_find(r, n, FAMILY, KSTAT_CMD_GET)->seq,
			5, 0);
	w.break_at = 2;		/* the state, then the late sample */
	pthread_create(&t, NULL, late_sample, NULL);
	alarm_in(200);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = kstat_sub_loop(sub);
	CHECK(err == -EINTR && ms_since(&t0) < 1000,
	      "a signal ends kstat_sub_loop(): %d after %lld ms", err,
	      (long long)ms_since(&t0));
	pthread_join(t, NULL);
	kstat_unsubscribe(sub);
	close(sk.fd);
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
	test_poll_zero();
	test_recv_take();
	test_get_eintr();
	close(k.fd);
	test_loop_eintr();
	return unit_exit();
}
