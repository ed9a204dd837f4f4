// SPDX-License-Identifier: GPL-2.0
/*
 * The library's waits and reads: a timeout of 0 polls once (an answer
 * queued already is not a timeout); an overrun that fails the take of a
 * message kstat_recv() peeked at is -ENOBUFS, and the message comes at
 * the next call (recv() is ours here, to make that race happen).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

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
	kstat_close(h);
	close(k.fd);
	return unit_exit();
}
