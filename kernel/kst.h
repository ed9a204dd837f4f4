/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstat internals.  The module's own names use the kst_ prefix, so that
 * they never meet the core kernel's kstat_* (kstat_irqs(), struct kstat).
 * docs/design.md says why each concept exists; docs/protocol.md is the
 * wire format.
 *
 *   netlink.c   the family, the handlers of the generated op table
 *               (kstat-nl-gen.c), GET do and dump, the namespace gate;
 *   sample.c    a reading: collect, size and fill over the sections,
 *               the message header, a sample's parts;
 *   cpu.c, irq.c (with arch.c), softirq.c
 *               the sections: each collects its counters into a reading
 *               and has one fill per object, for replies, dumps and
 *               samples alike;
 *   record.c    per-CPU records and the 64-bit extension of counts;
 *   producer.c  the summary producer: the default stream, subscriptions,
 *               the tick, delivery, stats;
 *   config.c    the default stream's config and the limits.
 */
#ifndef _KST_H
#define _KST_H

#include <linux/mutex.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/genetlink.h>

/* The spec's policies, op table and handler names (ynl-gen-c.py). */
#include "kstat-nl-gen.h"

#define KST_ALL_SECTIONS \
	(KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ)

/* What a reader gets of a reading: sections and KSTAT_F_* flags. */
struct kst_view {
	u32 sections;
	u32 flags;
};

/* What a reading reads: a GET's request, or the producer's union. */
struct kst_req {
	struct kst_view view;
	u32 cpu_first, cpu_last;	/* per-CPU rows and records */
	u32 irq_first, irq_last;	/* a range, when irq_list is NULL */
	u32 *irq_list;			/* ascending, each once */
	u32 nr_irq_list;
};

enum { KST_SEC_CPU, KST_SEC_IRQ, KST_SEC_SOFTIRQ, KST_NR_SECS };

/* One reading of the counters: what the sections collected, and when. */
struct kst_reading {
	struct kst_view view;		/* what was collected */
	u32 cpu_first, cpu_last;
	u64 ts;				/* CLOCK_BOOTTIME ns */
	u32 generation;
	u8 *online;			/* kst_online_bytes() bytes */
	void *data[KST_NR_SECS];	/* each section's */
};

static inline unsigned int kst_nr_cpus(const struct kst_reading *r)
{
	return r->cpu_last - r->cpu_first + 1;
}

/* Where a fill stands: the section, its step, the next object's index. */
struct kst_pos {
	u32 sec;
	u32 step;
	u32 idx;
};

/*
 * A section: collect reads what @req asks into its own data (ERR_PTR on
 * failure); size is the exact bytes of the objects of view @v; fill puts
 * them from @pos->step and @pos->idx on, until the skb is full (-EMSGSIZE,
 * @pos at the next object) or done (0); max_object bounds one object (a
 * dump's buffer, a part of its own).  The view is a subset of what was
 * collected.
 */
struct kst_section {
	u32 bit;			/* KSTAT_SECTION_* */
	void *(*collect)(struct kst_reading *r, const struct kst_req *req,
			 gfp_t gfp);
	size_t (*size)(const struct kst_reading *r, const void *data,
		       const struct kst_view *v);
	size_t (*max_object)(const struct kst_reading *r,
			     const struct kst_view *v);
	int (*fill)(struct sk_buff *skb, const struct kst_reading *r,
		    const void *data, const struct kst_view *v,
		    struct kst_pos *pos);
	void (*release)(void *data);
};

extern const struct kst_section kst_cpu_section;
extern const struct kst_section kst_irq_section;
extern const struct kst_section kst_softirq_section;

/* ---- sample.c ----------------------------------------------------------- */

/* A sample's own header attributes (NULL for GET replies). */
struct kst_sample_hdr {
	u64 seq;
	u32 part, parts;
};

size_t kst_msg_bytes(size_t payload);
size_t kst_online_bytes(void);
struct kst_reading *kst_collect(const struct kst_req *req, gfp_t gfp);
void kst_reading_free(struct kst_reading *r);
size_t kst_header_size(bool sample);
int kst_header_put(struct sk_buff *skb, const struct kst_reading *r,
		   const struct kst_sample_hdr *h);
size_t kst_size(const struct kst_reading *r, const struct kst_view *v);
size_t kst_max_object(const struct kst_reading *r, const struct kst_view *v);
int kst_fill(struct sk_buff *skb, const struct kst_reading *r,
	     const struct kst_view *v, struct kst_pos *pos);
int kst_sample_build(const struct kst_reading *r, const struct kst_view *v,
		     struct sk_buff_head *parts);
void kst_sample_set_seq(struct sk_buff *skb, u64 seq);

/* ---- record.c: per-CPU records, 64-bit counts --------------------------- */

/* Records of consecutive objects, one after another in words[]. */
struct kst_recs {
	u32 *words;
	u32 *off;			/* object i at off[i] .. off[i + 1] */
	size_t used, cap;		/* words */
	unsigned int nr;		/* objects recorded */
};

int kst_recs_init(struct kst_recs *rs, unsigned int objs, gfp_t gfp);
int kst_recs_reserve(struct kst_recs *rs, size_t words, gfp_t gfp);
void kst_recs_add(struct kst_recs *rs, const u32 *row, unsigned int nr);
void kst_recs_free(struct kst_recs *rs);

static inline size_t kst_rec_words(const struct kst_recs *rs,
				   unsigned int first, unsigned int n)
{
	return rs->off[first + n] - rs->off[first];
}

int kst_rec_put(struct sk_buff *skb, int type, const struct kst_recs *rs,
		unsigned int i);

/* A count the kernel keeps as per-CPU u32s, extended to 64 bits. */
struct kst_ext {
	u64 total;
	u32 last;
	bool seen;
};

/*
 * Serializes every extension: the IRQ identity table, the softirq and
 * arch totals, the generation and the online mask it follows.
 */
extern struct mutex kst_count_lock;
extern u32 kst_generation;

void kst_generation_bump(void);
u64 kst_ext_update(struct kst_ext *e, u32 sum32, u64 sum64);
u32 kst_row_read(u32 *row, u32 (*read)(const void *obj, unsigned int cpu),
		 const void *obj, u64 *sum64);

/* ---- irq.c, arch.c ------------------------------------------------------ */

void kst_irq_exit(void);

struct kst_arch_data;
struct kst_arch_data *kst_arch_collect(const struct kst_reading *r,
				       u32 *row, gfp_t gfp);
void kst_arch_free(struct kst_arch_data *d);
u64 kst_arch_intr_sum(const struct kst_arch_data *d);
unsigned int kst_arch_rows(void);
size_t kst_arch_size(const struct kst_arch_data *d, unsigned int i,
		     bool percpu);
size_t kst_arch_max_size(const struct kst_reading *r, bool percpu);
int kst_arch_fill(struct sk_buff *skb, const struct kst_arch_data *d,
		  unsigned int i, bool percpu);
size_t kst_arch_unread_size(void);
int kst_arch_unread_fill(struct sk_buff *skb);

/* ---- config.c ----------------------------------------------------------- */

struct kst_config {
	u32 interval_ms;
	u32 batch;
	u32 sections;
	bool percpu;
	bool netns;
};

struct kst_limits {
	u32 min_interval_ms;
	u32 max_subscriptions;
};

/* The fields a CONFIG_SET or SUBSCRIBE gave. */
#define KST_CFG_INTERVAL	BIT(0)
#define KST_CFG_BATCH		BIT(1)
#define KST_CFG_SECTIONS	BIT(2)
#define KST_CFG_PERCPU		BIT(3)
#define KST_CFG_NETNS		BIT(4)
#define KST_LIM_INTERVAL	BIT(5)
#define KST_LIM_SUBS		BIT(6)

extern const struct kst_config kst_config_default;
extern const struct kst_limits kst_limits_default;

int kst_config_parse(const struct nlattr *nest, struct kst_config *cfg,
		     u32 *mask, struct netlink_ext_ack *extack);
int kst_limits_parse(const struct nlattr *nest, struct kst_limits *lim,
		     u32 *mask, struct netlink_ext_ack *extack);
void kst_config_merge(struct kst_config *cfg, struct kst_limits *lim,
		      const struct kst_config *ncfg,
		      const struct kst_limits *nlim, u32 mask);
size_t kst_config_size(void);
int kst_config_fill(struct sk_buff *skb, const struct kst_config *cfg,
		    const struct kst_limits *lim);

/* ---- producer.c ---------------------------------------------------------- */

struct kst_stats {
	u64 ticks, tick_ns_total, tick_ns_max;
	u64 samples, messages, bytes;
	u64 delivery_failures, alloc_failures;
	u32 subscriptions, interval_ms, generation;
	bool running, listening;
};

/* A SUBSCRIBE with a config: who asks, and what. */
struct kst_sub {
	struct net *net;
	u32 portid;
	kuid_t uid;
	bool priv;			/* CAP_NET_ADMIN: no limits */
	struct kst_config cfg;
	u32 mask;			/* KST_CFG_* given */
};

void kst_producer_init(void);
void kst_producer_stop(void);
void kst_producer_exit(void);
bool kst_netns_open(void);
int kst_subscribe_default(struct netlink_ext_ack *extack);
int kst_subscribe(const struct kst_sub *sub, struct netlink_ext_ack *extack);
int kst_unsubscribe(struct net *net, u32 portid,
		    struct netlink_ext_ack *extack);
void kst_config_get(struct kst_config *cfg, struct kst_limits *lim);
void kst_config_set(const struct kst_config *cfg,
		    const struct kst_limits *lim, u32 mask);
void kst_stats_get(struct kst_stats *st);
size_t kst_stats_size(void);
int kst_stats_fill(struct sk_buff *skb, const struct kst_stats *st);
int kst_members_init(void);
void kst_members_exit(void);

/* ---- netlink.c ---------------------------------------------------------- */

extern struct genl_family kst_family;

int kst_netlink_init(void);
void kst_netlink_exit(void);

#endif /* _KST_H */
