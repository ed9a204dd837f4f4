/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkstat: read CPU time, IRQ and softirq counters from the kstat kernel
 * module over generic netlink.
 *
 * Conventions
 * - Every function that can fail returns 0 or a negative errno.  When the
 *   kernel rejected a request, kstat_last_error() returns its explanation
 *   (the extended ACK message), else a description of the errno; every
 *   call that asks the kernel something empties it first.
 * - -ENOENT from kstat_open() means the "kstat" family is not registered:
 *   the kernel module is not loaded (kstat_wait_family() waits for it).
 * - Counts are 64-bit and never go back while an IRQ's descriptor lives
 *   (the kernel extends them).  Per-CPU counts are the kernel's own
 *   32-bit counters, which wrap as /proc/interrupts' do.  CPU time is in
 *   nanoseconds.
 * - A handle is not thread-safe; use one per thread.
 *
 * ABI (libkstat.so.2, version node KSTAT_2; libkstat.map)
 * Every public struct can grow at its end:
 * - structs the caller fills (struct kstat_query, kstat_sub_opts) carry
 *   their size in their first field, set by their *_INIT macro;
 * - structs the caller allocates and the library fills (struct
 *   kstat_config, kstat_limits, kstat_stats, kstat_sub_ops) are passed
 *   with their size by the macros over the *_sz() functions;
 * - structs the library allocates (struct kstat_sample and the elements
 *   of its arrays) carry the library's sizes: index the arrays with the
 *   kstat_sample_*() macros, which step by the library's element size,
 *   never with [].
 * In: a caller's struct larger than the library knows is accepted when
 * the part it does not know is zero, else -E2BIG; smaller than the 2.0
 * size, -EINVAL.  Out: the library fills what fits the caller's size.
 */
#ifndef LIBKSTAT_H
#define LIBKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/kstat.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

struct kstat_handle;

/* ---- the connection ---- */

/* Connect to the kstat family.  -ENOENT: module not loaded. */
int kstat_open(struct kstat_handle **hp);
void kstat_close(struct kstat_handle *h);
/*
 * Why the last call of the calling thread that had no handle to report
 * to failed (kstat_open(), kstat_subscribe(), kstat_wait_family()); ""
 * after a success.  Thread-local.
 */
const char *kstat_open_error(void);
/* Why the last call on @h failed ("" after a success). */
const char *kstat_last_error(const struct kstat_handle *h);

/*
 * The module's protocol version (CTRL_ATTR_VERSION).  The library
 * accepts any version from KSTAT_FAMILY_VERSION's base, 5, on: later
 * ones only add.  An older module is refused with -EPROTO.
 */
unsigned int kstat_family_version(const struct kstat_handle *h);
int kstat_family_id(const struct kstat_handle *h);

/*
 * Wait until the kstat family is registered: 0 when it is, -ETIMEDOUT
 * after @timeout_ms (-1: no limit), -EINTR when a signal arrived.
 */
int kstat_wait_family(int timeout_ms);

/*
 * How long a blocking call on @h waits for the kernel before it gives up
 * with -ETIMEDOUT (default 10000 ms; -1: no limit; 0: take only an
 * answer there at once, without waiting).
 */
void kstat_set_timeout(struct kstat_handle *h, int timeout_ms);

/* ---- reading the counters: GET ---- */

/*
 * What a GET selects.  Start from KSTAT_QUERY_INIT; -1 means "not set":
 * all IRQs, every CPU id.
 */
struct kstat_query {
	size_t size;			/* sizeof(struct kstat_query) */
	uint32_t sections;		/* KSTAT_SECTION_*; 0: all */
	uint32_t flags;			/* KSTAT_F_PERCPU, KSTAT_F_META */
	int64_t irq_first, irq_last;	/* an IRQ range, or */
	const uint32_t *irqs;		/* a list of IRQs (not both) */
	size_t nr_irqs;
	int64_t cpu_first, cpu_last;	/* CPU ids of per-CPU detail */
	/* New fields go here, at the end: KSTAT_QUERY_INIT sets them. */
};

#define KSTAT_QUERY_INIT { .size = sizeof(struct kstat_query),		\
			   .sections = 0, .flags = 0,			\
			   .irq_first = -1, .irq_last = -1,		\
			   .irqs = NULL, .nr_irqs = 0,			\
			   .cpu_first = -1, .cpu_last = -1 }

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

/* CPU time of one CPU, or of all of them (@cpu -1). */
struct kstat_cputime {
	int32_t cpu;
	uint32_t reserved;
	uint64_t ns[KSTAT_CPUTIME_NR];	/* user and nice include guest time,
					 * as in /proc/stat */
};

/* One CPU's count: per-CPU counts are lists of the non-zero ones. */
struct kstat_cpu_count {
	uint32_t cpu;			/* CPU id */
	uint32_t count;			/* the kernel's 32-bit counter */
};

/*
 * @cpu's count in a per-CPU list (0 when not listed): a binary search,
 * for callers that print every CPU.
 */
uint32_t kstat_percpu_at(const struct kstat_cpu_count *percpu, size_t nr,
			 uint32_t cpu);

struct kstat_irq {
	uint32_t irq;
	uint32_t nr_percpu;
	uint64_t count;
	const struct kstat_cpu_count *percpu;	/* with KSTAT_F_PERCPU */
	/* with KSTAT_F_META, from a GET; NULL / 0 otherwise */
	const char *chip;
	const char *name;		/* flow handler, e.g. "edge" */
	const char *const *actions;
	size_t nr_actions;
	uint64_t hwirq;
	int has_hwirq;
	int level;			/* 1 level-triggered, 0 edge */
	int has_meta;
};

struct kstat_softirq {
	uint32_t vec;
	uint32_t nr_percpu;
	const char *name;		/* "HI", "TIMER", ... */
	uint64_t count;
	const struct kstat_cpu_count *percpu;
};

/* An architecture row of /proc/interrupts (x86: NMI, LOC, ...). */
struct kstat_arch {
	const char *name;
	const char *desc;
	uint64_t count;
	const struct kstat_cpu_count *percpu;
	uint32_t nr_percpu;
	uint32_t reserved;
};

/*
 * One reading of the counters: what a GET answered, or a sample of a
 * subscription.  The library allocates it; read its arrays with the
 * kstat_sample_*() macros.
 */
struct kstat_sample {
	size_t size;			/* the library's sizeof */
	uint64_t seq;			/* its stream's; 0 from a GET */
	uint64_t timestamp_ns;		/* CLOCK_BOOTTIME of the reading */
	uint32_t generation;		/* changes with the IRQ set or the
					 * online CPUs */
	uint32_t sections;		/* KSTAT_SECTION_* it carries */
	int from_get;			/* read by a GET: a subscription's
					 * first sample, the state on joining */
	uint32_t cpu_first;		/* first CPU id of per-CPU detail */

	/* KSTAT_SECTION_CPU */
	const struct kstat_cputime *cpu_total;	/* all CPUs, or NULL */
	const void *cpus;		/* each CPU's (with percpu), ascending */
	size_t nr_cpus, cputime_size;

	/* KSTAT_SECTION_IRQ */
	const void *irqs;		/* ascending IRQ numbers */
	size_t nr_irqs, irq_size;
	const void *arch;
	size_t nr_arch, arch_size;
	uint64_t intr_sum;		/* /proc/stat's "intr", less arch_unread */
	uint32_t kernel_nr_irqs;	/* the kernel's nr_irqs */
	uint32_t reserved;
	const uint8_t *online;		/* online CPU bitmap */
	size_t online_len;
	const char *arch_unread;	/* rows the module cannot read,
					 * space-separated ("MCE MCP ERR MIS"),
					 * or NULL */

	/* KSTAT_SECTION_SOFTIRQ */
	const void *softirqs;
	size_t nr_softirqs, softirq_size;

	/*
	 * KSTAT_F_PERCPU: it carries per-CPU detail (a per-CPU record, or
	 * each CPU's row), so an absent per-CPU list means all zeros;
	 * KSTAT_F_META: IRQ descriptions.
	 */
	uint32_t flags;
	/* New fields go here, at the end. */
};

#define kstat_sample_cpu(s, i)						\
	((const struct kstat_cputime *)((const char *)(s)->cpus +	\
					(size_t)(i) * (s)->cputime_size))
#define kstat_sample_irq(s, i)						\
	((const struct kstat_irq *)((const char *)(s)->irqs +		\
				    (size_t)(i) * (s)->irq_size))
#define kstat_sample_arch(s, i)						\
	((const struct kstat_arch *)((const char *)(s)->arch +		\
				     (size_t)(i) * (s)->arch_size))
#define kstat_sample_softirq(s, i)					\
	((const struct kstat_softirq *)((const char *)(s)->softirqs +	\
					(size_t)(i) * (s)->softirq_size))

/* The IRQ numbered @irq in @s, or NULL: a binary search. */
const struct kstat_irq *kstat_sample_find_irq(const struct kstat_sample *s,
					      uint32_t irq);
/* Is @cpu set in @s's online bitmap? */
int kstat_cpu_is_online(const struct kstat_sample *s, unsigned int cpu);

/*
 * Read what @q selects (a dump: one reading, however many messages) and
 * wait for it, at most the handle's timeout.  @q NULL: everything,
 * totals only.  *@out is freed with kstat_sample_free().  A signal
 * ends the wait with -EINTR (the GET is given up), as do the other
 * calls that wait for the kernel.
 */
int kstat_get(struct kstat_handle *h, const struct kstat_query *q,
	      struct kstat_sample **out);
void kstat_sample_free(struct kstat_sample *s);

/*
 * The same, for an event loop: kstat_get_send() sends the request and
 * returns; poll kstat_fd() for POLLIN and call kstat_get_recv(), which
 * reads what is queued without blocking: -EAGAIN until the answer is
 * whole, then 0 and *@out.  One GET at a time per handle (-EBUSY).
 */
int kstat_get_send(struct kstat_handle *h, const struct kstat_query *q);
int kstat_fd(const struct kstat_handle *h);
int kstat_get_recv(struct kstat_handle *h, struct kstat_sample **out);

/* ---- the default stream's configuration, limits, telemetry ---- */

struct kstat_config {
	uint32_t interval_ms;		/* 10 .. 60000 */
	uint32_t batch;			/* samples sent together, 1 .. 64 */
	uint32_t sections;		/* KSTAT_SECTION_* */
	int percpu;			/* per-CPU detail in samples */
	int netns;			/* answer outside the initial netns */
};

/* Which fields kstat_config_set() changes, and kstat_sub_opts asks. */
enum kstat_config_field {
	KSTAT_CONFIG_INTERVAL	= 1 << 0,
	KSTAT_CONFIG_BATCH	= 1 << 1,
	KSTAT_CONFIG_SECTIONS	= 1 << 2,
	KSTAT_CONFIG_PERCPU	= 1 << 3,
	KSTAT_CONFIG_NETNS	= 1 << 4,
};

int kstat_config_get_sz(struct kstat_handle *h, struct kstat_config *cfg,
			size_t size);
/* Needs CAP_NET_ADMIN: -EPERM otherwise. */
int kstat_config_set_sz(struct kstat_handle *h, const struct kstat_config *cfg,
			size_t size, unsigned int fields);
#define kstat_config_get(h, cfg) \
	kstat_config_get_sz((h), (cfg), sizeof(*(cfg)))
#define kstat_config_set(h, cfg, fields) \
	kstat_config_set_sz((h), (cfg), sizeof(*(cfg)), (fields))

/* What subscribers without CAP_NET_ADMIN may ask. */
struct kstat_limits {
	uint32_t min_interval_ms;	/* the interval floor */
	uint32_t max_subscriptions;	/* own subscriptions per uid */
};

enum kstat_limits_field {
	KSTAT_LIMITS_MIN_INTERVAL	= 1 << 0,
	KSTAT_LIMITS_MAX_SUBSCRIPTIONS	= 1 << 1,
};

int kstat_limits_get_sz(struct kstat_handle *h, struct kstat_limits *l,
			size_t size);
int kstat_limits_set_sz(struct kstat_handle *h, const struct kstat_limits *l,
			size_t size, unsigned int fields);
#define kstat_limits_get(h, l) kstat_limits_get_sz((h), (l), sizeof(*(l)))
#define kstat_limits_set(h, l, fields) \
	kstat_limits_set_sz((h), (l), sizeof(*(l)), (fields))

struct kstat_stats {
	uint64_t ticks;			/* readings of the counters */
	uint64_t tick_ns_total;
	uint64_t tick_ns_max;
	uint64_t samples;		/* samples sent */
	uint64_t messages;
	uint64_t bytes;
	uint64_t delivery_failures;	/* messages some reader missed */
	uint64_t alloc_failures;
	uint32_t subscriptions;		/* with a config of their own */
	uint32_t interval_ms;		/* the producer's tick */
	uint32_t generation;
	int running;
	int listening;			/* the default stream has listeners */
};

int kstat_stats_get_sz(struct kstat_handle *h, struct kstat_stats *st,
		       size_t size);
#define kstat_stats_get(h, st) kstat_stats_get_sz((h), (st), sizeof(*(st)))

/* ---- subscriptions ----
 *
 * A subscription has its own socket.  Without options it joins the
 * default stream (the "summary" group, at the admin's configuration);
 * with options it is the socket's own: its interval (down to the
 * limits' floor without CAP_NET_ADMIN), sections and per-CPU choice,
 * whatever the admin sets later.
 *
 * Every sample is whole (absolute counts), so the callback gets each
 * one as the kernel sent it.  The first one comes at once: on joining,
 * the library reads the same sections with a GET (from_get set), then
 * passes on what the kernel pushes.  A sample split in parts is passed
 * on when all its parts have come.
 *
 * Loss is never silent: ops->lost(n, why) comes before the next sample
 * with n the samples missed (from the gap in seq): KSTAT_LOST_OVERRUN if
 * the socket's buffer overflowed, KSTAT_LOST_GAP otherwise.  A sample
 * whose parts did not all come is KSTAT_LOST_PARTIAL (n 1).  Nothing else
 * is needed to recover: the next sample is whole.
 *
 * The module may go away and come back: ops->family(0) when it goes,
 * and when it is back the library joins again, reads the state with a
 * GET, calls ops->family(1), then ops->lost(0, KSTAT_LOST_RELOAD) before
 * that sample: every count restarted with the module.  A module older
 * than the protocol's base is not joined: ops->lost(0,
 * KSTAT_LOST_VERSION), and kstat_sub_dispatch() returns -EPROTO once,
 * kstat_sub_last_error() saying what to install.
 *
 * A receive buffer that cannot hold one sample is said: ops->warning()
 * (or stderr) with the size needed, and after 8 samples lost so in a
 * row kstat_sub_dispatch() returns -ENOBUFS.
 *
 * Callbacks run inside kstat_sub_dispatch() / kstat_sub_loop(); they may
 * call kstat_sub_break() and kstat_unsubscribe() (the dispatch frees it
 * on its way out), and must not keep the sample.
 */
enum kstat_lost_reason {
	KSTAT_LOST_GAP,		/* sequence numbers jumped */
	KSTAT_LOST_OVERRUN,	/* the socket buffer overflowed (ENOBUFS) */
	KSTAT_LOST_PARTIAL,	/* a sample arrived without all its parts */
	KSTAT_LOST_RELOAD,	/* the module was reloaded: counts restart */
	KSTAT_LOST_VERSION,	/* a module of an older protocol: nothing
				 * comes until one of this library's base */
};

/* "gap", "overrun", "partial", "reload", "version"; else "unknown". */
const char *kstat_lost_reason_name(enum kstat_lost_reason why);

struct kstat_sub_ops {
	/* A whole sample; valid until the callback returns. */
	void (*sample)(const struct kstat_sample *s, void *arg);
	void (*lost)(uint64_t lost, enum kstat_lost_reason why, void *arg);
	/* The module went away (0) or came back (1).  May be NULL. */
	void (*family)(int present, void *arg);
	/* Advice for the user; NULL: a "libkstat: warning: " line on stderr. */
	void (*warning)(const char *msg, void *arg);
	/* New callbacks go here, at the end (passed with the size). */
};

/* Flags of struct kstat_sub_opts. */
enum kstat_sub_flags {
	/*
	 * Start without the module: the subscription waits for the family
	 * (ops->family(1) when it comes) instead of failing with -ENOENT.
	 */
	KSTAT_SUB_WAIT		= 1 << 0,
};

/* Start from KSTAT_SUB_OPTS_INIT. */
struct kstat_sub_opts {
	size_t size;		/* sizeof(struct kstat_sub_opts) */
	uint32_t fields;	/* KSTAT_CONFIG_INTERVAL, _SECTIONS, _PERCPU
				 * asked for (0: the default stream); the
				 * others take the default stream's values */
	uint32_t interval_ms;
	uint32_t sections;
	int percpu;
	uint32_t flags;		/* enum kstat_sub_flags */
	int rcvbuf;		/* socket receive buffer, bytes; 0: default */
	/* New fields go here, at the end: KSTAT_SUB_OPTS_INIT zeroes them. */
};

#define KSTAT_SUB_OPTS_INIT { .size = sizeof(struct kstat_sub_opts),	\
			      .fields = 0, .flags = 0, .rcvbuf = 0 }

/* Default receive buffer: SO_RCVBUFFORCE, else SO_RCVBUF (rmem_max). */
#define KSTAT_SUB_RCVBUF_DEFAULT	(4 << 20)

struct kstat_sub;

/*
 * Subscribe (@opts NULL: the default stream).  It does not wait for the
 * kernel: the fd is readable at once and the first dispatch delivers
 * the first sample, or the kernel's refusal as a negative errno (with
 * kstat_sub_last_error()).  On failure here, kstat_open_error() says why.
 */
int kstat_subscribe_sz(const struct kstat_sub_ops *ops, size_t ops_size,
		       const struct kstat_sub_opts *opts, void *arg,
		       struct kstat_sub **subp);
#define kstat_subscribe(ops, opts, arg, subp) \
	kstat_subscribe_sz((ops), sizeof(*(ops)), (opts), (arg), (subp))
void kstat_unsubscribe(struct kstat_sub *sub);
/* The fd to poll for POLLIN (level-triggered). */
int kstat_sub_fd(const struct kstat_sub *sub);
/*
 * Handle what is queued without blocking, at most 16 messages a call:
 * the samples delivered, or -errno.
 */
int kstat_sub_dispatch(struct kstat_sub *sub);
/*
 * Block and dispatch until kstat_sub_break(), unsubscribe, an error, or
 * a signal: 0, or -errno (-EINTR for a signal).
 */
int kstat_sub_loop(struct kstat_sub *sub);
void kstat_sub_break(struct kstat_sub *sub);
/* Samples reported lost so far. */
uint64_t kstat_sub_lost(const struct kstat_sub *sub);
/* The receive buffer the kernel granted, bytes. */
int kstat_sub_rcvbuf(const struct kstat_sub *sub);
/* Why the last dispatch failed ("" after one that succeeded). */
const char *kstat_sub_last_error(const struct kstat_sub *sub);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* LIBKSTAT_H */
