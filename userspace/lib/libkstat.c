// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the request side.  Opens a generic netlink socket to the
 * "kstat" family, sends GET requests built from a struct kstat_filter and
 * collects the replies with the parsers in parse.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "libkstat.h"
#include "internal.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* How often a dump is retried when the IRQ set changes under it. */
#define KSTAT_DUMP_RETRIES	5

/*
 * One read takes a whole reply skb, so nothing is read twice (no
 * MSG_PEEK).  Dump skbs are at most 32 KiB, or one object where the
 * kernel says so (min_dump_alloc); a do reply is one skb of its exact
 * size.  The largest, per-CPU arrays of every softirq vector, grow with
 * the possible CPUs: KSTAT_MSG_BUF plus KSTAT_MSG_PER_CPU bytes each.
 * Should a reply still not fit, the request is read to its end and
 * made again with room for it.
 */
#define KSTAT_MSG_BUF		(64 * 1024)
#define KSTAT_MSG_PER_CPU	(16 * sizeof(uint32_t))

struct kstat_handle {
	struct nl_sock *sk;
	int family;
	unsigned int version;
	char *buf;			/* replies are read here */
	size_t buf_size;
	size_t irqs_hint;		/* IRQs in the last IRQ dump */
	size_t percpu_hint;		/* and words of its per-CPU arrays */
	char errmsg[256];
};

void kstat_set_error(struct kstat_handle *h, const char *fmt, ...)
{
	va_list ap;

	if (!h)
		return;
	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
}

/* At the start of every call that asks the kernel (kstat_last_error()). */
void kstat_clear_error(struct kstat_handle *h)
{
	if (h)
		h->errmsg[0] = '\0';
}

const char *kstat_last_error(const struct kstat_handle *h)
{
	return h ? h->errmsg : "no handle";
}

unsigned int kstat_family_version(const struct kstat_handle *h)
{
	return h->version;
}

/* libnl's codes, back to the errnos our API promises. */
static int kstat_nlerr_to_errno(int nlerr)
{
	switch (abs(nlerr)) {
	case NLE_NOMEM:		return ENOBUFS;	/* also a socket overrun */
	case NLE_DUMP_INTR:	return EINTR;
	case NLE_OBJ_NOTFOUND:	return ENOENT;
	case NLE_PERM:		return EPERM;
	case NLE_INVAL:		return EINVAL;
	case NLE_MSG_TRUNC:	return EMSGSIZE;
	case NLE_MSGTYPE_NOSUPPORT:
	case NLE_OPNOTSUPP:	return EOPNOTSUPP;
	default:		return EIO;
	}
}

/* Shared with the subscription socket, which reads SUBSCRIBE's ACK. */
int kstat_set_socket_options(struct nl_sock *sk)
{
	int fd = nl_socket_get_fd(sk), one = 1;

	/* Ask for the kernel's error text, and not for our request back. */
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one)))
		return -errno;
	return 0;
}

/*
 * The family's version is its wire format's, and it changes only when a
 * message would no longer mean what it meant (docs/protocol.md, "Wire
 * format versions"): a module that only added attributes keeps it, and
 * the parsers skip what they do not know.  A module of another version
 * would have numbers go missing without a word: refuse it, saying what
 * to install.  @who names the module in the text.
 */
int kstat_version_text(const char *who, unsigned int version, char *buf,
		       size_t len)
{
	if (version == KSTAT_FAMILY_VERSION)
		return 0;
	snprintf(buf, len, "%s speaks protocol version %u, this libkstat version %u: %s",
		 who, version, KSTAT_FAMILY_VERSION,
		 version > KSTAT_FAMILY_VERSION ?
		 "install the libkstat and kstat tools of the module's release (or load the module of this release)" :
		 "install the kstat module of this libkstat's release");
	return -EPROTO;
}

int kstat_version_check(struct kstat_handle *h, unsigned int version)
{
	char text[256];
	int err = kstat_version_text("the kstat module", version, text,
				     sizeof(text));

	if (err)
		kstat_set_error(h, "%s", text);
	return err;
}

static int kstat_resolve_family(struct kstat_handle *h)
{
	struct nl_cache *cache = NULL;
	struct genl_family *fam;
	unsigned int version;
	int err, id;

	err = genl_ctrl_alloc_cache(h->sk, &cache);
	if (err < 0) {
		kstat_set_error(h, "cannot query generic netlink: %s",
				nl_geterror(err));
		return -kstat_nlerr_to_errno(err);
	}
	fam = genl_ctrl_search_by_name(cache, KSTAT_FAMILY_NAME);
	if (!fam) {
		nl_cache_free(cache);
		kstat_set_error(h, "the kstat kernel module is not loaded (try: modprobe kstat)");
		return -ENOENT;
	}
	version = genl_family_get_version(fam);
	id = genl_family_get_id(fam);
	genl_family_put(fam);
	nl_cache_free(cache);
	err = kstat_version_check(h, version);
	if (err)
		return err;
	h->family = id;
	h->version = version;
	return 0;
}

/* How many CPUs may ever be online: the last in .../cpu/possible, + 1. */
static size_t kstat_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	unsigned int first, last = 0;
	char sep;
	int n = 0;

	if (f) {
		while ((n = fscanf(f, "%u%c", &first, &sep)) >= 1) {
			last = first;
			if (n == 1 || sep == '\n')
				break;
		}
		fclose(f);
	}
	return last + 1;
}

static int kstat_buf_resize(struct kstat_handle *h, size_t size)
{
	char *p = realloc(h->buf, size);

	if (!p)
		return -ENOMEM;
	h->buf = p;
	h->buf_size = size;
	return 0;
}

/* Why the last kstat_open() of this thread failed: the handle is gone. */
static __thread char open_errmsg[256];

const char *kstat_open_error(void)
{
	return open_errmsg;
}

int kstat_open(struct kstat_handle **hp)
{
	struct kstat_handle *h;
	int err;

	snprintf(open_errmsg, sizeof(open_errmsg), "%s", strerror(ENOMEM));
	*hp = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->sk = nl_socket_alloc();
	if (!h->sk) {
		free(h);
		return -ENOMEM;
	}
	err = genl_connect(h->sk);
	if (err < 0) {
		err = -kstat_nlerr_to_errno(err);
		goto fail;
	}
	err = kstat_set_socket_options(h->sk);
	if (!err)
		err = kstat_resolve_family(h);
	if (err)
		goto fail;
	/* A GET's reply is its own answer: ACKs only where there is none. */
	nl_socket_disable_auto_ack(h->sk);
	err = kstat_buf_resize(h, KSTAT_MSG_BUF +
			       KSTAT_MSG_PER_CPU * kstat_possible_cpus());
	if (err)
		goto fail;
	*hp = h;
	open_errmsg[0] = '\0';
	return 0;
fail:
	if (h->errmsg[0])
		snprintf(open_errmsg, sizeof(open_errmsg), "%s", h->errmsg);
	else
		snprintf(open_errmsg, sizeof(open_errmsg), "%s", strerror(-err));
	nl_socket_free(h->sk);
	free(h->buf);
	free(h);
	return err;
}

/* A handle that has no socket: for unit tests of the checks before I/O. */
struct kstat_handle *kstat_handle_alloc_offline(void)
{
	return calloc(1, sizeof(struct kstat_handle));
}

void kstat_close(struct kstat_handle *h)
{
	if (!h)
		return;
	if (h->sk)
		nl_socket_free(h->sk);
	free(h->buf);
	free(h);
}

/* ---- one request, its replies and its ACK ---- */

struct kstat_xfer {
	struct kstat_handle *h;
	uint32_t seq;		/* the request's: other replies are stale */
	int one_reply;		/* a do request: its reply ends it */
	int (*parse)(const struct nlmsghdr *nlh, void *out);
	void *out;
	int err;		/* first error: kernel's errno or a parser's */
	int interrupted;	/* NLM_F_DUMP_INTR: the IRQ set changed */
	int done;
};

/*
 * The kernel's NLMSGERR_ATTR_MSG among the TLVs at @off of @nlh's
 * payload, or NULL.  Shared with the subscription socket (sub.c).
 */
const char *kstat_ext_msg(const struct nlmsghdr *nlh, size_t off)
{
	size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
	struct nlattr *msg;

	off = NLMSG_ALIGN(off);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off >= payload)
		return NULL;
	msg = nla_find((struct nlattr *)((char *)NLMSG_DATA(nlh) + off),
		       payload - off, NLMSGERR_ATTR_MSG);
	if (msg && nla_len(msg) > 0 &&
	    memchr(nla_data(msg), '\0', nla_len(msg)))
		return nla_data(msg);
	return NULL;
}

/*
 * The kernel's extack text follows the (capped) request echoed in an
 * error message.
 */
const char *kstat_extack(const struct nlmsgerr *e)
{
	const struct nlmsghdr *nlh = (const void *)((const char *)e - NLMSG_HDRLEN);
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	return kstat_ext_msg(nlh, off);
}

/* @err's text, or the kernel's own explanation when it sent one. */
static void kstat_set_kernel_error(struct kstat_handle *h, int err,
				   const char *ext)
{
	kstat_set_error(h, "%s", ext ? ext : strerror(-err));
}

/* An error message (or the ACK, error 0): the request's answer. */
static void kstat_on_error(struct kstat_xfer *x, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);

	x->done = 1;
	if (x->err)
		return;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
		x->err = -EBADMSG;
		kstat_set_error(x->h, "malformed reply from the kernel: %s",
				strerror(EBADMSG));
	} else if (e->error) {
		x->err = e->error < 0 ? e->error : -EPROTO;
		kstat_set_kernel_error(x->h, x->err, kstat_extack(e));
	}
}

static void kstat_on_reply(struct kstat_xfer *x, const struct nlmsghdr *nlh)
{
	int err;

	if (x->one_reply)
		x->done = 1;
	if (x->err)
		return;
	err = x->parse(nlh, x->out);
	if (err) {
		x->err = err;
		kstat_set_error(x->h, "malformed reply from the kernel: %s",
				strerror(-err));
	}
}

/* NLMSG_DONE ends a dump, and carries its error (and its message). */
static void kstat_on_done(struct kstat_xfer *x, const struct nlmsghdr *nlh)
{
	int err;

	x->done = 1;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(err))
		return;
	memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
	if (err < 0 && !x->err) {
		x->err = err;
		kstat_set_kernel_error(x->h, err,
				       kstat_ext_msg(nlh, sizeof(err)));
	}
}

/* The messages of one read; those of an earlier, abandoned request skipped. */
static void kstat_xfer_msgs(struct kstat_xfer *x, size_t len)
{
	const struct nlmsghdr *nlh = (const void *)x->h->buf;

	for (; !x->done && NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
		if (nlh->nlmsg_seq != x->seq)
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			x->interrupted = 1;
		if (nlh->nlmsg_type == NLMSG_ERROR)
			kstat_on_error(x, nlh);
		else if (nlh->nlmsg_type == NLMSG_DONE)
			kstat_on_done(x, nlh);
		else if (nlh->nlmsg_type >= NLMSG_MIN_TYPE)
			kstat_on_reply(x, nlh);
	}
}

/*
 * One read of a whole skb into the handle's buffer: its length, or
 * -errno.  -EMSGSIZE when it did not fit; @need says how much would.
 */
static ssize_t kstat_recv(struct kstat_handle *h, int flags, size_t *need)
{
	ssize_t n;

	do {
		n = recv(nl_socket_get_fd(h->sk), h->buf, h->buf_size,
			 flags | MSG_TRUNC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n > h->buf_size) {
		*need = n;
		return -EMSGSIZE;
	}
	return n;
}

/*
 * After a reply too large for the buffer: read the rest of the request
 * without waiting (each read makes the kernel queue a dump's next skb,
 * so this ends with the dump, and a new one may start), and make room.
 */
static int kstat_recover_trunc(struct kstat_handle *h, size_t need)
{
	size_t ignored;
	ssize_t n;

	do {
		n = kstat_recv(h, MSG_DONTWAIT, &ignored);
	} while (n >= 0 || n == -EMSGSIZE);
	return kstat_buf_resize(h, need + KSTAT_MSG_BUF);
}

static int kstat_put_filter(struct nl_msg *msg, const struct kstat_filter *f)
{
	if (f->irq_first > UINT32_MAX || f->irq_last > UINT32_MAX ||
	    f->cpu_first > UINT32_MAX || f->cpu_last > UINT32_MAX)
		return -EINVAL;
	if ((f->flags && nla_put_u32(msg, KSTAT_A_SEL_FLAGS, f->flags)) ||
	    (f->cpu_first >= 0 &&
	     nla_put_u32(msg, KSTAT_A_SEL_CPU_FIRST, f->cpu_first)) ||
	    (f->cpu_last >= 0 &&
	     nla_put_u32(msg, KSTAT_A_SEL_CPU_LAST, f->cpu_last)) ||
	    (f->irq_first >= 0 &&
	     nla_put_u32(msg, KSTAT_A_SEL_IRQ_FIRST, f->irq_first)) ||
	    (f->irq_last >= 0 &&
	     nla_put_u32(msg, KSTAT_A_SEL_IRQ_LAST, f->irq_last)) ||
	    (f->irqs && nla_put(msg, KSTAT_A_SEL_IRQ_LIST,
				f->nr_irqs * sizeof(uint32_t), f->irqs)))
		return -EMSGSIZE;
	return 0;
}

struct kstat_req {
	uint8_t cmd;
	int dump;
	int64_t cpu;			/* KSTAT_A_SEL_CPU when >= 0 */
	int64_t irq;			/* KSTAT_A_SEL_IRQ when >= 0 */
	uint32_t flags;			/* KSTAT_A_SEL_FLAGS, without a filter */
	const struct kstat_filter *filter;
	int ack;			/* no reply comes: ask for an ACK */
	/* attributes of their own (CONFIG_SET) */
	int (*put)(struct nl_msg *msg, const void *arg);
	const void *put_arg;
};

static struct nl_msg *kstat_build(struct kstat_handle *h,
				  const struct kstat_req *r)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err = 0;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, h->family, 0,
			 (r->dump ? NLM_F_DUMP : 0) | (r->ack ? NLM_F_ACK : 0),
			 r->cmd, KSTAT_FAMILY_VERSION))
		err = -EMSGSIZE;
	if (!err && r->cpu >= 0)
		err = nla_put_u32(msg, KSTAT_A_SEL_CPU, r->cpu);
	if (!err && r->irq >= 0)
		err = nla_put_u32(msg, KSTAT_A_SEL_IRQ, r->irq);
	if (!err && r->flags)
		err = nla_put_u32(msg, KSTAT_A_SEL_FLAGS, r->flags);
	if (!err && r->filter)
		err = kstat_put_filter(msg, r->filter);
	if (!err && r->put)
		err = r->put(msg, r->put_arg);
	if (err) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * Send, then read whole skbs into the handle's buffer until the answer:
 * a do's reply, a dump's NLMSG_DONE, or an error.  No libnl callbacks:
 * they copied every message into a struct nl_msg of its own.
 */
static int kstat_xfer_once(struct kstat_handle *h, const struct kstat_req *r,
			   int (*parse)(const struct nlmsghdr *, void *),
			   void *out)
{
	struct kstat_xfer x = { .h = h, .parse = parse, .out = out,
				.one_reply = !r->dump && !r->ack };
	struct nl_msg *msg = kstat_build(h, r);
	size_t need = 0;
	ssize_t n;
	int ret;

	if (!msg) {
		kstat_set_error(h, "cannot build the request (bad filter?)");
		return -EINVAL;
	}
	ret = nl_send_auto(h->sk, msg);
	x.seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	if (ret < 0) {
		kstat_set_error(h, "netlink: %s", nl_geterror(ret));
		return -kstat_nlerr_to_errno(ret);
	}
	while (!x.done) {
		n = kstat_recv(h, 0, &need);
		if (n == -EMSGSIZE)
			return kstat_recover_trunc(h, need) ? -ENOMEM : -EAGAIN;
		if (n < 0) {
			kstat_set_error(h, "netlink: %s", strerror((int)-n));
			return n;
		}
		kstat_xfer_msgs(&x, n);
	}
	if (x.err)
		return x.err;
	return x.interrupted ? -EINTR : 0;
}

/*
 * After ENOENT: was the module reloaded under another family id?  Then
 * the handle follows it (a long-running subscriber's requests keep
 * working) and the request is worth one more try.  If the family is
 * gone, the error says so.
 */
static int kstat_family_moved(struct kstat_handle *h)
{
	int old = h->family;

	return kstat_resolve_family(h) == 0 && h->family != old;
}

/* A dump that saw the selected IRQ set change is thrown away and redone. */
static int kstat_xfer(struct kstat_handle *h, const struct kstat_req *r,
		      int (*parse)(const struct nlmsghdr *, void *),
		      void (*reset)(void *), void *out)
{
	int err, tries = 0;

	kstat_clear_error(h);
	do {
		if (tries)
			reset(out);
		err = kstat_xfer_once(h, r, parse, out);
		if (err == -EAGAIN) {		/* now with room for the reply */
			reset(out);
			err = kstat_xfer_once(h, r, parse, out);
		}
		if (err == -ENOENT && !tries && kstat_family_moved(h)) {
			reset(out);
			err = kstat_xfer_once(h, r, parse, out);
		}
	} while (err == -EINTR && r->dump && ++tries < KSTAT_DUMP_RETRIES);
	if (err == -EAGAIN) {
		kstat_set_error(h, "a reply did not fit the receive buffer");
		err = -EMSGSIZE;
	}
	if (err == -EINTR && r->dump)
		kstat_set_error(h, "the IRQ set kept changing during the dump; try again");
	return err;
}

/* ---- typed calls ---- */

/* Counter replies go through the section table into a struct kstat_reply. */
static int parse_reply(const struct nlmsghdr *nlh, void *r)
{
	return kstat_reply_parse_msg(nlh, r);
}

static void reset_reply(void *r)
{
	kstat_reply_clear(r);
}

int kstat_cpu_get_sz(struct kstat_handle *h, int cpu,
		     struct kstat_cputime *out, size_t size)
{
	struct kstat_req r = { .cmd = KSTAT_CMD_CPU_GET, .cpu = cpu, .irq = -1 };
	struct kstat_cpu_list l = { 0 };
	struct kstat_reply reply = { .list[KSTAT_SEC_cpu] = &l };
	int err = kstat_cputime_size_check(h, size);

	if (err)
		return err;
	err = kstat_xfer(h, &r, parse_reply, reset_reply, &reply);
	if (!err && l.nr != 1) {
		kstat_set_error(h, "malformed reply from the kernel: %zu CPUs",
				l.nr);
		err = -EBADMSG;
	}
	if (!err)
		kstat_cputime_store(out, size, &l.cpus[0]);
	kstat_cpu_list_clear(&l);
	return err;
}

/* The list holds the online CPUs: the reply's last nest, the sum, goes. */
static int kstat_cpu_list_drop_sum(struct kstat_handle *h,
				   struct kstat_cpu_list *l)
{
	const struct kstat_cputime *last;

	if (l->nr)
		last = kstat_cputime_at(l->cpus, l->cputime_size, l->nr - 1);
	if (!l->nr || last->cpu != -1) {
		kstat_set_error(h, "malformed reply from the kernel: no CPU sum after %zu CPUs",
				l->nr);
		return -EBADMSG;
	}
	l->nr--;
	return 0;
}

int kstat_cpu_list_get_sz(struct kstat_handle *h, struct kstat_cpu_list **out,
			  size_t cputime_size)
{
	/* One do, one reply: every online CPU, then the sum. */
	struct kstat_req r = { .cmd = KSTAT_CMD_CPU_GET, .cpu = -1, .irq = -1,
			       .flags = KSTAT_F_PERCPU };
	struct kstat_reply reply = { 0 };
	struct kstat_cpu_list *l;
	int err = kstat_cputime_size_check(h, cputime_size);

	*out = NULL;
	if (err)
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->cputime_size = cputime_size;
	reply.list[KSTAT_SEC_cpu] = l;
	err = kstat_xfer(h, &r, parse_reply, reset_reply, &reply);
	if (!err)
		err = kstat_cpu_list_drop_sum(h, l);
	if (err) {
		kstat_cpu_list_free(l);
		return err;
	}
	*out = l;
	return 0;
}

/* The CPU id of percpu[0] in replies to @f. */
static uint32_t kstat_filter_cpu_first(const struct kstat_filter *f)
{
	return f->cpu_first >= 0 ? f->cpu_first : 0;
}

/* At most how many IRQs @f can select, SIZE_MAX if it does not say. */
static size_t kstat_filter_irqs_max(const struct kstat_filter *f)
{
	if (!f)
		return SIZE_MAX;
	if (f->irqs)
		return f->nr_irqs;
	if (f->irq_first >= 0 && f->irq_last >= f->irq_first)
		return (size_t)(f->irq_last - f->irq_first) + 1;
	return SIZE_MAX;
}

/*
 * A dump's IRQ array starts at the size the handle's last dump needed:
 * growing it by doubling on every request costs a chain of reallocs,
 * and (around glibc's 128 KiB mmap and trim thresholds, 1000 to 2000
 * IRQs) two brk() calls and page faults on each request.
 */
static int kstat_irqs_reserve(struct kstat_handle *h, struct kstat_reply *reply,
			      const struct kstat_req *r)
{
	struct kstat_irq_list *l = reply->list[KSTAT_SEC_irq];
	size_t want = h->irqs_hint, max = kstat_filter_irqs_max(r->filter);

	if (!r->dump)
		return 0;		/* a do: one IRQ, and no hint from it */
	reply->percpu_hint = h->percpu_hint;
	if (want > max)
		want = max;
	if (!want)
		return 0;
	/* not zeroed: the parsers store an entry whole before counting it */
	l->irqs = malloc(want * sizeof(*l->irqs));
	if (!l->irqs)
		return -ENOMEM;
	reply->irqs_cap = want;
	return 0;
}

static int kstat_irq_request(struct kstat_handle *h, struct kstat_req *r,
			     struct kstat_irq_list **out)
{
	struct kstat_irq_list *l = calloc(1, sizeof(*l));
	struct kstat_reply reply = { .list[KSTAT_SEC_irq] = l };
	int err;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	err = kstat_irqs_reserve(h, &reply, r);
	if (!err)
		err = kstat_xfer(h, r, parse_reply, reset_reply, &reply);
	if (err) {
		kstat_irq_list_free(l);
		return err;
	}
	if (r->dump) {
		h->irqs_hint = l->nr;
		h->percpu_hint = kstat_irq_list_percpu_words(l);
	}
	l->cpu_first = kstat_filter_cpu_first(r->filter);
	*out = l;
	return 0;
}

/*
 * The caller's filter into @in, read with the size it carries (the ABI
 * rule for structs passed with their size); NULL selects nothing.
 */
int kstat_filter_take(struct kstat_handle *h, const struct kstat_filter *f,
		      struct kstat_filter *in)
{
	struct kstat_filter none = KSTAT_FILTER_INIT;

	if (!f) {
		*in = none;
		return 0;
	}
	if (f->size < KSTAT_FILTER_SIZE_1_0) {
		kstat_set_error(h, "struct kstat_filter of %zu bytes is too small: start from KSTAT_FILTER_INIT",
				f->size);
		return -EINVAL;
	}
	if (kstat_copy_in(in, sizeof(*in), f, f->size)) {
		kstat_set_error(h, "struct kstat_filter has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				f->size, sizeof(*in));
		return -E2BIG;
	}
	in->size = sizeof(*in);
	return 0;
}

int kstat_irq_list_get(struct kstat_handle *h, const struct kstat_filter *f,
		       struct kstat_irq_list **out)
{
	struct kstat_filter in;
	struct kstat_req r = { .cmd = KSTAT_CMD_IRQ_GET, .dump = 1,
			       .cpu = -1, .irq = -1, .filter = &in };
	int err = kstat_filter_take(h, f, &in);

	*out = NULL;
	return err ? err : kstat_irq_request(h, &r, out);
}

int kstat_irq_get(struct kstat_handle *h, uint32_t irq,
		  const struct kstat_filter *f, struct kstat_irq_list **out)
{
	struct kstat_filter in;
	struct kstat_req r = { .cmd = KSTAT_CMD_IRQ_GET, .cpu = -1,
			       .irq = irq, .filter = &in };
	int err = kstat_filter_take(h, f, &in);

	*out = NULL;
	return err ? err : kstat_irq_request(h, &r, out);
}

/* A section's GET, for the typed call in the section's own file. */
int kstat_section_get(struct kstat_handle *h, uint8_t cmd, int dump,
		      const struct kstat_filter *f, struct kstat_reply *reply,
		      uint32_t *cpu_first)
{
	struct kstat_filter in;
	struct kstat_req r = { .cmd = cmd, .dump = dump, .cpu = -1,
			       .irq = -1, .filter = &in };
	int err = kstat_filter_take(h, f, &in);

	if (err)
		return err;
	*cpu_first = kstat_filter_cpu_first(&in);
	return kstat_xfer(h, &r, parse_reply, reset_reply, reply);
}

/* ---- summary configuration, telemetry ---- */

static int parse_config(const struct nlmsghdr *nlh, void *out)
{
	return kstat_parse_config_msg(nlh, out);
}

static int parse_stats(const struct nlmsghdr *nlh, void *out)
{
	return kstat_parse_stats_msg(nlh, out);
}

static int parse_none(const struct nlmsghdr *nlh, void *out)
{
	(void)nlh;
	(void)out;
	return 0;
}

static void reset_none(void *out)
{
	(void)out;
}

/*
 * The live structs still begin with their frozen 1.0 layouts (internal.h):
 * every 1.0 member at its 1.0 offset, with its 1.0 size, on this ABI.
 */
#define KSTAT_SAME_MEMBER(type, member)					\
	_Static_assert(offsetof(struct type, member) ==			\
		       offsetof(struct type##_1_0, member) &&		\
		       sizeof(((struct type *)0)->member) ==		\
		       sizeof(((struct type##_1_0 *)0)->member),		\
		       "struct " #type "." #member " moved since 1.0")
#define KSTAT_NOT_SHRUNK(type)						\
	_Static_assert(sizeof(struct type) >= sizeof(struct type##_1_0),	\
		       "struct " #type " shrank below its 1.0 size")

KSTAT_NOT_SHRUNK(kstat_config);
KSTAT_SAME_MEMBER(kstat_config, interval_ms);
KSTAT_SAME_MEMBER(kstat_config, batch);
KSTAT_SAME_MEMBER(kstat_config, keyframe);
KSTAT_SAME_MEMBER(kstat_config, sections);
KSTAT_SAME_MEMBER(kstat_config, percpu);
/* struct kstat_sample embeds it: it may not grow (libkstat.h) */
_Static_assert(sizeof(struct kstat_config) == sizeof(struct kstat_config_1_0),
	       "struct kstat_config changed size");

KSTAT_NOT_SHRUNK(kstat_stats);
KSTAT_SAME_MEMBER(kstat_stats, samples_taken);
KSTAT_SAME_MEMBER(kstat_stats, summaries_sent);
KSTAT_SAME_MEMBER(kstat_stats, messages_sent);
KSTAT_SAME_MEMBER(kstat_stats, delivery_failures);
KSTAT_SAME_MEMBER(kstat_stats, alloc_failures);
KSTAT_SAME_MEMBER(kstat_stats, build_ns_last);
KSTAT_SAME_MEMBER(kstat_stats, build_ns_max);
KSTAT_SAME_MEMBER(kstat_stats, build_ns_total);
KSTAT_SAME_MEMBER(kstat_stats, keyframe_bytes);
KSTAT_SAME_MEMBER(kstat_stats, delta_bytes);
KSTAT_SAME_MEMBER(kstat_stats, generation);
KSTAT_SAME_MEMBER(kstat_stats, listening);
KSTAT_SAME_MEMBER(kstat_stats, running);

KSTAT_NOT_SHRUNK(kstat_filter);
KSTAT_SAME_MEMBER(kstat_filter, size);
KSTAT_SAME_MEMBER(kstat_filter, flags);
KSTAT_SAME_MEMBER(kstat_filter, irqs);
KSTAT_SAME_MEMBER(kstat_filter, nr_irqs);
KSTAT_SAME_MEMBER(kstat_filter, irq_first);
KSTAT_SAME_MEMBER(kstat_filter, irq_last);
KSTAT_SAME_MEMBER(kstat_filter, cpu_first);
KSTAT_SAME_MEMBER(kstat_filter, cpu_last);

/* ns[] may grow (new fields at the end): compare the 1.0 slots */
KSTAT_NOT_SHRUNK(kstat_cputime);
KSTAT_SAME_MEMBER(kstat_cputime, cpu);
KSTAT_SAME_MEMBER(kstat_cputime, nr_ns);
_Static_assert(offsetof(struct kstat_cputime, ns) ==
	       offsetof(struct kstat_cputime_1_0, ns) &&
	       KSTAT_CPUTIME_NR >= 10 &&
	       KSTAT_CPUTIME_GUEST_NICE == 9,
	       "struct kstat_cputime.ns moved since 1.0");

/* A caller's size below the 1.0 one: -EINVAL, and why. */
static int size_ok(struct kstat_handle *h, const char *what, size_t size,
		   size_t min)
{
	if (size >= min)
		return 0;
	kstat_set_error(h, "struct %s of %zu bytes is too small (at least %zu): pass sizeof(struct %s)",
			what, size, min, what);
	return -EINVAL;
}

int kstat_config_get_sz(struct kstat_handle *h, struct kstat_config *cfg,
			size_t size)
{
	struct kstat_req r = { .cmd = KSTAT_CMD_CONFIG_GET, .cpu = -1,
			       .irq = -1 };
	struct kstat_config c = { 0 };
	int err = size_ok(h, "kstat_config", size, KSTAT_CONFIG_SIZE_1_0);

	if (err)
		return err;
	err = kstat_xfer(h, &r, parse_config, reset_none, &c);
	kstat_copy_out(cfg, size, &c, sizeof(c));
	return err;
}

struct kstat_config_change {
	const struct kstat_config *cfg;
	unsigned int fields;
};

static int put_config(struct nl_msg *msg, const void *arg)
{
	const struct kstat_config_change *c = arg;
	const struct kstat_config *cfg = c->cfg;
	struct nlattr *nest = nla_nest_start(msg, KSTAT_A_CONFIG);

	if (!nest)
		return -EMSGSIZE;
	if (((c->fields & KSTAT_CONFIG_INTERVAL) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_INTERVAL_MS, cfg->interval_ms)) ||
	    ((c->fields & KSTAT_CONFIG_BATCH) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_BATCH, cfg->batch)) ||
	    ((c->fields & KSTAT_CONFIG_KEYFRAME) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_KEYFRAME, cfg->keyframe)) ||
	    ((c->fields & KSTAT_CONFIG_SECTIONS) &&
	     nla_put_u32(msg, KSTAT_A_CONFIG_SECTIONS, cfg->sections)) ||
	    ((c->fields & KSTAT_CONFIG_PERCPU) &&
	     nla_put_u8(msg, KSTAT_A_CONFIG_PERCPU, !!cfg->percpu)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int kstat_config_set_sz(struct kstat_handle *h, const struct kstat_config *cfg,
			size_t size, unsigned int fields)
{
	struct kstat_config in;
	struct kstat_config_change c = { .cfg = &in, .fields = fields };
	struct kstat_req r = { .cmd = KSTAT_CMD_CONFIG_SET, .cpu = -1,
			       .irq = -1, .ack = 1, .put = put_config,
			       .put_arg = &c };
	int err = size_ok(h, "kstat_config", size, KSTAT_CONFIG_SIZE_1_0);

	if (err)
		return err;
	if (kstat_copy_in(&in, sizeof(in), cfg, size)) {
		kstat_set_error(h, "struct kstat_config has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				size, sizeof(in));
		return -E2BIG;
	}
	return kstat_xfer(h, &r, parse_none, reset_none, NULL);
}

int kstat_stats_get_sz(struct kstat_handle *h, struct kstat_stats *st,
		       size_t size)
{
	struct kstat_req r = { .cmd = KSTAT_CMD_STATS_GET, .cpu = -1,
			       .irq = -1 };
	struct kstat_stats s = { 0 };
	int err = size_ok(h, "kstat_stats", size, KSTAT_STATS_SIZE_1_0);

	if (err)
		return err;
	err = kstat_xfer(h, &r, parse_stats, reset_none, &s);
	kstat_copy_out(st, size, &s, sizeof(s));
	return err;
}

int kstat_family_id(const struct kstat_handle *h)
{
	return h->family;
}

/* ---- streams of a reader's own (KSTAT_1.1) ---- */

/* The structs KSTAT_1.1 added begin with their frozen layouts. */
#define KSTAT_SAME_MEMBER_1_1(type, member)				\
	_Static_assert(offsetof(struct type, member) ==			\
		       offsetof(struct type##_1_1, member) &&		\
		       sizeof(((struct type *)0)->member) ==		\
		       sizeof(((struct type##_1_1 *)0)->member),		\
		       "struct " #type "." #member " moved since 1.1")

KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, size);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, fields);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, interval_ms);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, sections);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, percpu);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, batch);
KSTAT_SAME_MEMBER_1_1(kstat_sub_opts, keyframe);
KSTAT_SAME_MEMBER_1_1(kstat_limits, min_interval_ms);
KSTAT_SAME_MEMBER_1_1(kstat_limits, max_streams);
KSTAT_SAME_MEMBER_1_1(kstat_limits, max_members_user);
KSTAT_SAME_MEMBER_1_1(kstat_limits, max_members_net);
KSTAT_SAME_MEMBER_1_1(kstat_stream, id);
KSTAT_SAME_MEMBER_1_1(kstat_stream, members);
KSTAT_SAME_MEMBER_1_1(kstat_stream, samples);
KSTAT_SAME_MEMBER_1_1(kstat_stream, bytes);
KSTAT_SAME_MEMBER_1_1(kstat_stream, resyncs);
KSTAT_SAME_MEMBER_1_1(kstat_stream, config);
KSTAT_SAME_MEMBER_1_1(kstat_stream, reserved);
/* The sizes internal.h states, on each ABI (tests/test_lib_abis.sh). */
_Static_assert(sizeof(struct kstat_sub_opts_1_1) ==
	       (sizeof(size_t) == 8 ? 32 : 28) &&
	       sizeof(struct kstat_limits_1_1) == 16 &&
	       sizeof(struct kstat_stream_1_1) == 56,
	       "the KSTAT_1.1 structs are not the sizes internal.h says");

#define KSTAT_SUB_OPTS_FIELDS (KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_BATCH | \
			       KSTAT_CONFIG_KEYFRAME | KSTAT_CONFIG_SECTIONS | \
			       KSTAT_CONFIG_PERCPU)

int kstat_sub_opts_take(struct kstat_handle *h, const struct kstat_sub_opts *o,
			struct kstat_sub_opts *in)
{
	if (o->size < KSTAT_SUB_OPTS_SIZE_1_1) {
		kstat_set_error(h, "struct kstat_sub_opts of %zu bytes is too small: start from KSTAT_SUB_OPTS_INIT",
				o->size);
		return -EINVAL;
	}
	if (kstat_copy_in(in, sizeof(*in), o, o->size)) {
		kstat_set_error(h, "struct kstat_sub_opts has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				o->size, sizeof(*in));
		return -E2BIG;
	}
	if (in->fields & ~(uint32_t)KSTAT_SUB_OPTS_FIELDS) {
		kstat_set_error(h, "struct kstat_sub_opts: unknown fields 0x%x (KSTAT_CONFIG_*)",
				in->fields & ~(uint32_t)KSTAT_SUB_OPTS_FIELDS);
		return -EINVAL;
	}
	in->size = sizeof(*in);
	return 0;
}

static int parse_limits(const struct nlmsghdr *nlh, void *out)
{
	return kstat_parse_limits_msg(nlh, out);
}

int kstat_limits_get_sz(struct kstat_handle *h, struct kstat_limits *l,
			size_t size)
{
	struct kstat_req r = { .cmd = KSTAT_CMD_CONFIG_GET, .cpu = -1,
			       .irq = -1 };
	struct kstat_limits in = { 0 };
	int err = size_ok(h, "kstat_limits", size, KSTAT_LIMITS_SIZE_1_1);

	if (err)
		return err;
	err = kstat_xfer(h, &r, parse_limits, reset_none, &in);
	if (err == -ENOENT) {
		kstat_set_error(h, "the kstat module has no stream limits: it is older than this libkstat");
		err = -EOPNOTSUPP;
	}
	kstat_copy_out(l, size, &in, sizeof(in));
	return err;
}

struct kstat_limits_change {
	const struct kstat_limits *l;
	unsigned int fields;
};

static int put_limits(struct nl_msg *msg, const void *arg)
{
	const struct kstat_limits_change *c = arg;
	const struct kstat_limits *l = c->l;
	struct nlattr *nest = nla_nest_start(msg, KSTAT_A_LIMITS);

	if (!nest)
		return -EMSGSIZE;
	if (((c->fields & KSTAT_LIMITS_MIN_INTERVAL) &&
	     nla_put_u32(msg, KSTAT_A_LIMITS_MIN_INTERVAL_MS, l->min_interval_ms)) ||
	    ((c->fields & KSTAT_LIMITS_MAX_STREAMS) &&
	     nla_put_u32(msg, KSTAT_A_LIMITS_MAX_STREAMS, l->max_streams)) ||
	    ((c->fields & KSTAT_LIMITS_MAX_MEMBERS_USER) &&
	     nla_put_u32(msg, KSTAT_A_LIMITS_MAX_MEMBERS_USER, l->max_members_user)) ||
	    ((c->fields & KSTAT_LIMITS_MAX_MEMBERS_NET) &&
	     nla_put_u32(msg, KSTAT_A_LIMITS_MAX_MEMBERS_NET, l->max_members_net)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int kstat_limits_set_sz(struct kstat_handle *h, const struct kstat_limits *l,
			size_t size, unsigned int fields)
{
	struct kstat_limits in;
	struct kstat_limits_change c = { .l = &in, .fields = fields };
	struct kstat_req r = { .cmd = KSTAT_CMD_CONFIG_SET, .cpu = -1,
			       .irq = -1, .ack = 1, .put = put_limits,
			       .put_arg = &c };
	int err = size_ok(h, "kstat_limits", size, KSTAT_LIMITS_SIZE_1_1);

	if (err)
		return err;
	if (kstat_copy_in(&in, sizeof(in), l, size)) {
		kstat_set_error(h, "struct kstat_limits has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				size, sizeof(in));
		return -E2BIG;
	}
	return kstat_xfer(h, &r, parse_none, reset_none, NULL);
}

static int parse_streams(const struct nlmsghdr *nlh, void *out)
{
	return kstat_parse_streams_msg(nlh, out);
}

static void reset_streams(void *out)
{
	struct kstat_stream_list *l = out;

	free(l->streams);
	l->streams = NULL;
	l->nr = 0;
}

/* A caller's stride: at least the 1.1 size, aligned as the struct is. */
static int stream_size_ok(struct kstat_handle *h, size_t size)
{
	if (size >= KSTAT_STREAM_SIZE_1_1 &&
	    size % _Alignof(struct kstat_stream) == 0)
		return 0;
	kstat_set_error(h, "sizeof(struct kstat_stream) of %zu bytes is not one this libkstat can lay out (at least %zu, a multiple of %zu)",
			size, KSTAT_STREAM_SIZE_1_1,
			(size_t)_Alignof(struct kstat_stream));
	return -EINVAL;
}

int kstat_stream_list_get_sz(struct kstat_handle *h,
			     struct kstat_stream_list **out,
			     size_t stream_size)
{
	struct kstat_req r = { .cmd = KSTAT_CMD_STATS_GET, .cpu = -1,
			       .irq = -1 };
	struct kstat_stream_list *l;
	int err;

	*out = NULL;
	err = stream_size_ok(h, stream_size);
	if (err)
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->stream_size = stream_size;
	err = kstat_xfer(h, &r, parse_streams, reset_streams, l);
	if (err) {
		kstat_stream_list_free(l);
		return err;
	}
	*out = l;
	return 0;
}

void kstat_stream_list_free(struct kstat_stream_list *l)
{
	if (!l)
		return;
	free(l->streams);
	free(l);
}
