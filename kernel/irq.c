// SPDX-License-Identifier: GPL-2.0
/*
 * kstat IRQ section: IRQ counts in runs, IRQ descriptions (meta), the
 * arch rows (arch.c), /proc/stat's intr sum, nr_irqs and the rows this
 * build cannot read.
 *
 * Descriptors are read as /proc/interrupts reads them, through exported
 * symbols only, under rcu_read_lock() (descriptors are freed after a
 * grace period), taking desc->lock only to copy names.  No descriptor is
 * ever pinned: an IRQ's 64-bit count is kept by identity, the
 * descriptor's address and its per-CPU counters' address, in a table by
 * IRQ number that lives as long as the module (docs/protocol.md).
 */
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "kst.h"
#include "compat.h"

#define KST_RUN_MAX		256	/* IRQs in a run */
#define KST_CHUNK		256	/* IRQs read under one rcu_read_lock() */
#define KST_CHUNK_BYTES		SZ_256K	/* records' headroom for a chunk */
#define KST_NAME_MAX		64
#define KST_ACTIONS_MAX		512
#define KST_META_MAX		(2 * KST_NAME_MAX + KST_ACTIONS_MAX)

/* An IRQ number's count, kept while its descriptor lives. */
struct kst_irq_ident {
	unsigned long desc;		/* 0: no descriptor seen */
	unsigned long pcpu;		/* desc->kstat_irqs */
	u64 total;
	u32 last;
};

/* Under kst_count_lock. */
static struct kst_irq_ident *kst_idents;
static unsigned int kst_nr_idents;

/* An IRQ's description: strings chip, name, actions... at pool + off. */
struct kst_irq_meta {
	u64 hwirq;
	u32 off, len;
	bool has_hwirq, level;
};

struct kst_irq_data {
	unsigned int nr;		/* IRQs read */
	u32 *ids;
	u64 *counts;
	struct kst_recs recs;		/* percpu */
	struct kst_irq_meta *meta;	/* meta */
	char *pool;
	size_t pool_len, pool_cap;
	struct kst_arch_data *arch;
	u64 intr_sum;
	u32 nr_irqs;
};

void kst_irq_exit(void)
{
	kvfree(kst_idents);
	kst_idents = NULL;
	kst_nr_idents = 0;
}

/* The table covers IRQ numbers below @nr.  Process context. */
static int kst_idents_cover(unsigned int nr)
{
	struct kst_irq_ident *n;
	int err = 0;

	mutex_lock(&kst_count_lock);
	if (nr > kst_nr_idents) {
		n = kvcalloc(nr, sizeof(*n), GFP_KERNEL);
		if (n) {
			if (kst_nr_idents)
				memcpy(n, kst_idents,
				       kst_nr_idents * sizeof(*n));
			kvfree(kst_idents);
			kst_idents = n;
			kst_nr_idents = nr;
		} else {
			err = -ENOMEM;
		}
	}
	mutex_unlock(&kst_count_lock);
	return err;
}

/*
 * Under rcu_read_lock().  A descriptor /proc/interrupts hides
 * (IRQ_HIDDEN: an IPI's muxed vector, say) is not seen here either; its
 * interrupts stay in the intr sum, as in /proc/stat.
 */
static struct irq_desc *kst_irq_desc(unsigned int irq)
{
	struct irq_data *data = irq_get_irq_data(irq);
	struct irq_desc *desc = data ? irq_data_to_desc(data) : NULL;

	if (desc && (READ_ONCE(desc->status_use_accessors) & IRQ_HIDDEN))
		return NULL;
	return desc;
}

/*
 * As kstat_irqs(): per-CPU IRQs are summed over CPUs (32-bit, wrapping
 * like the kernel's sum); every other IRQ has its total in tot_count,
 * O(1).  The kernel also sums NMI descriptors, a state modules cannot
 * see; x86 has no NMI descriptors.
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

/* Under kst_count_lock: @irq's 64-bit count, by identity. */
static u64 kst_irq_extend(unsigned int irq, struct irq_desc *desc, u32 count)
{
	struct kst_irq_ident *e = &kst_idents[irq];

	if (e->desc == (unsigned long)desc &&
	    e->pcpu == (unsigned long)desc->kstat_irqs) {
		e->total += (u32)(count - e->last);
	} else {
		e->desc = (unsigned long)desc;
		e->pcpu = (unsigned long)desc->kstat_irqs;
		e->total = count;
		kst_generation_bump();
	}
	e->last = count;
	return e->total;
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

/* Under rcu_read_lock(): the description of IRQ @n of @d, into the pool. */
static void kst_irq_meta_read(struct kst_irq_data *d, unsigned int n,
			      struct irq_desc *desc)
{
	struct kst_irq_meta *m = &d->meta[n];
	char *start = d->pool + d->pool_len, *p = start;
	size_t room = KST_ACTIONS_MAX, len;
	struct irqaction *action;
	unsigned long flags;

	raw_spin_lock_irqsave(&desc->lock, flags);
	kst_desc_chip(desc, p, KST_NAME_MAX);
	p += strlen(p) + 1;
	strscpy(p, desc->name ?: "", KST_NAME_MAX);
	p += strlen(p) + 1;
	/*
	 * Whole names only, each at least 2 bytes with its NUL (an empty
	 * one says nothing): KST_ACTIONS_MAX then bounds the nest as
	 * kst_irq_max_object() reckons, at most 256 names.
	 */
	for (action = desc->action; action; action = action->next) {
		if (!action->name || !*action->name)
			continue;
		len = strnlen(action->name, KST_NAME_MAX - 1) + 1;
		if (len > room)
			break;
		memcpy(p, action->name, len - 1);
		p[len - 1] = '\0';
		p += len;
		room -= len;
	}
	m->has_hwirq = desc->irq_data.domain;
	m->hwirq = desc->irq_data.hwirq;
	m->level = irqd_is_level_type(&desc->irq_data);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	m->off = d->pool_len;
	m->len = p - start;
	d->pool_len += m->len;
}

/* Under kst_count_lock and rcu_read_lock(): one IRQ number. */
static void kst_irq_read(struct kst_irq_data *d, const struct kst_reading *r,
			 unsigned int irq, u32 *row)
{
	struct irq_desc *desc = kst_irq_desc(irq);
	unsigned int n = d->nr, cpu;

	if (!desc) {
		if (kst_idents[irq].desc) {
			memset(&kst_idents[irq], 0, sizeof(kst_idents[irq]));
			kst_generation_bump();
		}
		return;
	}
	d->ids[n] = irq;
	d->counts[n] = kst_irq_extend(irq, desc, kst_desc_count(desc));
	if (r->view.flags & KSTAT_F_PERCPU) {
		for (cpu = r->cpu_first; cpu <= r->cpu_last; cpu++)
			row[cpu - r->cpu_first] = desc->kstat_irqs ?
				kst_desc_cpu_count(desc, cpu) : 0;
		kst_recs_add(&d->recs, row, kst_nr_cpus(r));
	}
	if (r->view.flags & KSTAT_F_META)
		kst_irq_meta_read(d, n, desc);
	d->nr++;
}

/* The selection's IRQ numbers below @nr: how many, and the @i-th. */
static unsigned int kst_sel_count(const struct kst_req *req, unsigned int nr)
{
	unsigned int n = 0;

	if (req->irq_list) {
		while (n < req->nr_irq_list && req->irq_list[n] < nr)
			n++;
		return n;
	}
	if (req->irq_first >= nr)
		return 0;
	return min(req->irq_last, nr - 1) - req->irq_first + 1;
}

static u32 kst_sel_irq(const struct kst_req *req, unsigned int i)
{
	return req->irq_list ? req->irq_list[i] : req->irq_first + i;
}

static int kst_pool_reserve(struct kst_irq_data *d, size_t bytes, gfp_t gfp)
{
	size_t cap = max(d->pool_len + bytes, 2 * d->pool_cap);
	char *n;

	if (d->pool_len + bytes <= d->pool_cap)
		return 0;
	n = kvmalloc(cap, gfp);
	if (!n)
		return -ENOMEM;
	if (d->pool_len)
		memcpy(n, d->pool, d->pool_len);
	kvfree(d->pool);
	d->pool = n;
	d->pool_cap = cap;
	return 0;
}

static void kst_irq_release(void *data)
{
	struct kst_irq_data *d = data;

	kvfree(d->ids);
	kvfree(d->counts);
	kst_recs_free(&d->recs);
	kvfree(d->meta);
	kvfree(d->pool);
	kst_arch_free(d->arch);
	kfree(d);
}

/*
 * The IRQs in chunks: headroom for a chunk's records and descriptions is
 * allocated before it, then its descriptors are read under
 * rcu_read_lock(), with kst_count_lock held for their counts.  With many
 * CPUs a chunk is smaller, so that its headroom stays within
 * KST_CHUNK_BYTES.
 */
static int kst_irq_read_all(struct kst_irq_data *d, const struct kst_reading *r,
			    const struct kst_req *req, unsigned int nsel,
			    u32 *row, gfp_t gfp)
{
	bool percpu = r->view.flags & KSTAT_F_PERCPU;
	bool meta = r->view.flags & KSTAT_F_META;
	size_t rec_max = 1 + kst_nr_cpus(r);
	unsigned int chunk = KST_CHUNK, i, k, end;

	if (percpu)
		chunk = clamp_t(size_t, KST_CHUNK_BYTES / (rec_max * 4), 1,
				KST_CHUNK);
	for (i = 0; i < nsel; i = end) {
		end = min(nsel, i + chunk);
		if ((percpu && kst_recs_reserve(&d->recs, (end - i) * rec_max,
						gfp)) ||
		    (meta && kst_pool_reserve(d, (end - i) * KST_META_MAX, gfp)))
			return -ENOMEM;
		mutex_lock(&kst_count_lock);
		rcu_read_lock();
		for (k = i; k < end; k++)
			kst_irq_read(d, r, kst_sel_irq(req, k), row);
		rcu_read_unlock();
		mutex_unlock(&kst_count_lock);
		cond_resched();
	}
	return 0;
}

static void *kst_irq_collect(struct kst_reading *r, const struct kst_req *req,
			     gfp_t gfp)
{
	unsigned int nr = READ_ONCE(nr_irqs), nsel = kst_sel_count(req, nr);
	struct kst_irq_data *d = kzalloc(sizeof(*d), gfp);
	unsigned int cpu;
	u32 *row = NULL;
	int err = -ENOMEM;

	if (!d)
		return ERR_PTR(-ENOMEM);
	d->nr_irqs = nr;
	d->ids = kvmalloc_array(max(nsel, 1U), sizeof(u32), gfp);
	d->counts = kvmalloc_array(max(nsel, 1U), sizeof(u64), gfp);
	row = kvmalloc_array(nr_cpu_ids, sizeof(u32), gfp);
	if (!d->ids || !d->counts || !row ||
	    kst_recs_init(&d->recs, nsel, gfp))
		goto fail;
	if (r->view.flags & KSTAT_F_META) {
		d->meta = kvmalloc_array(max(nsel, 1U), sizeof(*d->meta), gfp);
		if (!d->meta)
			goto fail;
	}
	err = kst_idents_cover(nr) ?:
	      kst_irq_read_all(d, r, req, nsel, row, gfp);
	if (err)
		goto fail;
	err = -ENOMEM;
	d->arch = kst_arch_collect(r, row, gfp);
	if (!d->arch)
		goto fail;
	/* /proc/stat's "intr": the IRQs' per-CPU sums and arch rows */
	d->intr_sum = kst_arch_intr_sum(d->arch);
	for_each_possible_cpu(cpu)
		d->intr_sum += kstat_cpu_irqs_sum(cpu);
	kvfree(row);
	return d;
fail:
	kvfree(row);
	kst_irq_release(d);
	return ERR_PTR(err);
}

/* ---- objects ------------------------------------------------------------ */

enum { KST_IRQ_RUNS, KST_IRQ_META, KST_IRQ_ARCH, KST_IRQ_TAIL, KST_IRQ_DONE };

/* A run of @n IRQs with @words words of records (percpu). */
static size_t kst_run_size(unsigned int n, size_t words, bool percpu)
{
	return nla_total_size(0) + nla_total_size(n * sizeof(u32)) +
	       nla_total_size(n * sizeof(u64)) +
	       (percpu ? nla_total_size(words * sizeof(u32)) : 0);
}

/* The strings of a description, one after another. */
static const char *kst_meta_next(const char *s)
{
	return s + strlen(s) + 1;
}

static size_t kst_meta_size(const struct kst_irq_data *d, unsigned int n)
{
	const struct kst_irq_meta *m = &d->meta[n];
	const char *s = d->pool + m->off, *end = s + m->len;
	const char *name = kst_meta_next(s);
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size(strlen(s) + 1) +
		      nla_total_size(sizeof(u8));

	if (m->has_hwirq)
		size += nla_total_size_64bit(sizeof(u64));
	if (*name)
		size += nla_total_size(strlen(name) + 1);
	for (s = kst_meta_next(name); s < end; s = kst_meta_next(s))
		size += nla_total_size(strlen(s) + 1);
	return size;
}

static size_t kst_tail_size(void)
{
	return nla_total_size_64bit(sizeof(u64)) +
	       nla_total_size(sizeof(u32)) + kst_arch_unread_size();
}

static size_t kst_irq_size(const struct kst_reading *r, const void *data,
			   const struct kst_view *v)
{
	const struct kst_irq_data *d = data;
	bool percpu = v->flags & KSTAT_F_PERCPU;
	size_t size = kst_tail_size();
	unsigned int i, n;

	for (i = 0; i < d->nr; i += n) {
		n = min(d->nr - i, KST_RUN_MAX);
		size += kst_run_size(n, percpu ? kst_rec_words(&d->recs, i, n) :
				     0, percpu);
	}
	for (i = 0; (v->flags & KSTAT_F_META) && i < d->nr; i++)
		size += kst_meta_size(d, i);
	for (i = 0; i < kst_arch_rows(); i++)
		size += kst_arch_size(d->arch, i, percpu);
	return size;
}

static size_t kst_irq_max_object(const struct kst_reading *r,
				 const struct kst_view *v)
{
	bool percpu = v->flags & KSTAT_F_PERCPU;
	size_t size = max(kst_tail_size(), kst_arch_max_size(r, percpu));

	size = max(size, kst_run_size(1, 1 + kst_nr_cpus(r), percpu));
	if (v->flags & KSTAT_F_META)	/* each action at most 3 bytes pad */
		size = max(size, nla_total_size(0) +
			   nla_total_size(sizeof(u32)) +
			   2 * nla_total_size(KST_NAME_MAX) +
			   nla_total_size_64bit(sizeof(u64)) +
			   nla_total_size(sizeof(u8)) + KST_ACTIONS_MAX +
			   KST_ACTIONS_MAX / 2 * (NLA_HDRLEN + NLA_ALIGNTO - 1));
	return size;
}

/* How many IRQs from @idx fit in @skb's room, in one run. */
static unsigned int kst_run_fit(const struct sk_buff *skb,
				const struct kst_irq_data *d,
				unsigned int idx, bool percpu)
{
	long room = (long)skb_tailroom(skb) - kst_run_size(0, 0, percpu);
	unsigned int n = 0;
	long cost;

	while (idx + n < d->nr && n < KST_RUN_MAX) {
		cost = sizeof(u32) + sizeof(u64);
		if (percpu)
			cost += kst_rec_words(&d->recs, idx + n, 1) * sizeof(u32);
		if (room < cost)
			break;
		room -= cost;
		n++;
	}
	return n;
}

static int kst_run_put(struct sk_buff *skb, const struct kst_irq_data *d,
		       unsigned int idx, unsigned int n, bool percpu)
{
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_IRQS);

	if (!nest ||
	    nla_put(skb, KSTAT_A_IRQS_IDS, n * sizeof(u32), d->ids + idx) ||
	    nla_put(skb, KSTAT_A_IRQS_COUNTS, n * sizeof(u64),
		    d->counts + idx) ||
	    (percpu && nla_put(skb, KSTAT_A_IRQS_CPUS,
			       kst_rec_words(&d->recs, idx, n) * sizeof(u32),
			       d->recs.words + d->recs.off[idx]))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int kst_meta_put(struct sk_buff *skb, const struct kst_irq_data *d,
			unsigned int n)
{
	const struct kst_irq_meta *m = &d->meta[n];
	const char *chip = d->pool + m->off, *end = chip + m->len;
	const char *name = kst_meta_next(chip), *s;
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_IRQ);

	if (!nest || nla_put_u32(skb, KSTAT_A_IRQ_ID, d->ids[n]) ||
	    nla_put_string(skb, KSTAT_A_IRQ_CHIP, chip) ||
	    (m->has_hwirq &&
	     nla_put_u64_64bit(skb, KSTAT_A_IRQ_HWIRQ, m->hwirq,
			       KSTAT_A_IRQ_PAD)) ||
	    nla_put_u8(skb, KSTAT_A_IRQ_LEVEL, m->level) ||
	    (*name && nla_put_string(skb, KSTAT_A_IRQ_NAME, name)))
		goto cancel;
	for (s = kst_meta_next(name); s < end; s = kst_meta_next(s))
		if (nla_put_string(skb, KSTAT_A_IRQ_ACTION, s))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int kst_tail_put(struct sk_buff *skb, const struct kst_irq_data *d)
{
	unsigned char *mark = skb_tail_pointer(skb);

	if (nla_put_u64_64bit(skb, KSTAT_A_INTR_SUM, d->intr_sum,
			      KSTAT_A_PAD) ||
	    nla_put_u32(skb, KSTAT_A_NR_IRQS, d->nr_irqs) ||
	    kst_arch_unread_fill(skb)) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	return 0;
}

/* Runs, descriptions, arch rows, then the intr sum and its company. */
static int kst_irq_fill(struct sk_buff *skb, const struct kst_reading *r,
			const void *data, const struct kst_view *v,
			struct kst_pos *pos)
{
	const struct kst_irq_data *d = data;
	bool percpu = v->flags & KSTAT_F_PERCPU;
	unsigned int n;

	for (; pos->step < KST_IRQ_DONE; pos->step++, pos->idx = 0) {
		switch (pos->step) {
		case KST_IRQ_RUNS:
			for (; pos->idx < d->nr; pos->idx += n) {
				n = kst_run_fit(skb, d, pos->idx, percpu);
				if (!n || kst_run_put(skb, d, pos->idx, n, percpu))
					return -EMSGSIZE;
			}
			break;
		case KST_IRQ_META:
			for (; (v->flags & KSTAT_F_META) && pos->idx < d->nr;
			     pos->idx++)
				if (kst_meta_put(skb, d, pos->idx))
					return -EMSGSIZE;
			break;
		case KST_IRQ_ARCH:
			for (; pos->idx < kst_arch_rows(); pos->idx++)
				if (kst_arch_fill(skb, d->arch, pos->idx, percpu))
					return -EMSGSIZE;
			break;
		case KST_IRQ_TAIL:
			if (kst_tail_put(skb, d))
				return -EMSGSIZE;
			break;
		}
	}
	return 0;
}

const struct kst_section kst_irq_section = {
	.bit		= KSTAT_SECTION_IRQ,
	.collect	= kst_irq_collect,
	.size		= kst_irq_size,
	.max_object	= kst_irq_max_object,
	.fill		= kst_irq_fill,
	.release	= kst_irq_release,
};
