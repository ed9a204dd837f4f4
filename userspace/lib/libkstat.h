/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkstat: read CPU time, IRQ and softirq counters from the kstat kernel
 * module over generic netlink.
 *
 * Conventions
 * - Every function that can fail returns 0 or a negative errno.  When the
 *   kernel rejected a request, kstat_last_error() returns its explanation
 *   (the extended ACK message), else a description of the errno.
 * - -ENOENT from kstat_open() means the "kstat" family is not registered:
 *   the kernel module is not loaded.
 * - Results are plain structs the caller owns and frees with the matching
 *   *_free() call.  Counters are as described in <linux/kstat.h>:
 *   nanoseconds for CPU time, counts for IRQs and softirqs.
 * - A handle is not thread-safe; use one per thread.
 * - ABI (libkstat.so.1, version nodes KSTAT_1 and, for streams of one's
 *   own, KSTAT_1.1; libkstat.map): every public struct can
 *   grow at its end without breaking a program built against an older,
 *   smaller one.  The library always learns the caller's size:
 *   - Structs the caller allocates and the library fills or reads
 *     (struct kstat_config, struct kstat_stats, struct kstat_sub_ops,
 *     struct kstat_cputime) are passed with their size: the
 *     kstat_*_get() / _set() / kstat_subscribe() names below are macros
 *     over the exported *_sz() functions that add sizeof(*ptr).
 *   - struct kstat_filter and struct kstat_sub_opts carry their size in
 *     their first field, set by KSTAT_FILTER_INIT / KSTAT_SUB_OPTS_INIT
 *     (they may be NULL, so no macro can add it).
 *   - Arrays of struct kstat_cputime the library returns (struct
 *     kstat_cpu_list, struct kstat_sample) are laid out at the caller's
 *     sizeof(struct kstat_cputime), passed by those macros too, so
 *     cpus[i] indexes right in old and new programs alike.
 *   Out: the library fills what fits in the caller's size and zeroes the
 *   rest, so new fields read as 0 (new callbacks as NULL); nr_ns says how
 *   many ns[] slots hold values.  In: a caller's struct larger than the
 *   library knows is accepted when the part it does not know is zero,
 *   else -E2BIG.  Any size below the 1.0 size (or, for an array stride,
 *   not a multiple of 8) is -EINVAL, with kstat_last_error() saying so.
 *   Structs the library allocates (lists, struct kstat_sample) may grow
 *   at their end too: never allocate or copy them yourself.  Not yet
 *   growable: the elements of the IRQ, softirq and arch arrays (struct
 *   kstat_irq, kstat_softirq, kstat_arch), and struct kstat_config
 *   inside struct kstat_sample, whose size sets the offsets after it.
 */
#ifndef LIBKSTAT_H
#define LIBKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/kstat.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What this header declares is the library's ABI: the library is built
 * with -fvisibility=hidden, and these declarations alone are default, so
 * libkstat.map can export kstat_* without internal names slipping in.
 */
#pragma GCC visibility push(default)

struct kstat_handle;
struct kstat_percpu_pool;

/* Connect to the kstat family.  -ENOENT: module not loaded. */
int kstat_open(struct kstat_handle **hp);
/*
 * Why the last kstat_open() of the calling thread failed ("" after a
 * success): there is no handle to ask.  Thread-local.
 */
const char *kstat_open_error(void);
void kstat_close(struct kstat_handle *h);

/*
 * Why the last call on @h failed: the kernel's message when it sent one.
 * Every call that asks the kernel something (the GETs and SETs,
 * kstat_subscribe()) empties it first: after one that succeeded it is "".
 */
const char *kstat_last_error(const struct kstat_handle *h);

/* The kernel family's version (KSTAT_FAMILY_VERSION it registered). */
unsigned int kstat_family_version(const struct kstat_handle *h);
/* Its generic netlink id, for tools that speak on their own socket. */
int kstat_family_id(const struct kstat_handle *h);

/*
 * What a request selects; mirrors the kernel's KSTAT_A_SEL_* attributes.
 * Start from KSTAT_FILTER_INIT: it sets @size to this header's
 * sizeof(struct kstat_filter), which lets the struct grow (see ABI
 * above); -1 means "not set, kernel default".  A NULL filter selects
 * nothing (the kernel's defaults).
 */
struct kstat_filter {
	size_t size;			/* sizeof(struct kstat_filter) */
	uint32_t flags;			/* KSTAT_F_* */
	const uint32_t *irqs;		/* IRQ list for dumps, or NULL */
	size_t nr_irqs;
	int64_t irq_first, irq_last;	/* IRQ range for dumps */
	int64_t cpu_first, cpu_last;	/* range of per-CPU arrays */
	/* New fields go here, at the end: KSTAT_FILTER_INIT sets them. */
};

#define KSTAT_FILTER_INIT { .size = sizeof(struct kstat_filter),	\
			    .flags = 0, .irqs = NULL, .nr_irqs = 0,	\
			    .irq_first = -1, .irq_last = -1,		\
			    .cpu_first = -1, .cpu_last = -1 }

/* ---- CPU time ---- */

enum kstat_cputime_field {
	KSTAT_CPUTIME_USER,
	KSTAT_CPUTIME_NICE,
	KSTAT_CPUTIME_SYSTEM,
	KSTAT_CPUTIME_IDLE,
	KSTAT_CPUTIME_IOWAIT,
	KSTAT_CPUTIME_IRQ,
	KSTAT_CPUTIME_SOFTIRQ,
	KSTAT_CPUTIME_STEAL,
	KSTAT_CPUTIME_GUEST,
	KSTAT_CPUTIME_GUEST_NICE,
	KSTAT_CPUTIME_NR
};

/* Field names as used in JSON: "user", "nice", ... "guest_nice". */
const char *kstat_cputime_name(enum kstat_cputime_field f);

/*
 * CPU time of one CPU.  Its size goes with every call that fills one
 * (the macros below add it), arrays of it are laid out at that size, and
 * @nr_ns says how many ns[] slots the library filled: the smaller of its
 * KSTAT_CPUTIME_NR and the caller's.  A field added later (a new
 * enum kstat_cputime_field) is a new ns[] slot at the end.
 */
struct kstat_cputime {
	int cpu;				/* -1: sum over all CPUs */
	uint32_t nr_ns;				/* ns[] slots filled */
	uint64_t ns[KSTAT_CPUTIME_NR];		/* nanoseconds */
};

/*
 * One CPU, or with @cpu == -1 the sum over all possible CPUs.  @size:
 * sizeof(*out) as the caller knows it.
 */
int kstat_cpu_get_sz(struct kstat_handle *h, int cpu,
		     struct kstat_cputime *out, size_t size);
#define kstat_cpu_get(h, cpu, out) \
	kstat_cpu_get_sz((h), (cpu), (out), sizeof(*(out)))

struct kstat_cpu_list {
	size_t nr;
	struct kstat_cputime *cpus;		/* online CPUs, ascending */
	size_t cputime_size;			/* bytes per cpus[] element */
};

/*
 * Every online CPU.  @cputime_size: the caller's sizeof(struct
 * kstat_cputime), the stride of (*out)->cpus.
 */
int kstat_cpu_list_get_sz(struct kstat_handle *h, struct kstat_cpu_list **out,
			  size_t cputime_size);
#define kstat_cpu_list_get(h, out) \
	kstat_cpu_list_get_sz((h), (out), sizeof(struct kstat_cputime))
void kstat_cpu_list_free(struct kstat_cpu_list *l);

/* ---- IRQs ---- */

struct kstat_irq {
	uint32_t irq;
	uint64_t count;		/* total, wraps at 2^32 like the kernel's */
	uint32_t *percpu;	/* nr_percpu counts from cpu_first, or NULL */
	uint32_t nr_percpu;
	/* with KSTAT_F_META; NULL / 0 when absent */
	char *chip;
	int has_hwirq;
	uint64_t hwirq;
	int level;		/* 1 level-triggered, 0 edge */
	char *name;		/* flow handler name, e.g. "edge" */
	char **actions;
	size_t nr_actions;
};

/* An architecture counter row (x86: NMI, LOC, ...). */
struct kstat_arch {
	char *name;
	char *desc;
	uint64_t count;
	uint32_t *percpu;
	uint32_t nr_percpu;
};

struct kstat_irq_list {
	size_t nr;
	struct kstat_irq *irqs;		/* in the order selected */
	size_t nr_arch;
	struct kstat_arch *arch;	/* with KSTAT_F_ARCH */
	uint32_t cpu_first;		/* CPU id of percpu[0] */
	/* from dumps only (has_totals) */
	int has_totals;
	uint64_t intr_sum;		/* /proc/stat "intr" total */
	uint32_t nr_irqs;		/* the kernel's nr_irqs */
	uint8_t *online;		/* online CPU bitmap */
	size_t online_len;		/* bytes */
	/*
	 * The library's, never touch: the blocks the per-CPU arrays of a
	 * packed dump are carved from (one allocation for thousands of
	 * IRQs, not one each); kstat_irq_list_free() frees them.
	 */
	struct kstat_percpu_pool *percpu_pool;
	/*
	 * Since KSTAT_1.2, from dumps: the rows of /proc/interrupts the
	 * module cannot read, space-separated ("MCE MCP ERR MIS" on x86
	 * when kstat is a module, not built into the kernel), or NULL.
	 * MCE, MCP and ERR count in /proc/stat's intr: intr_sum is less by
	 * them.
	 */
	char *arch_unread;
};

/* Every IRQ the filter selects (a dump).  Retries if the set changes. */
int kstat_irq_list_get(struct kstat_handle *h, const struct kstat_filter *f,
		       struct kstat_irq_list **out);
/* One IRQ (a do request).  -ENOENT: no such IRQ. */
int kstat_irq_get(struct kstat_handle *h, uint32_t irq,
		  const struct kstat_filter *f, struct kstat_irq_list **out);
void kstat_irq_list_free(struct kstat_irq_list *l);

/* ---- softirqs ---- */

struct kstat_softirq {
	uint32_t vec;
	char *name;
	uint64_t count;
	uint32_t *percpu;
	uint32_t nr_percpu;
};

struct kstat_softirq_list {
	size_t nr;
	struct kstat_softirq *vecs;
	uint32_t cpu_first;
	uint8_t *online;
	size_t online_len;
};

int kstat_softirq_get(struct kstat_handle *h, const struct kstat_filter *f,
		      struct kstat_softirq_list **out);
void kstat_softirq_list_free(struct kstat_softirq_list *l);

/* ---- summary configuration and producer telemetry ---- */

struct kstat_config {
	uint32_t interval_ms;		/* >= KSTAT_INTERVAL_MIN_MS */
	uint32_t batch;			/* samples per notification */
	uint32_t keyframe;		/* a full sample every N batches */
	uint32_t sections;		/* KSTAT_SECTION_* */
	int percpu;			/* per-CPU IRQ counts in samples */
};

/* Which fields kstat_config_set() changes. */
enum kstat_config_field {
	KSTAT_CONFIG_INTERVAL	= 1 << 0,
	KSTAT_CONFIG_BATCH	= 1 << 1,
	KSTAT_CONFIG_KEYFRAME	= 1 << 2,
	KSTAT_CONFIG_SECTIONS	= 1 << 3,
	KSTAT_CONFIG_PERCPU	= 1 << 4,
};

/* @size: sizeof(*cfg) as the caller knows it; -EINVAL if too small. */
int kstat_config_get_sz(struct kstat_handle *h, struct kstat_config *cfg,
			size_t size);
/*
 * Needs CAP_NET_ADMIN: -EPERM otherwise.  -E2BIG: @cfg is larger than
 * this library knows and the part it does not know is not zero.
 */
int kstat_config_set_sz(struct kstat_handle *h, const struct kstat_config *cfg,
			size_t size, unsigned int fields);
#define kstat_config_get(h, cfg) \
	kstat_config_get_sz((h), (cfg), sizeof(*(cfg)))
#define kstat_config_set(h, cfg, fields) \
	kstat_config_set_sz((h), (cfg), sizeof(*(cfg)), (fields))

struct kstat_stats {
	uint64_t samples_taken;
	uint64_t summaries_sent;
	uint64_t messages_sent;
	uint64_t delivery_failures;	/* multicasts some listener missed */
	uint64_t alloc_failures;
	uint64_t build_ns_last;
	uint64_t build_ns_max;
	uint64_t build_ns_total;	/* all samples: mean = total / taken */
	uint64_t keyframe_bytes;	/* size of the last full sample */
	uint64_t delta_bytes;		/* size of the last delta sample */
	uint32_t generation;
	int listening;			/* the group has listeners */
	int running;			/* the producer is running */
	/*
	 * Since KSTAT_1.1, every stream's (0 from an older module): the
	 * producer's ticks, each one reading of the counters shared by the
	 * streams due at it, and their whole time.
	 */
	uint64_t ticks;
	uint64_t tick_ns_total;
};

int kstat_stats_get_sz(struct kstat_handle *h, struct kstat_stats *st,
		       size_t size);
#define kstat_stats_get(h, st) kstat_stats_get_sz((h), (st), sizeof(*(st)))

/* ---- subscriptions ----
 *
 * A subscription has its own socket, joined to the "summary" group, with
 * a large receive buffer.  The library reassembles batches split over
 * several messages, applies deltas onto the last full state and hands the
 * callback complete, absolute counters.  IRQ counts are 64-bit here.
 *
 * Loss is never silent: a gap in sequence numbers, or a socket overrun
 * (ENOBUFS), calls ops->lost with how many samples were missed; no sample
 * is delivered again until a keyframe has rebuilt the state.  After an
 * overrun that is at once: the library sends SUBSCRIBE again (its
 * snapshot is a keyframe) and looks the family up again (a reload's
 * notification may have been lost with the rest).
 * Samples that are not new (seq below the next expected: already in the
 * snapshot, or a copy from another network namespace) are dropped
 * silently.
 *
 * Joining late costs nothing: the kernel answers SUBSCRIBE with a
 * snapshot, a keyframe of its latest sample, so the first dispatch after
 * kstat_subscribe() delivers a sample at once.
 *
 * The module may go away and come back (rmmod, modprobe): the
 * subscription follows it through nlctrl's "notify" group.  When the
 * family is unregistered, ops->family(0) is called and nothing arrives;
 * when it is registered again, the library joins its "summary" group
 * (whose id may have changed), subscribes again, calls ops->family(1),
 * and the snapshot resyncs it.  The first sample after that is preceded
 * by one ops->lost(n, KSTAT_LOST_RELOAD): the new module's seq restarts at
 * 0, @n is how many of its samples came before ours (often 0), and every
 * counter restarted from the new module's start.  A module of another
 * wire format (family version) is not joined: ops->family(0), then
 * ops->lost(0, KSTAT_LOST_VERSION), and kstat_sub_dispatch() returns
 * -EPROTO with what to install in kstat_sub_last_error().
 *
 * Callbacks run inside kstat_sub_dispatch() / kstat_sub_loop().  They
 * may call kstat_unsubscribe() (no callback follows; the dispatch frees
 * the subscription on its way out) and kstat_sub_break(); they must not
 * dispatch the same subscription (-EBUSY) nor keep the sample.
 */
struct kstat_sample {
	uint64_t seq;
	uint64_t timestamp_ns;		/* CLOCK_BOOTTIME */
	uint32_t generation;
	int keyframe;			/* this sample was sent in full */
	int config_changed;		/* config is new with this sample */
	struct kstat_config config;
	uint32_t sections;		/* sections this sample carries */
	struct kstat_cputime *cpus;	/* online CPUs, then the total (-1),
					 * at the caller's cputime_size */
	size_t nr_cpus;
	struct kstat_irq *irqs;		/* by IRQ number; no metadata */
	size_t nr_irqs;
	const uint32_t *irqs_changed;	/* IRQ numbers this sample carried */
	size_t nr_irqs_changed;
	struct kstat_softirq *softirqs;
	size_t nr_softirqs;
	struct kstat_arch *arch;
	size_t nr_arch;
	uint64_t intr_sum;
	/*
	 * Since KSTAT_1.1.  The stream the sample came in: 0 for the default
	 * stream, else the kernel's id of the subscription's own stream
	 * (kstat_subscribe_opts()), whose config is @config above (from its
	 * keyframes: a stream's config never changes).
	 */
	uint32_t stream;
};

/*
 * Why samples were lost, as ops->lost() says.  A client must accept
 * reasons a newer libkstat adds: kstat_lost_reason_name() names every one
 * (an unknown one "unknown"), so that no client keeps a table of its own.
 */
enum kstat_lost_reason {
	KSTAT_LOST_GAP,		/* sequence numbers jumped */
	KSTAT_LOST_OVERRUN,	/* the socket buffer overflowed (ENOBUFS) */
	KSTAT_LOST_PARTIAL,	/* a batch arrived incomplete */
	KSTAT_LOST_RELOAD,	/* the module was reloaded: counters restart */
	KSTAT_LOST_VERSION,	/* the module was replaced by one of another
				 * wire format: nothing comes until a module
				 * of this library's is loaded;
				 * kstat_sub_last_error() says what to install
				 */
};

/* "gap", "overrun", "partial", "reload", "version"; else "unknown". */
const char *kstat_lost_reason_name(enum kstat_lost_reason why);

struct kstat_sub_ops {
	/* A complete sample; valid until the callback returns. */
	void (*sample)(const struct kstat_sample *s, void *arg);
	/* @lost samples are missing (0: unknown yet, an overrun). */
	void (*lost)(uint64_t lost, enum kstat_lost_reason why, void *arg);
	/*
	 * The kstat family went away (@present 0: the module is unloading)
	 * or came back (1: subscribed again).  May be NULL.
	 */
	void (*family)(int present, void *arg);
	/*
	 * Advice for the user, once per cause: today, that the receive
	 * buffer cannot hold the stream's largest burst, the size it needs
	 * and what to grant.  May be NULL: the library then writes it to
	 * stderr, as one "libkstat: warning: ..." line.
	 */
	void (*warning)(const char *msg, void *arg);
	/* New callbacks go here, at the end (passed with the size). */
};

struct kstat_sub;

/*
 * Default receive buffer of a subscription socket, asked for with
 * SO_RCVBUFFORCE (granted with CAP_NET_ADMIN) and else SO_RCVBUF, which
 * the kernel caps at net.core.rmem_max: kstat_sub_rcvbuf() tells what
 * was obtained.
 */
#define KSTAT_SUB_RCVBUF_DEFAULT	(4 << 20)

/*
 * Join the summary group (and nlctrl's "notify") and send SUBSCRIBE,
 * which starts the kernel's producer.  @rcvbuf: the socket receive buffer
 * in bytes, kept; 0 for KSTAT_SUB_RCVBUF_DEFAULT, grown when the
 * stream's bursts need more (see ops->warning).
 *
 * It does not wait for the kernel's answer: the snapshot (or an error) is
 * read by kstat_sub_dispatch(), so the fd is readable at once and an
 * event loop gets the first sample from its first dispatch.  If the
 * kernel refused SUBSCRIBE, that dispatch returns its negative errno and
 * kstat_sub_last_error() the kernel's explanation.
 */
int kstat_subscribe_sz(struct kstat_handle *h, const struct kstat_sub_ops *ops,
		       size_t ops_size, size_t cputime_size, void *arg,
		       int rcvbuf, struct kstat_sub **subp);
/*
 * @ops is read with the caller's sizeof: -EINVAL if it lacks sample and
 * lost, -E2BIG if it has non-NULL callbacks this library does not know.
 * @cputime_size: the caller's sizeof(struct kstat_cputime), the stride
 * of kstat_sample's cpus[]; -EINVAL below the 1.0 size.
 * On failure kstat_last_error(h) explains (the subscription is gone).
 */
#define kstat_subscribe(h, ops, arg, rcvbuf, subp) \
	kstat_subscribe_sz((h), (ops), sizeof(*(ops)),			\
			   sizeof(struct kstat_cputime), (arg), (rcvbuf), (subp))
/*
 * The receive buffer the kernel granted, in bytes as asked for (it
 * reports and accounts twice that): less than asked when SO_RCVBUFFORCE
 * was not permitted and net.core.rmem_max is lower.
 */
int kstat_sub_rcvbuf(const struct kstat_sub *sub);
void kstat_unsubscribe(struct kstat_sub *sub);
/* The fd to poll for POLLIN. */
int kstat_sub_fd(const struct kstat_sub *sub);
/*
 * Handle what is queued without blocking, at most 16 messages a call (so
 * that a steady flow cannot keep the caller from its other descriptors;
 * the descriptor stays readable for the rest, so watch it level-triggered,
 * not with EPOLLET): samples delivered, or -errno (a socket error,
 * SUBSCRIBE refused, subscribing again after a reload failed).
 */
int kstat_sub_dispatch(struct kstat_sub *sub);
/*
 * Block and dispatch until kstat_sub_break(), kstat_unsubscribe() from a
 * callback (0), or an error.
 */
int kstat_sub_loop(struct kstat_sub *sub);
/*
 * From a callback: the dispatch or loop running it returns after the
 * current message.  It applies to that call only.
 */
void kstat_sub_break(struct kstat_sub *sub);
/* Samples reported lost so far. */
uint64_t kstat_sub_lost(const struct kstat_sub *sub);
/* Why the last call on @sub failed. */
const char *kstat_sub_last_error(const struct kstat_sub *sub);

/* ---- streams of one's own (KSTAT_1.1) ----
 *
 * kstat_subscribe() joins the default stream: the "summary" group, at the
 * configuration an admin sets with kstat_config_set().  A subscription
 * may instead ask for a stream of its own, at its interval, with its
 * sections and per-CPU choice (and batch and keyframe cadence): the
 * kernel keeps one stream per distinct choice, shared by the readers
 * asking the same, and unicasts its summaries to each member, so no
 * group is joined.  An admin's later CONFIG_SET does not change it.
 *
 * Everything said of subscriptions above holds, with two differences:
 * - after an overrun the kernel resyncs the member itself (its next
 *   message is a snapshot): the library does not send SUBSCRIBE again,
 *   it only looks the family up (a reload may have been lost too);
 * - after a reload (the family back, of this library's version: the
 *   check stays at every join) the library sends the same options again.
 * The kernel refuses what the admin's limits (struct kstat_limits) do not
 * allow an unprivileged reader: EINVAL below the interval floor, EBUSY
 * over the stream limit, EUSERS over a member limit.  As for SUBSCRIBE
 * errors in general, the first kstat_sub_dispatch() returns it and
 * kstat_sub_last_error() has the kernel's text.  The socket leaves its
 * stream when it closes (kstat_unsubscribe()).
 */
struct kstat_sub_opts {
	size_t size;		/* sizeof(struct kstat_sub_opts) */
	uint32_t fields;	/* enum kstat_config_field: those asked for;
				 * the others take the default stream's
				 * values at the time of SUBSCRIBE
				 */
	uint32_t interval_ms;	/* KSTAT_CONFIG_INTERVAL */
	uint32_t sections;	/* KSTAT_CONFIG_SECTIONS: KSTAT_SECTION_* */
	int percpu;		/* KSTAT_CONFIG_PERCPU */
	uint32_t batch;		/* KSTAT_CONFIG_BATCH */
	uint32_t keyframe;	/* KSTAT_CONFIG_KEYFRAME */
	/* New fields go here, at the end: KSTAT_SUB_OPTS_INIT zeroes them. */
};

/* Start from this: it sets @size, which lets the struct grow. */
#define KSTAT_SUB_OPTS_INIT { .size = sizeof(struct kstat_sub_opts),	\
			      .fields = 0 }

/*
 * kstat_subscribe() with @opts: a stream of its own (NULL: the default
 * stream, as kstat_subscribe()).  @opts is read with the size it
 * carries: -EINVAL below the KSTAT_1.1 size or with unknown @fields
 * bits, -E2BIG with fields this library does not know set.
 */
int kstat_subscribe_opts_sz(struct kstat_handle *h,
			    const struct kstat_sub_ops *ops, size_t ops_size,
			    size_t cputime_size,
			    const struct kstat_sub_opts *opts, void *arg,
			    int rcvbuf, struct kstat_sub **subp);
#define kstat_subscribe_opts(h, ops, opts, arg, rcvbuf, subp)		\
	kstat_subscribe_opts_sz((h), (ops), sizeof(*(ops)),		\
				sizeof(struct kstat_cputime), (opts),	\
				(arg), (rcvbuf), (subp))
/*
 * The subscription's stream: 0 for the default stream, else the id its
 * last summary carried (0 until the first came).
 */
uint32_t kstat_sub_stream(const struct kstat_sub *sub);

/*
 * What unprivileged readers may ask of streams of their own; readers
 * with CAP_NET_ADMIN are held to KSTAT_INTERVAL_MIN_MS only.  Passed
 * with its size, as struct kstat_config.
 */
struct kstat_limits {
	uint32_t min_interval_ms;	/* shortest interval */
	uint32_t max_streams;		/* streams besides the default */
	uint32_t max_members_user;	/* own-stream members per uid */
	uint32_t max_members_net;	/* ... per network namespace */
};

/* Which fields kstat_limits_set() changes. */
enum kstat_limits_field {
	KSTAT_LIMITS_MIN_INTERVAL	= 1 << 0,
	KSTAT_LIMITS_MAX_STREAMS	= 1 << 1,
	KSTAT_LIMITS_MAX_MEMBERS_USER	= 1 << 2,
	KSTAT_LIMITS_MAX_MEMBERS_NET	= 1 << 3,
};

/* -EOPNOTSUPP: the module has no streams (older than this library). */
int kstat_limits_get_sz(struct kstat_handle *h, struct kstat_limits *l,
			size_t size);
/* Needs CAP_NET_ADMIN: -EPERM otherwise. */
int kstat_limits_set_sz(struct kstat_handle *h, const struct kstat_limits *l,
			size_t size, unsigned int fields);
#define kstat_limits_get(h, l) kstat_limits_get_sz((h), (l), sizeof(*(l)))
#define kstat_limits_set(h, l, fields) \
	kstat_limits_set_sz((h), (l), sizeof(*(l)), (fields))

/* One stream of summaries, as STATS_GET lists them. */
struct kstat_stream {
	uint32_t id;			/* 0: the default stream */
	uint32_t members;		/* sockets (0 for the default: it
					 * multicasts) */
	uint64_t samples;		/* samples sent */
	uint64_t bytes;			/* bytes sent, all members */
	uint64_t resyncs;		/* snapshots to members that overran */
	struct kstat_config config;
	uint32_t reserved;		/* 0 */
};

struct kstat_stream_list {
	size_t nr;
	struct kstat_stream *streams;	/* the default first */
	size_t stream_size;		/* bytes per streams[] element */
};

/*
 * Every stream.  @stream_size: the caller's sizeof(struct kstat_stream),
 * the stride of (*out)->streams.
 */
int kstat_stream_list_get_sz(struct kstat_handle *h,
			     struct kstat_stream_list **out,
			     size_t stream_size);
#define kstat_stream_list_get(h, out) \
	kstat_stream_list_get_sz((h), (out), sizeof(struct kstat_stream))
void kstat_stream_list_free(struct kstat_stream_list *l);

/* Is @cpu set in an online bitmap from the kernel? */
int kstat_cpu_is_online(const uint8_t *online, size_t len, unsigned int cpu);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* LIBKSTAT_H */
