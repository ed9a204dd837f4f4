/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libkstat internals shared between the request side and the parsers. */
#ifndef LIBKSTAT_INTERNAL_H
#define LIBKSTAT_INTERNAL_H

#include <errno.h>
#include <string.h>

#include "libkstat.h"

/*
 * Free what a list holds and zero it, keeping the list itself and its
 * cputime_size (0 reads as sizeof(struct kstat_cputime)).
 */
void kstat_cpu_list_clear(struct kstat_cpu_list *l);
/*
 * The structs passed with their size, as libkstat 1.0 defined them: a
 * caller's may be larger (newer) but never smaller than these.  Frozen
 * as copies, not as numbers: their sizes are the 1.0 sizes on every ABI
 * (64 bytes for a filter on x86-64, 48 on i386 and x32), and libkstat.c
 * checks that the live structs still begin with these layouts.  When a
 * struct grows, its copy here stays.
 */
struct kstat_config_1_0 {
	uint32_t interval_ms;
	uint32_t batch;
	uint32_t keyframe;
	uint32_t sections;
	int percpu;
};

struct kstat_stats_1_0 {
	uint64_t samples_taken;
	uint64_t summaries_sent;
	uint64_t messages_sent;
	uint64_t delivery_failures;
	uint64_t alloc_failures;
	uint64_t build_ns_last;
	uint64_t build_ns_max;
	uint64_t build_ns_total;
	uint64_t keyframe_bytes;
	uint64_t delta_bytes;
	uint32_t generation;
	int listening;
	int running;
};

struct kstat_filter_1_0 {
	size_t size;
	uint32_t flags;
	const uint32_t *irqs;
	size_t nr_irqs;
	int64_t irq_first, irq_last;
	int64_t cpu_first, cpu_last;
};

struct kstat_cputime_1_0 {
	int cpu;
	uint32_t nr_ns;
	uint64_t ns[10];		/* USER .. GUEST_NICE */
};

/*
 * The structs KSTAT_1.1 added, frozen the same way: 32 bytes of options
 * on x86-64, 28 on i386 and x32; 56 bytes of stream on each.
 */
struct kstat_sub_opts_1_1 {
	size_t size;
	uint32_t fields;
	uint32_t interval_ms;
	uint32_t sections;
	int percpu;
	uint32_t batch;
	uint32_t keyframe;
};

struct kstat_limits_1_1 {
	uint32_t min_interval_ms;
	uint32_t max_streams;
	uint32_t max_members_user;
	uint32_t max_members_net;
};

struct kstat_stream_1_1 {
	uint32_t id;
	uint32_t members;
	uint64_t samples;
	uint64_t bytes;
	uint64_t resyncs;
	struct kstat_config_1_0 config;
	uint32_t reserved;
};

#define KSTAT_SUB_OPTS_SIZE_1_1	sizeof(struct kstat_sub_opts_1_1)
#define KSTAT_LIMITS_SIZE_1_1	sizeof(struct kstat_limits_1_1)
#define KSTAT_STREAM_SIZE_1_1	sizeof(struct kstat_stream_1_1)
#define KSTAT_CONFIG_SIZE_1_0	sizeof(struct kstat_config_1_0)
#define KSTAT_STATS_SIZE_1_0	sizeof(struct kstat_stats_1_0)
#define KSTAT_FILTER_SIZE_1_0	sizeof(struct kstat_filter_1_0)
#define KSTAT_CPUTIME_SIZE_1_0	sizeof(struct kstat_cputime_1_0)

/*
 * Structs passed with their size (the caller's sizeof, see the macros in
 * libkstat.h): older callers have smaller ones, newer ones larger.  Out:
 * fill ours, copy what fits, zero the rest of theirs.  In: take what we
 * know; bytes of a larger struct that we do not know must be zero
 * (-E2BIG otherwise).
 */
static inline void kstat_copy_out(void *dst, size_t size, const void *src,
				  size_t ours)
{
	memcpy(dst, src, size < ours ? size : ours);
	if (size > ours)
		memset((char *)dst + ours, 0, size - ours);
}

static inline int kstat_copy_in(void *dst, size_t ours, const void *src,
				size_t size)
{
	const unsigned char *p = src;
	size_t i;

	for (i = ours; i < size; i++)
		if (p[i])
			return -E2BIG;
	memset(dst, 0, ours);
	memcpy(dst, src, size < ours ? size : ours);
	return 0;
}

/*
 * A caller's struct kstat_cputime: at least the 1.0 size, and a whole
 * number of u64s, since arrays of it are laid out at that stride.
 * 0, or -EINVAL with the reason in kstat_last_error(h).
 */
int kstat_cputime_size_check(struct kstat_handle *h, size_t size);
/* @c into a caller's struct of @size bytes, nr_ns set to what fits. */
void kstat_cputime_store(void *dst, size_t size, const struct kstat_cputime *c);
/* Element @i of an array of struct kstat_cputime at stride @size. */
static inline void *kstat_cputime_at(void *base, size_t size, size_t i)
{
	return (char *)base + i * size;
}

/*
 * The caller's filter into @in, read with the size it carries: -EINVAL
 * below the 1.0 size, -E2BIG with unknown fields set; NULL selects
 * nothing.
 */
int kstat_filter_take(struct kstat_handle *h, const struct kstat_filter *f,
		      struct kstat_filter *in);
/*
 * The caller's subscription options into @in, read with the size they
 * carry: -EINVAL below the KSTAT_1.1 size or with unknown fields bits,
 * -E2BIG with unknown fields set.  @o must not be NULL.
 */
int kstat_sub_opts_take(struct kstat_handle *h, const struct kstat_sub_opts *o,
			struct kstat_sub_opts *in);
/* A handle without a socket (unit tests of what is checked before I/O). */
struct kstat_handle *kstat_handle_alloc_offline(void);
/* 0 if the module's family @version is this library's, else -EPROTO. */
int kstat_version_check(struct kstat_handle *h, unsigned int version);
/* The same, with the refusal (what to install) in @buf; @who: the module. */
int kstat_version_text(const char *who, unsigned int version, char *buf,
		       size_t len);

/* The text kstat_last_error(h) returns from now on. */
void kstat_set_error(struct kstat_handle *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ... is "" from now on: a call starts that may succeed. */
void kstat_clear_error(struct kstat_handle *h);

#include <linux/netlink.h>

/*
 * Attribute walking, inline: libnl's nla_ok()/nla_next() are calls into
 * the shared library, which dominated the cost of applying a keyframe.
 * Each walk ends with @rem == 0 exactly when the attributes fill the
 * buffer; anything else is a truncated or corrupt message.
 */
static inline int kattr_ok(const struct nlattr *a, int rem)
{
	return rem >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       a->nla_len <= rem;
}

static inline const struct nlattr *kattr_next(const struct nlattr *a, int *rem)
{
	int total = NLA_ALIGN(a->nla_len);

	*rem -= total;
	return (const struct nlattr *)((const char *)a + total);
}

static inline int kattr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline int kattr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static inline const void *kattr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

#define kattr_for_each(pos, head, len, rem)				\
	for (pos = (head), rem = (len); kattr_ok(pos, rem);		\
	     pos = kattr_next(pos, &(rem)))

#define kattr_for_each_nested(pos, nest, rem)				\
	kattr_for_each(pos, (const struct nlattr *)kattr_data(nest),	\
		       kattr_len(nest), rem)


/*
 * Checked attribute access: -EBADMSG when the length is wrong.  Inline:
 * a CPU nest alone reads ten u64s, and the call cost more than the read.
 */
#define KSTAT_GET_FIXED(name, type)					\
static inline int name(const struct nlattr *a, type *v)		\
{									\
	if (kattr_len(a) != sizeof(*v))					\
		return -EBADMSG;					\
	memcpy(v, kattr_data(a), sizeof(*v));				\
	return 0;							\
}
KSTAT_GET_FIXED(kstat_get_u8, uint8_t)
KSTAT_GET_FIXED(kstat_get_u32, uint32_t)
KSTAT_GET_FIXED(kstat_get_u64, uint64_t)
int kstat_get_str(const struct nlattr *a, char **out);

int kstat_attrs_tile(const struct nlattr *head, int len);
/* The attributes after the genl header, checked to fill the message. */
int kstat_msg_attrs(const struct nlmsghdr *nlh, const struct nlattr **head,
		    int *len);

int kstat_get_percpu(const struct nlattr *a, uint32_t **out, uint32_t *nr);
int kstat_get_bytes(const struct nlattr *a, uint8_t **out, size_t *len);
int kstat_grow(void **arr, size_t nr, size_t size);
int kstat_reserve_slow(void **arr, size_t *cap, size_t need, size_t size);

/* Room for @need elements in a growing array; the common case inline. */
static inline int kstat_reserve(void **arr, size_t *cap, size_t need,
				size_t size)
{
	return need <= *cap ? 0 : kstat_reserve_slow(arr, cap, need, size);
}

int kstat_parse_config_nest(const struct nlattr *nest, struct kstat_config *c);
int kstat_parse_config_msg(const struct nlmsghdr *nlh, struct kstat_config *c);
int kstat_parse_stats_msg(const struct nlmsghdr *nlh, struct kstat_stats *st);
/* CONFIG_GET's KSTAT_A_LIMITS; -ENOENT when the reply has none. */
int kstat_parse_limits_msg(const struct nlmsghdr *nlh, struct kstat_limits *l);
/* STATS_GET's KSTAT_A_STREAM nests, appended to @l (at its stride). */
int kstat_parse_streams_msg(const struct nlmsghdr *nlh,
			    struct kstat_stream_list *l);

/*
 * ---- sections ----
 *
 * The library's counters come as sections, as the kernel's do: each is
 * one entry of kstat_sections[] (section.c) with the functions that parse
 * its objects, append them to a GET reply's list, apply them to a
 * subscriber's state, and free what they own.  The message walkers below
 * only look sections up by attribute.
 *
 * KSTAT_SECTIONS lists them: the Makefile generates it (sections.gen.h)
 * from the definitions, kstat_section_<name> in any lib/ .c file, in the files'
 * order (the walkers look a section up once per run of its attribute, so
 * the order costs nothing).  The list declares them, numbers them
 * (KSTAT_SEC_<name>, the index of their slots below) and fills
 * kstat_sections[].  Adding a section is defining it in its file.
 */
#include "sections.gen.h"

#define KSTAT_SECTION_ID(name)	KSTAT_SEC_##name,
enum kstat_section_id {
	KSTAT_SECTIONS(KSTAT_SECTION_ID)
	KSTAT_SEC_NR
};
#undef KSTAT_SECTION_ID

struct kstat_section;
#define KSTAT_SECTION_DECLARE(name) \
	extern const struct kstat_section kstat_section_##name;
KSTAT_SECTIONS(KSTAT_SECTION_DECLARE)
#undef KSTAT_SECTION_DECLARE

/*
 * What a GET reply fills: the list of the request's kind, in the slot of
 * the section whose objects it holds (a struct kstat_irq_list in
 * list[KSTAT_SEC_irq]); the other slots NULL.  Sections that only add to
 * another's list (arch, intr_sum, ...) read that one's slot.
 */
struct kstat_reply {
	void *list[KSTAT_SEC_NR];
	/*
	 * Room in the IRQ list's array, in entries (never more than is
	 * allocated): a dump may start it at the size the last one needed.
	 */
	size_t irqs_cap;
	/* Words the last dump's per-CPU arrays took: the first block's. */
	size_t percpu_hint;
};

/* A subscriber's counters: the sample being assembled, and its storage. */
struct kstat_state {
	struct kstat_sample s;
	size_t cap[KSTAT_SEC_NR];	/* of each section's array in s */
	size_t cputime_size;		/* the caller's: stride of s.cpus */
	int32_t *slot;			/* IRQ number -> index in s.irqs */
	size_t nr_slots;
	uint32_t *changed;		/* backs s.irqs_changed */
	size_t cap_changed;
	size_t key_pos;			/* a keyframe's next IRQ entry */
};

struct kstat_section {
	const char *name;
	int reply_attr;			/* top-level in GET replies, 0: none */
	int sample_attr;		/* in a summary sample, 0: none */
	uint32_t section;		/* KSTAT_SECTION_* a sample then has */
	/* one object into its list in @r; skipped when that list is NULL */
	int (*add)(struct kstat_reply *r, const struct nlattr *a);
	/* or the run of its objects at @a, as apply_run below */
	int (*add_run)(struct kstat_reply *r, const struct nlattr *a, int len);
	/* one object of a sample into @st; @key: the sample is a keyframe */
	int (*apply)(struct kstat_state *st, const struct nlattr *a, int key);
	/*
	 * Or the whole run of its objects at @a (@len bytes to the end of
	 * the piece): the bytes it took, or -errno.  For sections with
	 * thousands of objects, where a call per object is the cost.
	 */
	int (*apply_run)(struct kstat_state *st, const struct nlattr *a,
			 int len, int key);
	/* a keyframe begins: what the last one set up is to be replaced */
	void (*reset)(struct kstat_state *st);
	/* the sample is complete, before it is delivered */
	void (*finish)(struct kstat_state *st);
	/* what this section's objects own, in a reply and in a state */
	void (*free_reply)(struct kstat_reply *r);
	void (*free_state)(struct kstat_state *st);
};

/*
 * A GET of @cmd (a dump when @dump) selecting what the caller's filter
 * @f says, its reply through the section table into @reply (cleared and
 * refilled when the request is retried); @cpu_first: where the reply's
 * per-CPU arrays begin.  0, or -errno with kstat_last_error(h) set.  A
 * section's public GET call, in its own file, is built on it.
 */
int kstat_section_get(struct kstat_handle *h, uint8_t cmd, int dump,
		      const struct kstat_filter *f, struct kstat_reply *reply,
		      uint32_t *cpu_first);
/* A GET reply message into @r, appending; -EBADMSG if malformed. */
int kstat_reply_parse_msg(const struct nlmsghdr *nlh, struct kstat_reply *r);
/* Free what @r's lists hold and zero them (the lists stay). */
void kstat_reply_clear(struct kstat_reply *r);
/*
 * A sample piece's content, the @len bytes at @head after its header,
 * into @st (unknown attributes skipped); -EBADMSG if malformed.  With
 * @st NULL, only checked.
 */
int kstat_state_apply(struct kstat_state *st, const struct nlattr *head,
		      int len, int key);
/* A keyframe starts: each section's reset. */
void kstat_state_reset(struct kstat_state *st);
/* The sample is complete: each section's finish. */
void kstat_state_finish(struct kstat_state *st);
/* Everything @st holds. */
void kstat_state_free(struct kstat_state *st);

/* Per-object parsers, shared by replies and samples. */
int kstat_parse_cpu_nest(const struct nlattr *nest, struct kstat_cputime *c);
int kstat_parse_irq_nest(const struct nlattr *nest, struct kstat_irq *q);
int kstat_parse_arch_nest(const struct nlattr *nest, struct kstat_arch *r);
int kstat_parse_softirq_nest(const struct nlattr *nest,
			     struct kstat_softirq *s);
void kstat_irq_free(struct kstat_irq *q);
void kstat_arch_free(struct kstat_arch *r);
void kstat_softirq_free(struct kstat_softirq *v);

/*
 * One reply message into a list, appending; not exported (tests link
 * libkstat.a): tools with their own socket speak the UAPI.
 */
int kstat_parse_cpu_msg(const struct nlmsghdr *nlh, struct kstat_cpu_list *l);
int kstat_parse_irq_msg(const struct nlmsghdr *nlh, struct kstat_irq_list *l);
int kstat_parse_softirq_msg(const struct nlmsghdr *nlh,
			    struct kstat_softirq_list *l);
void kstat_irq_list_clear(struct kstat_irq_list *l);
size_t kstat_irq_list_percpu_words(const struct kstat_irq_list *l);
void kstat_softirq_list_clear(struct kstat_softirq_list *l);

/* Extended ACK text of an error or NLMSG_DONE message, or NULL. */
struct nlmsgerr;
const char *kstat_extack(const struct nlmsgerr *e);
const char *kstat_ext_msg(const struct nlmsghdr *nlh, size_t off);
struct nl_sock;
int kstat_set_socket_options(struct nl_sock *sk);

/* Subscriptions without a socket, fed recorded messages (tests, bench). */
struct kstat_sub *kstat_sub_alloc(const struct kstat_sub_ops *ops, void *arg);
/* The same with the caller's sizeof(struct kstat_cputime) (checked). */
struct kstat_sub *kstat_sub_alloc_sz(const struct kstat_sub_ops *ops,
				     size_t cputime_size, void *arg);
int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh);
/*
 * Such a subscription asks for a stream of its own with @opts (already
 * taken by kstat_sub_opts_take()): its SUBSCRIBEs carry them, it joins
 * no group, and an overrun costs no SUBSCRIBE.
 */
void kstat_sub_set_opts(struct kstat_sub *sub, const struct kstat_sub_opts *o);
/*
 * Messages one kstat_sub_dispatch() reads at most.  Reading until EAGAIN
 * never returns while samples arrive as fast as the callbacks take them
 * (kstat top on a slow kernel: its keys went unread for 90 s), and the
 * caller's other descriptors starve.  The descriptor stays readable for
 * what is left.  16 is several batches, or a keyframe in parts.
 */
#define KSTAT_SUB_DISPATCH_READS	16
/* Overruns with no sample between them that mean "buffer too small". */
#define KSTAT_SUB_FUTILE_OVERRUNS	8
/*
 * Such a subscription on a socket of netlink @protocol, non-blocking,
 * read by kstat_sub_dispatch(): test_sub_dispatch sends it messages from
 * another NETLINK_USERSOCK socket.  Its port in *port.
 */
int kstat_sub_connect(struct kstat_sub *sub, int protocol, uint32_t *port);
/*
 * Where such a subscription sends its requests (SUBSCRIBE, nlctrl's
 * GETFAMILY): the port of the test's socket that plays the kernel.
 */
void kstat_sub_set_peer(struct kstat_sub *sub, uint32_t port);
/*
 * A summary part's buffer in the kernel, skb overhead included (the
 * kernel sizes parts so: docs/protocol.md, "Summaries"), which is what
 * the subscriber's receive buffer accounts.
 */
#define KSTAT_PART_TRUESIZE	(16 * 1024)

#endif
