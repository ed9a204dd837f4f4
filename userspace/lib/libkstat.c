// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the connection.  A generic netlink socket to the "kstat"
 * family, found through nlctrl; errors and their texts; reading whole
 * messages; requests that wait for their answer, at most the handle's
 * timeout; waiting for the module to appear.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/genetlink.h>

#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* ---- errors ---- */

void kstat_set_error(struct kstat_handle *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
}

const char *kstat_last_error(const struct kstat_handle *h)
{
	return h ? h->errmsg : "no handle";
}

/* Why the last kstat_open() etc. of this thread failed: no handle to tell. */
static __thread char open_errmsg[256];

void kstat_set_open_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(open_errmsg, sizeof(open_errmsg), fmt, ap);
	va_end(ap);
}

const char *kstat_open_error(void)
{
	return open_errmsg;
}

/*
 * Versions 1 to 4 were another wire format; from 5 on the family only
 * adds, and the parsers skip what they do not know (docs/protocol.md,
 * "Versions").
 */
int kstat_version_text(unsigned int version, char *buf, size_t len)
{
	if (version >= KSTAT_PROTOCOL_BASE)
		return 0;
	snprintf(buf, len, "the kstat module speaks protocol version %u, this libkstat reads version %d and later: install the kstat module of this libkstat's release",
		 version, KSTAT_PROTOCOL_BASE);
	return -EPROTO;
}

/* The NLMSGERR_ATTR_MSG among the TLVs after an error's (capped) request. */
const char *kstat_extack(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t off, len = nlh->nlmsg_len - NLMSG_HDRLEN;
	const struct nlattr *a;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = sizeof(int);
	} else {
		if (len < sizeof(*e))
			return NULL;
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	off = NLMSG_ALIGN(off);
	if (off >= len)
		return NULL;
	kattr_for_each(a, (const struct nlattr *)((const char *)e + off),
		       (int)(len - off), rem)
		if (kattr_type(a) == NLMSGERR_ATTR_MSG)
			return kattr_str(a);
	return NULL;
}

/* ---- structs passed with their size ---- */

int kstat_copy_in(void *dst, size_t ours, const void *src, size_t size,
		  size_t min)
{
	const unsigned char *p = src;
	size_t i;

	if (size < min)
		return -EINVAL;
	/*
	 * No version of a struct will reach a page: a size past that is
	 * garbage (a size field never set), and checking its bytes would
	 * read past the caller's struct.
	 */
	if (size > KSTAT_COPY_IN_MAX)
		return -E2BIG;
	for (i = ours; i < size; i++)
		if (p[i])
			return -E2BIG;
	memset(dst, 0, ours);
	memcpy(dst, src, size < ours ? size : ours);
	return 0;
}

void kstat_copy_out(void *dst, size_t size, const void *src, size_t ours)
{
	memcpy(dst, src, size < ours ? size : ours);
	if (size > ours)
		memset((char *)dst + ours, 0, size - ours);
}

/* ---- messages ---- */

int kstat_msg_attrs(const struct nlmsghdr *nlh, const struct nlattr **head,
		    int *len)
{
	const struct nlattr *a;
	int rem;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	*head = (const struct nlattr *)((const char *)NLMSG_DATA(nlh) +
					GENL_HDRLEN);
	*len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	kattr_for_each(a, *head, *len, rem)
		;
	return rem > 0 ? -EBADMSG : 0;
}

/*
 * Peek at the skb's length first, so that no message is ever cut: a
 * dump's skb is at most 32 KiB unless one object needs more, a sample's
 * part as large as its largest object.  Then take it off the queue.
 * Only the kernel's (or the peer's) count: any local process may send
 * to our port, none may speak for the module.
 */
ssize_t kstat_recv(struct nl_sock *sk, struct kstat_buf *b)
{
	int fd = nl_socket_get_fd(sk);
	struct sockaddr_nl from;
	socklen_t len;
	ssize_t n, n2;
	char *p;

	for (;;) {
		len = sizeof(from);
		n = recvfrom(fd, b->p, b->cap, MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC,
			     (struct sockaddr *)&from, &len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n > b->cap) {
			p = realloc(b->p, n);
			if (!p)
				return -ENOMEM;
			b->p = p;
			b->cap = n;
			continue;
		}
		/*
		 * An overrun noted between the two reads fails the take and
		 * leaves the skb queued: say it now (the caller must learn
		 * of the loss), and the skb is read at the next call.
		 */
		while ((n2 = recv(fd, NULL, 0, MSG_DONTWAIT | MSG_TRUNC)) < 0 &&
		       errno == EINTR)
			;
		if (n2 < 0)
			return -errno;
		if (from.nl_pid == nl_socket_get_peer_port(sk))
			return n;
	}
}

int kstat_socket_setup(struct nl_sock *sk)
{
	int fd = nl_socket_get_fd(sk), one = 1, sndbuf = 128 * 1024;

	nl_socket_disable_auto_ack(sk);
	/* the kernel's error texts, and not our requests back */
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)))
		return -errno;
	/*
	 * A request must fit the send buffer: libnl's is 32 KiB, a GET of
	 * the longest IRQ list 64 KiB (else EMSGSIZE); wmem_max allows this.
	 */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	return 0;
}

/*
 * libnl's default message is a page; an IRQ list alone takes up to
 * 64 KiB (one attribute: 16,382 IRQs), so the request is sized for it.
 */
struct nl_msg *kstat_msg_len(int family, int flags, uint8_t cmd, size_t attrs)
{
	size_t size = NLMSG_HDRLEN + GENL_HDRLEN + attrs;
	struct nl_msg *msg = nlmsg_alloc_size(size > 4096 ? size : 4096);

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, KSTAT_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *kstat_msg(int family, int flags, uint8_t cmd)
{
	return kstat_msg_len(family, flags, cmd, 0);
}

int kstat_send(struct nl_sock *sk, struct nl_msg *msg, uint32_t *seq)
{
	int ret = nl_send_auto(sk, msg);

	*seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (ret >= 0)
		return 0;
	return ret == -NLE_NOMEM ? -ENOBUFS : -EIO;
}

/* Deadlines are CLOCK_MONOTONIC microseconds, so no wait is cut short. */
static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int64_t kstat_deadline(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : now_us() + timeout_ms * 1000LL;
}

/*
 * Until @fd is readable or @deadline (-1: none): 0, -ETIMEDOUT, -EINTR.
 * A deadline passed still polls once: a timeout of 0 means "what is
 * there now", and an answer queued already is not a timeout.
 */
int kstat_poll(int fd, int64_t deadline, int eintr)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t left;
	int n;

	for (;;) {
		left = deadline < 0 ? -1 : (deadline - now_us() + 999) / 1000;
		if (deadline >= 0 && left < 0)
			left = 0;
		n = poll(&p, 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (n > 0)
			return 0;
		if (n == 0 && deadline >= 0 && now_us() >= deadline)
			return -ETIMEDOUT;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n < 0 && eintr)
			return -EINTR;
	}
}

/* ---- nlctrl ---- */

static int attr_is(const struct nlattr *a, const char *str)
{
	const char *s = kattr_str(a);

	return s && !strcmp(s, str);
}

/* Group @grp's id among CTRL_ATTR_MCAST_GROUPS, or -1. */
static int ctrl_group(const struct nlattr *groups, const char *grp)
{
	const struct nlattr *g, *a;
	int rem, rem2, named, id;

	kattr_for_each_nested(g, groups, rem) {
		named = 0;
		id = -1;
		kattr_for_each_nested(a, g, rem2) {
			if (kattr_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
				named = attr_is(a, grp);
			else if (kattr_type(a) == CTRL_ATTR_MCAST_GRP_ID)
				kattr_get(a, &id, sizeof(id));
		}
		if (named)
			return id;
	}
	return -1;
}

int kstat_ctrl_parse(const struct nlmsghdr *nlh, const char *name,
		     const char *grp, struct kstat_family *f)
{
	const struct nlattr *head, *a, *groups = NULL;
	int len, rem, named = 0;
	uint16_t id = 0;

	f->id = 0;
	f->version = 0;
	if (nlh->nlmsg_type != GENL_ID_CTRL || kstat_msg_attrs(nlh, &head, &len))
		return 0;
	kattr_for_each(a, head, len, rem) {
		switch (kattr_type(a)) {
		case CTRL_ATTR_FAMILY_NAME:
			named = attr_is(a, name);
			break;
		case CTRL_ATTR_FAMILY_ID:
			kattr_get(a, &id, sizeof(id));
			break;
		case CTRL_ATTR_VERSION:
			kattr_get(a, &f->version, sizeof(f->version));
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			groups = a;
			break;
		}
	}
	f->id = id;
	f->group = groups && grp ? ctrl_group(groups, grp) : -1;
	return named;
}

int kstat_ctrl_ask(struct nl_sock *sk, const char *name, uint32_t *seq)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL,
				 0, 0, CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	return kstat_send(sk, msg, seq);
}

/*
 * A message read while asking about @name (request @seq): 0 when it
 * says the family is there (our answer, or its NEWFAMILY: a load is
 * news enough), -errno for our answer's error, 1 for anything else.
 */
static int ctrl_msg(const struct nlmsghdr *nlh, uint32_t seq, const char *name,
		    const char *grp, struct kstat_family *f)
{
	int err = -EPROTO;

	if (nlh->nlmsg_seq == seq && nlh->nlmsg_type == NLMSG_ERROR) {
		if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
			memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		return err < 0 ? err : -EPROTO;
	}
	/* the parser checked the length: the genl header is there */
	if (!kstat_ctrl_parse(nlh, name, grp, f))
		return 1;
	return nlh->nlmsg_seq == seq ||
	       ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd ==
	       CTRL_CMD_NEWFAMILY ? 0 : 1;
}

/*
 * Ask nlctrl about @name until it answers, or (@wait) until the family
 * is registered, at most @timeout_ms; a signal ends it (-EINTR).  An
 * overrun may have taken the answer, and while the socket stays
 * congested the kernel drops without a word: once the queue is empty,
 * ask again.
 */
static int ctrl_wait(struct nl_sock *sk, struct kstat_buf *b, const char *name,
		     const char *grp, int timeout_ms, int wait,
		     struct kstat_family *f)
{
	int64_t deadline = kstat_deadline(timeout_ms);
	int fd = nl_socket_get_fd(sk), again = 0, err;
	const struct nlmsghdr *nlh;
	uint32_t seq;
	ssize_t n;
	size_t len;

	err = kstat_ctrl_ask(sk, name, &seq);
	while (!err) {
		n = kstat_recv(sk, b);
		if (n == -ENOBUFS || (n == -EAGAIN && again)) {
			again = n == -ENOBUFS;
			err = again ? 0 : kstat_ctrl_ask(sk, name, &seq);
			continue;
		}
		if (n == -EAGAIN) {
			err = kstat_poll(fd, deadline, 1);
			continue;
		}
		if (n < 0)
			return n;
		nlh = (const void *)b->p;
		for (len = n; !err && NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			err = ctrl_msg(nlh, seq, name, grp, f);
			if (err == 1 || (err == -ENOENT && wait))
				err = 0;
			else if (!err)
				return 0;
		}
	}
	return err;
}

int kstat_ctrl_lookup(struct nl_sock *sk, struct kstat_buf *b, const char *name,
		      const char *grp, int timeout_ms, struct kstat_family *f)
{
	return ctrl_wait(sk, b, name, grp, timeout_ms, 0, f);
}

/* ---- the handle ---- */

static int handle_new(struct kstat_handle **hp, int protocol)
{
	struct kstat_handle *h = calloc(1, sizeof(*h));
	int err = -ENOMEM;

	*hp = h;
	if (!h)
		return err;
	h->timeout_ms = KSTAT_TIMEOUT_DEFAULT;
	h->buf.cap = 64 * 1024;
	h->buf.p = malloc(h->buf.cap);
	h->sk = nl_socket_alloc();
	if (!h->buf.p || !h->sk)
		return err;
	if (nl_connect(h->sk, protocol) < 0)
		return -EIO;
	return kstat_socket_setup(h->sk);
}

int kstat_open(struct kstat_handle **hp)
{
	struct kstat_handle *h;
	struct kstat_family f;
	int err;

	kstat_set_open_error("%s", strerror(ENOMEM));
	err = handle_new(&h, NETLINK_GENERIC);
	if (!err)
		err = kstat_ctrl_lookup(h->sk, &h->buf, KSTAT_FAMILY_NAME, NULL,
					h->timeout_ms, &f);
	if (err == -ENOENT)
		kstat_set_open_error("the kstat kernel module is not loaded (try: modprobe kstat)");
	else if (err)
		kstat_set_open_error("cannot look up the kstat family: %s",
				     strerror(-err));
	else
		err = kstat_version_text(f.version, open_errmsg,
					 sizeof(open_errmsg));
	if (err) {
		kstat_close(h);
		*hp = NULL;
		return err;
	}
	h->family = f.id;
	h->version = f.version;
	open_errmsg[0] = '\0';
	*hp = h;
	return 0;
}

int kstat_open_peer(struct kstat_handle **hp, int protocol, uint32_t peer,
		    int family, uint32_t *port)
{
	int err = handle_new(hp, protocol);

	if (err) {
		kstat_close(*hp);
		*hp = NULL;
		return err;
	}
	nl_socket_set_peer_port((*hp)->sk, peer);
	(*hp)->family = family;
	(*hp)->version = KSTAT_FAMILY_VERSION;
	*port = nl_socket_get_local_port((*hp)->sk);
	return 0;
}

void kstat_close(struct kstat_handle *h)
{
	if (!h)
		return;
	if (h->sk)
		nl_socket_free(h->sk);
	kstat_build_free(h->get);
	free(h->buf.p);
	free(h);
}

unsigned int kstat_family_version(const struct kstat_handle *h)
{
	return h->version;
}

int kstat_family_id(const struct kstat_handle *h)
{
	return h->family;
}

int kstat_fd(const struct kstat_handle *h)
{
	return nl_socket_get_fd(h->sk);
}

void kstat_set_timeout(struct kstat_handle *h, int timeout_ms)
{
	h->timeout_ms = timeout_ms < 0 ? -1 : timeout_ms;
}

/*
 * Before a request: what an abandoned one left (a dump given up on at
 * its timeout goes on as we read), so that its answer is not taken for
 * this one's, and the kernel has no dump running (EBUSY).
 */
static void handle_drain(struct kstat_handle *h)
{
	ssize_t n;

	do {
		n = kstat_recv(h->sk, &h->buf);
	} while (n >= 0 || n == -ENOBUFS);
}

int kstat_request_send(struct kstat_handle *h, struct nl_msg *msg,
		       uint32_t *seq)
{
	int err;

	if (h->get) {
		nlmsg_free(msg);
		kstat_set_error(h, "a GET is in flight on this handle: kstat_get_recv() it first");
		return -EBUSY;
	}
	if (!msg) {
		kstat_set_error(h, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	handle_drain(h);
	err = kstat_send(h->sk, msg, seq);
	if (err)
		kstat_set_error(h, "cannot send to the kernel: %s", strerror(-err));
	return err;
}

/*
 * The messages of one skb that answer @seq: each reply to @fn (NULL:
 * none expected).  1 when the answer is complete (a do's reply, an ACK,
 * an error, a dump's NLMSG_DONE), 0 for more, or -errno with the text.
 */
int kstat_answer(struct kstat_handle *h, size_t len, uint32_t seq, int dump,
		 int (*fn)(const struct nlmsghdr *, void *), void *arg)
{
	const struct nlmsghdr *nlh = (const void *)h->buf.p;
	const char *ext;
	int err;

	for (; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		if (nlh->nlmsg_seq != seq)
			continue;	/* an abandoned request's */
		if (nlh->nlmsg_type == NLMSG_ERROR ||
		    nlh->nlmsg_type == NLMSG_DONE) {
			err = 0;
			if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(err))
				memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
			if (err > 0)
				err = -EPROTO;
			ext = err ? kstat_extack(nlh) : NULL;
			if (err)
				kstat_set_error(h, "%s", ext ? ext : strerror(-err));
			return err ? err : 1;
		}
		err = fn ? fn(nlh, arg) : 0;
		if (err) {
			kstat_set_error(h, "malformed answer from the kernel: %s",
					strerror(-err));
			return err;
		}
		if (!dump)
			return 1;
	}
	return 0;
}

int kstat_request(struct kstat_handle *h, struct nl_msg *msg,
		  int (*fn)(const struct nlmsghdr *, void *), void *arg)
{
	int64_t deadline = kstat_deadline(h->timeout_ms);
	int fd, err;
	uint32_t seq;
	ssize_t n;

	h->errmsg[0] = '\0';
	err = kstat_request_send(h, msg, &seq);
	fd = nl_socket_get_fd(h->sk);
	while (!err) {
		err = kstat_poll(fd, deadline, 1);
		n = err ? err : kstat_recv(h->sk, &h->buf);
		if (n == -EAGAIN || n == -ENOBUFS)
			continue;
		err = n < 0 ? (int)n : kstat_answer(h, n, seq, 0, fn, arg);
	}
	if (err == -ETIMEDOUT)
		kstat_set_error(h, "no answer from the kstat module in %d ms",
				h->timeout_ms);
	else if (err == -EINTR)
		kstat_set_error(h, "interrupted by a signal");
	else if (err < 0 && !h->errmsg[0])
		kstat_set_error(h, "netlink: %s", strerror(-err));
	return err < 0 ? err : 0;
}

/* ---- waiting for the module ---- */

int kstat_wait_family(int timeout_ms)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct kstat_buf b = { .cap = 16384 };
	struct kstat_family f;
	int err = -ENOMEM;

	b.p = malloc(b.cap);
	if (!sk || !b.p)
		goto out;
	err = nl_connect(sk, NETLINK_GENERIC) < 0 ? -EIO : kstat_socket_setup(sk);
	/* join nlctrl's notifications first: a load from then on is told */
	if (!err)
		err = kstat_ctrl_lookup(sk, &b, "nlctrl", "notify", timeout_ms, &f);
	if (!err && (f.group < 0 || nl_socket_add_membership(sk, f.group)))
		err = -EPROTO;
	if (!err)
		err = ctrl_wait(sk, &b, KSTAT_FAMILY_NAME, NULL, timeout_ms, 1, &f);
out:
	if (err == -ETIMEDOUT)
		kstat_set_open_error("the kstat module did not appear in %d ms",
				     timeout_ms);
	else if (err)
		kstat_set_open_error("waiting for the kstat module: %s",
				     strerror(-err));
	else
		open_errmsg[0] = '\0';
	nl_socket_free(sk);
	free(b.p);
	return err;
}

/* ---- names ---- */

const char *kstat_cputime_name(enum kstat_cputime_field f)
{
	static const char *const names[KSTAT_CPUTIME_NR] = {
		"user", "nice", "system", "idle", "iowait",
		"irq", "softirq", "steal", "guest", "guest_nice",
	};

	return (unsigned int)f < KSTAT_CPUTIME_NR ? names[f] : NULL;
}

const char *kstat_lost_reason_name(enum kstat_lost_reason why)
{
	static const char *const names[] = {
		[KSTAT_LOST_GAP] = "gap", [KSTAT_LOST_OVERRUN] = "overrun",
		[KSTAT_LOST_PARTIAL] = "partial", [KSTAT_LOST_RELOAD] = "reload",
		[KSTAT_LOST_VERSION] = "version",
	};

	return (unsigned int)why < sizeof(names) / sizeof(names[0]) ?
	       names[why] : "unknown";
}
