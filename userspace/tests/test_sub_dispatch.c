// SPDX-License-Identifier: GPL-2.0
/*
 * kstat_sub_dispatch() returns after a bounded number of messages even
 * when more are queued, and leaves the descriptor readable for the rest:
 * an event loop's other descriptors are served under a steady flow of
 * samples (kstat top's keys went unread for 90 s on the debug kernel when
 * it read until EAGAIN).  Nothing is lost on the way.  The subscription
 * reads a NETLINK_USERSOCK socket, sent hand-made summaries from another.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "summary_msg.h"

#define QUEUED		40	/* one batch of one sample each */
#define READS_MAX	KSTAT_SUB_DISPATCH_READS

static int send_to(int fd, uint32_t port, const struct msg *m)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = port };

	return sendto(fd, m->buf, m->nlh.nlmsg_len, 0,
		      (struct sockaddr *)&to, sizeof(to)) < 0 ? -errno : 0;
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

int main(void)
{
	struct seen w;
	struct kstat_sub *sub = synced_sub(&w);	/* expects seq 10 */
	int fd, err = 0, n, calls = 0, total = 0, first = -1, bounded = 1, before;
	uint32_t port = 0;
	struct msg m;
	uint64_t s;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_USERSOCK);
	CHECK(fd >= 0, "a NETLINK_USERSOCK socket to send from (%s)",
	      fd < 0 ? strerror(errno) : "ok");
	err = sub ? kstat_sub_connect(sub, NETLINK_USERSOCK, &port) : -ENOMEM;
	CHECK(!err && port, "the subscription reads a NETLINK_USERSOCK socket (port %u)",
	      port);
	if (fd < 0 || err)
		return unit_exit();
	for (s = 10; s < 10 + QUEUED && !err; s++) {
		msg_start(&m, s, 0, 1);
		piece(&m, s, 0);
		err = send_to(fd, port, &m);
	}
	CHECK(!err, "%d messages queued (%s)", QUEUED, strerror(-err));
	before = w.samples;	/* synced_sub's batch 6..9 */

	/* Each call reads at most READS_MAX; until all are read, more is left. */
	do {
		n = kstat_sub_dispatch(sub);
		if (n < 0)
			break;
		if (first < 0)
			first = n;
		if (n > READS_MAX || (total + n < QUEUED && !readable(kstat_sub_fd(sub))))
			bounded = 0;
		total += n;
	} while (n > 0 && ++calls < 100);
	CHECK(n == 0, "the last dispatch found nothing more (returned %d)", n);
	CHECK(first == READS_MAX, "the first dispatch delivered %d of %d queued samples (%d expected)",
	      first, QUEUED, READS_MAX);
	CHECK(bounded, "no dispatch delivered more than %d, and the fd stayed readable while samples were left",
	      READS_MAX);
	CHECK(total == QUEUED && w.samples - before == QUEUED && w.lost == 0,
	      "all %d samples delivered, none lost (got %d in %d calls, lost %llu)",
	      QUEUED, total, calls, (unsigned long long)w.lost);
	CHECK(w.samples == before + QUEUED && w.delivered_seq[before] == 10 &&
	      w.delivered_seq[before + QUEUED - 1] == 10 + QUEUED - 1,
	      "in order: seq 10 first, %d last", 10 + QUEUED - 1);
	CHECK(!readable(kstat_sub_fd(sub)), "nothing left to read");
	close(fd);
	kstat_unsubscribe(sub);
	return unit_exit();
}
