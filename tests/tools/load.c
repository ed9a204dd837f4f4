// SPDX-License-Identifier: GPL-2.0
/*
 * nlraw load: what any user may make kstat do, at scale.
 *
 * "nlraw subscribe-storm RATE SECONDS [WORKERS]": WORKERS processes
 * (default 2), each with a socket joined to "summary", send SUBSCRIBE
 * (the default stream: no config) with an ACK asked for, RATE a second
 * between them, paced on a grid (a late one goes at once, none is
 * skipped), and read everything that comes back.  A SUBSCRIBE is
 * handled in its sendmsg() and reads no counters, so the rate reached
 * says how long each took.  Prints
 *   storm: sent N in S.SS s (R/s), acked A, failed F, overruns O
 * and, for a failure, its errno and extended-ACK message.  Exit 0 when
 * no SUBSCRIBE was refused (answers lost to this socket's own full
 * queue, the overruns, are no refusal).
 *
 * "nlraw netns-subscribe N SECONDS": N processes each unshare a user and
 * a network namespace, open a generic netlink socket there and hand it
 * over (SCM_RIGHTS); this process joins each to "summary", sends
 * SUBSCRIBE from it, then reads all of them for SECONDS.  Prints
 *   netns: N namespaces, A subscribed, R refused
 *   refused: ERRNO MESSAGE          (the first refusal, if any)
 *   messages: subscribed min MIN max MAX, refused max RMAX
 * Exit 0 when every namespace could be made and every SUBSCRIBE was
 * answered (acknowledged or refused).  "... own MS": each socket asks
 * for a subscription of its own instead (config interval MS, sections
 * irq), joining no group.  Outside the initial network namespace kstat
 * answers only when the admin set config netns (EPERM otherwise); a user
 * without CAP_NET_ADMIN has at most limits max-subscriptions of its own
 * (EUSERS).
 *
 * "nlraw sub-race SECONDS": one socket, shared by two child processes,
 * one sending SUBSCRIBE with a config of its own (250 ms, irq) and the
 * other UNSUBSCRIBE, as fast as they can, for SECONDS, while this
 * process reads whatever comes (answers and samples).  genetlink runs
 * kstat's requests in parallel (parallel_ops), so an UNSUBSCRIBE may
 * free the subscription a SUBSCRIBE is still setting up.  Prints
 *   race: subscribe N, unsubscribe M in S.SS s
 * Exit 0 when the socket is still served afterwards: a SUBSCRIBE and an
 * UNSUBSCRIBE, each acknowledged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/kstat.h>

#include "nl.h"
#include "nlraw.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define ANSWER_MS	10000	/* for an answer that must come */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Join @sock to "summary" with a receive buffer as large as allowed. */
static int join(struct mnl_socket *sock, uint32_t grp)
{
	int rcvbuf = 4 << 20;

	setsockopt(mnl_socket_get_fd(sock), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		   sizeof(rcvbuf));
	return mnl_socket_setsockopt(sock, NETLINK_ADD_MEMBERSHIP, &grp,
				     sizeof(grp));
}

/* SUBSCRIBE; with @own_ms, a subscription of one's own at that interval. */
static int send_subscribe_cfg(struct mnl_socket *sock, uint32_t seq,
			      uint32_t own_ms)
{
	char msg[128];
	struct nlmsghdr *nlh = kstat_msg_put(msg, KSTAT_CMD_SUBSCRIBE,
					     NLM_F_ACK);
	struct nlattr *nest;

	nlh->nlmsg_seq = seq;
	if (own_ms) {
		nest = mnl_attr_nest_start(nlh, KSTAT_A_CONFIG);
		mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_INTERVAL_MS, own_ms);
		mnl_attr_put_u32(nlh, KSTAT_A_CONFIG_SECTIONS,
				 KSTAT_SECTION_IRQ);
		mnl_attr_nest_end(nlh, nest);
	}
	return mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ? -errno : 0;
}

static int send_subscribe(struct mnl_socket *sock, uint32_t seq)
{
	return send_subscribe_cfg(sock, seq, 0);
}

/* ---- subscribe-storm ---- */

struct storm_counts {
	unsigned long sent, acked, failed, overruns;
	int err;		/* the first failure's errno */
	char msg[256];		/* and its extended ACK */
};

/* Count the answers in one datagram: ACKs and errors of our requests. */
static void storm_scan(const char *data, int n, uint32_t portid,
		       struct storm_counts *c)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)data;
	const struct nlmsgerr *e;

	for (; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
		if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_pid != portid)
			continue;
		e = mnl_nlmsg_get_payload(nlh);
		if (!e->error) {
			c->acked++;
			continue;
		}
		if (!c->failed++)
			c->err = -e->error;
	}
}

/* Read what comes on @sock until @until (now_s()); at least once. */
static void storm_drain(struct mnl_socket *sock, struct storm_counts *c,
			double until)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(sock), .events = POLLIN };
	uint32_t portid = mnl_socket_get_portid(sock);
	double left;
	int n;

	do {
		left = until - now_s();
		if (poll(&pfd, 1, left > 0 ? (int)(left * 1000) : 0) <= 0)
			continue;
		n = recv(pfd.fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS)
			c->overruns++;
		else if (n > 0)
			storm_scan(buf, n, portid, c);
	} while (now_s() < until);
}

static void storm_worker(double rate, double secs, uint32_t grp, int out)
{
	struct storm_counts c = { 0 };
	struct mnl_socket *sock = nl_open();
	double start = now_s(), next = start;
	struct answer ans;

	if (!sock || join(sock, grp))
		_exit(3);
	/* The first one alone, for its extended ACK if it fails. */
	if (send_subscribe(sock, 1) || wait_answer(sock, 1, &ans, ANSWER_MS) ||
	    ans.kind != ANS_ERROR || ans.err) {
		c.err = ans.err;
		c.failed = 1;
		snprintf(c.msg, sizeof(c.msg), "%s", ans.msg);
		if (write(out, &c, sizeof(c)) != sizeof(c))
			_exit(3);
		_exit(1);
	}
	c.sent = c.acked = 1;
	while (now_s() < start + secs) {
		next += 1 / rate;
		storm_drain(sock, &c, next);
		if (!send_subscribe(sock, ++c.sent))
			continue;
		c.failed++;
		c.err = c.err ?: errno;
	}
	storm_drain(sock, &c, now_s() + 0.5);
	if (write(out, &c, sizeof(c)) != sizeof(c))
		_exit(3);
	_exit(0);
}

static int subscribe_storm(double rate, double secs, int workers)
{
	struct storm_counts sum = { 0 }, c;
	double start = now_s(), took;
	int fds[2], i, status, bad = 0;
	uint32_t grp = summary_group();

	if (!grp || rate <= 0 || workers < 1 || pipe(fds))
		return 2;
	for (i = 0; i < workers; i++)
		if (!fork()) {
			close(fds[0]);
			storm_worker(rate / workers, secs, grp, fds[1]);
		}
	close(fds[1]);
	for (i = 0; i < workers; i++) {
		if (read(fds[0], &c, sizeof(c)) != sizeof(c)) {
			bad = 1;
			continue;
		}
		sum.sent += c.sent;
		sum.acked += c.acked;
		sum.overruns += c.overruns;
		if (c.failed && !sum.failed) {
			sum.err = c.err;
			memcpy(sum.msg, c.msg, sizeof(sum.msg));
		}
		sum.failed += c.failed;
	}
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status) > 1;
	took = now_s() - start;
	printf("storm: sent %lu in %.2f s (%.0f/s), acked %lu, failed %lu, overruns %lu\n",
	       sum.sent, took, sum.sent / took, sum.acked, sum.failed,
	       sum.overruns);
	if (sum.failed)
		printf("failure: %s \"%s\"\n", strerror(sum.err), sum.msg);
	/* Answers our own full queue dropped (overruns) are no failure. */
	return bad ? 2 : sum.failed || !sum.acked;
}

/* ---- netns-subscribe ---- */

/* A child: a socket in a new user and network namespace, sent on @unix_fd. */
static void netns_child(int unix_fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "s", .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fd;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		fprintf(stderr, "nlraw: unshare: %s\n", strerror(errno));
		_exit(1);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		_exit(1);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	_exit(sendmsg(unix_fd, &mh, 0) == 1 ? 0 : 1);
}

/* A socket in a namespace of its own, or -1: a child sends it on @sv[1]. */
static int netns_socket(const int sv[2])
{
	char cbuf[CMSG_SPACE(sizeof(int))], c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int status, fd = -1;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		netns_child(sv[1]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	if (recvmsg(sv[0], &mh, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* Bind, join and subscribe @fd; 0 when acknowledged, else the errno. */
static int netns_subscribe_one(struct mnl_socket *sock, uint32_t grp,
			       uint32_t own_ms, struct answer *ans)
{
	int one = 1;

	if (mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    (!own_ms && join(sock, grp)))
		return errno;
	mnl_socket_setsockopt(sock, NETLINK_EXT_ACK, &one, sizeof(one));
	if (send_subscribe_cfg(sock, 1, own_ms) ||
	    wait_answer(sock, 1, ans, ANSWER_MS))
		return errno ?: EIO;
	return ans->kind == ANS_ERROR ? ans->err : EIO;
}

/* Read every socket for @secs; @msgs counts the datagrams of each. */
static void netns_read(struct pollfd *pfd, unsigned long *msgs, int n,
		       double secs)
{
	double end = now_s() + secs;
	int i;

	while (now_s() < end) {
		if (poll(pfd, n, 100) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			while (recv(pfd[i].fd, buf, sizeof(buf), MSG_DONTWAIT) > 0 ||
			       errno == ENOBUFS)
				msgs[i]++;
		}
	}
}

static int netns_subscribe(int n, double secs, uint32_t own_ms)
{
	struct mnl_socket **socks = calloc(n, sizeof(*socks));
	unsigned long *msgs = calloc(n, sizeof(*msgs));
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	int *err = calloc(n, sizeof(*err));
	unsigned long min = -1UL, max = 0, rmax = 0;
	uint32_t grp = summary_group();
	int sv[2], i, fd, acked = 0, refused = 0;
	struct answer ans, first = { 0 };

	if (!socks || !msgs || !pfd || !err || !grp ||
	    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 2;
	for (i = 0; i < n; i++) {
		fd = netns_socket(sv);
		socks[i] = fd < 0 ? NULL : mnl_socket_fdopen(fd);
		if (!socks[i]) {
			printf("netns: namespace %d could not be made\n", i);
			return 2;
		}
		err[i] = netns_subscribe_one(socks[i], grp, own_ms, &ans);
		if (!err[i]) {
			acked++;
		} else if (!refused++) {
			first = ans;
			first.err = err[i];
		}
		pfd[i].fd = mnl_socket_get_fd(socks[i]);
		pfd[i].events = POLLIN;
	}
	printf("netns: %d namespaces, %d subscribed, %d refused\n", n, acked,
	       refused);
	if (refused)
		printf("refused: %s \"%s\"\n", strerror(first.err), first.msg);
	fflush(stdout);
	netns_read(pfd, msgs, n, secs);
	for (i = 0; i < n; i++) {
		if (err[i]) {
			rmax = msgs[i] > rmax ? msgs[i] : rmax;
			continue;
		}
		min = msgs[i] < min ? msgs[i] : min;
		max = msgs[i] > max ? msgs[i] : max;
	}
	printf("messages: subscribed min %lu max %lu, refused max %lu\n",
	       acked ? min : 0, max, rmax);
	return 0;
}

/* ---- sub-race ---- */

/* Send @cmd on @sock for @secs without waiting; the count to @out. */
static void race_worker(struct mnl_socket *sock, int unsub, double secs,
			int out)
{
	double end = now_s() + secs;
	unsigned long sent = 0;
	char msg[128];
	struct nlmsghdr *nlh;
	uint32_t seq = 1 << 20;

	while (now_s() < end) {
		if (unsub) {
			nlh = kstat_msg_put(msg, KSTAT_CMD_UNSUBSCRIBE, 0);
			nlh->nlmsg_seq = seq++;
			if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) >= 0)
				sent++;
		} else if (!send_subscribe_cfg(sock, seq++, 250)) {
			sent++;
		}
	}
	_exit(write(out, &sent, sizeof(sent)) == sizeof(sent) ? 0 : 3);
}

static int sub_race(double secs)
{
	struct mnl_socket *sock = nl_open();
	struct storm_counts c = { 0 };
	unsigned long sent[2] = { 0, 0 };
	double start = now_s();
	struct answer ans;
	int fds[2], i, st, bad = 0;
	pid_t pid[2];
	char msg[128];
	struct nlmsghdr *nlh;

	if (!sock || pipe(fds))
		return 3;
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return 3;
		if (!pid[i])
			race_worker(sock, i, secs, fds[1]);
	}
	storm_drain(sock, &c, start + secs + 0.5);
	for (i = 0; i < 2; i++) {
		if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad = 1;
		if (read(fds[0], &sent[i], sizeof(sent[i])) != sizeof(sent[i]))
			bad = 1;
	}
	/* the children's counts come in either order: both are printed */
	printf("race: subscribe+unsubscribe %lu and %lu in %.2f s\n",
	       sent[0], sent[1], now_s() - start);
	storm_drain(sock, &c, now_s() + 0.5);	/* what is left queued */
	if (send_subscribe_cfg(sock, 1, 250) ||
	    wait_answer(sock, 1, &ans, ANSWER_MS) || ans.kind != ANS_ERROR ||
	    ans.err) {
		fprintf(stderr, "nlraw: SUBSCRIBE after the race not acknowledged\n");
		return 1;
	}
	nlh = kstat_msg_put(msg, KSTAT_CMD_UNSUBSCRIBE, NLM_F_ACK);
	nlh->nlmsg_seq = 2;
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ||
	    wait_answer(sock, 2, &ans, ANSWER_MS) || ans.kind != ANS_ERROR ||
	    ans.err) {
		fprintf(stderr, "nlraw: UNSUBSCRIBE after the race not acknowledged\n");
		return 1;
	}
	mnl_socket_close(sock);
	return bad ? 3 : 0;
}

int run_load(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[0], "subscribe-storm"))
		return subscribe_storm(atof(argv[1]), atof(argv[2]),
				       argc == 4 ? atoi(argv[3]) : 2);
	if (argc == 3 && !strcmp(argv[0], "netns-subscribe"))
		return netns_subscribe(atoi(argv[1]), atof(argv[2]), 0);
	if (argc == 5 && !strcmp(argv[0], "netns-subscribe") &&
	    !strcmp(argv[3], "own"))
		return netns_subscribe(atoi(argv[1]), atof(argv[2]),
				       strtoul(argv[4], NULL, 10));
	if (argc == 2 && !strcmp(argv[0], "sub-race"))
		return sub_race(atof(argv[1]));
	fprintf(stderr, "usage: nlraw subscribe-storm RATE SECONDS [WORKERS] | "
		"netns-subscribe N SECONDS [own MS] | sub-race SECONDS\n");
	return 2;
}
