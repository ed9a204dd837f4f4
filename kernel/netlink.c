// SPDX-License-Identifier: GPL-2.0
/*
 * kstat netlink glue: the "kstat" generic netlink family, its policies and
 * request handlers.
 *
 * Every request goes parse -> prepare -> size -> fill, as in ethtool: the
 * attributes become a struct kstat_sel, a collector snapshots the counters,
 * the reply is sized from the snapshot, then filled.  A fill that outgrows
 * its size is a kstat bug and WARNs.  The same fill functions serve do and
 * dump requests.
 */
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "kstat.h"
#include "compat.h"

static struct genl_family kstat_family;

/* ---- request parsing ---------------------------------------------------- */

static int kstat_parse_sel(struct nlattr **tb, struct kstat_sel *sel,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *first = tb[KSTAT_A_SEL_CPU_FIRST];
	struct nlattr *last = tb[KSTAT_A_SEL_CPU_LAST];

	sel->flags = tb[KSTAT_A_SEL_FLAGS] ?
		     nla_get_u32(tb[KSTAT_A_SEL_FLAGS]) : 0;
	sel->cpu_first = first ? nla_get_u32(first) : 0;
	sel->cpu_last = last ? nla_get_u32(last) : nr_cpu_ids - 1;

	if (sel->cpu_first >= nr_cpu_ids) {
		NL_SET_ERR_MSG_ATTR(extack, first, "CPU out of range");
		return -EINVAL;
	}
	if (sel->cpu_last >= nr_cpu_ids) {
		NL_SET_ERR_MSG_ATTR(extack, last, "CPU out of range");
		return -EINVAL;
	}
	if (sel->cpu_first > sel->cpu_last) {
		NL_SET_ERR_MSG_ATTR(extack, first,
				    "first CPU is above last CPU");
		return -EINVAL;
	}
	return 0;
}

/* ---- fill functions, shared by do and dump ------------------------------ */

static size_t kstat_percpu_size(const struct kstat_sel *sel)
{
	return nla_total_size(kstat_sel_nr_cpus(sel) * sizeof(u32));
}

static size_t kstat_cpu_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       KSTAT_CT_NR * nla_total_size_64bit(sizeof(u64));
}

/* The cputime fields and their attributes are in the same order. */
static_assert(KSTAT_A_CPU_GUEST_NICE - KSTAT_A_CPU_USER == KSTAT_CT_NR - 1);

/* @cpu < 0: the all-CPU sum, which carries no CPU id. */
int kstat_cpu_fill(struct sk_buff *skb, int type, int cpu,
		   const struct kstat_cputime *ct)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (cpu >= 0 && nla_put_u32(skb, KSTAT_A_CPU_ID, cpu))
		goto cancel;
	for (i = 0; i < KSTAT_CT_NR; i++)
		if (nla_put_u64_64bit(skb, KSTAT_A_CPU_USER + i, ct->ns[i],
				      KSTAT_A_CPU_PAD))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static size_t kstat_irq_size(const struct kstat_irq_snap *snap,
			     const struct kstat_sel *sel)
{
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size_64bit(sizeof(u64));
	const char *p = snap->actions;

	if (sel->flags & KSTAT_F_PERCPU)
		size += kstat_percpu_size(sel);
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

static int kstat_irq_fill_meta(struct sk_buff *skb,
			       const struct kstat_irq_snap *snap)
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

int kstat_irq_fill(struct sk_buff *skb, int type,
		   const struct kstat_irq_snap *snap, const struct kstat_sel *sel)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_IRQ_ID, snap->irq) ||
	    nla_put_u64_64bit(skb, KSTAT_A_IRQ_COUNT, snap->count,
			      KSTAT_A_IRQ_PAD))
		goto cancel;
	if ((sel->flags & KSTAT_F_PERCPU) &&
	    nla_put(skb, KSTAT_A_IRQ_PERCPU,
		    kstat_sel_nr_cpus(sel) * sizeof(u32), snap->percpu))
		goto cancel;
	if ((sel->flags & KSTAT_F_META) && kstat_irq_fill_meta(skb, snap))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * The common case of an IRQ dump, totals only: one tailroom check and
 * three headers written in place, instead of a nest and two puts each
 * checking for room.  Where u64 attributes need padding, the general
 * path does it.
 */
static int kstat_irq_fill_totals(struct sk_buff *skb, u32 irq, u64 count)
{
	const int size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
			 nla_total_size(sizeof(u64));
	struct nlattr *nest;

	if (nla_need_padding_for_64bit(skb))
		return 1;
	if (skb_tailroom(skb) < size)
		return -EMSGSIZE;
	nest = skb_put(skb, NLA_HDRLEN);
	nest->nla_type = KSTAT_A_IRQ | NLA_F_NESTED;
	__nla_put(skb, KSTAT_A_IRQ_ID, sizeof(irq), &irq);
	__nla_put(skb, KSTAT_A_IRQ_COUNT, sizeof(count), &count);
	nest->nla_len = skb_tail_pointer(skb) - (unsigned char *)nest;
	return 0;
}

/* Reserve a per-CPU array and let @read fill it straight into the skb. */
static int kstat_percpu_fill(struct sk_buff *skb, int type,
			     const struct kstat_sel *sel,
			     u32 (*read)(const void *obj, unsigned int cpu),
			     const void *obj)
{
	struct nlattr *attr;
	unsigned int cpu;
	u32 *out;

	attr = nla_reserve(skb, type, kstat_sel_nr_cpus(sel) * sizeof(u32));
	if (!attr)
		return -EMSGSIZE;
	out = nla_data(attr);
	for (cpu = sel->cpu_first; cpu <= sel->cpu_last; cpu++)
		*out++ = read(obj, cpu);
	return 0;
}

static u32 kstat_softirq_read(const void *obj, unsigned int cpu)
{
	return kstat_softirq_cpu(*(const unsigned int *)obj, cpu);
}

static size_t kstat_softirq_size(unsigned int vec, const struct kstat_sel *sel)
{
	size_t size = nla_total_size(0) + nla_total_size(sizeof(u32)) +
		      nla_total_size(strlen(kstat_softirq_name(vec)) + 1) +
		      nla_total_size_64bit(sizeof(u64));

	if (sel->flags & KSTAT_F_PERCPU)
		size += kstat_percpu_size(sel);
	return size;
}

/* @total: the vector's count over all CPUs, which the caller has read. */
int kstat_softirq_fill(struct sk_buff *skb, int type, unsigned int vec,
		       u64 total, const struct kstat_sel *sel)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_SOFTIRQ_VEC, vec) ||
	    nla_put_string(skb, KSTAT_A_SOFTIRQ_NAME, kstat_softirq_name(vec)) ||
	    nla_put_u64_64bit(skb, KSTAT_A_SOFTIRQ_COUNT, total,
			      KSTAT_A_SOFTIRQ_PAD))
		goto cancel;
	if ((sel->flags & KSTAT_F_PERCPU) &&
	    kstat_percpu_fill(skb, KSTAT_A_SOFTIRQ_PERCPU, sel,
			      kstat_softirq_read, &vec))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static u32 kstat_arch_percpu_read(const void *obj, unsigned int cpu)
{
	return kstat_arch_read(obj, cpu);
}

static int kstat_arch_fill(struct sk_buff *skb,
			   const struct kstat_arch_counter *c,
			   const struct kstat_sel *sel)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, KSTAT_A_ARCH);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, KSTAT_A_ARCH_NAME, c->name) ||
	    nla_put_string(skb, KSTAT_A_ARCH_DESC, c->desc) ||
	    nla_put_u64_64bit(skb, KSTAT_A_ARCH_COUNT, kstat_arch_total(c),
			      KSTAT_A_ARCH_PAD))
		goto cancel;
	if ((sel->flags & KSTAT_F_PERCPU) &&
	    kstat_percpu_fill(skb, KSTAT_A_ARCH_PERCPU, sel,
			      kstat_arch_percpu_read, c))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static size_t kstat_online_size(void)
{
	return nla_total_size(BITS_TO_BYTES(nr_cpu_ids));
}

/* Byte-wise bitmap, so it reads the same on every endianness. */
static int kstat_online_fill(struct sk_buff *skb)
{
	struct nlattr *attr;
	unsigned int cpu;
	u8 *map;

	attr = nla_reserve(skb, KSTAT_A_ONLINE_CPUS, BITS_TO_BYTES(nr_cpu_ids));
	if (!attr)
		return -EMSGSIZE;
	map = nla_data(attr);
	memset(map, 0, nla_len(attr));
	for_each_online_cpu(cpu)
		map[cpu / BITS_PER_BYTE] |= 1U << (cpu % BITS_PER_BYTE);
	return 0;
}

/* ---- replies to do requests --------------------------------------------- */

static struct sk_buff *kstat_reply_new(struct genl_info *info, size_t size,
				       void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &kstat_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* @err is the fill result: a fill larger than its size is our bug. */
static int kstat_reply_send(struct sk_buff *msg, void *hdr,
			    struct genl_info *info, int err)
{
	if (WARN_ON_ONCE(err)) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* ---- dumps --------------------------------------------------------------- */

/* The message a dumpit call is filling; objects are packed into it. */
struct kstat_dump_msg {
	void *hdr;
	unsigned int objs;
};

static int kstat_dump_msg_open(struct sk_buff *skb, struct netlink_callback *cb,
			       struct kstat_dump_msg *m)
{
	if (m->hdr)
		return 0;
	m->hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			     cb->nlh->nlmsg_seq, &kstat_family, NLM_F_MULTI,
			     genl_dumpit_info(cb)->op.cmd);
	if (!m->hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, m->hdr);
	m->objs = 0;
	return 0;
}

/*
 * End a dumpit call.  -EMSGSIZE with something in the skb means "full,
 * resume in the next one"; with nothing in it, one object is larger than a
 * dump skb, which the caller must be told rather than see a short dump.
 * When the dump is @complete, return 0 even with data in the skb: netlink
 * then appends NLMSG_DONE to this skb, which saves the reader a round trip.
 */
static int kstat_dump_msg_close(struct sk_buff *skb, struct kstat_dump_msg *m,
				int err, bool complete)
{
	if (m->hdr) {
		if (m->objs)
			genlmsg_end(skb, m->hdr);
		else
			genlmsg_cancel(skb, m->hdr);
	}
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	if (err || complete)
		return err;
	return skb->len;
}

/* ---- KSTAT_CMD_CPU_GET --------------------------------------------------- */

static const struct nla_policy kstat_cpu_get_policy[KSTAT_A_SEL_CPU + 1] = {
	[KSTAT_A_SEL_CPU]	= { .type = NLA_U32 },
};

static int kstat_nl_cpu_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[KSTAT_A_SEL_CPU];
	struct kstat_cputime ct;
	struct sk_buff *msg;
	int cpu = -1;
	void *hdr;

	if (attr) {
		cpu = nla_get_u32(attr);
		if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "CPU out of range");
			return -EINVAL;
		}
		kstat_cputime_read(cpu, &ct);
	} else {
		kstat_cputime_read_total(&ct);
	}

	msg = kstat_reply_new(info, kstat_cpu_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kstat_reply_send(msg, hdr, info, kstat_cpu_fill(msg, KSTAT_A_CPU, cpu, &ct));
}

/*
 * Requests are checked in the first dumpit call, not in .start: on 6.1,
 * .start has no extack to explain a rejection, while an error returned
 * by dumpit reaches the client in NLMSG_DONE together with its message.
 */
static int kstat_cpu_dump_check(struct netlink_callback *cb)
{
	struct nlattr *attr = kstat_dump_attrs(cb)[KSTAT_A_SEL_CPU];

	if (attr) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "a CPU dump reports every online CPU; select one CPU with a do request");
		return -EINVAL;
	}
	return 0;
}

/* cb->args[0]: the next CPU id to report; args[1]: request checked. */
static int kstat_nl_cpu_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct kstat_dump_msg m = {};
	struct kstat_cputime ct;
	unsigned int cpu;
	int err = 0;

	if (!cb->args[1]) {
		err = kstat_cpu_dump_check(cb);
		if (err)
			return err;
		cb->args[1] = 1;
	}

	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_online(cpu))
			continue;
		kstat_cputime_read(cpu, &ct);
		err = kstat_dump_msg_open(skb, cb, &m) ?:
		      kstat_cpu_fill(skb, KSTAT_A_CPU, cpu, &ct);
		if (err)
			break;
		m.objs++;
	}
	cb->args[0] = cpu;
	return kstat_dump_msg_close(skb, &m, err, cpu >= nr_cpu_ids);
}

/* ---- KSTAT_CMD_IRQ_GET --------------------------------------------------- */

static const struct nla_policy kstat_irq_get_policy[KSTAT_A_SEL_FLAGS + 1] = {
	[KSTAT_A_SEL_IRQ]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_IRQ_FIRST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_IRQ_LAST]	= { .type = NLA_U32 },
	/* .len, not a range: policy bounds are s16 on 6.1 */
	[KSTAT_A_SEL_IRQ_LIST]	= { .type = NLA_BINARY,
				    .len = KSTAT_IRQ_LIST_MAX * sizeof(u32) },
	[KSTAT_A_SEL_CPU_FIRST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_CPU_LAST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_FLAGS]	= NLA_POLICY_MASK(NLA_U32, KSTAT_F_ALL),
};

static struct kstat_irq_snap *kstat_irq_snap_alloc(const struct kstat_sel *sel)
{
	struct kstat_irq_snap *snap;

	snap = kvzalloc(sizeof(*snap) + kstat_sel_nr_cpus(sel) * sizeof(u32),
			GFP_KERNEL);
	if (snap)
		snap->percpu = (u32 *)(snap + 1);
	return snap;
}

static int kstat_nl_irq_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct kstat_irq_snap *snap;
	struct kstat_sel sel;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, KSTAT_A_SEL_IRQ))
		return -EINVAL;
	if (tb[KSTAT_A_SEL_IRQ_FIRST] || tb[KSTAT_A_SEL_IRQ_LAST] ||
	    tb[KSTAT_A_SEL_IRQ_LIST]) {
		NL_SET_ERR_MSG(info->extack,
			       "IRQ ranges and lists select IRQs in dumps; a do request takes one IRQ");
		return -EINVAL;
	}
	err = kstat_parse_sel(tb, &sel, info->extack);
	if (err)
		return err;
	if (sel.flags & KSTAT_F_ARCH) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KSTAT_A_SEL_FLAGS],
				    "arch counters come with IRQ dumps only");
		return -EINVAL;
	}

	snap = kstat_irq_snap_alloc(&sel);
	if (!snap)
		return -ENOMEM;
	err = kstat_irq_snapshot(nla_get_u32(tb[KSTAT_A_SEL_IRQ]), &sel, snap);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KSTAT_A_SEL_IRQ],
				    "no such IRQ");
		goto out;
	}

	err = -ENOMEM;
	msg = kstat_reply_new(info, kstat_irq_size(snap, &sel), &hdr);
	if (msg)
		err = kstat_reply_send(msg, hdr, info,
				       kstat_irq_fill(msg, KSTAT_A_IRQ, snap, &sel));
out:
	kvfree(snap);
	return err;
}

enum kstat_irq_dump_phase {
	KSTAT_DUMP_IRQS,
	KSTAT_DUMP_ARCH,
	KSTAT_DUMP_TRAILER,
	KSTAT_DUMP_DONE,
};

/* State of one IRQ dump, from .start to .done; cb->args[0] points here. */
struct kstat_irq_dump {
	struct kstat_sel sel;
	const u32 *list;	/* in the request attrs, or NULL for a range */
	u32 nr_list;
	u32 first, last;	/* the range, when there is no list */
	u64 pos;		/* next list index, or offset into the range */
	u32 arch_pos;
	u32 visited;		/* fingerprint of the descriptors dumped */
	enum kstat_irq_dump_phase phase;
	struct kstat_irq_snap *snap;
};

static int kstat_irq_dump_parse(struct kstat_irq_dump *d, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	struct nlattr *list = tb[KSTAT_A_SEL_IRQ_LIST];

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
	d->list = list ? nla_data(list) : NULL;
	d->nr_list = list ? nla_len(list) / sizeof(u32) : 0;
	d->first = tb[KSTAT_A_SEL_IRQ_FIRST] ?
		   nla_get_u32(tb[KSTAT_A_SEL_IRQ_FIRST]) : 0;
	d->last = tb[KSTAT_A_SEL_IRQ_LAST] ?
		  nla_get_u32(tb[KSTAT_A_SEL_IRQ_LAST]) : U32_MAX;
	if (d->first > d->last) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_IRQ_FIRST],
				    "first IRQ is above last IRQ");
		return -EINVAL;
	}
	return kstat_parse_sel(tb, &d->sel, extack);
}

/* Dump state is allocated here; the request is checked in dumpit. */
static int kstat_nl_irq_get_start(struct netlink_callback *cb)
{
	struct kstat_irq_dump *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	cb->args[0] = (long)d;
	return 0;
}

static int kstat_irq_dump_prepare(struct kstat_irq_dump *d,
				  struct netlink_callback *cb)
{
	int err;

	err = kstat_irq_dump_parse(d, kstat_dump_attrs(cb), cb->extack);
	if (err)
		return err;
	d->snap = kstat_irq_snap_alloc(&d->sel);
	return d->snap ? 0 : -ENOMEM;
}

static int kstat_nl_irq_get_done(struct netlink_callback *cb)
{
	struct kstat_irq_dump *d = (struct kstat_irq_dump *)cb->args[0];

	if (d) {
		kvfree(d->snap);
		kfree(d);
	}
	return 0;
}

/* The next selected IRQ number, or false when the selection is done. */
static bool kstat_irq_dump_next(const struct kstat_irq_dump *d, u32 *irq)
{
	u64 n;

	if (d->list) {
		if (d->pos >= d->nr_list)
			return false;
		*irq = d->list[d->pos];
		return true;
	}
	n = (u64)d->first + d->pos;
	if (n > d->last || n >= nr_irqs)
		return false;
	*irq = n;
	return true;
}

/* One IRQ of a dump: the fast path when only totals are wanted. */
static int kstat_irq_dump_fill(struct sk_buff *skb, struct kstat_irq_dump *d)
{
	int err = 1;

	if (!d->sel.flags)
		err = kstat_irq_fill_totals(skb, d->snap->irq, d->snap->count);
	if (err > 0)	/* not for this skb: the general path */
		err = kstat_irq_fill(skb, KSTAT_A_IRQ, d->snap, &d->sel);
	return err;
}

static int kstat_irq_dump_irqs(struct sk_buff *skb, struct netlink_callback *cb,
			       struct kstat_irq_dump *d, struct kstat_dump_msg *m)
{
	int err;
	u32 irq;

	for (; kstat_irq_dump_next(d, &irq); d->pos++) {
		/* no descriptor: not in the set, but part of the fingerprint */
		if (!kstat_irq_snapshot(irq, &d->sel, d->snap)) {
			err = kstat_dump_msg_open(skb, cb, m) ?:
			      kstat_irq_dump_fill(skb, d);
			if (err)
				return err;	/* resumes with this IRQ */
			m->objs++;
		}
		d->visited = kstat_irq_fingerprint_mix(d->visited, irq,
						       d->snap->id);
	}
	d->phase = (d->sel.flags & KSTAT_F_ARCH) ? KSTAT_DUMP_ARCH :
						  KSTAT_DUMP_TRAILER;
	return 0;
}

static int kstat_irq_dump_arch(struct sk_buff *skb, struct netlink_callback *cb,
			       struct kstat_irq_dump *d, struct kstat_dump_msg *m)
{
	int err;

	for (; d->arch_pos < kstat_nr_arch_counters; d->arch_pos++) {
		err = kstat_dump_msg_open(skb, cb, m) ?:
		      kstat_arch_fill(skb, &kstat_arch_counters[d->arch_pos],
				      &d->sel);
		if (err)
			return err;
		m->objs++;
	}
	d->phase = KSTAT_DUMP_TRAILER;
	return 0;
}

static int kstat_irq_dump_trailer(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct kstat_dump_msg *m)
{
	unsigned char *mark;
	int err;

	err = kstat_dump_msg_open(skb, cb, m);
	if (err)
		return err;
	mark = skb_tail_pointer(skb);
	if (nla_put_u64_64bit(skb, KSTAT_A_INTR_SUM, kstat_intr_sum(),
			      KSTAT_A_PAD) ||
	    nla_put_u32(skb, KSTAT_A_NR_IRQS, nr_irqs) ||
	    kstat_online_fill(skb)) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	m->objs++;
	return 0;
}

static int kstat_nl_irq_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct kstat_irq_dump *d = (struct kstat_irq_dump *)cb->args[0];
	struct kstat_dump_msg m = {};
	int err = 0;

	if (!d->snap) {
		err = kstat_irq_dump_prepare(d, cb);
		if (err)
			return err;
		cb->seq = 1;	/* messages are consistent until shown not */
	}

	if (d->phase == KSTAT_DUMP_IRQS)
		err = kstat_irq_dump_irqs(skb, cb, d, &m);
	if (!err && d->phase == KSTAT_DUMP_ARCH)
		err = kstat_irq_dump_arch(skb, cb, d, &m);
	/*
	 * Did the descriptors change while we dumped them?  What we saw,
	 * IRQ by IRQ, against a scan of the selection now: if they differ,
	 * the trailer carries NLM_F_DUMP_INTR and the reader starts again.
	 * One extra scan per dump, however many messages it takes.
	 */
	if (!err && d->phase == KSTAT_DUMP_TRAILER) {
		if (m.hdr) {	/* the trailer gets a message of its own */
			kstat_dump_msg_close(skb, &m, 0, false);
			m.hdr = NULL;
		}
		cb->seq = d->visited == kstat_irq_set_fingerprint(d->list,
				d->nr_list, d->first, d->last) ? 1 : 2;
		err = kstat_irq_dump_trailer(skb, cb, &m);
		if (!err)
			d->phase = KSTAT_DUMP_DONE;
	}
	return kstat_dump_msg_close(skb, &m, err, d->phase == KSTAT_DUMP_DONE);
}

/* ---- KSTAT_CMD_SOFTIRQ_GET ----------------------------------------------- */

static const struct nla_policy kstat_softirq_get_policy[KSTAT_A_SEL_FLAGS + 1] = {
	[KSTAT_A_SEL_CPU_FIRST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_CPU_LAST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_FLAGS]	= NLA_POLICY_MASK(NLA_U32, KSTAT_F_PERCPU),
};

static int kstat_nl_softirq_get_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct kstat_sel sel;
	struct sk_buff *msg;
	size_t size = kstat_online_size();
	unsigned int vec;
	int err;
	void *hdr;

	err = kstat_parse_sel(info->attrs, &sel, info->extack);
	if (err)
		return err;
	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		size += kstat_softirq_size(vec, &sel);

	msg = kstat_reply_new(info, size, &hdr);
	if (!msg)
		return -ENOMEM;
	for (vec = 0; vec < NR_SOFTIRQS && !err; vec++)
		err = kstat_softirq_fill(msg, KSTAT_A_SOFTIRQ, vec,
					 kstat_softirq_total(vec), &sel);
	if (!err)
		err = kstat_online_fill(msg);
	return kstat_reply_send(msg, hdr, info, err);
}

/* ---- summaries: configuration, telemetry, subscription --------------------- */

int kstat_config_fill(struct sk_buff *skb, int type,
		      const struct kstat_config *cfg)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_CONFIG_INTERVAL_MS, cfg->interval_ms) ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_BATCH, cfg->batch) ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_KEYFRAME, cfg->keyframe) ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_SECTIONS, cfg->sections) ||
	    nla_put_u8(skb, KSTAT_A_CONFIG_PERCPU, cfg->percpu)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static size_t kstat_config_size(void)
{
	return nla_total_size(0) + 4 * nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(u8));
}

static int kstat_nl_config_get_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	struct kstat_config cfg;
	struct sk_buff *msg;
	void *hdr;

	kstat_summary_get_config(&cfg);
	msg = kstat_reply_new(info, kstat_config_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kstat_reply_send(msg, hdr, info,
				kstat_config_fill(msg, KSTAT_A_CONFIG, &cfg));
}

/* The floor is checked in code, to say so in words. */
static struct netlink_range_validation kstat_interval_range = {
	.max = KSTAT_INTERVAL_MAX_MS,
};

static const struct nla_policy kstat_config_policy[KSTAT_A_CONFIG_MAX + 1] = {
	[KSTAT_A_CONFIG_INTERVAL_MS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							     &kstat_interval_range),
	[KSTAT_A_CONFIG_BATCH]	= NLA_POLICY_RANGE(NLA_U32, 1, KSTAT_BATCH_MAX),
	[KSTAT_A_CONFIG_KEYFRAME] = NLA_POLICY_RANGE(NLA_U32, 1,
						     KSTAT_KEYFRAME_MAX),
	[KSTAT_A_CONFIG_SECTIONS] = NLA_POLICY_MASK(NLA_U32, KSTAT_SECTION_ALL),
	[KSTAT_A_CONFIG_PERCPU]	= NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy kstat_config_set_policy[KSTAT_A_CONFIG + 1] = {
	[KSTAT_A_CONFIG]	= NLA_POLICY_NESTED(kstat_config_policy),
};

/*
 * What the policy cannot say: the interval's floor, a non-empty set.
 * Fills the fields given and says which in @mask.
 */
static int kstat_config_parse(struct nlattr **tb, struct kstat_config *cfg,
			      u32 *mask, struct netlink_ext_ack *extack)
{
	struct nlattr *a;

	*mask = 0;
	a = tb[KSTAT_A_CONFIG_INTERVAL_MS];
	if (a) {
		cfg->interval_ms = nla_get_u32(a);
		if (cfg->interval_ms < KSTAT_INTERVAL_MIN_MS) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "interval below the 10 ms minimum");
			return -EINVAL;
		}
		*mask |= KSTAT_CFG_INTERVAL;
	}
	a = tb[KSTAT_A_CONFIG_SECTIONS];
	if (a) {
		cfg->sections = nla_get_u32(a);
		if (!cfg->sections) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a summary needs at least one section");
			return -EINVAL;
		}
		*mask |= KSTAT_CFG_SECTIONS;
	}
	if (tb[KSTAT_A_CONFIG_BATCH]) {
		cfg->batch = nla_get_u32(tb[KSTAT_A_CONFIG_BATCH]);
		*mask |= KSTAT_CFG_BATCH;
	}
	if (tb[KSTAT_A_CONFIG_KEYFRAME]) {
		cfg->keyframe = nla_get_u32(tb[KSTAT_A_CONFIG_KEYFRAME]);
		*mask |= KSTAT_CFG_KEYFRAME;
	}
	if (tb[KSTAT_A_CONFIG_PERCPU]) {
		cfg->percpu = nla_get_u8(tb[KSTAT_A_CONFIG_PERCPU]);
		*mask |= KSTAT_CFG_PERCPU;
	}
	return 0;
}

static int kstat_nl_config_set_doit(struct sk_buff *skb,
				    struct genl_info *info)
{
	struct nlattr *tb[KSTAT_A_CONFIG_MAX + 1];
	struct kstat_config cfg = { };
	u32 mask;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, KSTAT_A_CONFIG))
		return -EINVAL;
	err = nla_parse_nested(tb, KSTAT_A_CONFIG_MAX,
			       info->attrs[KSTAT_A_CONFIG],
			       kstat_config_policy, info->extack);
	if (err)
		return err;
	err = kstat_config_parse(tb, &cfg, &mask, info->extack);
	if (err)
		return err;
	/* Fields left out keep their value, whoever else writes. */
	kstat_summary_update_config(&cfg, mask);
	return 0;
}

static size_t kstat_stats_size(void)
{
	return nla_total_size(0) + 10 * nla_total_size_64bit(sizeof(u64)) +
	       2 * nla_total_size(sizeof(u8)) + nla_total_size(sizeof(u32));
}

static int kstat_stats_fill(struct sk_buff *skb,
			    const struct kstat_summary_stats *st)
{
	static const struct {
		int type;
		size_t offset;
	} u64s[] = {
		{ KSTAT_A_STATS_SAMPLES,
		  offsetof(struct kstat_summary_stats, samples) },
		{ KSTAT_A_STATS_SUMMARIES,
		  offsetof(struct kstat_summary_stats, summaries) },
		{ KSTAT_A_STATS_MESSAGES,
		  offsetof(struct kstat_summary_stats, messages) },
		{ KSTAT_A_STATS_DELIVERY_FAILURES,
		  offsetof(struct kstat_summary_stats, delivery_failures) },
		{ KSTAT_A_STATS_ALLOC_FAILURES,
		  offsetof(struct kstat_summary_stats, alloc_failures) },
		{ KSTAT_A_STATS_BUILD_NS_LAST,
		  offsetof(struct kstat_summary_stats, build_ns_last) },
		{ KSTAT_A_STATS_BUILD_NS_MAX,
		  offsetof(struct kstat_summary_stats, build_ns_max) },
		{ KSTAT_A_STATS_BUILD_NS_TOTAL,
		  offsetof(struct kstat_summary_stats, build_ns_total) },
		{ KSTAT_A_STATS_KEYFRAME_BYTES,
		  offsetof(struct kstat_summary_stats, keyframe_bytes) },
		{ KSTAT_A_STATS_DELTA_BYTES,
		  offsetof(struct kstat_summary_stats, delta_bytes) },
	};
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_STATS);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(u64s); i++)
		if (nla_put_u64_64bit(skb, u64s[i].type,
				      *(const u64 *)((const char *)st +
						     u64s[i].offset),
				      KSTAT_A_STATS_PAD))
			goto cancel;
	if (nla_put_u8(skb, KSTAT_A_STATS_LISTENING,
		       kstat_summary_has_listeners()) ||
	    nla_put_u8(skb, KSTAT_A_STATS_RUNNING, st->running) ||
	    nla_put_u32(skb, KSTAT_A_STATS_GENERATION, st->generation))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int kstat_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kstat_summary_stats st;
	struct sk_buff *msg;
	void *hdr;

	kstat_summary_get_stats(&st);
	msg = kstat_reply_new(info, kstat_stats_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kstat_reply_send(msg, hdr, info, kstat_stats_fill(msg, &st));
}

/*
 * Not privileged: the producer is shared, its rate is what CONFIG_SET
 * (CAP_NET_ADMIN) allows, and it stops once the group is empty.
 */
static int kstat_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kstat_summary_subscribe(genl_info_net(info), info->snd_portid,
				       info->snd_seq, info->extack);
}

/* ---- the family ---------------------------------------------------------- */

static const struct genl_ops kstat_ops[] = {
	{
		.cmd		= KSTAT_CMD_CPU_GET,
		.doit		= kstat_nl_cpu_get_doit,
		.dumpit		= kstat_nl_cpu_get_dumpit,
		.policy		= kstat_cpu_get_policy,
		.maxattr	= ARRAY_SIZE(kstat_cpu_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_IRQ_GET,
		.doit		= kstat_nl_irq_get_doit,
		.start		= kstat_nl_irq_get_start,
		.dumpit		= kstat_nl_irq_get_dumpit,
		.done		= kstat_nl_irq_get_done,
		.policy		= kstat_irq_get_policy,
		.maxattr	= ARRAY_SIZE(kstat_irq_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_SOFTIRQ_GET,
		.doit		= kstat_nl_softirq_get_doit,
		.policy		= kstat_softirq_get_policy,
		.maxattr	= ARRAY_SIZE(kstat_softirq_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_GET,
		.doit		= kstat_nl_config_get_doit,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_SET,
		.doit		= kstat_nl_config_set_doit,
		.policy		= kstat_config_set_policy,
		.maxattr	= ARRAY_SIZE(kstat_config_set_policy) - 1,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= KSTAT_CMD_STATS_GET,
		.doit		= kstat_nl_stats_get_doit,
	},
	{
		.cmd		= KSTAT_CMD_SUBSCRIBE,
		.doit		= kstat_nl_subscribe_doit,
	},
};

static const struct genl_multicast_group kstat_mcgrps[] = {
	[KSTAT_MCGRP_SUMMARY] = { .name = KSTAT_MCGRP_SUMMARY_NAME },
};

/*
 * Counters are host-wide, like /proc/stat, which every network namespace
 * sees too: netnsok.  Requests only read, so they need no genl_mutex.
 */
static struct genl_family kstat_family __ro_after_init = {
	.name		= KSTAT_FAMILY_NAME,
	.version	= KSTAT_FAMILY_VERSION,
	.module		= THIS_MODULE,
	.netnsok	= true,
	.parallel_ops	= true,
	.ops		= kstat_ops,
	.n_ops		= ARRAY_SIZE(kstat_ops),
	.mcgrps		= kstat_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(kstat_mcgrps),
};

/* @portid 0: a multicast; else a message for that socket alone. */
struct sk_buff *kstat_summary_msg_new(size_t size, u32 portid, u32 seq,
				      void **hdr)
{
	struct sk_buff *skb = genlmsg_new(size, GFP_KERNEL);

	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, portid, seq, &kstat_family, 0,
			   KSTAT_CMD_SUMMARY_NTF);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

/*
 * Which network namespaces get summaries: those that sent SUBSCRIBE,
 * until a multicast there finds nobody listening.  Netlink keeps one
 * listener set per protocol, not per namespace, so a namespace's
 * listeners are only seen to be gone by a multicast that reaches none.
 */
struct kstat_net {
	bool subscribed;
};

static unsigned int kstat_net_id __read_mostly;

static struct pernet_operations kstat_net_ops = {
	.id	= &kstat_net_id,
	.size	= sizeof(struct kstat_net),
};

static struct kstat_net *kstat_net(struct net *net)
{
	return net_generic(net, kstat_net_id);
}

void kstat_summary_net_subscribe(struct net *net)
{
	WRITE_ONCE(kstat_net(net)->subscribed, true);
}

/*
 * Consumes @skb.  One copy per subscribed namespace, each delivered
 * independently, so that a full receive queue in one costs the others
 * nothing.  GFP_ATOMIC: under rcu_read_lock(), and netlink_broadcast()
 * would yield() for a blocking allocation.  Nothing here disables
 * preemption: on PREEMPT_RT, RCU readers and the socket locks may sleep.
 * A net on the list stays usable until rcu_read_unlock(): cleanup_net()
 * unlists it and waits for a grace period before tearing it down.
 * Returns -ENOBUFS when some listener missed the message.
 */
int kstat_summary_multicast(struct sk_buff *skb)
{
	struct kstat_net *kn;
	struct sk_buff *copy;
	struct net *net;
	int err, ret = 0;

	rcu_read_lock();
	for_each_net_rcu(net) {
		kn = kstat_net(net);
		if (!READ_ONCE(kn->subscribed))
			continue;
		copy = skb_clone(skb, GFP_ATOMIC);
		if (!copy) {
			ret = -ENOBUFS;
			continue;
		}
		err = genlmsg_multicast_netns(&kstat_family, net, copy, 0,
					      KSTAT_MCGRP_SUMMARY, GFP_ATOMIC);
		if (err == -ESRCH)
			WRITE_ONCE(kn->subscribed, false);
		else if (err)
			ret = -ENOBUFS;
	}
	rcu_read_unlock();
	consume_skb(skb);
	return ret;
}

/* Send every part of @parts to one socket; stop at the first failure. */
int kstat_summary_unicast(struct sk_buff_head *parts, struct net *net,
			  u32 portid)
{
	struct sk_buff *skb;
	int err;

	while ((skb = __skb_dequeue(parts))) {
		err = genlmsg_unicast(net, skb, portid);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Does the "summary" group have a listener?  Netlink keeps one listener
 * mask per protocol, shared by all network namespaces, so this is true
 * when any namespace listens: the producer runs while anyone does.
 */
bool kstat_summary_has_listeners(void)
{
	return genl_has_listeners(&kstat_family, &init_net,
				  KSTAT_MCGRP_SUMMARY);
}

int __init kstat_netlink_init(void)
{
	int err = register_pernet_subsys(&kstat_net_ops);

	if (err)
		return err;
	err = genl_register_family(&kstat_family);
	if (err)
		unregister_pernet_subsys(&kstat_net_ops);
	return err;
}

void kstat_netlink_exit(void)
{
	genl_unregister_family(&kstat_family);
	unregister_pernet_subsys(&kstat_net_ops);
}
