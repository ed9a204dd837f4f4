// SPDX-License-Identifier: GPL-2.0
/*
 * kstat netlink glue: the "kstat" generic netlink family and the
 * handlers the generated op table names (kstat-nl-gen.c, from
 * docs/netlink/specs/kstat.yaml by scripts/ynl-regen.sh).
 *
 * GET reads the counters once, when it arrives, into memory charged to
 * the requester (sample.c), then writes the reply: a do in one message
 * sized exactly, a dump in as many as it takes, from the one reading
 * collected in .start.  Every handler first passes the namespace gate:
 * the counters are host-wide, so outside the initial network namespace
 * the family answers only where the admin opened it (config netns).
 */
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "kst.h"
#include "compat.h"

#ifndef KST_VERSION_BUMP	/* make kmod KSTAT_VERSION_BUMP=1: a newer module */
#define KST_VERSION_BUMP	0
#endif

#define KST_DO_MAX		SZ_64K

static int kst_gate(struct net *net, struct netlink_ext_ack *extack)
{
	if (net_eq(net, &init_net) || kst_netns_open())
		return 0;
	NL_SET_ERR_MSG(extack,
		       "kstat answers in the initial network namespace only (config netns)");
	return -EPERM;
}

/* ---- GET ---------------------------------------------------------------- */

static int kst_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * IRQ_LIST: ascending, each once, in the requester's memory.  One
 * attribute (16-bit nla_len) bounds it to 16,382 IRQs.
 */
static int kst_req_list(struct kst_req *req, const struct nlattr *a,
			struct netlink_ext_ack *extack)
{
	u32 len = nla_len(a), n = len / sizeof(u32), i, k;
	u32 *list;

	if (!len || len % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "IRQ list length is not a non-zero multiple of 4");
		return -EINVAL;
	}
	list = kvmalloc_array(n, sizeof(u32), GFP_KERNEL_ACCOUNT);
	if (!list)
		return -ENOMEM;
	memcpy(list, nla_data(a), len);
	sort(list, n, sizeof(u32), kst_u32_cmp, NULL);
	for (i = 1, k = 1; i < n; i++)
		if (list[i] != list[k - 1])
			list[k++] = list[i];
	req->irq_list = list;
	req->nr_irq_list = k;
	return 0;
}

/* What the policy cannot check; req->irq_list is the caller's to free. */
static int kst_req_parse(struct nlattr **tb, struct kst_req *req,
			 struct netlink_ext_ack *extack)
{
	struct nlattr *first = tb[KSTAT_A_IRQ_FIRST];
	struct nlattr *last = tb[KSTAT_A_IRQ_LAST];

	memset(req, 0, sizeof(*req));
	req->view.sections = tb[KSTAT_A_SECTIONS] ?
			     nla_get_u32(tb[KSTAT_A_SECTIONS]) : KST_ALL_SECTIONS;
	if (tb[KSTAT_A_FLAGS])
		req->view.flags = nla_get_u32(tb[KSTAT_A_FLAGS]);
	if (tb[KSTAT_A_CPU_FIRST])
		req->cpu_first = nla_get_u32(tb[KSTAT_A_CPU_FIRST]);
	req->cpu_last = tb[KSTAT_A_CPU_LAST] ?
			nla_get_u32(tb[KSTAT_A_CPU_LAST]) : nr_cpu_ids - 1;
	if (req->cpu_last >= nr_cpu_ids) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_CPU_LAST],
				    "CPU out of range");
		return -EINVAL;
	}
	if (req->cpu_first > req->cpu_last) {
		NL_SET_ERR_MSG_ATTR(extack, tb[KSTAT_A_CPU_FIRST],
				    "first CPU after last CPU");
		return -EINVAL;
	}
	req->irq_last = U32_MAX;
	if (tb[KSTAT_A_IRQ_LIST] && (first || last)) {
		NL_SET_ERR_MSG_ATTR(extack, first ?: last,
				    "select IRQs by a range or by a list, not both");
		return -EINVAL;
	}
	if (first || last) {
		if (!first || !last || nla_get_u32(first) > nla_get_u32(last)) {
			NL_SET_ERR_MSG_ATTR(extack, first ?: last,
					    "IRQ range needs first <= last");
			return -EINVAL;
		}
		req->irq_first = nla_get_u32(first);
		req->irq_last = nla_get_u32(last);
	}
	if (tb[KSTAT_A_IRQ_LIST])
		return kst_req_list(req, tb[KSTAT_A_IRQ_LIST], extack);
	return 0;
}

int kstat_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kst_pos pos = { };
	struct kst_reading *r;
	struct kst_req req;
	struct sk_buff *msg;
	size_t size;
	void *hdr;
	int err;

	err = kst_gate(genl_info_net(info), info->extack) ?:
	      kst_req_parse(info->attrs, &req, info->extack);
	if (err)
		return err;
	r = kst_collect(&req, GFP_KERNEL_ACCOUNT);
	kvfree(req.irq_list);
	if (IS_ERR(r))
		return PTR_ERR(r);
	size = kst_header_size(false) + kst_size(r, &req.view);
	err = -EMSGSIZE;
	if (kst_msg_bytes(size) > KST_DO_MAX) {
		NL_SET_ERR_MSG(info->extack,
			       "reply larger than 64 KiB: use a dump");
		goto out;
	}
	err = -ENOMEM;
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &kst_family, 0, KSTAT_CMD_GET);
	err = hdr ? kst_header_put(msg, r, NULL) ?:
		    kst_fill(msg, r, &req.view, &pos) : -EMSGSIZE;
	if (WARN_ON_ONCE(err)) {	/* a fill larger than its size */
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
out:
	kst_reading_free(r);
	return err;
}

/* A dump: one reading, and where its messages stand. */
struct kst_dump {
	struct kst_reading *r;
	struct kst_view view;
	struct kst_pos pos;
	int err;			/* a rejection .start could not say */
	const char *msg;
};

struct kst_dump_ctx {
	struct kst_dump *d;
};

static_assert(sizeof(struct kst_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

static struct kst_dump *kst_dump_of(struct netlink_callback *cb)
{
	return ((struct kst_dump_ctx *)cb->ctx)->d;
}

/*
 * Reads the counters and sizes the dump's buffers for its largest
 * object.  A rejection goes back with its extack where .start has one
 * (6.2 on); 6.1's has none, so there the first dumpit call returns it,
 * and the message comes with NLMSG_DONE.
 */
static int kst_get_start(struct netlink_callback *cb)
{
	struct netlink_ext_ack ext = { };
	struct netlink_ext_ack *extack = cb->extack ?: &ext;
	struct kst_dump *d;
	struct kst_req req;
	int err;

	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d)
		return -ENOMEM;
	((struct kst_dump_ctx *)cb->ctx)->d = d;
	err = kst_gate(sock_net(cb->skb->sk), extack) ?:
	      kst_req_parse(kst_dump_attrs(cb), &req, extack);
	if (err && !cb->extack) {
		d->err = err;
		d->msg = ext._msg;
		return 0;
	}
	if (!err) {
		d->view = req.view;
		d->r = kst_collect(&req, GFP_KERNEL_ACCOUNT);
		kvfree(req.irq_list);
		err = PTR_ERR_OR_ZERO(d->r);
	}
	if (err) {
		kfree(d);
		return err;
	}
	cb->min_dump_alloc = max_t(u32, cb->min_dump_alloc,
				   kst_msg_bytes(kst_header_size(false) +
						 kst_max_object(d->r, &d->view)));
	return 0;
}

/* One message per call, as full as the skb allows. */
int kstat_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct kst_dump *d = kst_dump_of(cb);
	struct kst_pos start = d->pos;
	void *hdr;
	int err;

	if (d->err) {
		if (cb->extack)
			cb->extack->_msg = d->msg;
		return d->err;
	}
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kst_family, NLM_F_MULTI, KSTAT_CMD_GET);
	if (!hdr)
		return -EMSGSIZE;
	err = kst_header_put(skb, d->r, NULL) ?:
	      kst_fill(skb, d->r, &d->view, &d->pos);
	if (err && !memcmp(&start, &d->pos, sizeof(start))) {
		/* an object larger than min_dump_alloc: a kstat bug */
		genlmsg_cancel(skb, hdr);
		WARN_ON_ONCE(1);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return err ? skb->len : 0;
}

static int kst_get_done(struct netlink_callback *cb)
{
	struct kst_dump *d = kst_dump_of(cb);

	kst_reading_free(d->r);
	kfree(d);
	return 0;
}

/* ---- config, stats, subscriptions ----------------------------------------- */

int kstat_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kst_limits lim;
	struct kst_config cfg;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = kst_gate(genl_info_net(info), info->extack);
	if (err)
		return err;
	kst_config_get(&cfg, &lim);
	msg = genlmsg_new(kst_config_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &kst_family, 0,
				KSTAT_CMD_CONFIG_GET);
	if (WARN_ON_ONCE(!hdr || kst_config_fill(msg, &cfg, &lim))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int kstat_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *c = info->attrs[KSTAT_A_CONFIG];
	struct nlattr *l = info->attrs[KSTAT_A_LIMITS];
	struct kst_limits lim = { };
	struct kst_config cfg = { };
	u32 mask = 0;
	int err;

	err = kst_gate(genl_info_net(info), info->extack) ?:
	      (c ? kst_config_parse(c, &cfg, &mask, info->extack) : 0) ?:
	      (l ? kst_limits_parse(l, &lim, &mask, info->extack) : 0);
	if (!err)
		kst_config_set(&cfg, &lim, mask);
	return err;
}

int kstat_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kst_stats st;
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = kst_gate(genl_info_net(info), info->extack);
	if (err)
		return err;
	kst_stats_get(&st);
	msg = genlmsg_new(kst_stats_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &kst_family, 0,
				KSTAT_CMD_STATS_GET);
	if (WARN_ON_ONCE(!hdr || kst_stats_fill(msg, &st))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * Not privileged: the default stream runs at the admin's config, and a
 * subscription without CAP_NET_ADMIN (in the initial user namespace) is
 * held to the limits.
 */
int kstat_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *c = info->attrs[KSTAT_A_CONFIG];
	struct kst_sub sub = {
		.net = genl_info_net(info),
		.portid = info->snd_portid,
	};
	int err;

	err = kst_gate(sub.net, info->extack);
	if (err)
		return err;
	if (!c)
		return kst_subscribe_default(info->extack);
	err = kst_config_parse(c, &sub.cfg, &sub.mask, info->extack);
	if (err)
		return err;
	sub.uid = sock_i_uid(NETLINK_CB(skb).sk);
	sub.priv = netlink_capable(skb, CAP_NET_ADMIN);
	return kst_subscribe(&sub, info->extack);
}

int kstat_nl_unsubscribe_doit(struct sk_buff *skb, struct genl_info *info)
{
	return kst_gate(genl_info_net(info), info->extack) ?:
	       kst_unsubscribe(genl_info_net(info), info->snd_portid,
			       info->extack);
}

/* ---- the family ------------------------------------------------------------ */

/*
 * The generated op table, completed: a dump reads in .start and frees
 * in .done, and an op whose request names no attribute (a policy of
 * maxattr 0) gets no policy, so that the core parses nothing for it.
 */
static struct genl_ops kst_ops[ARRAY_SIZE(kstat_nl_ops)] __ro_after_init;

/* The generator's group table is static to its file. */
static const struct genl_multicast_group kst_mcgrps[] = {
	[KSTAT_NLGRP_SUMMARY] = { .name = KSTAT_MCGRP_SUMMARY_NAME },
};

/*
 * netnsok: requests from other namespaces reach kst_gate(), which
 * answers them.  Requests need no genl_mutex: parallel_ops.
 */
struct genl_family kst_family __ro_after_init = {
	.name		= KSTAT_FAMILY_NAME,
	.version	= KSTAT_FAMILY_VERSION + KST_VERSION_BUMP,
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
	unsigned int i;

	memcpy(kst_ops, kstat_nl_ops, sizeof(kst_ops));
	for (i = 0; i < ARRAY_SIZE(kst_ops); i++) {
		if (!kst_ops[i].maxattr)
			kst_ops[i].policy = NULL;
		if (kst_ops[i].dumpit) {
			kst_ops[i].start = kst_get_start;
			kst_ops[i].done = kst_get_done;
		}
	}
	return genl_register_family(&kst_family);
}

void kst_netlink_exit(void)
{
	genl_unregister_family(&kst_family);
}
