// SPDX-License-Identifier: GPL-2.0
/*
 * kstat netlink glue: the "kstat" generic netlink family, its policies and
 * request handlers.
 *
 * Every request goes parse -> prepare -> size -> fill, as in ethtool: the
 * attributes become a struct kst_sel, a collector snapshots the counters,
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

#include "kst.h"
#include "compat.h"

static struct genl_family kst_family;

/* ---- request parsing ---------------------------------------------------- */

static int kst_parse_sel(struct nlattr **tb, struct kst_sel *sel,
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

/* ---- replies to do requests --------------------------------------------- */

static struct sk_buff *kst_reply_new(struct genl_info *info, size_t size,
				     void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &kst_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* @err is the fill result: a fill larger than its size is our bug. */
static int kst_reply_send(struct sk_buff *msg, void *hdr,
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
struct kst_dump_msg {
	void *hdr;
	unsigned int objs;
};

static int kst_dump_msg_open(struct sk_buff *skb, struct netlink_callback *cb,
			     struct kst_dump_msg *m)
{
	if (m->hdr)
		return 0;
	m->hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			     cb->nlh->nlmsg_seq, &kst_family, NLM_F_MULTI,
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
static int kst_dump_msg_close(struct sk_buff *skb, struct kst_dump_msg *m,
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

static const struct nla_policy kst_cpu_get_policy[KSTAT_A_SEL_CPU + 1] = {
	[KSTAT_A_SEL_CPU]	= { .type = NLA_U32 },
};

static int kst_nl_cpu_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[KSTAT_A_SEL_CPU];
	struct kst_cputime ct;
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
		kst_cputime_read(cpu, &ct);
	} else {
		kst_cputime_read_total(&ct);
	}

	msg = kst_reply_new(info, kst_cpu_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kst_reply_send(msg, hdr, info, kst_cpu_fill(msg, KSTAT_A_CPU, cpu, &ct));
}

/*
 * Requests are checked in the first dumpit call, not in .start: on 6.1,
 * .start has no extack to explain a rejection, while an error returned
 * by dumpit reaches the client in NLMSG_DONE together with its message.
 */
static int kst_cpu_dump_check(struct netlink_callback *cb)
{
	struct nlattr *attr = kst_dump_attrs(cb)[KSTAT_A_SEL_CPU];

	if (attr) {
		NL_SET_ERR_MSG_ATTR(cb->extack, attr,
				    "a CPU dump reports every online CPU; select one CPU with a do request");
		return -EINVAL;
	}
	return 0;
}

/* cb->args[0]: the next CPU id to report; args[1]: request checked. */
static int kst_nl_cpu_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct kst_dump_msg m = {};
	struct kst_cputime ct;
	unsigned int cpu;
	int err = 0;

	if (!cb->args[1]) {
		err = kst_cpu_dump_check(cb);
		if (err)
			return err;
		cb->args[1] = 1;
	}

	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++) {
		if (!cpu_online(cpu))
			continue;
		kst_cputime_read(cpu, &ct);
		err = kst_dump_msg_open(skb, cb, &m) ?:
		      kst_cpu_fill(skb, KSTAT_A_CPU, cpu, &ct);
		if (err)
			break;
		m.objs++;
	}
	cb->args[0] = cpu;
	return kst_dump_msg_close(skb, &m, err, cpu >= nr_cpu_ids);
}

/* ---- KSTAT_CMD_IRQ_GET --------------------------------------------------- */

static const struct nla_policy kst_irq_get_policy[KSTAT_A_SEL_FLAGS + 1] = {
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

static int kst_nl_irq_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct kst_irq_snap *snap;
	struct kst_sel sel;
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
	err = kst_parse_sel(tb, &sel, info->extack);
	if (err)
		return err;
	if (sel.flags & KSTAT_F_ARCH) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KSTAT_A_SEL_FLAGS],
				    "arch counters come with IRQ dumps only");
		return -EINVAL;
	}

	snap = kst_irq_snap_alloc(&sel);
	if (!snap)
		return -ENOMEM;
	err = kst_irq_snapshot(nla_get_u32(tb[KSTAT_A_SEL_IRQ]), &sel, snap);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KSTAT_A_SEL_IRQ],
				    "no such IRQ");
		goto out;
	}

	err = -ENOMEM;
	msg = kst_reply_new(info, kst_irq_size(snap, &sel), &hdr);
	if (msg)
		err = kst_reply_send(msg, hdr, info,
				     kst_irq_fill(msg, KSTAT_A_IRQ, snap, &sel));
out:
	kvfree(snap);
	return err;
}

enum kst_irq_dump_phase {
	KST_DUMP_IRQS,
	KST_DUMP_ARCH,
	KST_DUMP_TRAILER,
	KST_DUMP_DONE,
};

/* State of one IRQ dump, from .start to .done; cb->args[0] points here. */
struct kst_irq_dump {
	struct kst_sel sel;
	const u32 *list;	/* in the request attrs, or NULL for a range */
	u32 nr_list;
	u32 first, last;	/* the range, when there is no list */
	u64 pos;		/* next list index, or offset into the range */
	u32 arch_pos;
	u32 visited;		/* fingerprint of the descriptors dumped */
	enum kst_irq_dump_phase phase;
	struct kst_irq_snap *snap;
};

static int kst_irq_dump_parse(struct kst_irq_dump *d, struct nlattr **tb,
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
	return kst_parse_sel(tb, &d->sel, extack);
}

/* Dump state is allocated here; the request is checked in dumpit. */
static int kst_nl_irq_get_start(struct netlink_callback *cb)
{
	struct kst_irq_dump *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	cb->args[0] = (long)d;
	return 0;
}

static int kst_irq_dump_prepare(struct kst_irq_dump *d,
				struct netlink_callback *cb)
{
	int err;

	err = kst_irq_dump_parse(d, kst_dump_attrs(cb), cb->extack);
	if (err)
		return err;
	d->snap = kst_irq_snap_alloc(&d->sel);
	return d->snap ? 0 : -ENOMEM;
}

static int kst_nl_irq_get_done(struct netlink_callback *cb)
{
	struct kst_irq_dump *d = (struct kst_irq_dump *)cb->args[0];

	if (d) {
		kvfree(d->snap);
		kfree(d);
	}
	return 0;
}

/* The next selected IRQ number, or false when the selection is done. */
static bool kst_irq_dump_next(const struct kst_irq_dump *d, u32 *irq)
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
static int kst_irq_dump_fill(struct sk_buff *skb, struct kst_irq_dump *d)
{
	int err = 1;

	if (!d->sel.flags)
		err = kst_irq_fill_totals(skb, d->snap->irq, d->snap->count);
	if (err > 0)	/* not for this skb: the general path */
		err = kst_irq_fill(skb, KSTAT_A_IRQ, d->snap, &d->sel);
	return err;
}

static int kst_irq_dump_irqs(struct sk_buff *skb, struct netlink_callback *cb,
			     struct kst_irq_dump *d, struct kst_dump_msg *m)
{
	int err;
	u32 irq;

	for (; kst_irq_dump_next(d, &irq); d->pos++) {
		/* no descriptor: not in the set, but part of the fingerprint */
		if (!kst_irq_snapshot(irq, &d->sel, d->snap)) {
			err = kst_dump_msg_open(skb, cb, m) ?:
			      kst_irq_dump_fill(skb, d);
			if (err)
				return err;	/* resumes with this IRQ */
			m->objs++;
		}
		d->visited = kst_irq_fingerprint_mix(d->visited, irq,
						     d->snap->id);
	}
	d->phase = (d->sel.flags & KSTAT_F_ARCH) ? KST_DUMP_ARCH :
						  KST_DUMP_TRAILER;
	return 0;
}

static int kst_irq_dump_arch(struct sk_buff *skb, struct netlink_callback *cb,
			     struct kst_irq_dump *d, struct kst_dump_msg *m)
{
	const struct kst_arch_counter *c;
	int err;

	for (; d->arch_pos < kst_nr_arch_counters; d->arch_pos++) {
		c = &kst_arch_counters[d->arch_pos];
		err = kst_dump_msg_open(skb, cb, m) ?:
		      kst_arch_fill(skb, KSTAT_A_ARCH, c, kst_arch_total(c),
				    true, &d->sel);
		if (err)
			return err;
		m->objs++;
	}
	d->phase = KST_DUMP_TRAILER;
	return 0;
}

static int kst_irq_dump_trailer(struct sk_buff *skb,
				struct netlink_callback *cb,
				  struct kst_dump_msg *m)
{
	unsigned char *mark;
	int err;

	err = kst_dump_msg_open(skb, cb, m);
	if (err)
		return err;
	mark = skb_tail_pointer(skb);
	if (nla_put_u64_64bit(skb, KSTAT_A_INTR_SUM, kst_intr_sum(),
			      KSTAT_A_PAD) ||
	    nla_put_u32(skb, KSTAT_A_NR_IRQS, nr_irqs) ||
	    kst_online_fill(skb)) {
		nlmsg_trim(skb, mark);
		return -EMSGSIZE;
	}
	m->objs++;
	return 0;
}

static int kst_nl_irq_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct kst_irq_dump *d = (struct kst_irq_dump *)cb->args[0];
	struct kst_dump_msg m = {};
	int err = 0;

	if (!d->snap) {
		err = kst_irq_dump_prepare(d, cb);
		if (err)
			return err;
		cb->seq = 1;	/* messages are consistent until shown not */
	}

	if (d->phase == KST_DUMP_IRQS)
		err = kst_irq_dump_irqs(skb, cb, d, &m);
	if (!err && d->phase == KST_DUMP_ARCH)
		err = kst_irq_dump_arch(skb, cb, d, &m);
	/*
	 * Did the descriptors change while we dumped them?  What we saw,
	 * IRQ by IRQ, against a scan of the selection now: if they differ,
	 * the trailer carries NLM_F_DUMP_INTR and the reader starts again.
	 * One extra scan per dump, however many messages it takes.
	 */
	if (!err && d->phase == KST_DUMP_TRAILER) {
		if (m.hdr) {	/* the trailer gets a message of its own */
			kst_dump_msg_close(skb, &m, 0, false);
			m.hdr = NULL;
		}
		cb->seq = d->visited == kst_irq_set_fingerprint(d->list,
				d->nr_list, d->first, d->last) ? 1 : 2;
		err = kst_irq_dump_trailer(skb, cb, &m);
		if (!err)
			d->phase = KST_DUMP_DONE;
	}
	return kst_dump_msg_close(skb, &m, err, d->phase == KST_DUMP_DONE);
}

/* ---- KSTAT_CMD_SOFTIRQ_GET ----------------------------------------------- */

static const struct nla_policy kst_softirq_get_policy[KSTAT_A_SEL_FLAGS + 1] = {
	[KSTAT_A_SEL_CPU_FIRST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_CPU_LAST]	= { .type = NLA_U32 },
	[KSTAT_A_SEL_FLAGS]	= NLA_POLICY_MASK(NLA_U32, KSTAT_F_PERCPU),
};

static int kst_nl_softirq_get_doit(struct sk_buff *skb,
				   struct genl_info *info)
{
	struct kst_sel sel;
	struct sk_buff *msg;
	size_t size = kst_online_size();
	unsigned int vec;
	int err;
	void *hdr;

	err = kst_parse_sel(info->attrs, &sel, info->extack);
	if (err)
		return err;
	for (vec = 0; vec < NR_SOFTIRQS; vec++)
		size += kst_softirq_size(vec, &sel);

	msg = kst_reply_new(info, size, &hdr);
	if (!msg)
		return -ENOMEM;
	for (vec = 0; vec < NR_SOFTIRQS && !err; vec++)
		err = kst_softirq_fill(msg, KSTAT_A_SOFTIRQ, vec,
				       kst_softirq_total(vec), &sel);
	if (!err)
		err = kst_online_fill(msg);
	return kst_reply_send(msg, hdr, info, err);
}

/* ---- summaries: configuration, telemetry, subscription --------------------- */

static int kst_nl_config_get_doit(struct sk_buff *skb,
				  struct genl_info *info)
{
	struct kst_config cfg;
	struct sk_buff *msg;
	void *hdr;

	kst_summary_get_config(&cfg);
	msg = kst_reply_new(info, kst_config_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kst_reply_send(msg, hdr, info,
				kst_config_fill(msg, KSTAT_A_CONFIG, &cfg));
}

static const struct nla_policy kst_config_set_policy[KSTAT_A_CONFIG + 1] = {
	[KSTAT_A_CONFIG]	= NLA_POLICY_NESTED(kst_config_policy),
};

static int kst_nl_config_set_doit(struct sk_buff *skb,
				  struct genl_info *info)
{
	struct nlattr *tb[KSTAT_A_CONFIG_MAX + 1];
	struct kst_config cfg = { };
	u32 mask;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, KSTAT_A_CONFIG))
		return -EINVAL;
	err = nla_parse_nested(tb, KSTAT_A_CONFIG_MAX,
			       info->attrs[KSTAT_A_CONFIG],
			       kst_config_policy, info->extack);
	if (err)
		return err;
	err = kst_config_parse(tb, &cfg, &mask, info->extack);
	if (err)
		return err;
	/* Fields left out keep their value, whoever else writes. */
	kst_summary_update_config(&cfg, mask);
	return 0;
}

static size_t kst_stats_size(void)
{
	return nla_total_size(0) + 10 * nla_total_size_64bit(sizeof(u64)) +
	       2 * nla_total_size(sizeof(u8)) + nla_total_size(sizeof(u32));
}

static int kst_stats_fill(struct sk_buff *skb,
			  const struct kst_summary_stats *st)
{
	static const struct {
		int type;
		size_t offset;
	} u64s[] = {
		{ KSTAT_A_STATS_SAMPLES,
		  offsetof(struct kst_summary_stats, samples) },
		{ KSTAT_A_STATS_SUMMARIES,
		  offsetof(struct kst_summary_stats, summaries) },
		{ KSTAT_A_STATS_MESSAGES,
		  offsetof(struct kst_summary_stats, messages) },
		{ KSTAT_A_STATS_DELIVERY_FAILURES,
		  offsetof(struct kst_summary_stats, delivery_failures) },
		{ KSTAT_A_STATS_ALLOC_FAILURES,
		  offsetof(struct kst_summary_stats, alloc_failures) },
		{ KSTAT_A_STATS_BUILD_NS_LAST,
		  offsetof(struct kst_summary_stats, build_ns_last) },
		{ KSTAT_A_STATS_BUILD_NS_MAX,
		  offsetof(struct kst_summary_stats, build_ns_max) },
		{ KSTAT_A_STATS_BUILD_NS_TOTAL,
		  offsetof(struct kst_summary_stats, build_ns_total) },
		{ KSTAT_A_STATS_KEYFRAME_BYTES,
		  offsetof(struct kst_summary_stats, keyframe_bytes) },
		{ KSTAT_A_STATS_DELTA_BYTES,
		  offsetof(struct kst_summary_stats, delta_bytes) },
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
		       kst_deliver_has_listeners()) ||
	    nla_put_u8(skb, KSTAT_A_STATS_RUNNING, st->running) ||
	    nla_put_u32(skb, KSTAT_A_STATS_GENERATION, st->generation))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int kst_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kst_summary_stats st;
	struct sk_buff *msg;
	void *hdr;

	kst_summary_get_stats(&st);
	msg = kst_reply_new(info, kst_stats_size(), &hdr);
	if (!msg)
		return -ENOMEM;
	return kst_reply_send(msg, hdr, info, kst_stats_fill(msg, &st));
}

/*
 * Not privileged: the producer is shared, its rate is what CONFIG_SET
 * (CAP_NET_ADMIN) allows, and it stops once the group is empty.
 */
static int kst_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_summary_subscribe(genl_info_net(info), info->snd_portid,
				       info->snd_seq, info->extack);
}

/* ---- the family ---------------------------------------------------------- */

static const struct genl_ops kst_ops[] = {
	{
		.cmd		= KSTAT_CMD_CPU_GET,
		.doit		= kst_nl_cpu_get_doit,
		.dumpit		= kst_nl_cpu_get_dumpit,
		.policy		= kst_cpu_get_policy,
		.maxattr	= ARRAY_SIZE(kst_cpu_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_IRQ_GET,
		.doit		= kst_nl_irq_get_doit,
		.start		= kst_nl_irq_get_start,
		.dumpit		= kst_nl_irq_get_dumpit,
		.done		= kst_nl_irq_get_done,
		.policy		= kst_irq_get_policy,
		.maxattr	= ARRAY_SIZE(kst_irq_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_SOFTIRQ_GET,
		.doit		= kst_nl_softirq_get_doit,
		.policy		= kst_softirq_get_policy,
		.maxattr	= ARRAY_SIZE(kst_softirq_get_policy) - 1,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_GET,
		.doit		= kst_nl_config_get_doit,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_SET,
		.doit		= kst_nl_config_set_doit,
		.policy		= kst_config_set_policy,
		.maxattr	= ARRAY_SIZE(kst_config_set_policy) - 1,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= KSTAT_CMD_STATS_GET,
		.doit		= kst_nl_stats_get_doit,
	},
	{
		.cmd		= KSTAT_CMD_SUBSCRIBE,
		.doit		= kst_nl_subscribe_doit,
	},
};

static const struct genl_multicast_group kst_mcgrps[] = {
	[KST_MCGRP_SUMMARY] = { .name = KSTAT_MCGRP_SUMMARY_NAME },
};

/*
 * Counters are host-wide, like /proc/stat, which every network namespace
 * sees too: netnsok.  Requests only read, so they need no genl_mutex.
 */
static struct genl_family kst_family __ro_after_init = {
	.name		= KSTAT_FAMILY_NAME,
	.version	= KSTAT_FAMILY_VERSION,
	.module		= THIS_MODULE,
	.netnsok	= true,
	.parallel_ops	= true,
	.ops		= kst_ops,
	.n_ops		= ARRAY_SIZE(kst_ops),
	.mcgrps		= kst_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(kst_mcgrps),
};

int __init kst_netlink_init(void)
{
	int err = kst_deliver_init(&kst_family);

	if (err)
		return err;
	err = genl_register_family(&kst_family);
	if (err)
		kst_deliver_exit();
	return err;
}

void kst_netlink_exit(void)
{
	genl_unregister_family(&kst_family);
	kst_deliver_exit();
}
