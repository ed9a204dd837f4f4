// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: GET.  A query becomes one GET dump (one reading, however many
 * messages); its replies go through the one parser into a sample.  The
 * request is sent by kstat_get_send() and read without blocking by
 * kstat_get_recv(), so an event loop can poll kstat_fd(); kstat_get()
 * does both, waiting at most the handle's timeout.
 */
#include <stdlib.h>

#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

#define ALL_SECTIONS (KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ)

/* An IRQ list's longest: what one attribute's 16-bit length holds. */
#define IRQ_LIST_MAX	((UINT16_MAX - NLA_HDRLEN) / sizeof(uint32_t))

static int u32_or_unset(int64_t v)
{
	return v >= -1 && v <= UINT32_MAX;
}

/* The caller's query into @in (NULL: everything), checked. */
static int query_take(struct kstat_handle *h, const struct kstat_query *q,
		      struct kstat_query *in)
{
	struct kstat_query all = KSTAT_QUERY_INIT;
	int err;

	if (!q) {
		*in = all;
		return 0;
	}
	err = kstat_copy_in(in, sizeof(*in), q, q->size, KSTAT_QUERY_SIZE_2_0);
	if (err == -EINVAL)
		kstat_set_error(h, "struct kstat_query of %zu bytes is too small: start from KSTAT_QUERY_INIT",
				q->size);
	else if (err)
		kstat_set_error(h, "struct kstat_query has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				q->size, sizeof(*in));
	else if (!u32_or_unset(in->irq_first) || !u32_or_unset(in->irq_last) ||
		 !u32_or_unset(in->cpu_first) || !u32_or_unset(in->cpu_last) ||
		 (in->nr_irqs && !in->irqs))
		err = -EINVAL;
	else if (in->nr_irqs > IRQ_LIST_MAX)
		err = -ERANGE;
	if (err == -EINVAL && !h->errmsg[0])
		kstat_set_error(h, "struct kstat_query: an IRQ or CPU id out of range (-1 for none, else 0 .. 2^32 - 1), or nr_irqs without irqs");
	else if (err == -ERANGE)
		kstat_set_error(h, "an IRQ list of %zu IRQs: at most %zu fit one request",
				in->nr_irqs, (size_t)IRQ_LIST_MAX);
	return err;
}

struct nl_msg *kstat_get_msg(int family, const struct kstat_query *q)
{
	/* six u32 attributes and the list */
	size_t attrs = 6 * nla_total_size(sizeof(uint32_t)) +
		       nla_total_size(q->nr_irqs * sizeof(uint32_t));
	struct nl_msg *msg = kstat_msg_len(family, NLM_F_DUMP, KSTAT_CMD_GET,
					   attrs);

	if (msg &&
	    ((q->sections && nla_put_u32(msg, KSTAT_A_SECTIONS, q->sections)) ||
	     (q->flags && nla_put_u32(msg, KSTAT_A_FLAGS, q->flags)) ||
	     (q->cpu_first >= 0 &&
	      nla_put_u32(msg, KSTAT_A_CPU_FIRST, q->cpu_first)) ||
	     (q->cpu_last >= 0 &&
	      nla_put_u32(msg, KSTAT_A_CPU_LAST, q->cpu_last)) ||
	     (q->irq_first >= 0 &&
	      nla_put_u32(msg, KSTAT_A_IRQ_FIRST, q->irq_first)) ||
	     (q->irq_last >= 0 &&
	      nla_put_u32(msg, KSTAT_A_IRQ_LAST, q->irq_last)) ||
	     (q->irqs && nla_put(msg, KSTAT_A_IRQ_LIST,
				 q->nr_irqs * sizeof(uint32_t), q->irqs)))) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static struct kstat_build *get_build(const struct kstat_query *q)
{
	struct kstat_build *b = kstat_build_new();

	if (b)
		kstat_build_reset(b, q->cpu_first > 0 ? q->cpu_first : 0,
				  q->sections ? q->sections : ALL_SECTIONS);
	return b;
}

int kstat_get_send(struct kstat_handle *h, const struct kstat_query *q)
{
	struct kstat_query in;
	struct kstat_build *b;
	int err;

	h->errmsg[0] = '\0';
	err = query_take(h, q, &in);
	if (err)
		return err;
	b = get_build(&in);
	err = kstat_request_send(h, b ? kstat_get_msg(h->family, &in) : NULL,
				 &h->get_seq);
	if (err) {
		kstat_build_free(b);
		return err;
	}
	h->get = b;
	return 0;
}

static int build_fn(const struct nlmsghdr *nlh, void *b)
{
	return kstat_build_msg(b, nlh);
}

int kstat_get_recv(struct kstat_handle *h, struct kstat_sample **out)
{
	struct kstat_build *b = h->get;
	ssize_t n;
	int err;

	*out = NULL;
	h->errmsg[0] = '\0';
	if (!b) {
		kstat_set_error(h, "no GET in flight: kstat_get_send() first");
		return -EINVAL;
	}
	do {
		n = kstat_recv(h->sk, &h->buf);
		if (n == -EAGAIN)
			return -EAGAIN;
		err = n < 0 ? (n == -ENOBUFS ? 0 : (int)n) :
			      kstat_answer(h, n, h->get_seq, 1, build_fn, b);
	} while (!err);
	h->get = NULL;
	if (err > 0)
		err = kstat_build_finish(b);
	if (err < 0) {
		if (!h->errmsg[0])
			kstat_set_error(h, "netlink: %s", strerror(-err));
		kstat_build_free(b);
		return err;
	}
	b->s.from_get = 1;
	*out = &b->s;
	return 0;
}

int kstat_get(struct kstat_handle *h, const struct kstat_query *q,
	      struct kstat_sample **out)
{
	int64_t deadline = kstat_deadline(h->timeout_ms);
	int err = kstat_get_send(h, q);

	*out = NULL;
	while (!err) {
		err = kstat_get_recv(h, out);
		if (err != -EAGAIN)
			break;
		err = kstat_poll(nl_socket_get_fd(h->sk), deadline, 1);
	}
	if (err == -ETIMEDOUT || err == -EINTR) {
		/* given up: what comes of it is drained before the next */
		kstat_build_free(h->get);
		h->get = NULL;
		if (err == -EINTR)
			kstat_set_error(h, "interrupted by a signal");
		else
			kstat_set_error(h, "no answer from the kstat module in %d ms",
					h->timeout_ms);
	}
	return err;
}
