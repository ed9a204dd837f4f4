// SPDX-License-Identifier: GPL-2.0
/*
 * kstat IRQ collector.  Reads IRQ descriptors the way kernel/irq/proc.c and
 * kernel/irq/irqdesc.c do, through exported interfaces only.
 *
 * Descriptors are freed after an RCU grace period (SPARSE_IRQ), so looking
 * one up and reading its counters under rcu_read_lock() is safe.  Action
 * names belong to drivers and may go away with free_irq(), which unlinks
 * the action under desc->lock: they are copied under that lock.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/jhash.h>
#include <linux/kernel_stat.h>
#include <linux/kobject.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "kst.h"
#include "compat.h"

/*
 * Caller holds rcu_read_lock().  A descriptor /proc/interrupts hides
 * (IRQ_HIDDEN: an IPI's muxed vector, say) is not seen here either; its
 * interrupts stay in the "intr" total, as in /proc/stat.
 */
static struct irq_desc *kst_irq_to_desc(unsigned int irq)
{
	struct irq_data *data = irq_get_irq_data(irq);
	struct irq_desc *desc = data ? irq_data_to_desc(data) : NULL;

	if (desc && (READ_ONCE(desc->status_use_accessors) & IRQ_HIDDEN))
		return NULL;
	return desc;
}

/*
 * As kstat_irqs(): per-CPU IRQs are summed over CPUs (32-bit, wrapping like
 * the kernel's sum); every other IRQ has its total in tot_count, so no
 * per-CPU walk is needed.  The kernel also sums NMI descriptors, a state
 * modules cannot see; x86 has no NMI descriptors.
 */
static u32 kst_desc_count(struct irq_desc *desc)
{
	unsigned int cpu;
	u32 sum = 0;

	if (!desc->kstat_irqs)
		return 0;
	if (!(desc->status_use_accessors & (IRQ_PER_CPU | IRQ_PER_CPU_DEVID)))
		/* data_race: bumped locklessly; kstat_irqs() reads it so */
		return data_race(desc->tot_count);

	for_each_possible_cpu(cpu)
		sum += kst_desc_cpu_count(desc, cpu);
	return sum;
}

static void kst_desc_percpu(struct irq_desc *desc,
			    const struct kst_sel *sel, u32 *out)
{
	unsigned int cpu, i = 0;

	for (cpu = sel->cpu_first; cpu <= sel->cpu_last; cpu++, i++)
		out[i] = desc->kstat_irqs ? kst_desc_cpu_count(desc, cpu) : 0;
}

/* The sum of @nr counts, wrapping at 2^32 as the kernel's. */
static u32 kst_row_sum(const u32 *row, unsigned int nr)
{
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < nr; i++)
		sum += row[i];
	return sum;
}

/* Does @sel cover every CPU id?  Then an IRQ's count is its records' sum. */
static bool kst_sel_all(const struct kst_sel *sel)
{
	return !sel->cpu_first && sel->cpu_last == nr_cpu_ids - 1;
}

/*
 * A nest's record, from the dense row @row of @nr counts a snapshot read:
 * the same forms as kst_rec_finish() picks.  Into @out when not NULL;
 * returns its words.
 */
static unsigned int kst_row_rec(const u32 *row, unsigned int nr, u32 count,
				u32 *out)
{
	unsigned int i, k = 0, one = 0;

	for (i = 0; i < nr; i++)
		if (row[i]) {
			k++;
			one = i;
		}
	if (k == 1 && row[one] == count) {
		if (out)
			out[0] = KSTAT_CPUS_ONE | one;
		return 1;
	}
	if (nr < 2 * k) {
		if (out) {
			out[0] = KSTAT_CPUS_DENSE | nr;
			memcpy(out + 1, row, nr * sizeof(u32));
		}
		return 1 + nr;
	}
	if (!out)
		return 1 + 2 * k;
	out[0] = KSTAT_CPUS_PAIRS | k;
	for (i = 0, k = 0; i < nr; i++)
		if (row[i]) {
			out[1 + 2 * k] = i;
			out[2 + 2 * k++] = row[i];
		}
	return 1 + 2 * k;
}

/* Bytes of a nest's record with its length, or 0 if the array is smaller. */
static size_t kst_nest_rec_size(const struct kst_irq_snap *snap,
				const struct kst_sel *sel)
{
	unsigned int nr = kst_sel_nr_cpus(sel);
	size_t rec = nla_total_size(sizeof(u32)) +
		     nla_total_size(kst_row_rec(snap->percpu, nr,
						(u32)snap->count, NULL) *
				    sizeof(u32));

	return rec < nla_total_size(nr * sizeof(u32)) ? rec : 0;
}

/* A nest's per-CPU counts: a record where smaller, else the array. */
static int kst_nest_percpu_put(struct sk_buff *skb,
			       const struct kst_irq_snap *snap,
			       const struct kst_sel *sel)
{
	unsigned int nr = kst_sel_nr_cpus(sel), words;
	struct nlattr *attr;

	if (!kst_nest_rec_size(snap, sel))
		return nla_put(skb, KSTAT_A_IRQ_PERCPU, nr * sizeof(u32),
			       snap->percpu);
	words = kst_row_rec(snap->percpu, nr, (u32)snap->count, NULL);
	if (nla_put_u32(skb, KSTAT_A_IRQ_NR_CPUS, nr))
		return -EMSGSIZE;
	attr = nla_reserve(skb, KSTAT_A_IRQ_CPUS, words * sizeof(u32));
	if (!attr)
		return -EMSGSIZE;
	kst_row_rec(snap->percpu, nr, (u32)snap->count, nla_data(attr));
	return 0;
}

static void kst_copy_actions(struct irq_desc *desc,
			     struct kst_irq_snap *snap)
{
	struct irqaction *action;
	size_t room = sizeof(snap->actions), len;
	char *p = snap->actions;

	for (action = desc->action; action; action = action->next) {
		if (!action->name)
			continue;
		len = strnlen(action->name, KST_NAME_MAX - 1) + 1;
		/* Keep whole names only; KST_ACTIONS_MAX bounds a reply. */
		if (len > room)
			break;
		memcpy(p, action->name, len - 1);
		p[len - 1] = '\0';
		p += len;
		room -= len;
	}
	snap->actions_len = p - snap->actions;
}

/*
 * Under desc->lock: the chip's column of /proc/interrupts, with the same
 * fallbacks, and in the chip's own words where it prints them itself
 * (irq_print_chip(), into a seq_file over @buf), spaces trimmed.
 */
static void kst_desc_chip(struct irq_desc *desc, char *buf, size_t len)
{
	struct irq_chip *chip = desc->irq_data.chip;
	struct seq_file m = { .buf = buf, .size = len - 1 };
	char *p;

	if (!chip || !chip->irq_print_chip) {
		strscpy(buf, !chip ? "None" : chip->name ?: "-", len);
		return;
	}
	chip->irq_print_chip(&desc->irq_data, &m);
	buf[min(m.count, len - 1)] = '\0';
	p = strim(buf);
	memmove(buf, p, strlen(p) + 1);
	if (!buf[0])
		strscpy(buf, "-", len);
}

static void kst_desc_meta(struct irq_desc *desc, struct kst_irq_snap *snap)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&desc->lock, flags);
	kst_desc_chip(desc, snap->chip, sizeof(snap->chip));
	snap->has_hwirq = desc->irq_data.domain;
	snap->hwirq = desc->irq_data.hwirq;
	snap->level = irqd_is_level_type(&desc->irq_data);
	strscpy(snap->name, desc->name ? desc->name : "", sizeof(snap->name));
	kst_copy_actions(desc, snap);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}

/* Under rcu_read_lock(): what @sel asks of one descriptor. */
static void kst_desc_snapshot(struct irq_desc *desc, unsigned int irq,
			      const struct kst_sel *sel,
			      struct kst_irq_snap *snap)
{
	snap->id = (unsigned long)desc;
	snap->irq = irq;
	snap->count = kst_desc_count(desc);
	if (sel->flags & KSTAT_F_PERCPU)
		kst_desc_percpu(desc, sel, snap->percpu);
	/* over every CPU id, the count is the counts' sum: one reading */
	if ((sel->flags & KSTAT_F_PERCPU) && kst_sel_all(sel))
		snap->count = kst_row_sum(snap->percpu, kst_sel_nr_cpus(sel));
	if (sel->flags & KSTAT_F_META)
		kst_desc_meta(desc, snap);
}

int kst_irq_snapshot(unsigned int irq, const struct kst_sel *sel,
		     struct kst_irq_snap *snap)
{
	struct irq_desc *desc;

	rcu_read_lock();
	desc = kst_irq_to_desc(irq);
	if (desc)
		kst_desc_snapshot(desc, irq, sel, snap);
	rcu_read_unlock();
	return desc ? 0 : -ENOENT;
}

struct kst_irq_snap *kst_irq_snap_alloc(const struct kst_sel *sel, gfp_t gfp)
{
	struct kst_irq_snap *snap;

	snap = kvzalloc(sizeof(*snap) + kst_sel_nr_cpus(sel) * sizeof(u32),
			gfp);
	if (snap)
		snap->percpu = (u32 *)(snap + 1);
	return snap;
}

size_t kst_irq_size(const struct kst_irq_snap *snap,
		    const struct kst_sel *sel)
{
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size_64bit(sizeof(u64));
	const char *p = snap->actions;

	if (sel->flags & KSTAT_F_PERCPU)
		size += kst_nest_rec_size(snap, sel) ?: kst_percpu_size(sel);
	if (!(sel->flags & KSTAT_F_META))
		return size;

	size += nla_total_size(strlen(snap->chip) + 1);
	size += nla_total_size_64bit(sizeof(u64));	/* hwirq */
	size += nla_total_size(sizeof(u8));		/* level */
	size += nla_total_size(strlen(snap->name) + 1);
	while (p < snap->actions + snap->actions_len) {
		size += nla_total_size(strlen(p) + 1);
		p += strlen(p) + 1;
	}
	return size;
}

static int kst_irq_fill_meta(struct sk_buff *skb,
			     const struct kst_irq_snap *snap)
{
	const char *p = snap->actions;

	if (nla_put_string(skb, KSTAT_A_IRQ_CHIP, snap->chip) ||
	    (snap->has_hwirq &&
	     nla_put_u64_64bit(skb, KSTAT_A_IRQ_HWIRQ, snap->hwirq,
			       KSTAT_A_IRQ_PAD)) ||
	    nla_put_u8(skb, KSTAT_A_IRQ_LEVEL, snap->level) ||
	    (snap->name[0] && nla_put_string(skb, KSTAT_A_IRQ_NAME, snap->name)))
		return -EMSGSIZE;

	while (p < snap->actions + snap->actions_len) {
		if (nla_put_string(skb, KSTAT_A_IRQ_ACTION, p))
			return -EMSGSIZE;
		p += strlen(p) + 1;
	}
	return 0;
}

/*
 * Totals only, the common case of dumps and summaries: one tailroom check
 * and three headers written in place, instead of a nest and two puts
 * each checking for room.  The count's payload comes 16 bytes after the
 * nest's start, so it is 8-byte aligned when the nest starts so.  Returns
 * 1 where it would not be and u64 attributes need alignment (what
 * nla_need_padding_for_64bit() asks, but at the count, not here): the
 * general path pads.
 */
static int kst_irq_fill_totals(struct sk_buff *skb, int type, u32 irq,
			       u64 count)
{
	const int size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
			 nla_total_size(sizeof(u64));
	struct nlattr *nest;

	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) &&
	    !IS_ALIGNED((unsigned long)skb_tail_pointer(skb), 8))
		return 1;
	if (skb_tailroom(skb) < size)
		return -EMSGSIZE;
	nest = skb_put(skb, NLA_HDRLEN);
	nest->nla_type = type | NLA_F_NESTED;
	__nla_put(skb, KSTAT_A_IRQ_ID, sizeof(irq), &irq);
	__nla_put(skb, KSTAT_A_IRQ_COUNT, sizeof(count), &count);
	nest->nla_len = skb_tail_pointer(skb) - (unsigned char *)nest;
	return 0;
}

/* The one encoder of an IRQ, for do, dump and summary alike. */
int kst_irq_fill(struct sk_buff *skb, int type,
		 const struct kst_irq_snap *snap, const struct kst_sel *sel)
{
	struct nlattr *nest;
	int err;

	if (!sel->flags) {
		err = kst_irq_fill_totals(skb, type, snap->irq, snap->count);
		if (err <= 0)
			return err;
	}
	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_IRQ_ID, snap->irq) ||
	    nla_put_u64_64bit(skb, KSTAT_A_IRQ_COUNT, snap->count,
			      KSTAT_A_IRQ_PAD))
		goto cancel;
	if ((sel->flags & KSTAT_F_PERCPU) && kst_nest_percpu_put(skb, snap, sel))
		goto cancel;
	if ((sel->flags & KSTAT_F_META) && kst_irq_fill_meta(skb, snap))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * ---- packed chunks of IRQ totals (enum kstat_irqs_attr) -------------------
 *
 * A chunk is gathered first, then put as one item: a dump or a summary
 * part that is full takes the whole chunk in its next message.
 */
#define KST_CHUNK	KSTAT_IRQS_CHUNK_MAX
/*
 * With per-CPU records a chunk is full once its records take this many
 * words (4 KiB), so that it stays well within a summary part; the last
 * record may add up to one array's worth.
 */
#define KST_CHUNK_WORDS	1024
/*
 * A dump's chunks with records are smaller: at most this many IRQs and
 * record words (1 KiB, and the last record), so that the largest, which
 * sizes every dumpit call's buffer (kst_irq_dump_alloc()), stays about
 * 2 KiB plus one array; as many IRQs as a totals chunk, so that the
 * common one-word records add little more than their word.
 */
#define KST_DUMP_CHUNK_PCPU	KST_CHUNK
#define KST_DUMP_CHUNK_WORDS	256

struct kst_irqs_chunk {
	u32 first;			/* dense: IRQ number of bit 0 */
	u32 span;			/* dense: IRQ numbers covered */
	u32 nr;				/* IRQs in the chunk */
	bool dense;			/* else ids[] */
	bool incremental;		/* incs[] instead of counts[] */
	bool wide;			/* a count above U32_MAX */
	u32 nr_cpus;			/* per-CPU records' arrays, 0: none */
	u32 nr_words;			/* in recs[] */
	u32 max_nr, max_words;		/* full at either, with records */
	u32 *recs;			/* a record per IRQ, with nr_cpus */
	u8 present[KST_CHUNK / 8];
	u32 ids[KST_CHUNK];
	u32 incs[KST_CHUNK];
	u64 counts[KST_CHUNK];
};

static void kst_chunk_start(struct kst_irqs_chunk *c, bool dense, u32 first)
{
	c->dense = dense;
	c->incremental = false;
	c->wide = false;
	c->first = first;
	c->span = 0;
	c->nr = 0;
	c->nr_words = 0;
	if (dense)
		memset(c->present, 0, sizeof(c->present));
}

/* Add @irq with @count; a dense chunk's IRQs come in ascending order. */
static void kst_chunk_add(struct kst_irqs_chunk *c, u32 irq, u64 count)
{
	u32 bit = irq - c->first;

	if (c->dense) {
		c->present[bit / 8] |= 1 << (bit % 8);
		c->span = bit + 1;
	} else {
		c->ids[c->nr] = irq;
	}
	c->wide |= count > U32_MAX;
	c->counts[c->nr++] = count;
}

/* Add @irq with the @inc it moved by since the last sample (a delta). */
static void kst_chunk_add_inc(struct kst_irqs_chunk *c, u32 irq, u32 inc)
{
	c->ids[c->nr] = irq;
	c->incs[c->nr++] = inc;
}

/* No more IRQs fit: all KST_CHUNK taken, or the records' words. */
static bool kst_chunk_full(const struct kst_irqs_chunk *c)
{
	return c->nr == KST_CHUNK ||
	       (c->nr_cpus &&
		(c->nr >= c->max_nr || c->nr_words >= c->max_words));
}

/*
 * The counts: 32-bit when every one fits, which a dump's always do (they
 * are the kernel's 32-bit totals) and a keyframe's nearly always: half
 * the bytes, and a 4096-IRQ totals dump in one dumpit call.
 */
static int kst_chunk_put_counts(struct sk_buff *skb,
				const struct kst_irqs_chunk *c)
{
	struct nlattr *attr;
	u32 *out, i;

	if (c->wide)
		return nla_put(skb, KSTAT_A_IRQS_COUNTS, c->nr * sizeof(u64),
			       c->counts);
	attr = nla_reserve(skb, KSTAT_A_IRQS_COUNTS32, c->nr * sizeof(u32));
	if (!attr)
		return -EMSGSIZE;
	out = nla_data(attr);
	for (i = 0; i < c->nr; i++)
		out[i] = c->counts[i];
	return 0;
}

static int kst_chunk_put(struct sk_buff *skb, int type,
			 const struct kst_irqs_chunk *c)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	int err;

	if (!nest)
		return -EMSGSIZE;
	if (c->dense)
		err = nla_put_u32(skb, KSTAT_A_IRQS_FIRST, c->first) ?:
		      nla_put(skb, KSTAT_A_IRQS_PRESENT,
			      DIV_ROUND_UP(c->span, 8), c->present);
	else
		err = nla_put(skb, KSTAT_A_IRQS_IDS, c->nr * sizeof(u32),
			      c->ids);
	if (!err && c->incremental)
		err = nla_put(skb, KSTAT_A_IRQS_INCREMENTS,
			      c->nr * sizeof(u32), c->incs);
	else if (!err)
		err = kst_chunk_put_counts(skb, c);
	if (!err && c->nr_cpus)
		err = nla_put_u32(skb, KSTAT_A_IRQS_NR_CPUS, c->nr_cpus) ?:
		      nla_put(skb, KSTAT_A_IRQS_CPUS,
			      c->nr_words * sizeof(u32), c->recs);
	if (err) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static void kst_chunk_free(struct kst_irqs_chunk *c)
{
	if (c)
		kvfree(c->recs);
	kvfree(c);
}

/* A chunk, with room for records of @nr_cpus CPUs (0: totals only). */
static struct kst_irqs_chunk *kst_chunk_alloc(unsigned int nr_cpus, gfp_t gfp)
{
	struct kst_irqs_chunk *c;

	c = kvzalloc(sizeof(*c), gfp);
	if (!c || !nr_cpus)
		return c;
	c->nr_cpus = nr_cpus;
	c->max_nr = KST_CHUNK;
	c->max_words = KST_CHUNK_WORDS;
	c->recs = kvmalloc_array(KST_CHUNK_WORDS + kst_rec_max_words(nr_cpus),
				 sizeof(u32), gfp);
	if (!c->recs) {
		kst_chunk_free(c);
		return NULL;
	}
	return c;
}

/* Mix one IRQ number and its descriptor's identity (0: none) into @hash. */
u32 kst_irq_fingerprint_mix(u32 hash, unsigned int irq, unsigned long id)
{
	return jhash_3words(irq, (u32)id, (u32)(id >> 16 >> 16), hash);
}

static u32 kst_fingerprint_one(u32 hash, unsigned int irq)
{
	return kst_irq_fingerprint_mix(hash, irq,
					 (unsigned long)kst_irq_to_desc(irq));
}

/*
 * A value that changes when descriptors are allocated or freed within a
 * selection (a list, or the range first..last): dumps use it to flag
 * replies that span such a change.  It costs one lookup per selected IRQ,
 * never a walk over IRQs outside the selection.
 */
u32 kst_irq_set_fingerprint(const u32 *list, unsigned int nr,
			    unsigned int first, unsigned int last)
{
	unsigned int i, end = min_t(unsigned int, last, nr_irqs - 1);
	u32 hash = 0;

	rcu_read_lock();
	if (list) {
		for (i = 0; i < nr; i++)
			hash = kst_fingerprint_one(hash, list[i]);
	} else {
		for (i = first; i <= end; i++)
			hash = kst_fingerprint_one(hash, i);
	}
	rcu_read_unlock();
	return hash;
}

/*
 * /proc/stat's "intr" total: every IRQ counted per CPU plus the arch
 * counters arch_irq_stat_cpu() adds, over possible CPUs.  Counters modules
 * cannot read (ERR, MIS, MCE, MCP on x86) are not in it; see arch.c.
 */
u64 kst_intr_sum(void)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu) {
		sum += kstat_cpu_irqs_sum(cpu);
		sum += kst_arch_intr_sum(cpu);
	}
	return sum;
}

/*
 * Pin a descriptor found under rcu_read_lock(): the reference keeps its
 * memory from being freed, so while it is held no other descriptor can
 * have its address, and "same pointer" means "same descriptor".  The
 * summary producer keys its 64-bit counts on that.  With SPARSE_IRQ a
 * descriptor is freed by the kobject_put() in an RCU callback, so a
 * descriptor still reachable under rcu_read_lock() has a reference left
 * and may take one more.  Without SPARSE_IRQ (of Debian's release
 * architectures, mips64el) descriptors are static: never freed, but
 * free_desc() resets one to its defaults, counts included, and it keeps
 * its address when allocated again.  Nothing a module can read tells
 * that from a 32-bit total that wrapped, so there such a count is
 * carried on as if it had wrapped: the one case where a summary's count
 * is not exact.  docs/robustness.md says so.
 */
#ifdef CONFIG_SPARSE_IRQ
void kst_desc_hold(struct irq_desc *desc)
{
	kobject_get(&desc->kobj);
}

/* May free the descriptor: process context, no spinlock held. */
void kst_desc_release(struct irq_desc *desc)
{
	kobject_put(&desc->kobj);
}
#else
void kst_desc_hold(struct irq_desc *desc) { }
void kst_desc_release(struct irq_desc *desc) { }
#endif

/* ---- KSTAT_CMD_IRQ_GET ---------------------------------------------------- */

enum kst_irq_dump_phase {
	KST_DUMP_IRQS,
	KST_DUMP_ARCH,
	KST_DUMP_TRAILER,
	KST_DUMP_DONE,
};

/* A do request's IRQ, or a dump's selection and where it stands. */
struct kst_irq_req {
	struct kst_sel sel;
	struct kst_irq_snap *snap;
	struct kst_irqs_chunk *chunk;	/* totals-only dumps: packed */
	const u32 *list;	/* in the request attrs, or NULL for a range */
	u32 nr_list;
	u32 first, last;	/* the range, when there is no list */
	u64 pos;		/* next list index, or offset into the range */
	u32 arch_pos;
	u32 visited;		/* fingerprint of the descriptors dumped */
	bool split;		/* the IRQs took more than one dumpit call */
	bool checked;		/* the consistency verdict is in */
	bool interrupted;	/* ... and it was NLM_F_DUMP_INTR */
	enum kst_irq_dump_phase phase;
};

static int kst_irq_get_prepare(void *data, struct nlattr **tb,
			       const struct kst_sel *sel,
			       struct netlink_ext_ack *extack)
{
	struct kst_irq_req *r = data;

	if (tb[KSTAT_A_SEL_IRQ_FIRST] || tb[KSTAT_A_SEL_IRQ_LAST] ||
	    tb[KSTAT_A_SEL_IRQ_LIST]) {
		NL_SET_ERR_MSG(extack,
			       "IRQ ranges and lists select IRQs in dumps; a do request takes one IRQ");
		return -EINVAL;
	}
	if (sel->flags & KSTAT_F_ARCH) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_FLAGS],
				    "arch counters come with IRQ dumps only");
		return -EINVAL;
	}
	r->sel = *sel;
	r->snap = kst_irq_snap_alloc(sel, GFP_KERNEL_ACCOUNT);
	if (!r->snap)
		return -ENOMEM;
	if (kst_irq_snapshot(nla_get_u32(tb[KSTAT_A_SEL_IRQ]), sel, r->snap)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_IRQ], "no such IRQ");
		return -ENOENT;
	}
	return 0;
}

static size_t kst_irq_get_reply_size(const void *data)
{
	const struct kst_irq_req *r = data;

	return kst_irq_size(r->snap, &r->sel);
}

static int kst_irq_get_fill(struct sk_buff *skb, const void *data)
{
	const struct kst_irq_req *r = data;

	return kst_irq_fill(skb, KSTAT_A_IRQ, r->snap, &r->sel);
}

static int kst_irq_dump_prepare(void *data, struct nlattr **tb,
				const struct kst_sel *sel,
				struct netlink_ext_ack *extack)
{
	struct nlattr *list = tb[KSTAT_A_SEL_IRQ_LIST];
	struct kst_irq_req *r = data;

	if (tb[KSTAT_A_SEL_IRQ]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_IRQ],
				    "a dump selects IRQs by range or list; use a do request for one IRQ");
		return -EINVAL;
	}
	if (list && (tb[KSTAT_A_SEL_IRQ_FIRST] || tb[KSTAT_A_SEL_IRQ_LAST])) {
		NL_SET_ERR_MSG_ATTR(extack, list,
				    "select IRQs by a range or by a list, not both");
		return -EINVAL;
	}
	if (list && (!nla_len(list) || nla_len(list) % sizeof(u32))) {
		NL_SET_ERR_MSG_ATTR(extack, list,
				    "IRQ list length is not a non-zero multiple of 4");
		return -EINVAL;
	}
	/* Not a policy's max-len: 6.12's generator makes none for binary. */
	if (list && nla_len(list) > KSTAT_IRQ_LIST_MAX * sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, list,
				    "IRQ list longer than 8192 IRQs");
		return -ERANGE;
	}
	r->list = list ? nla_data(list) : NULL;
	r->nr_list = list ? nla_len(list) / sizeof(u32) : 0;
	r->first = tb[KSTAT_A_SEL_IRQ_FIRST] ?
		   nla_get_u32(tb[KSTAT_A_SEL_IRQ_FIRST]) : 0;
	r->last = tb[KSTAT_A_SEL_IRQ_LAST] ?
		  nla_get_u32(tb[KSTAT_A_SEL_IRQ_LAST]) : U32_MAX;
	if (r->first > r->last) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_IRQ_FIRST],
				    "first IRQ is above last IRQ");
		return -EINVAL;
	}
	r->sel = *sel;
	r->snap = kst_irq_snap_alloc(sel, GFP_KERNEL_ACCOUNT);
	if (!r->snap)
		return -ENOMEM;
	if (sel->flags & KSTAT_F_META)
		return 0;
	r->chunk = kst_chunk_alloc(sel->flags & KSTAT_F_PERCPU ?
				   kst_sel_nr_cpus(sel) : 0, GFP_KERNEL_ACCOUNT);
	if (!r->chunk)
		return -ENOMEM;
	if (sel->flags & KSTAT_F_PERCPU)
		kst_irq_hints_cover();
	r->chunk->max_nr = KST_DUMP_CHUNK_PCPU;
	r->chunk->max_words = KST_DUMP_CHUNK_WORDS;
	return 0;
}

/* The selected IRQ number at @pos, or false past the selection's end. */
static bool kst_irq_dump_at(const struct kst_irq_req *r, u64 pos, u32 *irq)
{
	u64 n;

	if (r->list) {
		if (pos >= r->nr_list)
			return false;
		*irq = r->list[pos];
		return true;
	}
	n = (u64)r->first + pos;
	if (n > r->last || n >= nr_irqs)
		return false;
	*irq = n;
	return true;
}

/* The next selected IRQ number, or false when the selection is done. */
static bool kst_irq_dump_next(const struct kst_irq_req *r, u32 *irq)
{
	return kst_irq_dump_at(r, r->pos, irq);
}

/*
 * RCU is held over runs of this many IRQs: one lock for many lookups,
 * and a reschedule point between runs for long selections.
 */
#define KST_IRQS_PER_RCU	256

/* One lookup per selected IRQ; each descriptor seen goes into visited. */
static int kst_irq_dump_irqs(struct kst_dump *d, struct kst_irq_req *r)
{
	struct irq_desc *desc;
	unsigned int run = 0;
	int err = 0;
	u32 irq;

	rcu_read_lock();
	for (; kst_irq_dump_next(r, &irq); r->pos++) {
		if (++run % KST_IRQS_PER_RCU == 0) {
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
		}
		desc = kst_irq_to_desc(irq);
		if (desc) {
			kst_desc_snapshot(desc, irq, &r->sel, r->snap);
			err = kst_dump_open(d) ?:
			      kst_irq_fill(d->skb, KSTAT_A_IRQ, r->snap, &r->sel);
			if (err)
				break;	/* resumes with this IRQ */
			d->objs++;
		}
		r->visited = kst_irq_fingerprint_mix(r->visited, irq,
						     (unsigned long)desc);
	}
	rcu_read_unlock();
	if (err) {
		r->split = true;
		return err;
	}
	r->phase = (r->sel.flags & KSTAT_F_ARCH) ? KST_DUMP_ARCH :
						   KST_DUMP_TRAILER;
	return 0;
}

/*
 * One IRQ into a dump's chunk: its count, and with per-CPU counts its
 * record, read in one pass; over every CPU, the count is their sum.
 */
static void kst_irq_dump_add(const struct kst_irq_req *r, u32 irq,
			     struct irq_desc *desc, bool cached)
{
	struct kst_irqs_chunk *c = r->chunk;
	u32 *rec, sum;

	if (!c->nr_cpus) {
		kst_chunk_add(c, irq, kst_desc_count(desc));
		return;
	}
	rec = c->recs + c->nr_words;
	sum = cached ? kst_rec_read_cached(desc, irq, r->sel.cpu_first,
					   c->nr_cpus, rec) :
		       kst_rec_read(desc, r->sel.cpu_first, c->nr_cpus, rec);
	if (!kst_sel_all(&r->sel))
		sum = kst_desc_count(desc);
	kst_chunk_add(c, irq, sum);
	c->nr_words += kst_rec_finish(rec, c->nr_cpus, sum, r->snap->percpu);
}

/*
 * The next chunk of a dump without metadata into r->chunk, under one
 * RCU read section: up to KST_CHUNK IRQ numbers of the range, or
 * entries of the list, fewer when their per-CPU records fill it.
 * Returns the position after it; @visited takes each lookup.  Per-CPU
 * records come from the record cache when no other dump holds it.
 */
static u64 kst_irq_dump_gather(const struct kst_irq_req *r, u32 *visited)
{
	struct kst_irqs_chunk *c = r->chunk;
	u64 pos = r->pos, end = pos + KST_CHUNK;
	bool cached = c->nr_cpus && kst_rec_cache_get();
	struct irq_desc *desc;
	u32 irq;

	kst_chunk_start(c, !r->list, r->first + (u32)pos);
	rcu_read_lock();
	for (; pos < end && !kst_chunk_full(c) && kst_irq_dump_at(r, pos, &irq);
	     pos++) {
		desc = kst_irq_to_desc(irq);
		if (desc)
			kst_irq_dump_add(r, irq, desc, cached);
		else if (cached)
			kst_rec_cache_forget(irq);
		*visited = kst_irq_fingerprint_mix(*visited, irq,
						   (unsigned long)desc);
	}
	rcu_read_unlock();
	if (cached)
		kst_rec_cache_put();
	return pos;
}

/* Without metadata: the IRQs in chunks, one lookup each. */
static int kst_irq_dump_chunks(struct kst_dump *d, struct kst_irq_req *r)
{
	u32 visited, irq;
	u64 next;
	int err;

	while (kst_irq_dump_next(r, &irq)) {
		visited = r->visited;
		next = kst_irq_dump_gather(r, &visited);
		if (r->chunk->nr) {
			err = kst_dump_open(d) ?:
			      kst_chunk_put(d->skb, KSTAT_A_IRQS, r->chunk);
			if (err) {
				r->split = true;	/* resumes with this chunk */
				return err;
			}
			d->objs++;
		}
		r->visited = visited;
		r->pos = next;
		cond_resched();
	}
	r->phase = (r->sel.flags & KSTAT_F_ARCH) ? KST_DUMP_ARCH :
						   KST_DUMP_TRAILER;
	return 0;
}

static int kst_irq_dump_arch(struct kst_dump *d, struct kst_irq_req *r)
{
	const struct kst_arch_counter *c;
	int err;

	for (; r->arch_pos < kst_nr_arch_counters; r->arch_pos++) {
		c = &kst_arch_counters[r->arch_pos];
		err = kst_dump_open(d) ?:
		      kst_arch_fill(d->skb, KSTAT_A_ARCH, c, kst_arch_total(c),
				    true, &r->sel);
		if (err)
			return err;
		d->objs++;
	}
	r->phase = KST_DUMP_TRAILER;
	return 0;
}

/*
 * Did the descriptors change while we dumped them?  Only a dump whose
 * IRQs took several dumpit calls can tell its reader two different
 * sets: one call is one pass, like a read of /proc/interrupts.  What we
 * saw, IRQ by IRQ, against a scan of the selection now: if they differ,
 * the trailer carries NLM_F_DUMP_INTR and the reader starts again.
 */
static bool kst_irq_dump_consistent(const struct kst_irq_req *r)
{
	return !r->split ||
	       r->visited == kst_irq_set_fingerprint(r->list, r->nr_list,
						     r->first, r->last);
}

/* The rows of /proc/interrupts this build cannot read, by name. */
static int kst_arch_unread_fill(struct sk_buff *skb)
{
	const char *const *name;

	for (name = kst_arch_unread; *name; name++)
		if (nla_put_string(skb, KSTAT_A_ARCH_UNREAD, *name))
			return -EMSGSIZE;
	return 0;
}

/*
 * The trailer, in a message of its own so that it can be flagged.  The
 * verdict is taken once and the flag set on the message itself: a
 * trailer that does not fit is cancelled and put again in the next
 * dumpit call, where genl_dump_check_consistent() would not flag it a
 * second time (cb->prev_seq already equals cb->seq), and the reader
 * would take an inconsistent dump for a good one.
 */
static int kst_irq_dump_trailer(struct kst_dump *d, struct kst_irq_req *r)
{
	unsigned char *mark;
	int err;

	kst_dump_end_msg(d);
	if (!r->checked) {
		r->interrupted = !kst_irq_dump_consistent(r);
		r->checked = true;
	}
	err = kst_dump_open(d);
	if (err)
		return err;
	if (r->interrupted)
		genlmsg_nlhdr(d->hdr)->nlmsg_flags |= NLM_F_DUMP_INTR;
	mark = skb_tail_pointer(d->skb);
	if (nla_put_u64_64bit(d->skb, KSTAT_A_INTR_SUM, kst_intr_sum(),
			      KSTAT_A_PAD) ||
	    nla_put_u32(d->skb, KSTAT_A_NR_IRQS, nr_irqs) ||
	    kst_online_fill(d->skb) || kst_arch_unread_fill(d->skb)) {
		nlmsg_trim(d->skb, mark);
		return -EMSGSIZE;
	}
	d->objs++;
	r->phase = KST_DUMP_DONE;
	return 0;
}

static int kst_irq_dump(struct kst_dump *d, void *data)
{
	struct kst_irq_req *r = data;
	int err = 0;

	if (r->phase == KST_DUMP_IRQS)
		err = r->chunk ? kst_irq_dump_chunks(d, r) :
				 kst_irq_dump_irqs(d, r);
	if (!err && r->phase == KST_DUMP_ARCH)
		err = kst_irq_dump_arch(d, r);
	if (!err && r->phase == KST_DUMP_TRAILER)
		err = kst_irq_dump_trailer(d, r);
	return err;
}

/*
 * The largest chunk of a dump of @nr IRQs: dense (its first IRQ and
 * bitmap) or listed (an id per IRQ, the bigger), with a 32-bit count per
 * IRQ (a dump's counts are the kernel's 32-bit totals), and with
 * per-CPU records of @nr_cpus CPUs (0: none): @words of them, then the
 * last record, up to the whole array.
 */
static size_t kst_dump_chunk_size(unsigned int nr, unsigned int words,
				  unsigned int nr_cpus)
{
	size_t dense = nla_total_size(sizeof(u32)) +
		       nla_total_size(KST_CHUNK / 8);
	size_t listed = nla_total_size(nr * sizeof(u32));
	size_t recs = !nr_cpus ? 0 : nla_total_size(sizeof(u32)) +
		      nla_total_size((words + nr_cpus) * sizeof(u32));

	return nla_total_size(0) + max(dense, listed) +
	       nla_total_size(nr * sizeof(u32)) + recs;
}

/* The largest IRQ nest @sel can ask for: its CPUs, all metadata. */
static size_t kst_irq_nest_max_size(const struct kst_sel *sel)
{
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size_64bit(sizeof(u64));

	if (sel->flags & KSTAT_F_PERCPU)
		size += kst_percpu_size(sel);
	if (sel->flags & KSTAT_F_META)
		size += 2 * nla_total_size(KST_NAME_MAX) +
			nla_total_size_64bit(sizeof(u64)) +
			nla_total_size(sizeof(u8)) +
			KST_ACTIONS_MAX + KST_ACTIONS_MAX / 2 * NLA_HDRLEN;
	return size;
}

/* An arch row with its description and @sel's CPUs. */
static size_t kst_arch_max_size(const struct kst_sel *sel)
{
	size_t size = nla_total_size(0) + 2 * nla_total_size(KST_NAME_MAX) +
		      nla_total_size_64bit(sizeof(u64));

	if (sel->flags & KSTAT_F_PERCPU)
		size += kst_percpu_size(sel);
	return size;
}

/* The trailer: the intr sum, nr_irqs, the online CPUs, rows unread. */
static size_t kst_irq_trailer_size(void)
{
	size_t size = nla_total_size_64bit(sizeof(u64)) +
		      nla_total_size(sizeof(u32)) + kst_online_size();
	const char *const *name;

	for (name = kst_arch_unread; *name; name++)
		size += nla_total_size(strlen(*name) + 1);
	return size;
}

/*
 * The largest object of a dump of @sel, which is what it asked for: an
 * IRQ nest with KSTAT_F_META (with @sel's CPUs' counts under
 * KSTAT_F_PERCPU), else a chunk (with records of @sel's CPUs under
 * KSTAT_F_PERCPU); an arch row with KSTAT_F_ARCH; the trailer.  Not all
 * CPUs and all metadata for every dump: an skb that large is allocated
 * for every dumpit call of the dump.
 */
static size_t kst_irq_dump_alloc(const struct kst_sel *sel)
{
	size_t size = kst_irq_trailer_size();

	if (sel->flags & KSTAT_F_META)
		size = max(size, kst_irq_nest_max_size(sel));
	else if (sel->flags & KSTAT_F_PERCPU)
		size = max(size, kst_dump_chunk_size(KST_DUMP_CHUNK_PCPU,
						     KST_DUMP_CHUNK_WORDS,
						     kst_sel_nr_cpus(sel)));
	else
		size = max(size, kst_dump_chunk_size(KST_CHUNK, 0, 0));
	if (sel->flags & KSTAT_F_ARCH)
		size = max(size, kst_arch_max_size(sel));
	return size;
}

static void kst_irq_get_cleanup(void *data)
{
	struct kst_irq_req *r = data;

	kvfree(r->snap);
	kst_chunk_free(r->chunk);
}

/*
 * ---- summary: every IRQ's count, keyed by descriptor ------------------------
 *
 * A state pins every descriptor it holds (kst_desc_hold()).  A count is
 * extended from the last committed state's only when the descriptor is
 * the same one; a descriptor that came, went or was replaced restarts
 * from its own count and is marked renewed: a new generation.  Commit
 * and discard then settle the pins, so that each descriptor is held by
 * the committed state alone.
 */
static void kst_irq_discard(void *cur);

struct kst_irq_state {
	unsigned int nr;		/* IRQ numbers covered */
	struct irq_desc **desc;		/* per IRQ number, pinned, or NULL */
	u32 *raw;			/* the kernel's 32-bit totals */
	u64 *ext;			/* extended */
	unsigned long *changed;		/* IRQs that go into a delta */
	unsigned long *renewed;		/* descriptor differs from last's */
	/* raw[] is the per-CPU sum, read with records, not tot_count */
	bool raw_percpu;
	/* with the config's per-CPU counts, read with the totals: */
	bool percpu;			/* recs[] holds a record per IRQ */
	u32 *pairs;			/* one IRQ's record as read (pairs) */
	u32 *rec_at;			/* per IRQ number: its record's word */
	u32 *recs;			/* the records, back to back */
	size_t nr_words, cap_words;	/* of recs[] */
	struct kst_irq_snap *snap;	/* its percpu[]: a scratch row */
	struct kst_irqs_chunk *chunk;	/* packed IRQs while writing */
};

static void kst_irq_state_free_arrays(struct kst_irq_state *s)
{
	kvfree(s->desc);
	kvfree(s->raw);
	kvfree(s->ext);
	kvfree(s->rec_at);
	bitmap_free(s->changed);
	bitmap_free(s->renewed);
}

static void kst_irq_state_free(void *state, bool committed)
{
	struct kst_irq_state *s = state;
	unsigned int irq;

	if (!s)
		return;
	for (irq = 0; committed && irq < s->nr; irq++)
		if (s->desc[irq])
			kst_desc_release(s->desc[irq]);
	kst_irq_state_free_arrays(s);
	kvfree(s->recs);
	kvfree(s->pairs);
	kvfree(s->snap);
	kst_chunk_free(s->chunk);
	kfree(s);
}

/* Cover IRQ numbers below @nr, keeping what the first s->nr hold. */
static int kst_irq_state_resize(struct kst_irq_state *s, unsigned int nr,
				gfp_t gfp)
{
	struct kst_irq_state n = { };

	if (nr <= s->nr)
		return 0;
	n.desc = kvcalloc(nr, sizeof(*n.desc), gfp);
	n.raw = kvcalloc(nr, sizeof(u32), gfp);
	n.ext = kvcalloc(nr, sizeof(u64), gfp);
	n.rec_at = kvcalloc(nr, sizeof(u32), gfp);
	n.changed = bitmap_zalloc(nr, gfp);
	n.renewed = bitmap_zalloc(nr, gfp);
	if (!n.desc || !n.raw || !n.ext || !n.rec_at || !n.changed ||
	    !n.renewed) {
		kst_irq_state_free_arrays(&n);
		return -ENOMEM;
	}
	if (s->nr) {
		memcpy(n.desc, s->desc, s->nr * sizeof(*n.desc));
		memcpy(n.raw, s->raw, s->nr * sizeof(u32));
		memcpy(n.ext, s->ext, s->nr * sizeof(u64));
		memcpy(n.rec_at, s->rec_at, s->nr * sizeof(u32));
	}
	kst_irq_state_free_arrays(s);
	s->desc = n.desc;
	s->raw = n.raw;
	s->ext = n.ext;
	s->rec_at = n.rec_at;
	s->changed = n.changed;
	s->renewed = n.renewed;
	s->nr = nr;
	return 0;
}

/*
 * Room for one more record however many CPUs it lists.  Grown outside
 * RCU, by doubling: most records are one word, so it stays small.
 */
static int kst_irq_recs_reserve(struct kst_irq_state *s, gfp_t gfp)
{
	size_t need = s->nr_words + kst_rec_max_words(nr_cpu_ids);
	size_t cap = max_t(size_t, 2 * s->cap_words, need);
	u32 *recs;

	if (need <= s->cap_words)
		return 0;
	recs = kvmalloc_array(cap, sizeof(u32), gfp);
	if (!recs)
		return -ENOMEM;
	if (s->nr_words)
		memcpy(recs, s->recs, s->nr_words * sizeof(u32));
	kvfree(s->recs);
	s->recs = recs;
	s->cap_words = cap;
	return 0;
}

static void *kst_irq_state_alloc(gfp_t gfp)
{
	const struct kst_sel all = kst_sel_all_cpus(KSTAT_F_PERCPU);
	struct kst_irq_state *s = kzalloc(sizeof(*s), gfp);

	if (!s)
		return NULL;
	s->snap = kst_irq_snap_alloc(&all, gfp);
	s->chunk = kst_chunk_alloc(nr_cpu_ids, gfp);
	s->pairs = kvmalloc_array(kst_rec_max_words(nr_cpu_ids), sizeof(u32),
				  gfp);
	if (!s->snap || !s->chunk || !s->pairs ||
	    kst_irq_state_resize(s, nr_irqs, gfp)) {
		kst_irq_state_free(s, false);
		return NULL;
	}
	return s;
}

/*
 * One IRQ as read once for every stream due: its descriptor (NULL: none),
 * its 32-bit total and, if any stream takes per-CPU counts, its record as
 * pairs (then the total is their sum, read in the same pass).
 */
struct kst_irq_reading {
	struct irq_desc *desc;
	u32 raw;
	bool percpu;
	const u32 *pairs;
};

/* Caller holds rcu_read_lock(); @pairs: kst_rec_max_words() words. */
static void kst_irq_read(struct kst_irq_reading *r, unsigned int irq,
			 u32 *pairs)
{
	r->desc = irq < nr_irqs ? kst_irq_to_desc(irq) : NULL;
	r->pairs = pairs;
	if (!r->desc)
		return;
	r->raw = r->percpu ? kst_rec_read(r->desc, 0, nr_cpu_ids, pairs) :
			     kst_desc_count(r->desc);
}

/* @c's record of @irq: the pairs read, in the smallest form for @count. */
static void kst_irq_add_rec(struct kst_irq_state *c, unsigned int irq,
			    const u32 *pairs, u32 count)
{
	u32 *rec = c->recs + c->nr_words;

	memcpy(rec, pairs, kst_rec_words(pairs) * sizeof(u32));
	c->rec_at[irq] = c->nr_words;
	c->nr_words += kst_rec_finish(rec, nr_cpu_ids, count,
				      c->snap->percpu);
}

/* One IRQ number, as read in @r, into @c against @l (NULL: none). */
static void kst_irq_collect_one(struct kst_irq_state *c,
				const struct kst_irq_state *l,
				unsigned int irq,
				const struct kst_irq_reading *r)
{
	struct irq_desc *desc = r->desc;
	u32 raw = r->raw, inc;

	c->desc[irq] = desc;
	if (desc != (l ? l->desc[irq] : NULL))
		__set_bit(irq, c->renewed);
	if (!desc)
		return;
	if (l && desc == l->desc[irq]) {
		inc = raw - l->raw[irq];
		/*
		 * The per-CPU sum and tot_count are bumped one after the
		 * other: read from the other source than last time (per-CPU
		 * reads take tot_count too, kst_rec_read()), the total
		 * may lag by an interrupt in flight on each CPU.  Hold the
		 * base rather than take that for a wrap.
		 */
		if ((c->raw_percpu || l->raw_percpu) && (s32)inc < 0 &&
		    -inc <= nr_cpu_ids) {
			raw = l->raw[irq];
			inc = 0;
		}
		c->raw[irq] = raw;
		c->ext[irq] = l->ext[irq] + inc;
		if (inc)
			__set_bit(irq, c->changed);
	} else {
		kst_desc_hold(desc);
		c->raw[irq] = raw;
		c->ext[irq] = raw;
		__set_bit(irq, c->changed);
	}
	if (c->percpu)
		kst_irq_add_rec(c, irq, r->pairs, (u32)c->ext[irq]);
}

/* Make every state of @t cover IRQ numbers below @nr, and clear it. */
static int kst_irq_collect_begin(struct kst_target *t, unsigned int n,
				 unsigned int nr, bool raw_percpu)
{
	struct kst_irq_state *c, *l;
	struct mem_cgroup *old;
	unsigned int k;
	int err;

	for (k = 0; k < n; k++) {
		c = t[k].cur;
		l = t[k].last;
		/* nr_irqs only grows; both states cover the same numbers */
		old = set_active_memcg(t[k].memcg);
		err = kst_irq_state_resize(c, nr, t[k].gfp) ?:
		      (l ? kst_irq_state_resize(l, nr, t[k].gfp) : 0);
		set_active_memcg(old);
		if (err)
			return err;
		bitmap_zero(c->changed, c->nr);
		bitmap_zero(c->renewed, c->nr);
		c->percpu = t[k].cfg->percpu;
		c->raw_percpu = raw_percpu;
		c->nr_words = 0;
	}
	return 0;
}

/* Room in every per-CPU state for one more record; false: none. */
static bool kst_irq_recs_room(struct kst_target *t, unsigned int n)
{
	const struct kst_irq_state *c;
	unsigned int k;

	for (k = 0; k < n; k++) {
		c = t[k].cur;
		if (c->percpu && c->cap_words - c->nr_words <
				 kst_rec_max_words(nr_cpu_ids))
			return false;
	}
	return true;
}

static int kst_irq_recs_reserve_all(struct kst_target *t, unsigned int n)
{
	struct mem_cgroup *old;
	struct kst_irq_state *c;
	unsigned int k;
	int err = 0;

	for (k = 0; !err && k < n; k++) {
		c = t[k].cur;
		if (!c->percpu)
			continue;
		old = set_active_memcg(t[k].memcg);
		err = kst_irq_recs_reserve(c, t[k].gfp);
		set_active_memcg(old);
	}
	return err;
}

static void kst_irq_collect_fail(struct kst_target *t, unsigned int n)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		kst_irq_discard(t[k].cur);
}

/*
 * Every IRQ number, in runs of KST_IRQS_PER_RCU under one RCU read
 * section each, read once and taken into each stream's state; between
 * runs, room for records is made and the CPU may be given up.  Per-CPU
 * counts are read if any stream takes them.  On failure, what was
 * pinned so far is let go.
 */
static int kst_irq_collect(struct kst_target *t, unsigned int n)
{
	struct kst_irq_reading r = { };
	unsigned int irq = 0, run, cover = nr_irqs, k;
	struct kst_irq_state *c, *l;
	u32 *pairs = ((struct kst_irq_state *)t[0].cur)->pairs;

	for (k = 0; k < n; k++) {
		c = t[k].cur;
		l = t[k].last;
		cover = max3(cover, c->nr, l ? l->nr : 0);
		r.percpu |= t[k].cfg->percpu;
	}
	if (kst_irq_collect_begin(t, n, cover, r.percpu))
		return -ENOMEM;
	if (r.percpu)
		kst_irq_hints_cover();
	while (irq < cover) {
		if (kst_irq_recs_reserve_all(t, n)) {
			kst_irq_collect_fail(t, n);
			return -ENOMEM;
		}
		rcu_read_lock();
		for (run = 0; irq < cover && run < KST_IRQS_PER_RCU; irq++) {
			if (!kst_irq_recs_room(t, n))
				break;
			kst_irq_read(&r, irq, pairs);
			for (k = 0; k < n; k++)
				kst_irq_collect_one(t[k].cur, t[k].last, irq,
						    &r);
			run++;
		}
		rcu_read_unlock();
		cond_resched();
	}
	for (k = 0; k < n; k++) {
		c = t[k].cur;
		t[k].renewed = !bitmap_empty(c->renewed, c->nr);
	}
	return 0;
}

static int kst_irq_put_chunk(struct sk_buff *skb, const struct kst_writer *w,
			     const void *obj, unsigned int idx)
{
	return kst_chunk_put(skb, KSTAT_A_SAMPLE_IRQS, obj);
}

/*
 * A record above this many words (8 KiB) goes in pieces, each in a chunk
 * of its own, so that one IRQ never needs more than a summary part: with
 * more than 2048 CPUs, an IRQ that fires on more than about 1024.
 */
#define KST_SPLIT_WORDS	2048

/* Test-only: split records above this many words (0: KST_SPLIT_WORDS). */
static unsigned int percpu_split_words;
module_param(percpu_split_words, uint, 0600);
MODULE_PARM_DESC(percpu_split_words,
		 "testing: split per-CPU records above this many words (0: 2048)");

static unsigned int kst_split_words(void)
{
	unsigned int n = READ_ONCE(percpu_split_words);

	return n >= 3 ? n : KST_SPLIT_WORDS;
}

/*
 * @irq, whose record is too large for one chunk, in pieces: PAIRS of at
 * most (split words - 1) / 2 of its CPUs each, in chunks of their own.
 * The first carries its count (keyframe) or @inc (delta); the others
 * repeat the count or carry 0, so a reader that merges the pieces adds
 * the increment once.  Leaves the chunk empty.
 */
static int kst_irq_write_split(struct kst_writer *w,
			       const struct kst_irq_state *s, unsigned int irq,
			       bool key, u32 inc)
{
	const u32 *rec = s->recs + s->rec_at[irq];
	bool dense = (rec[0] & KSTAT_CPUS_KIND) == KSTAT_CPUS_DENSE;
	unsigned int per = (kst_split_words() - 1) / 2, end, i = 0, n;
	struct kst_irqs_chunk *c = s->chunk;
	u32 *out = c->recs;
	int err = 0;

	end = rec[0] & KSTAT_CPUS_VALUE;
	do {
		kst_chunk_start(c, key, irq);
		if (key) {
			kst_chunk_add(c, irq, s->ext[irq]);
		} else {
			c->incremental = true;
			kst_chunk_add_inc(c, irq, i ? 0 : inc);
		}
		for (n = 0; n < per && i < end; i++) {
			if (dense && !rec[1 + i])
				continue;
			out[1 + 2 * n] = dense ? i : rec[1 + 2 * i];
			out[2 + 2 * n] = dense ? rec[1 + i] : rec[2 + 2 * i];
			n++;
		}
		out[0] = KSTAT_CPUS_PAIRS | n;
		c->nr_words = 1 + 2 * n;
		err = kst_sample_put(w, kst_irq_put_chunk, c, 0);
	} while (!err && i < end);
	c->nr = 0;
	c->nr_words = 0;
	return err;
}

/* Is @irq's record too large for one chunk? */
static bool kst_irq_rec_big(const struct kst_irq_state *s, unsigned int irq)
{
	return s->percpu &&
	       kst_rec_words(s->recs + s->rec_at[irq]) > kst_split_words();
}

/* With per-CPU counts, @irq's record goes with it. */
static void kst_chunk_add_rec(struct kst_irqs_chunk *c,
			      const struct kst_irq_state *s, unsigned int irq)
{
	const u32 *rec = s->recs + s->rec_at[irq];
	unsigned int words = kst_rec_words(rec);

	memcpy(c->recs + c->nr_words, rec, words * sizeof(u32));
	c->nr_words += words;
}

/*
 * A keyframe: every IRQ present, in dense chunks of KST_CHUNK numbers
 * from a multiple of KST_CHUNK, or fewer where records fill a chunk.
 */
static int kst_irq_write_dense(struct kst_writer *w,
			       const struct kst_irq_state *s)
{
	struct kst_irqs_chunk *c = s->chunk;
	unsigned int irq, next = 0;
	int err;

	c->nr_cpus = s->percpu ? nr_cpu_ids : 0;
	c->nr = 0;
	for (irq = 0; irq < s->nr; irq++) {
		if (!s->desc[irq])
			continue;
		if (kst_irq_rec_big(s, irq)) {
			err = (c->nr ? kst_sample_put(w, kst_irq_put_chunk, c, 0) : 0) ?:
			      kst_irq_write_split(w, s, irq, true, 0);
			if (err)
				return err;
			next = irq + 1;
			continue;
		}
		if (c->nr && (irq - c->first >= KST_CHUNK ||
			      kst_chunk_full(c))) {
			err = kst_sample_put(w, kst_irq_put_chunk, c, 0);
			if (err)
				return err;
			c->nr = 0;
		}
		if (!c->nr)
			kst_chunk_start(c, true,
					max(round_down(irq, KST_CHUNK), next));
		kst_chunk_add(c, irq, s->ext[irq]);
		if (s->percpu)
			kst_chunk_add_rec(c, s, irq);
		next = irq + 1;
	}
	return c->nr ? kst_sample_put(w, kst_irq_put_chunk, c, 0) : 0;
}

/*
 * A delta: the IRQs that moved, with what they grew by since @b.  Same
 * descriptor in both (another makes the sample a keyframe), so that is
 * the (u32)(now - before) kst_irq_collect_one() added: it fits a u32.
 * With per-CPU counts, each with its record.
 */
static int kst_irq_write_incs(struct kst_writer *w,
			      const struct kst_irq_state *s,
			      const struct kst_irq_state *b)
{
	struct kst_irqs_chunk *c = s->chunk;
	unsigned int irq;
	int err;

	c->nr_cpus = s->percpu ? nr_cpu_ids : 0;
	kst_chunk_start(c, false, 0);
	c->incremental = true;
	for_each_set_bit(irq, s->changed, s->nr) {
		if (kst_irq_rec_big(s, irq)) {
			err = (c->nr ? kst_sample_put(w, kst_irq_put_chunk, c, 0) : 0) ?:
			      kst_irq_write_split(w, s, irq, false,
						  (u32)(s->ext[irq] - b->ext[irq]));
			if (err)
				return err;
			kst_chunk_start(c, false, 0);
			c->incremental = true;
			continue;
		}
		kst_chunk_add_inc(c, irq, (u32)(s->ext[irq] - b->ext[irq]));
		if (s->percpu)
			kst_chunk_add_rec(c, s, irq);
		if (!kst_chunk_full(c))
			continue;
		err = kst_sample_put(w, kst_irq_put_chunk, c, 0);
		if (err)
			return err;
		c->nr = 0;
		c->nr_words = 0;
	}
	return c->nr ? kst_sample_put(w, kst_irq_put_chunk, c, 0) : 0;
}

/*
 * A keyframe carries every IRQ present, a delta those that moved, in
 * packed chunks; with per-CPU counts, each IRQ with its record.
 */
static int kst_irq_write(struct kst_writer *w, const void *cur,
			 const void *base)
{
	const struct kst_irq_state *s = cur;

	if (w->h->key)
		return kst_irq_write_dense(w, s);
	return kst_irq_write_incs(w, s, base);
}

/* @cur becomes the committed state: @last lets go of what it replaced. */
static void kst_irq_commit(void *cur, void *last)
{
	struct kst_irq_state *c = cur, *l = last;
	unsigned int irq;

	for_each_set_bit(irq, c->renewed, c->nr)
		if (l && l->desc[irq])
			kst_desc_release(l->desc[irq]);
}

/* A sample that will not be sent: let go of what @cur pinned. */
static void kst_irq_discard(void *cur)
{
	struct kst_irq_state *c = cur;
	unsigned int irq;

	for_each_set_bit(irq, c->renewed, c->nr)
		if (c->desc[irq])
			kst_desc_release(c->desc[irq]);
}

const struct kst_section kst_irq_section = {
	.name		= "irq",
	.get_cmd	= KSTAT_CMD_IRQ_GET,
	.get = {
		.data_size	= sizeof(struct kst_irq_req),
		.selects	= true,
		.flags_mask	= KSTAT_F_ALL,
		.do_required_attr = KSTAT_A_SEL_IRQ,
		.prepare	= kst_irq_get_prepare,
		.reply_size	= kst_irq_get_reply_size,
		.fill		= kst_irq_get_fill,
		.dump_prepare	= kst_irq_dump_prepare,
		.dump		= kst_irq_dump,
		.dump_alloc	= kst_irq_dump_alloc,
		.cleanup	= kst_irq_get_cleanup,
	},
	.sections	= KSTAT_SECTION_IRQ,
	.state_alloc	= kst_irq_state_alloc,
	.state_free	= kst_irq_state_free,
	.collect	= kst_irq_collect,
	.write		= kst_irq_write,
	.commit		= kst_irq_commit,
	.discard	= kst_irq_discard,
};
