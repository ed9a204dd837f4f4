// SPDX-License-Identifier: GPL-2.0
/*
 * kstat CPU time collector.  Follows fs/proc/stat.c so that every value
 * brackets against /proc/stat: idle and iowait come from the NO_HZ
 * accounting when it is valid for an online CPU, from kcpustat otherwise.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/time64.h>
#include <net/netlink.h>

#include "kst.h"

static u64 kst_idle_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_idle_time_us(cpu, NULL);

	/* -1 means !NO_HZ or the CPU is offline: trust the tick counts. */
	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IDLE];
	return us * NSEC_PER_USEC;
}

static u64 kst_iowait_ns(const struct kernel_cpustat *kcs, unsigned int cpu)
{
	u64 us = -1ULL;

	if (cpu_online(cpu))
		us = get_cpu_iowait_time_us(cpu, NULL);

	if (us == -1ULL)
		return kcs->cpustat[CPUTIME_IOWAIT];
	return us * NSEC_PER_USEC;
}

void kst_cputime_read(unsigned int cpu, struct kst_cputime *ct)
{
	struct kernel_cpustat kcs;
	const u64 *cs = kcs.cpustat;

	kcpustat_cpu_fetch(&kcs, cpu);

	ct->ns[KST_CT_USER] = cs[CPUTIME_USER];
	ct->ns[KST_CT_NICE] = cs[CPUTIME_NICE];
	ct->ns[KST_CT_SYSTEM] = cs[CPUTIME_SYSTEM];
	ct->ns[KST_CT_IDLE] = kst_idle_ns(&kcs, cpu);
	ct->ns[KST_CT_IOWAIT] = kst_iowait_ns(&kcs, cpu);
	ct->ns[KST_CT_IRQ] = cs[CPUTIME_IRQ];
	ct->ns[KST_CT_SOFTIRQ] = cs[CPUTIME_SOFTIRQ];
	ct->ns[KST_CT_STEAL] = cs[CPUTIME_STEAL];
	ct->ns[KST_CT_GUEST] = cs[CPUTIME_GUEST];
	ct->ns[KST_CT_GUEST_NICE] = cs[CPUTIME_GUEST_NICE];
}

/* The "cpu" line of /proc/stat sums every possible CPU, offline ones too. */
void kst_cputime_read_total(struct kst_cputime *ct)
{
	struct kst_cputime one;
	unsigned int cpu;
	int i;

	memset(ct, 0, sizeof(*ct));
	for_each_possible_cpu(cpu) {
		kst_cputime_read(cpu, &one);
		for (i = 0; i < KST_CT_NR; i++)
			ct->ns[i] += one.ns[i];
	}
}

/* A KSTAT_A_CPU nest; the all-CPU sum carries no CPU id. */
size_t kst_cpu_size(bool with_id)
{
	return nla_total_size(0) +
	       (with_id ? nla_total_size(sizeof(u32)) : 0) +
	       KST_CT_NR * nla_total_size_64bit(sizeof(u64));
}

/* The cputime fields and their attributes are in the same order. */
static_assert(KSTAT_A_CPU_GUEST_NICE - KSTAT_A_CPU_USER == KST_CT_NR - 1);

/* @cpu < 0: the all-CPU sum, which carries no CPU id. */
int kst_cpu_fill(struct sk_buff *skb, int type, int cpu,
		 const struct kst_cputime *ct)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (cpu >= 0 && nla_put_u32(skb, KSTAT_A_CPU_ID, cpu))
		goto cancel;
	for (i = 0; i < KST_CT_NR; i++)
		if (nla_put_u64_64bit(skb, KSTAT_A_CPU_USER + i, ct->ns[i],
				      KSTAT_A_CPU_PAD))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * ---- every CPU at once ----------------------------------------------------
 *
 * One reading of every possible CPU, the online set and their sum: what a
 * summary sample holds, and what a request for all CPUs answers with.
 */
struct kst_cpu_state {
	unsigned long *online;		/* CPUs online at this reading */
	struct kst_cputime *cpu;	/* per CPU id, then the total */
	/* summary frames only (kst_cpu_frame_alloc), set by collect */
	u32 *online_ids;		/* the online CPU ids, ascending */
	unsigned int nr_online;
	u32 *changed_ids;		/* those whose row changed */
	unsigned int nr_changed;
	bool sum_changed;
};

static void kst_cpu_state_free(void *state, bool committed)
{
	struct kst_cpu_state *s = state;

	if (!s)
		return;
	bitmap_free(s->online);
	kvfree(s->cpu);
	kvfree(s->online_ids);
	kvfree(s->changed_ids);
	kfree(s);
}

static void *kst_cpu_state_alloc(gfp_t gfp)
{
	struct kst_cpu_state *s = kzalloc(sizeof(*s), gfp);

	if (!s)
		return NULL;
	s->online = bitmap_zalloc(nr_cpu_ids, gfp);
	s->cpu = kvcalloc(nr_cpu_ids + 1, sizeof(*s->cpu), gfp);
	if (!s->online || !s->cpu) {
		kst_cpu_state_free(s, false);
		return NULL;
	}
	return s;
}

static void kst_cpu_state_read(struct kst_cpu_state *s)
{
	struct kst_cputime *total = &s->cpu[nr_cpu_ids];
	unsigned int cpu, i;

	memset(total, 0, sizeof(*total));
	for_each_possible_cpu(cpu) {
		kst_cputime_read(cpu, &s->cpu[cpu]);
		for (i = 0; i < KST_CT_NR; i++)
			total->ns[i] += s->cpu[cpu].ns[i];
	}
	bitmap_copy(s->online, cpumask_bits(cpu_online_mask), nr_cpu_ids);
}

/* Index nr_cpu_ids is the total. */
static int kst_cpu_state_put(struct sk_buff *skb, int type,
			     const struct kst_cpu_state *s, unsigned int cpu)
{
	return kst_cpu_fill(skb, type, cpu == nr_cpu_ids ? -1 : cpu,
			    &s->cpu[cpu]);
}

static size_t kst_cpu_state_size(const struct kst_cpu_state *s)
{
	return bitmap_weight(s->online, nr_cpu_ids) * kst_cpu_size(true) +
	       kst_cpu_size(false);
}

/* ---- KSTAT_CMD_CPU_GET --------------------------------------------------- */

struct kst_cpu_req {
	int cpu;			/* KSTAT_A_SEL_CPU, or -1 */
	struct kst_cputime one;		/* that CPU's, or the sum */
	struct kst_cpu_state *all;	/* every CPU (KSTAT_F_PERCPU, dumps) */
	unsigned int next;		/* a dump's next CPU id */
};

static int kst_cpu_req_read_all(struct kst_cpu_req *r)
{
	r->all = kst_cpu_state_alloc(GFP_KERNEL_ACCOUNT);	/* the reader's */
	if (!r->all)
		return -ENOMEM;
	kst_cpu_state_read(r->all);
	return 0;
}

static int kst_cpu_get_prepare(void *data, struct nlattr **tb,
			       const struct kst_sel *sel,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *attr = tb[KSTAT_A_SEL_CPU];
	struct kst_cpu_req *r = data;

	r->cpu = -1;
	if (attr && sel->flags) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_FLAGS],
				    "one CPU has no per-CPU detail; select one CPU or ask for all");
		return -EINVAL;
	}
	if (attr) {
		r->cpu = nla_get_u32(attr);
		if (r->cpu < 0 || r->cpu >= nr_cpu_ids || !cpu_possible(r->cpu)) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "CPU out of range");
			return -EINVAL;
		}
		kst_cputime_read(r->cpu, &r->one);
		return 0;
	}
	if (sel->flags & KSTAT_F_PERCPU)
		return kst_cpu_req_read_all(r);
	kst_cputime_read_total(&r->one);
	return 0;
}

static size_t kst_cpu_get_reply_size(const void *data)
{
	const struct kst_cpu_req *r = data;

	return r->all ? kst_cpu_state_size(r->all) : kst_cpu_size(r->cpu >= 0);
}

/* Every online CPU, then the sum: one reply, exactly its size. */
static int kst_cpu_get_fill(struct sk_buff *skb, const void *data)
{
	const struct kst_cpu_req *r = data;
	unsigned int cpu;
	int err;

	if (!r->all)
		return kst_cpu_fill(skb, KSTAT_A_CPU, r->cpu, &r->one);
	for_each_set_bit(cpu, r->all->online, nr_cpu_ids) {
		err = kst_cpu_state_put(skb, KSTAT_A_CPU, r->all, cpu);
		if (err)
			return err;
	}
	return kst_cpu_state_put(skb, KSTAT_A_CPU, r->all, nr_cpu_ids);
}

static int kst_cpu_dump_prepare(void *data, struct nlattr **tb,
				const struct kst_sel *sel,
				struct netlink_ext_ack *extack)
{
	struct nlattr *attr = tb[KSTAT_A_SEL_CPU] ?: tb[KSTAT_A_SEL_FLAGS];

	if (attr) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a CPU dump reports every online CPU; select one CPU with a do request");
		return -EINVAL;
	}
	return kst_cpu_req_read_all(data);
}

/* The online CPUs of one reading, without the sum (the "cpuN" lines). */
static int kst_cpu_dump(struct kst_dump *d, void *data)
{
	struct kst_cpu_req *r = data;
	unsigned int cpu;
	int err;

	for_each_set_bit_from(r->next, r->all->online, nr_cpu_ids) {
		cpu = r->next;
		err = kst_dump_open(d) ?:
		      kst_cpu_state_put(d->skb, KSTAT_A_CPU, r->all, cpu);
		if (err)
			return err;
		d->objs++;
	}
	return 0;
}

static size_t kst_cpu_dump_alloc(const struct kst_sel *sel)
{
	return kst_cpu_size(true);
}

static void kst_cpu_get_cleanup(void *data)
{
	struct kst_cpu_req *r = data;

	kst_cpu_state_free(r->all, false);
}

/*
 * ---- summary: packed cputime rows ----------------------------------------
 *
 * KSTAT_A_SAMPLE_CPUTIME chunks: a keyframe has every online CPU's row, a
 * delta the rows that changed, then the sum in a chunk of its own.  Whole
 * rows, one layout for both: docs/protocol.md says what sending only the
 * changed fields would save.
 */

static bool kst_cputime_equal(const struct kst_cputime *a,
			      const struct kst_cputime *b)
{
	return !memcmp(a->ns, b->ns, sizeof(a->ns));
}

/* The rows of @c that differ from @l's; all of them without @l. */
static void kst_cpu_state_diff(struct kst_cpu_state *c,
			       const struct kst_cpu_state *l)
{
	unsigned int cpu;

	c->nr_online = 0;
	c->nr_changed = 0;
	for_each_set_bit(cpu, c->online, nr_cpu_ids) {
		c->online_ids[c->nr_online++] = cpu;
		if (!l || !test_bit(cpu, l->online) ||
		    !kst_cputime_equal(&c->cpu[cpu], &l->cpu[cpu]))
			c->changed_ids[c->nr_changed++] = cpu;
	}
	c->sum_changed = !l || !kst_cputime_equal(&c->cpu[nr_cpu_ids],
						  &l->cpu[nr_cpu_ids]);
}

/* A summary frame's state: a reading, and the ids its samples send. */
static void *kst_cpu_frame_alloc(gfp_t gfp)
{
	struct kst_cpu_state *s = kst_cpu_state_alloc(gfp);

	if (!s)
		return NULL;
	s->online_ids = kvcalloc(nr_cpu_ids, sizeof(u32), gfp);
	s->changed_ids = kvcalloc(nr_cpu_ids, sizeof(u32), gfp);
	if (!s->online_ids || !s->changed_ids) {
		kst_cpu_state_free(s, false);
		return NULL;
	}
	return s;
}

/* CPUs coming or going start a new generation. */
/* Read once into the first stream's state, copied to the others'. */
static int kst_cpu_collect(struct kst_target *t, unsigned int n)
{
	const struct kst_cpu_state *read = t[0].cur;
	struct kst_cpu_state *c, *l;
	unsigned int k;

	kst_cpu_state_read(t[0].cur);
	for (k = 0; k < n; k++) {
		c = t[k].cur;
		l = t[k].last;
		if (k) {
			memcpy(c->cpu, read->cpu,
			       (nr_cpu_ids + 1) * sizeof(*c->cpu));
			bitmap_copy(c->online, read->online, nr_cpu_ids);
		}
		kst_cpu_state_diff(c, l);
		t[k].renewed = l && !bitmap_equal(c->online, l->online,
						  nr_cpu_ids);
	}
	return 0;
}

/* The rows a sample writes: @ids, then the sum if @sum. */
struct kst_cputime_rows {
	const struct kst_cpu_state *s;
	const u32 *ids;
	unsigned int nr;
	bool sum;
};

#define KST_CPUTIME_ROW_BYTES	(sizeof(u32) + sizeof(struct kst_cputime))

/* A chunk's bytes besides its rows: nest, FIELDS, two headers, a pad. */
static size_t kst_cputime_chunk_overhead(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       nla_total_size(0) + nla_total_size_64bit(0);
}

/* How many of the rows from @idx fit in what is left of @skb. */
static unsigned int kst_cputime_rows_fit(const struct sk_buff *skb,
					 const struct kst_cputime_rows *r,
					 unsigned int idx)
{
	size_t room = skb_tailroom(skb), over = kst_cputime_chunk_overhead();

	if (room <= over)
		return 0;
	return min_t(size_t, r->nr - idx, (room - over) / KST_CPUTIME_ROW_BYTES);
}

static int kst_cputime_put_rows(struct sk_buff *skb,
				const struct kst_cputime_rows *r,
				unsigned int idx, unsigned int n)
{
	struct nlattr *ids, *vals;
	u64 *v;
	unsigned int i;

	ids = nla_reserve(skb, KSTAT_A_CPUTIME_IDS, n * sizeof(u32));
	vals = nla_reserve_64bit(skb, KSTAT_A_CPUTIME_VALUES,
				 n * sizeof(struct kst_cputime),
				 KSTAT_A_CPUTIME_PAD);
	if (!ids || !vals)
		return -EMSGSIZE;
	memcpy(nla_data(ids), &r->ids[idx], n * sizeof(u32));
	v = nla_data(vals);
	for (i = 0; i < n; i++, v += KST_CT_NR)
		memcpy(v, r->s->cpu[r->ids[idx + i]].ns, sizeof(r->s->cpu->ns));
	return 0;
}

/*
 * The rows from @idx that fit in the part, or the sum once every row is
 * out: how many rows it put, -EMSGSIZE when none fit.
 */
static int kst_cputime_put_chunk(struct sk_buff *skb,
				 const struct kst_writer *w,
				 const void *obj, unsigned int idx)
{
	const struct kst_cputime_rows *r = obj;
	unsigned int n = kst_cputime_rows_fit(skb, r, idx);
	struct nlattr *nest;

	if (idx < r->nr && !n)
		return -EMSGSIZE;
	nest = nla_nest_start(skb, KSTAT_A_SAMPLE_CPUTIME);
	if (!nest || nla_put_u32(skb, KSTAT_A_CPUTIME_FIELDS, KST_CT_NR))
		goto cancel;
	if (n && kst_cputime_put_rows(skb, r, idx, n))
		goto cancel;
	if (idx == r->nr && r->sum &&
	    nla_put_64bit(skb, KSTAT_A_CPUTIME_SUM,
			  sizeof(r->s->cpu->ns), r->s->cpu[nr_cpu_ids].ns,
			  KSTAT_A_CPUTIME_PAD))
		goto cancel;
	nla_nest_end(skb, nest);
	return n;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * The rows in as many chunks as the parts need, then the sum in one of
 * its own (12 bytes more than in the last chunk, and simpler); a delta
 * where nothing moved still has an empty chunk, so that every sample of
 * the section shows it.
 */
static int kst_cpu_write(struct kst_writer *w, const void *cur,
			 const void *base)
{
	const struct kst_cpu_state *s = cur;
	struct kst_cputime_rows r = { .s = s };
	unsigned int idx = 0;
	int n;

	if (w->h->key) {
		r.ids = s->online_ids;
		r.nr = s->nr_online;
		r.sum = true;
	} else {
		r.ids = s->changed_ids;
		r.nr = s->nr_changed;
		r.sum = s->sum_changed;
	}
	while (idx < r.nr) {
		n = kst_sample_put(w, kst_cputime_put_chunk, &r, idx);
		if (n < 0)
			return n;
		idx += n;
	}
	if (!r.sum && r.nr)
		return 0;
	n = kst_sample_put(w, kst_cputime_put_chunk, &r, idx);
	return n < 0 ? n : 0;
}

const struct kst_section kst_cpu_section = {
	.name		= "cpu",
	.get_cmd	= KSTAT_CMD_CPU_GET,
	.get = {
		.data_size	= sizeof(struct kst_cpu_req),
		.selects	= true,
		.flags_mask	= KSTAT_F_PERCPU,
		.prepare	= kst_cpu_get_prepare,
		.reply_size	= kst_cpu_get_reply_size,
		.fill		= kst_cpu_get_fill,
		.dump_prepare	= kst_cpu_dump_prepare,
		.dump		= kst_cpu_dump,
		.dump_alloc	= kst_cpu_dump_alloc,
		.cleanup	= kst_cpu_get_cleanup,
	},
	.sections	= KSTAT_SECTION_CPU,
	.state_alloc	= kst_cpu_frame_alloc,
	.state_free	= kst_cpu_state_free,
	.collect	= kst_cpu_collect,
	.write		= kst_cpu_write,
};
