/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstat internals.  The module's own names use the kst_ prefix, so that
 * they never meet the core kernel's kstat_* (kstat_irqs(), struct kstat).
 *
 * The layers, each calling only the ones below it:
 *   netlink.c   the family, the handlers of the generated op table
 *               (kstat-nl-gen.c: ops and policies, generated from
 *               docs/netlink/specs/kstat.yaml by scripts/ynl-regen.sh),
 *               the sections' GETs answered with their ops;
 *   summary.c   the periodic summary producer, over the section table;
 *   sample.c    summary messages: parts, samples, items;
 *   stream.c    the members of streams of a reader's own: who gets
 *               which stream, the limits on how many, their unicast;
 *   deliver.c   where summaries go: namespaces, multicast, unicast;
 *   request.c   dump messages, for the sections' dump ops;
 *   config.c    the summary configuration and the streams' limits:
 *               parse, encoder (their policies are generated);
 *   cpu.c, irq.c, softirq.c, arch.c
 *               one section each: the collector, the encoder of its
 *               objects (for do, dump and summary alike), and its
 *               summary ops;
 *   irqrec.c    an IRQ's per-CPU counts as a record, for irq.c's dumps
 *               and summaries, read by hint;
 *   attr.c      attribute helpers the encoders share.
 */
#ifndef _KST_INTERNAL_H
#define _KST_INTERNAL_H

#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/types.h>
#include <linux/kernel_stat.h>
#include <linux/kstat.h>
#include <linux/skbuff.h>
#include <net/netlink.h>

/* The spec's policies, op table and handler names (ynl-gen-c.py). */
#include "kstat-nl-gen.h"

struct genl_family;
struct netlink_callback;
struct net;
struct netlink_ext_ack;
struct nlattr;

/* What a request asks for besides totals; built from KSTAT_A_SEL_*. */
struct kst_sel {
	u32 flags;		/* KSTAT_F_* */
	u32 cpu_first;		/* per-CPU arrays cover cpu_first..cpu_last */
	u32 cpu_last;
};

static inline unsigned int kst_sel_nr_cpus(const struct kst_sel *sel)
{
	return sel->cpu_last - sel->cpu_first + 1;
}

/* All CPUs: what summaries carry per-CPU arrays for. */
static inline struct kst_sel kst_sel_all_cpus(u32 flags)
{
	return (struct kst_sel) {
		.flags = flags, .cpu_first = 0, .cpu_last = nr_cpu_ids - 1,
	};
}

/* ---- attr.c: per-CPU rows and arrays, the online bitmap ---------------- */

/* One counter of @obj on @cpu. */
typedef u32 (*kst_read_fn)(const void *obj, unsigned int cpu);

void kst_row_read(u32 *row, kst_read_fn read, const void *obj);
size_t kst_percpu_size(const struct kst_sel *sel);
int kst_percpu_fill(struct sk_buff *skb, int type, const struct kst_sel *sel,
		    kst_read_fn read, const void *obj);
size_t kst_online_size(void);
int kst_online_fill(struct sk_buff *skb);

/* ---- config.c: the summary configuration ------------------------------ */

struct kst_config {
	u32 interval_ms;
	u32 batch;
	u32 keyframe;
	u32 sections;		/* KSTAT_SECTION_* */
	bool percpu;		/* per-CPU IRQ counts in samples */
};

/* Fields of a CONFIG_SET, merged under the producer's lock. */
#define KST_CFG_INTERVAL	BIT(0)
#define KST_CFG_BATCH		BIT(1)
#define KST_CFG_KEYFRAME	BIT(2)
#define KST_CFG_SECTIONS	BIT(3)
#define KST_CFG_PERCPU		BIT(4)

bool kst_config_eq(const struct kst_config *a, const struct kst_config *b);
int kst_config_parse(struct nlattr **tb, struct kst_config *cfg, u32 *mask,
		     struct netlink_ext_ack *extack);
size_t kst_config_size(void);
int kst_config_fill(struct sk_buff *skb, int type,
		    const struct kst_config *cfg);

/*
 * What unprivileged readers may ask of streams of their own.  Every
 * count is per user: one uid cannot lock the others out.
 */
struct kst_limits {
	u32 min_interval_ms;
	u32 max_streams;		/* streams a uid made, alive */
	u32 max_members_user;
	u32 max_members_net;
};

#define KST_LIMITS_MIN_INTERVAL_MS	250
#define KST_LIMITS_MAX_STREAMS		4
#define KST_LIMITS_MAX_MEMBERS_USER	64
#define KST_LIMITS_MAX_MEMBERS_NET	256

int kst_limits_parse(struct nlattr **tb, struct kst_limits *lim,
		     struct netlink_ext_ack *extack);
size_t kst_limits_size(void);
int kst_limits_fill(struct sk_buff *skb, const struct kst_limits *lim);
const char *kst_limits_msg(int type);

/*
 * A refusal by limit @type (KSTAT_A_LIMITS_*).  An extack keeps a
 * pointer to its message until the ACK is built, after the handler
 * returns, so the message is a literal: it names the limit, whose value
 * CONFIG_GET shows (6.1 has no formatted extack).
 */
static inline void kst_limits_err(struct netlink_ext_ack *extack, int type)
{
	if (extack)
		extack->_msg = kst_limits_msg(type);
}

/* ---- sample.c: summary messages --------------------------------------- */

/* What every piece of a sample repeats. */
struct kst_sample_head {
	u64 seq;
	u64 ts;				/* CLOCK_BOOTTIME ns */
	u32 generation;
	bool key;			/* a keyframe */
	bool announce;			/* carries the config */
	const struct kst_config *cfg;	/* in force for this sample */
};

/* Messages being built: a multicast batch, or a snapshot for one socket. */
struct kst_builder {
	struct sk_buff_head parts;	/* finished parts */
	struct sk_buff *skb;		/* the part being filled */
	void *hdr;
	struct nlattr *sample;		/* the open sample nest in skb */
	u64 batch_seq;
	u32 portid, seq;		/* of the requester, for a snapshot */
	u32 stream;			/* KSTAT_A_SUMMARY_STREAM, 0: none */
	bool snapshot;
	size_t sample_bytes;
};

/* One sample being written into a builder. */
struct kst_writer {
	struct kst_builder *b;
	const struct kst_sample_head *h;
};

/*
 * Puts item @idx of @obj; -EMSGSIZE when the part is full.  What else it
 * returns, kst_sample_put() passes back (a chunk's count of rows).
 */
typedef int (*kst_item_fn)(struct sk_buff *skb, const struct kst_writer *w,
			   const void *obj, unsigned int idx);

void kst_builder_init(struct kst_builder *b, u32 stream);
void kst_builder_purge(struct kst_builder *b);
void kst_builder_finish(struct kst_builder *b);
int kst_sample_begin(struct kst_writer *w);
void kst_sample_end(struct kst_writer *w);
int kst_sample_put(struct kst_writer *w, kst_item_fn put, const void *obj,
		   unsigned int idx);

/* ---- request.c: GET requests, answered by the sections' get ops ------- */

/* One dumpit call: the skb being filled and its open message. */
struct kst_dump {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	void *hdr;			/* the open message, or NULL */
	unsigned int objs;		/* objects in it */
	bool first_call;		/* the dump's first dumpit call */
};

int kst_dump_open(struct kst_dump *d);
void kst_dump_end_msg(struct kst_dump *d);
int kst_dump_close(struct kst_dump *d, int err, bool complete);

/*
 * How a GET command is answered, as in ethtool: prepare reads what the
 * request selects into @data (data_size bytes, zeroed), reply_size says
 * how large its reply is, fill writes it; a fill that outgrows its size
 * is a kstat bug.  A dump prepares once, in its first dumpit call, then
 * puts objects until the skb is full (-EMSGSIZE: resume later) or the
 * dump is complete (0).  @tb and @sel are the request's attributes and
 * selection; every op with a dump has a .start that sets dump_alloc.
 */
struct kst_get_ops {
	size_t data_size;
	bool selects;			/* takes KSTAT_A_SEL_CPU_* and FLAGS */
	u32 flags_mask;			/* the KSTAT_F_* it takes (selects) */
	u16 do_required_attr;		/* KSTAT_A_* a do needs, or 0 */
	int (*prepare)(void *data, struct nlattr **tb,
		       const struct kst_sel *sel,
		       struct netlink_ext_ack *extack);
	size_t (*reply_size)(const void *data);
	int (*fill)(struct sk_buff *skb, const void *data);
	int (*dump_prepare)(void *data, struct nlattr **tb,
			    const struct kst_sel *sel,
			    struct netlink_ext_ack *extack);
	int (*dump)(struct kst_dump *d, void *data);
	/* the largest object a dump of @sel puts */
	size_t (*dump_alloc)(const struct kst_sel *sel);
	void (*cleanup)(void *data);	/* optional */
};

/*
 * ---- sections --------------------------------------------------------
 *
 * A section is one kind of counters, defined in one file: the ops that
 * answer its GET command (the spec declares the command, its policy and
 * its op; netlink.c answers it with these ops), and for the summary
 * producer a state per frame: collect reads the counters once into the
 * current frame's state of every stream due at a tick, each against its
 * own last committed one, write puts what a sample
 * of it carries (everything in a keyframe, what changed in a delta),
 * commit and discard settle what a collect pinned.  The producer knows
 * nothing else about it.  docs/adding-a-section.md says how to add one.
 */
/* One stream's state in a shared collection (kst_section.collect). */
struct mem_cgroup;

struct kst_target {
	void *cur;
	void *last;			/* NULL before the first commit */
	const struct kst_config *cfg;	/* the stream's */
	/* what growing its state allocates: set_active_memcg(), gfp */
	struct mem_cgroup *memcg;
	gfp_t gfp;
	bool renewed;			/* out: a new generation */
};

struct kst_section {
	const char *name;
	u8 get_cmd;			/* KSTAT_CMD_*_GET, 0 if none */
	struct kst_get_ops get;
	u32 sections;			/* the KSTAT_SECTION_* that sends it */
	void *(*state_alloc)(gfp_t gfp);
	/* @committed: the state is a committed frame's, holding its pins */
	void (*state_free)(void *state, bool committed);
	/*
	 * One reading of the kernel's counters into the current state of
	 * each of @n streams due at one tick (@n >= 1), each against its
	 * own last committed state: the counters are read once, whatever
	 * @n is.  On failure nothing is pinned in any of them.
	 */
	int (*collect)(struct kst_target *t, unsigned int n);
	int (*write)(struct kst_writer *w, const void *cur, const void *base);
	/* optional, for sections that pin what they collect */
	void (*commit)(void *cur, void *last);	/* @last: NULL if none */
	void (*discard)(void *cur);
};

/*
 * Each defined in its own file.  Kbuild generates their declarations and
 * sections.c's table (KST_SECTIONS_TABLE) from those definitions.
 */
#include "sections.gen.h"

extern const struct kst_section *const kst_sections[];
extern const unsigned int kst_nr_sections;

/* ---- cpu.c: CPU time in ns, with /proc/stat's idle/iowait rules ------- */

enum kst_cputime_field {
	KST_CT_USER,
	KST_CT_NICE,
	KST_CT_SYSTEM,
	KST_CT_IDLE,
	KST_CT_IOWAIT,
	KST_CT_IRQ,
	KST_CT_SOFTIRQ,
	KST_CT_STEAL,
	KST_CT_GUEST,
	KST_CT_GUEST_NICE,
	KST_CT_NR
};

struct kst_cputime {
	u64 ns[KST_CT_NR];
};

void kst_cputime_read(unsigned int cpu, struct kst_cputime *ct);
void kst_cputime_read_total(struct kst_cputime *ct);
size_t kst_cpu_size(bool with_id);
int kst_cpu_fill(struct sk_buff *skb, int type, int cpu,
		 const struct kst_cputime *ct);

/* ---- irq.c: one IRQ descriptor's counters and, on request, metadata --- */

#define KST_NAME_MAX		64
#define KST_ACTIONS_MAX		512

struct kst_irq_snap {
	unsigned long id;	/* the descriptor's identity, 0 if none */
	u32 irq;
	u64 count;		/* as kstat_irqs(); summaries extend it */
	u32 *percpu;		/* kst_sel_nr_cpus() slots, caller-owned */
	/* KSTAT_F_META only */
	bool has_hwirq;
	bool level;
	u64 hwirq;
	char chip[KST_NAME_MAX];
	char name[KST_NAME_MAX];		/* "" when the desc has none */
	char actions[KST_ACTIONS_MAX];		/* NUL-separated names */
	unsigned int actions_len;		/* bytes used in actions[] */
};

struct kst_irq_snap *kst_irq_snap_alloc(const struct kst_sel *sel, gfp_t gfp);
int kst_irq_snapshot(unsigned int irq, const struct kst_sel *sel,
		     struct kst_irq_snap *snap);
u32 kst_irq_fingerprint_mix(u32 hash, unsigned int irq, unsigned long id);
u32 kst_irq_set_fingerprint(const u32 *list, unsigned int nr,
			    unsigned int first, unsigned int last);
u64 kst_intr_sum(void);
size_t kst_irq_size(const struct kst_irq_snap *snap,
		    const struct kst_sel *sel);
int kst_irq_fill(struct sk_buff *skb, int type,
		 const struct kst_irq_snap *snap, const struct kst_sel *sel);
struct irq_desc;
void kst_desc_hold(struct irq_desc *desc);
void kst_desc_release(struct irq_desc *desc);

/* ---- irqrec.c: an IRQ's per-CPU counts as a record, read by hint ------ */

struct irq_desc;

/* Words a record may take while it is built: a pair for every CPU. */
static inline unsigned int kst_rec_max_words(unsigned int nr_cpus)
{
	return 1 + 2 * nr_cpus;
}

/* Words of the finished record at @rec. */
static inline unsigned int kst_rec_words(const u32 *rec)
{
	u32 value = rec[0] & KSTAT_CPUS_VALUE;

	switch (rec[0] & KSTAT_CPUS_KIND) {
	case KSTAT_CPUS_ONE:
		return 1;
	case KSTAT_CPUS_DENSE:
		return 1 + value;
	default:
		return 1 + 2 * value;
	}
}

void kst_irq_hints_cover(void);
void kst_irq_hints_exit(void);
u32 kst_rec_read(struct irq_desc *desc, unsigned int first, unsigned int nr,
		 u32 *rec);
unsigned int kst_rec_finish(u32 *rec, unsigned int nr, u32 count,
			    u32 *scratch);
bool kst_rec_cache_get(void);
void kst_rec_cache_put(void);
void kst_rec_cache_forget(unsigned int irq);
u32 kst_rec_read_cached(struct irq_desc *desc, unsigned int irq,
			unsigned int first, unsigned int nr, u32 *rec);
void kst_rec_cache_exit(void);

/* ---- softirq.c -------------------------------------------------------- */

const char *kst_softirq_name(unsigned int vec);
u64 kst_softirq_total(unsigned int vec);
size_t kst_softirq_size(unsigned int vec, const struct kst_sel *sel);
int kst_softirq_fill(struct sk_buff *skb, int type, unsigned int vec,
		     u64 total, const struct kst_sel *sel);

static inline u32 kst_softirq_cpu(unsigned int vec, unsigned int cpu)
{
	return kstat_softirqs_cpu(vec, cpu);
}

/* ---- arch.c: architecture counter rows of /proc/interrupts ------------ */

/*
 * One row, read from one of: a u32 field of x86's irq_stat, a per-CPU
 * counter of its own, or one atomic for all CPUs (no per-CPU counts:
 * read as if on CPU 0).
 */
struct kst_arch_counter {
	const char *name;
	const char *desc;
	size_t offset;		/* of the u32 counter in irq_stat */
	const unsigned int __percpu *pcpu;
	const atomic_t *global;
	bool in_intr_sum;	/* counted in /proc/stat's "intr" total */
};

extern const struct kst_arch_counter kst_arch_counters[];
extern const unsigned int kst_nr_arch_counters;
/* The rows this build cannot read (KSTAT_A_ARCH_UNREAD), NULL-ended. */
extern const char *const kst_arch_unread[];

u32 kst_arch_read(const struct kst_arch_counter *c, unsigned int cpu);
u64 kst_arch_total(const struct kst_arch_counter *c);
u64 kst_arch_intr_sum(unsigned int cpu);
int kst_arch_fill(struct sk_buff *skb, int type,
		  const struct kst_arch_counter *c, u64 count, bool with_desc,
		  const struct kst_sel *sel);

/* ---- stream.c: members of streams of a reader's own ------------------ */

struct kst_members {
	struct list_head list;
	unsigned int count;
	bool closed;			/* empty for good: its stream is freed */
	/* called under a spinlock when the last member leaves */
	void (*emptied)(struct kst_members *set);
};

/* What a kst_members_send() did, added to the caller's figures. */
struct kst_members_sent {
	u64 bytes;
	u64 resyncs;
	u64 failures;
};

int kst_members_init_module(void);
void kst_members_exit_module(void);
void kst_members_init(struct kst_members *set,
		      void (*emptied)(struct kst_members *set));
int kst_members_add(struct kst_members *set, struct net *net, u32 portid,
		    kuid_t uid, const struct kst_limits *lim,
		    struct netlink_ext_ack *extack);
int kst_members_remove(struct net *net, u32 portid);
void kst_members_resync(struct net *net, u32 portid);
unsigned int kst_members_nr(const struct kst_members *set);
bool kst_members_need_resync(struct kst_members *set);
bool kst_members_close(struct kst_members *set);
void kst_members_purge(struct kst_members *set);
void kst_members_send(struct kst_members *set, struct sk_buff_head *parts,
		      struct sk_buff_head *snap, const struct net *skip,
		      u32 skip_portid, struct kst_members_sent *sent);

/* ---- deliver.c: where summaries go ------------------------------------ */

int kst_deliver_init(const struct genl_family *family);
void kst_deliver_exit(void);
struct sk_buff *kst_deliver_msg_new(size_t size, u32 portid, u32 seq,
				    void **hdr);
int kst_deliver_net_admit(struct net *net, struct netlink_ext_ack *extack);
void kst_deliver_net_release(struct net *net);
int kst_deliver_net_hold(struct net *net, struct netlink_ext_ack *extack);
void kst_deliver_net_unhold(struct net *net);
void kst_deliver_net_subscribe(struct net *net);
void kst_deliver_nets_clear(void);
int kst_deliver_multicast(struct sk_buff *skb);
int kst_deliver_multicast_except(struct sk_buff *skb, struct net *skip,
				 u32 portid);
int kst_deliver_unicast(struct sk_buff_head *parts, struct net *net,
			u32 portid);
bool kst_deliver_has_listeners(void);

/* ---- summary.c: the periodic summary producer ------------------------- */

struct kst_summary_stats {
	u64 samples;
	u64 summaries;
	u64 messages;
	u64 delivery_failures;
	u64 alloc_failures;
	u64 build_ns_last;
	u64 build_ns_max;
	u64 build_ns_total;
	u64 keyframe_bytes;
	u64 delta_bytes;
	/* every stream's: shared ticks, and their whole time */
	u64 ticks;
	u64 tick_ns_total;
	u32 generation;
	bool running;
	bool listening;
};

/* One stream's figures, for STATS_GET. */
struct kst_stream_stats {
	u32 id;
	struct kst_config cfg;
	u32 members;
	u64 samples;
	u64 bytes;
	u64 resyncs;
};

/* A SUBSCRIBE: who sends it, and for a stream of its own, which. */
struct kst_sub {
	struct net *net;
	u32 portid, seq;
	kuid_t uid;
	bool priv;		/* CAP_NET_ADMIN: no limits but the floor */
	bool own;		/* with KSTAT_A_CONFIG: cfg and mask */
	struct kst_config cfg;
	u32 mask;		/* KST_CFG_* given; the others the default's */
};

int kst_summary_init(void);
void kst_summary_exit(void);
int kst_summary_subscribe(const struct kst_sub *sub,
			  struct netlink_ext_ack *extack);
int kst_summary_unsubscribe(struct net *net, u32 portid,
			    struct netlink_ext_ack *extack);
void kst_summary_get_limits(struct kst_limits *lim);
int kst_summary_set_limits(struct nlattr **tb,
			   struct netlink_ext_ack *extack);
int kst_summary_get_streams(struct kst_stream_stats **v, unsigned int *n);
void kst_summary_get_config(struct kst_config *cfg);
void kst_summary_update_config(const struct kst_config *val, u32 mask);
void kst_summary_get_stats(struct kst_summary_stats *st);

/* ---- netlink.c -------------------------------------------------------- */

int kst_netlink_init(void);
void kst_netlink_exit(void);

#endif /* _KST_INTERNAL_H */
