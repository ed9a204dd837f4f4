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
 */
#ifndef LIBKSTAT_H
#define LIBKSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/kstat.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kstat_handle;

/* Connect to the kstat family.  -ENOENT: module not loaded. */
int kstat_open(struct kstat_handle **hp);
void kstat_close(struct kstat_handle *h);

/* Why the last call on @h failed: the kernel's message when it sent one. */
const char *kstat_last_error(const struct kstat_handle *h);

/* The kernel family's version (KSTAT_FAMILY_VERSION it registered). */
unsigned int kstat_family_version(const struct kstat_handle *h);

/*
 * What a request selects; mirrors the kernel's KSTAT_A_SEL_* attributes.
 * Start from KSTAT_FILTER_INIT: -1 means "not set, kernel default".
 */
struct kstat_filter {
	uint32_t flags;			/* KSTAT_F_* */
	const uint32_t *irqs;		/* IRQ list for dumps, or NULL */
	size_t nr_irqs;
	int64_t irq_first, irq_last;	/* IRQ range for dumps */
	int64_t cpu_first, cpu_last;	/* range of per-CPU arrays */
};

#define KSTAT_FILTER_INIT { .flags = 0, .irqs = NULL, .nr_irqs = 0,	\
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

struct kstat_cputime {
	int cpu;				/* -1: sum over all CPUs */
	uint64_t ns[KSTAT_CPUTIME_NR];		/* nanoseconds */
};

/* One CPU, or with @cpu == -1 the sum over all possible CPUs. */
int kstat_cpu_get(struct kstat_handle *h, int cpu, struct kstat_cputime *out);

struct kstat_cpu_list {
	size_t nr;
	struct kstat_cputime *cpus;		/* online CPUs, ascending */
};

int kstat_cpu_list_get(struct kstat_handle *h, struct kstat_cpu_list **out);
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

/* Is @cpu set in an online bitmap from the kernel? */
int kstat_cpu_is_online(const uint8_t *online, size_t len, unsigned int cpu);

/*
 * Parsers, exposed for tests and tools that bring their own socket: parse
 * one reply message (struct nlmsghdr *) into a list, appending.
 */
struct nlmsghdr;
int kstat_parse_cpu_msg(const struct nlmsghdr *nlh, struct kstat_cpu_list *l);
int kstat_parse_irq_msg(const struct nlmsghdr *nlh, struct kstat_irq_list *l);
int kstat_parse_softirq_msg(const struct nlmsghdr *nlh,
			    struct kstat_softirq_list *l);

#ifdef __cplusplus
}
#endif

#endif /* LIBKSTAT_H */
