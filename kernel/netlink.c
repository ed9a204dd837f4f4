// SPDX-License-Identifier: GPL-2.0
/*
 * kstat netlink glue: the "kstat" generic netlink family and the request
 * handlers.  The commands, their policies and the op table are generated
 * from docs/netlink/specs/kstat.yaml (kstat-nl-gen.c, scripts/ynl-regen.sh);
 * this file gives the generated handler names their work.  Each section's
 * GET is answered by the section's ops, found by command in the section
 * table, so a new section does not edit this file.
 *
 * Every GET goes parse -> prepare -> size -> fill, as in ethtool: the
 * attributes become a struct kst_sel, the command's kst_get_ops (a
 * section's, or the summary's config and stats below) reads what is
 * selected, the reply is sized from that, then filled.  A fill that
 * outgrows its size is a kstat bug and WARNs.  Dumps use the same ops'
 * dump side, with their state over cb->ctx.  CONFIG_SET and SUBSCRIBE
 * change state and have handlers of their own.
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "kst.h"
#include "compat.h"

static struct genl_family kst_family;

/* ---- the summary's config and stats, as GET ops ---------------------------- */

struct kst_config_reply {
	struct kst_config cfg;
	struct kst_limits lim;
};

static int kst_config_get_prepare(void *data, struct nlattr **tb,
				  const struct kst_sel *sel,
				  struct netlink_ext_ack *extack)
{
	struct kst_config_reply *r = data;

	kst_summary_get_config(&r->cfg);
	kst_summary_get_limits(&r->lim);
	return 0;
}

static size_t kst_config_get_reply_size(const void *data)
{
	return kst_config_size() + kst_limits_size();
}

static int kst_config_get_fill(struct sk_buff *skb, const void *data)
{
	const struct kst_config_reply *r = data;

	return kst_config_fill(skb, KSTAT_A_CONFIG, &r->cfg) ?:
	       kst_limits_fill(skb, &r->lim);
}

static const struct kst_get_ops kst_config_get_ops = {
	.data_size	= sizeof(struct kst_config_reply),
	.prepare	= kst_config_get_prepare,
	.reply_size	= kst_config_get_reply_size,
	.fill		= kst_config_get_fill,
};

static size_t kst_stats_size(void)
{
	return nla_total_size(0) + 12 * nla_total_size_64bit(sizeof(u64)) +
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
		{ KSTAT_A_STATS_TICKS,
		  offsetof(struct kst_summary_stats, ticks) },
		{ KSTAT_A_STATS_TICK_NS_TOTAL,
		  offsetof(struct kst_summary_stats, tick_ns_total) },
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
		       st->listening) ||
	    nla_put_u8(skb, KSTAT_A_STATS_RUNNING, st->running) ||
	    nla_put_u32(skb, KSTAT_A_STATS_GENERATION, st->generation))
		goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* STATS_GET: the producer's telemetry, then a nest per stream. */
struct kst_stats_reply {
	struct kst_summary_stats st;
	struct kst_stream_stats *streams;
	unsigned int nr_streams;
};

static size_t kst_stream_size(void)
{
	return nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
	       kst_config_size() + 3 * nla_total_size_64bit(sizeof(u64));
}

static int kst_stream_fill(struct sk_buff *skb,
			   const struct kst_stream_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_STREAM);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_STREAM_ID, st->id) ||
	    kst_config_fill(skb, KSTAT_A_STREAM_CONFIG, &st->cfg) ||
	    nla_put_u32(skb, KSTAT_A_STREAM_MEMBERS, st->members) ||
	    nla_put_u64_64bit(skb, KSTAT_A_STREAM_SAMPLES, st->samples,
			      KSTAT_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, KSTAT_A_STREAM_BYTES, st->bytes,
			      KSTAT_A_STREAM_PAD) ||
	    nla_put_u64_64bit(skb, KSTAT_A_STREAM_RESYNCS, st->resyncs,
			      KSTAT_A_STREAM_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int kst_stats_get_prepare(void *data, struct nlattr **tb,
				 const struct kst_sel *sel,
				 struct netlink_ext_ack *extack)
{
	struct kst_stats_reply *r = data;

	kst_summary_get_stats(&r->st);
	return kst_summary_get_streams(&r->streams, &r->nr_streams);
}

static size_t kst_stats_get_reply_size(const void *data)
{
	const struct kst_stats_reply *r = data;

	return kst_stats_size() + r->nr_streams * kst_stream_size();
}

static int kst_stats_get_fill(struct sk_buff *skb, const void *data)
{
	const struct kst_stats_reply *r = data;
	unsigned int i;
	int err = kst_stats_fill(skb, &r->st);

	for (i = 0; !err && i < r->nr_streams; i++)
		err = kst_stream_fill(skb, &r->streams[i]);
	return err;
}

static void kst_stats_get_cleanup(void *data)
{
	struct kst_stats_reply *r = data;

	kfree(r->streams);
}

static const struct kst_get_ops kst_stats_get_ops = {
	.data_size	= sizeof(struct kst_stats_reply),
	.prepare	= kst_stats_get_prepare,
	.reply_size	= kst_stats_get_reply_size,
	.fill		= kst_stats_get_fill,
	.cleanup	= kst_stats_get_cleanup,
};

/* ---- generic GET handlers ------------------------------------------------- */

static const struct kst_get_ops *kst_get_ops(u8 cmd)
{
	unsigned int i;

	if (cmd == KSTAT_CMD_CONFIG_GET)
		return &kst_config_get_ops;
	if (cmd == KSTAT_CMD_STATS_GET)
		return &kst_stats_get_ops;
	for (i = 0; i < kst_nr_sections; i++)
		if (kst_sections[i]->get_cmd == cmd)
			return &kst_sections[i]->get;
	return NULL;
}

/*
 * The policy's mask is the spec's, every flag some command takes: a
 * command that takes fewer says so here, in the policy's own words.
 */
static int kst_parse_sel(const struct kst_get_ops *ops, struct nlattr **tb,
			 struct kst_sel *sel, struct netlink_ext_ack *extack)
{
	struct nlattr *first = tb[KSTAT_A_SEL_CPU_FIRST];
	struct nlattr *last = tb[KSTAT_A_SEL_CPU_LAST];

	sel->flags = tb[KSTAT_A_SEL_FLAGS] ?
		     nla_get_u32(tb[KSTAT_A_SEL_FLAGS]) : 0;
	if (sel->flags & ~ops->flags_mask) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_SEL_FLAGS],
				    "reserved bit set");
		return -EINVAL;
	}
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

/* A GET's data, allocated for its ops, released through them. */
static void *kst_get_data_new(const struct kst_get_ops *ops)
{
	/* a request's: charged to the requester's memory cgroup */
	return kzalloc(ops->data_size, GFP_KERNEL_ACCOUNT);
}

static void kst_get_data_free(const struct kst_get_ops *ops, void *data)
{
	if (data && ops->cleanup)
		ops->cleanup(data);
	kfree(data);
}

static int kst_get_reply(const struct kst_get_ops *ops, const void *data,
			 struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(ops->reply_size(data), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &kst_family, 0, info->genlhdr->cmd);
	err = hdr ? ops->fill(msg, data) : -EMSGSIZE;
	if (WARN_ON_ONCE(err)) {	/* a fill larger than its size */
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int kst_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct kst_get_ops *ops = kst_get_ops(info->genlhdr->cmd);
	struct kst_sel sel = { };
	void *data;
	int err;

	if (WARN_ON_ONCE(!ops))	/* a GET in the spec no section answers */
		return -EOPNOTSUPP;
	if (ops->do_required_attr &&
	    GENL_REQ_ATTR_CHECK(info, ops->do_required_attr))
		return -EINVAL;
	err = ops->selects ?
	      kst_parse_sel(ops, info->attrs, &sel, info->extack) : 0;
	if (err)
		return err;
	data = kst_get_data_new(ops);
	if (!data)
		return -ENOMEM;
	err = ops->prepare(data, info->attrs, &sel, info->extack) ?:
	      kst_get_reply(ops, data, info);
	kst_get_data_free(ops, data);
	return err;
}

/* A dump's state, over cb->ctx. */
struct kst_dump_ctx {
	const struct kst_get_ops *ops;
	void *data;
	bool prepared;
	unsigned int calls;
};

static_assert(sizeof(struct kst_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

static struct kst_dump_ctx *kst_dump_ctx(struct netlink_callback *cb)
{
	return (struct kst_dump_ctx *)cb->ctx;
}

/*
 * The data is allocated here, and the skb made large enough for the
 * largest object, which would otherwise fail with a bare EMSGSIZE.  The
 * request is checked in the first dumpit call: on 6.1, .start has no
 * extack to explain a rejection, while an error returned by dumpit
 * reaches the client in NLMSG_DONE together with its message.
 */
static int kst_nl_get_start(struct netlink_callback *cb)
{
	struct kst_dump_ctx *ctx = kst_dump_ctx(cb);
	struct kst_sel sel = { };

	ctx->ops = kst_get_ops(genl_dumpit_info(cb)->op.cmd);
	ctx->data = kst_get_data_new(ctx->ops);
	if (!ctx->data)
		return -ENOMEM;
	/*
	 * Sized for what the request selects (a bad selection fails in the
	 * first dumpit call, with its extack; until then, all CPUs).
	 */
	if (ctx->ops->selects &&
	    kst_parse_sel(ctx->ops, kst_dump_attrs(cb), &sel, NULL))
		sel = kst_sel_all_cpus(KSTAT_F_ALL);
	cb->min_dump_alloc = max_t(u32, cb->min_dump_alloc,
				   NLMSG_HDRLEN + GENL_HDRLEN +
				   ctx->ops->dump_alloc(&sel));
	return 0;
}

static int kst_dump_prepare(struct netlink_callback *cb,
			    struct kst_dump_ctx *ctx)
{
	struct nlattr **tb = kst_dump_attrs(cb);
	struct kst_sel sel = { };

	return (ctx->ops->selects ?
		kst_parse_sel(ctx->ops, tb, &sel, cb->extack) : 0) ?:
	       ctx->ops->dump_prepare(ctx->data, tb, &sel, cb->extack);
}

static int kst_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct kst_dump_ctx *ctx = kst_dump_ctx(cb);
	struct kst_dump d = {
		.skb = skb, .cb = cb, .first_call = !ctx->calls++,
	};
	int err;

	if (!ctx->prepared) {
		err = kst_dump_prepare(cb, ctx);
		if (err)
			return err;
		ctx->prepared = true;
	}
	err = ctx->ops->dump(&d, ctx->data);
	return kst_dump_close(&d, err, !err);
}

static int kst_nl_get_done(struct netlink_callback *cb)
{
	struct kst_dump_ctx *ctx = kst_dump_ctx(cb);

	if (ctx->ops)
		kst_get_data_free(ctx->ops, ctx->data);
	return 0;
}

/* ---- commands that change state ---------------------------------------------- */

/* KSTAT_A_CONFIG of a request: the fields given, in @mask. */
static int kst_parse_config(struct genl_info *info, struct kst_config *cfg,
			    u32 *mask)
{
	struct nlattr *tb[KSTAT_A_CONFIG_MAX + 1];
	int err;

	err = nla_parse_nested(tb, KSTAT_A_CONFIG_MAX,
			       info->attrs[KSTAT_A_CONFIG],
			       kstat_config_nl_policy, info->extack);
	return err ?: kst_config_parse(tb, cfg, mask, info->extack);
}

static int kst_nl_config_set_doit(struct sk_buff *skb,
				  struct genl_info *info)
{
	struct nlattr *ltb[KSTAT_A_LIMITS_MAX + 1];
	struct kst_config cfg = { };
	u32 mask = 0;
	int err;

	/* Neither: the missing attribute is the config, as it always was. */
	if (!info->attrs[KSTAT_A_LIMITS] &&
	    GENL_REQ_ATTR_CHECK(info, KSTAT_A_CONFIG))
		return -EINVAL;
	if (info->attrs[KSTAT_A_CONFIG]) {
		err = kst_parse_config(info, &cfg, &mask);
		if (err)
			return err;
	}
	if (info->attrs[KSTAT_A_LIMITS]) {
		err = nla_parse_nested(ltb, KSTAT_A_LIMITS_MAX,
				       info->attrs[KSTAT_A_LIMITS],
				       kstat_limits_nl_policy, info->extack);
		err = err ?: kst_summary_set_limits(ltb, info->extack);
		if (err)
			return err;
	}
	/* Fields left out keep their value, whoever else writes. */
	if (info->attrs[KSTAT_A_CONFIG])
		kst_summary_update_config(&cfg, mask);
	return 0;
}

/*
 * Not privileged: the default stream is shared, its rate is what
 * CONFIG_SET (CAP_NET_ADMIN) allows, and it stops once the group is
 * empty; a stream of one's own is held to the limits unless the sender
 * has CAP_NET_ADMIN in the initial user namespace, as CONFIG_SET needs.
 * The namespaces the default stream is multicast to are bounded
 * (KSTAT_NETNS_MAX): a slot for the sender's is taken first, so that one
 * over the bound changes nothing.  Own streams are unicast: no slot.
 */
static int kst_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kst_sub sub = {
		.net = genl_info_net(info),
		.portid = info->snd_portid,
		.seq = info->snd_seq,
		.own = !!info->attrs[KSTAT_A_CONFIG],
	};
	int slot, err;

	if (sub.own) {
		err = kst_parse_config(info, &sub.cfg, &sub.mask);
		if (err)
			return err;
		sub.priv = netlink_capable(skb, CAP_NET_ADMIN);
		sub.uid = sock_i_uid(NETLINK_CB(skb).sk);
		return kst_summary_subscribe(&sub, info->extack);
	}
	slot = kst_deliver_net_admit(sub.net, info->extack);
	if (slot < 0)
		return slot;
	err = kst_summary_subscribe(&sub, info->extack);
	if (slot)
		kst_deliver_net_release(sub.net);
	return err;
}

/* UNSUBSCRIBE: the sender leaves its stream of its own (ENOENT: none). */
static int kst_nl_unsubscribe_doit(struct sk_buff *skb,
				   struct genl_info *info)
{
	return kst_summary_unsubscribe(genl_info_net(info), info->snd_portid,
				       info->extack);
}

/*
 * ---- the generated op table's handlers ------------------------------------
 *
 * kstat-nl-gen.h declares one handler per op, named by ynl-gen-c.py from
 * the family's name (kstat_nl_*, not this module's kst_ prefix); each
 * hands over to kstat's own.
 */

int kstat_nl_cpu_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_get_doit(skb, info);
}

int kstat_nl_cpu_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return kst_nl_get_dumpit(skb, cb);
}

int kstat_nl_irq_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_get_doit(skb, info);
}

int kstat_nl_irq_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return kst_nl_get_dumpit(skb, cb);
}

int kstat_nl_softirq_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_get_doit(skb, info);
}

int kstat_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_get_doit(skb, info);
}

int kstat_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_config_set_doit(skb, info);
}

int kstat_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_get_doit(skb, info);
}

int kstat_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_subscribe_doit(skb, info);
}

int kstat_nl_unsubscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_nl_unsubscribe_doit(skb, info);
}

/* ---- the family ---------------------------------------------------------- */

/* The generated op table, completed by kst_ops_init(). */
static struct genl_ops kst_ops[ARRAY_SIZE(kstat_nl_ops)] __ro_after_init;

/*
 * What 6.12's per-op generator cannot say: every dump allocates in .start
 * and frees in .done, and an op without attributes rejects them.  Every
 * dump needs a section's ops with a dump.
 */
static int __init kst_ops_init(void)
{
	unsigned int i;

	memcpy(kst_ops, kstat_nl_ops, sizeof(kst_ops));
	for (i = 0; i < ARRAY_SIZE(kst_ops); i++) {
		const struct kst_get_ops *ops = kst_get_ops(kst_ops[i].cmd);

		/*
		 * An op the spec gives no attribute (its request names only
		 * unspec) has a policy of maxattr 0, which the genl core
		 * takes as "parse nothing": without it, the core puts its
		 * reject-all policy there, and any attribute is refused.
		 */
		if (!kst_ops[i].maxattr)
			kst_ops[i].policy = NULL;
		if (!kst_ops[i].dumpit)
			continue;
		if (WARN_ON_ONCE(!ops || !ops->dump))
			return -EINVAL;
		kst_ops[i].start = kst_nl_get_start;
		kst_ops[i].done = kst_nl_get_done;
	}
	return 0;
}

/*
 * The generator's group table (kstat_nl_mcgrps) is static to its file: it
 * makes the family struct that would use it only at the genetlink level.
 */
static const struct genl_multicast_group kst_mcgrps[] = {
	[KSTAT_NLGRP_SUMMARY] = { .name = KSTAT_MCGRP_SUMMARY_NAME },
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
	int err = kst_ops_init() ?: kst_deliver_init(&kst_family);

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
