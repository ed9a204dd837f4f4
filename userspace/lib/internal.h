/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libkstat internals: shared by the library's files and its unit tests. */
#ifndef LIBKSTAT_INTERNAL_H
#define LIBKSTAT_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <linux/netlink.h>

#include "libkstat.h"

/* The protocol this library reads: every module from this version on. */
#define KSTAT_PROTOCOL_BASE	5
#define KSTAT_TIMEOUT_DEFAULT	10000	/* ms */
/* Messages one kstat_sub_dispatch() reads at most (libkstat.h). */
#define KSTAT_SUB_DISPATCH_READS	16
/* Overruns in a row, without a sample, that end a subscription. */
#define KSTAT_SUB_FUTILE_OVERRUNS	8

#define offsetofend(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * The 2.0 size of each struct passed with its size: the end of its last
 * 2.0 member.  A caller's struct is never smaller; these stay when the
 * structs grow.
 */
#define KSTAT_QUERY_SIZE_2_0	offsetofend(struct kstat_query, cpu_last)
#define KSTAT_SUB_OPTS_SIZE_2_0	offsetofend(struct kstat_sub_opts, rcvbuf)
#define KSTAT_SUB_OPS_SIZE_2_0	offsetofend(struct kstat_sub_ops, warning)
#define KSTAT_CONFIG_SIZE_2_0	offsetofend(struct kstat_config, netns)
#define KSTAT_LIMITS_SIZE_2_0	offsetofend(struct kstat_limits, max_subscriptions)
#define KSTAT_STATS_SIZE_2_0	offsetofend(struct kstat_stats, listening)

/*
 * A caller's struct of @size bytes into ours (@ours bytes, zeroed first):
 * -EINVAL below @min, -E2BIG when bytes past ours are set or @size is
 * past KSTAT_COPY_IN_MAX.
 */
#define KSTAT_COPY_IN_MAX	4096
int kstat_copy_in(void *dst, size_t ours, const void *src, size_t size,
		  size_t min);
/* Ours into the caller's: what fits, the rest of theirs zeroed. */
void kstat_copy_out(void *dst, size_t size, const void *src, size_t ours);

/* ---- errors ---- */

void kstat_set_error(struct kstat_handle *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The thread's kstat_open_error() text ("" to clear: fmt NULL). */
void kstat_set_open_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* 0 for a module of protocol @version this library reads, else -EPROTO
 * with the refusal (what to install) in @buf. */
int kstat_version_text(unsigned int version, char *buf, size_t len);
/* The kernel's extended ACK text in an NLMSG_ERROR or NLMSG_DONE, or NULL. */
const char *kstat_extack(const struct nlmsghdr *nlh);

/* ---- attributes ---- */

static inline int kattr_ok(const struct nlattr *a, int rem)
{
	return rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem;
}

static inline const struct nlattr *kattr_next(const struct nlattr *a, int *rem)
{
	*rem -= NLA_ALIGN(a->nla_len);
	return (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
}

#define kattr_type(a)	((a)->nla_type & NLA_TYPE_MASK)
#define kattr_len(a)	((int)(a)->nla_len - NLA_HDRLEN)
#define kattr_data(a)	((const void *)((const char *)(a) + NLA_HDRLEN))

/* Every attribute at @head, @len bytes; rem ends <= 0 when they tile it. */
#define kattr_for_each(pos, head, len, rem)				\
	for (pos = (head), rem = (len); kattr_ok(pos, rem);		\
	     pos = kattr_next(pos, &(rem)))
#define kattr_for_each_nested(pos, nest, rem)				\
	kattr_for_each(pos, (const struct nlattr *)kattr_data(nest),	\
		       kattr_len(nest), rem)

/* A fixed-size attribute into @v: -EBADMSG when its length is not. */
static inline int kattr_get(const struct nlattr *a, void *v, size_t size)
{
	if (kattr_len(a) != (int)size)
		return -EBADMSG;
	memcpy(v, kattr_data(a), size);
	return 0;
}

/* A NUL-terminated string attribute, or NULL. */
static inline const char *kattr_str(const struct nlattr *a)
{
	return kattr_len(a) > 0 &&
	       memchr(kattr_data(a), '\0', kattr_len(a)) ? kattr_data(a) : NULL;
}

/* The attributes of a genl message: 0, or -EBADMSG when they do not tile. */
int kstat_msg_attrs(const struct nlmsghdr *nlh, const struct nlattr **head,
		    int *len);

/* ---- messages ---- */

struct kstat_buf {
	char *p;
	size_t cap;
};

/*
 * One whole skb from @sk into @b (grown to fit), without blocking, from
 * its peer only (the kernel): its length, or -errno (-EAGAIN: nothing
 * queued, -ENOBUFS: the socket overran).
 */
struct nl_sock;
ssize_t kstat_recv(struct nl_sock *sk, struct kstat_buf *b);

/* What nlctrl says of a family. */
struct kstat_family {
	int id;
	unsigned int version;
	int group;		/* the multicast group asked for, -1: none */
};

/*
 * nlctrl's NEWFAMILY / DELFAMILY message (or GETFAMILY answer) about
 * family @name into @f, looking for its group @grp: 1, or 0 when it is
 * about another family.
 */
int kstat_ctrl_parse(const struct nlmsghdr *nlh, const char *name,
		     const char *grp, struct kstat_family *f);
/* Send nlctrl's GETFAMILY of @name on @sk: its seq in *@seq; 0 or -errno. */
int kstat_ctrl_ask(struct nl_sock *sk, const char *name, uint32_t *seq);
/*
 * Ask nlctrl about family @name (and its group @grp) on @sk, waiting at
 * most @timeout_ms; its NEWFAMILY is an answer too, other messages read
 * meanwhile are dropped.  0, -ENOENT when it is not registered,
 * -ETIMEDOUT, -EINTR or -errno.
 */
int kstat_ctrl_lookup(struct nl_sock *sk, struct kstat_buf *b, const char *name,
		      const char *grp, int timeout_ms, struct kstat_family *f);
/* NETLINK_EXT_ACK and NETLINK_CAP_ACK on @sk. */
int kstat_socket_setup(struct nl_sock *sk);
/* Send @msg (freed): its nlmsg_seq in *@seq; 0 or -errno. */
struct nl_msg;
int kstat_send(struct nl_sock *sk, struct nl_msg *msg, uint32_t *seq);
/* A genl request of @cmd to @family with @flags, or NULL. */
struct nl_msg *kstat_msg(int family, int flags, uint8_t cmd);
/* The same, with room for @attrs bytes of attributes (a page at least). */
struct nl_msg *kstat_msg_len(int family, int flags, uint8_t cmd, size_t attrs);
/* The KSTAT_A_CONFIG nest of @fields of @c; -EMSGSIZE. */
int kstat_put_config(struct nl_msg *msg, const struct kstat_config *c,
		     unsigned int fields);
/* A CONFIG_GET answer's config nest into @c; 0, -ENOENT or -EBADMSG. */
int kstat_parse_config(const struct nlmsghdr *nlh, struct kstat_config *c);

/* ---- building a sample (parse.c) ---- */

/* A growable array of elements of a fixed size. */
struct kstat_arr {
	void *p;
	size_t nr, cap;
};

/*
 * A sample being read, from one or more messages: the public struct
 * first (what kstat_sample_free() gets), then its arrays as they grow.
 * Pointers into the pool are kept as offsets + 1 until the end, when
 * kstat_build_finish() turns them into pointers.
 */
struct kstat_build {
	struct kstat_sample s;
	struct kstat_cputime total;
	struct kstat_arr cpus, irqs, metas, arch, softirqs;
	struct kstat_arr pool;		/* per-CPU lists, strings, actions */
	struct kstat_arr unread;	/* arch_unread, joined */
	size_t online_off;		/* + 1, 0: none yet */
	uint32_t sections;		/* asked for (GET): carried even empty */
};

struct kstat_build *kstat_build_new(void);
/* Empty @b for a new sample, per-CPU ids from @cpu_first. */
void kstat_build_reset(struct kstat_build *b, uint32_t cpu_first,
		       uint32_t sections);
/*
 * The objects of one message (a GET reply or a SUMMARY_NTF part) into
 * @b: 0, or -EBADMSG (unknown attributes are skipped).
 */
int kstat_build_msg(struct kstat_build *b, const struct nlmsghdr *nlh);
/* The sample is whole: pointers set, IRQ descriptions merged. */
int kstat_build_finish(struct kstat_build *b);
void kstat_build_free(struct kstat_build *b);

/* ---- the handle (libkstat.c) ---- */

struct kstat_handle {
	struct nl_sock *sk;
	int family;
	unsigned int version;
	int timeout_ms;
	struct kstat_buf buf;		/* whole skbs are read here */
	struct kstat_build *get;	/* the GET in flight, or NULL */
	uint32_t get_seq;
	char errmsg[256];
};

/* A deadline @timeout_ms from now (-1: none), for kstat_poll(). */
int64_t kstat_deadline(int timeout_ms);
/* Until @fd is readable: 0, -ETIMEDOUT, or -EINTR (when @eintr). */
int kstat_poll(int fd, int64_t deadline, int eintr);
/* Send @msg (freed) as the handle's request: -EBUSY during a GET. */
int kstat_request_send(struct kstat_handle *h, struct nl_msg *msg,
		       uint32_t *seq);
/*
 * The messages of the @len bytes read that answer @seq, each reply to
 * @fn: 1 when the answer is whole (a do's reply, an ACK, a dump's
 * NLMSG_DONE), 0 for more, -errno (the kernel's text in the handle).
 */
int kstat_answer(struct kstat_handle *h, size_t len, uint32_t seq, int dump,
		 int (*fn)(const struct nlmsghdr *, void *), void *arg);
/* Send @msg and wait for its answer (a do, or an ACK), at most the timeout. */
int kstat_request(struct kstat_handle *h, struct nl_msg *msg,
		  int (*fn)(const struct nlmsghdr *, void *), void *arg);

/* A GET dump of what @q selects (get.c), or NULL. */
struct nl_msg *kstat_get_msg(int family, const struct kstat_query *q);

/* ---- test hooks (not exported: tests link libkstat.a) ---- */

/*
 * A handle on a socket of netlink @protocol whose requests go to port
 * @peer, family @family (tests play the kernel on NETLINK_USERSOCK).
 */
int kstat_open_peer(struct kstat_handle **hp, int protocol, uint32_t peer,
		    int family, uint32_t *port);
/* A subscription without a socket, fed messages by kstat_sub_feed(). */
struct kstat_sub *kstat_sub_alloc(const struct kstat_sub_ops *ops,
				  const struct kstat_sub_opts *opts, void *arg);
/* One message, as the dispatch would read it: 0 or -errno. */
int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh);
/* Its socket, non-blocking, on @protocol; requests to @peer; *@port ours. */
int kstat_sub_connect(struct kstat_sub *sub, int protocol, uint32_t peer,
		      uint32_t *port);
/* Start on family @f: join, SUBSCRIBE, GET (as kstat_subscribe() does). */
int kstat_sub_start(struct kstat_sub *sub, const struct kstat_family *f);

#endif
