// SPDX-License-Identifier: GPL-2.0
/*
 * kstat config and limits: the default stream's configuration and what
 * unprivileged subscribers may ask.  Their policies are generated from
 * the spec (kstat-nl-gen.c); what a policy cannot say is checked here.
 */
#include <net/netlink.h>

#include "kst.h"

#define KST_INTERVAL_MIN_MS	10
#define KST_INTERVAL_MAX_MS	60000

const struct kst_config kst_config_default = {
	.interval_ms	= 1000,
	.batch		= 1,
	.sections	= KST_ALL_SECTIONS,
};

const struct kst_limits kst_limits_default = {
	.min_interval_ms	= 250,
	.max_subscriptions	= 64,
};

/* The fields of @nest into @cfg, and which in @mask. */
int kst_config_parse(const struct nlattr *nest, struct kst_config *cfg,
		     u32 *mask, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[KSTAT_A_CONFIG_MAX + 1], *a;
	int err;

	err = nla_parse_nested(tb, KSTAT_A_CONFIG_MAX, nest,
			       kstat_config_nl_policy, extack);
	if (err)
		return err;
	a = tb[KSTAT_A_CONFIG_INTERVAL_MS];
	if (a) {
		cfg->interval_ms = nla_get_u32(a);
		if (cfg->interval_ms < KST_INTERVAL_MIN_MS) {
			NL_SET_ERR_MSG_ATTR(extack, a, "interval below 10 ms");
			return -EINVAL;
		}
		if (cfg->interval_ms > KST_INTERVAL_MAX_MS) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "interval above 60000 ms");
			return -ERANGE;
		}
		*mask |= KST_CFG_INTERVAL;
	}
	a = tb[KSTAT_A_CONFIG_SECTIONS];
	if (a) {
		cfg->sections = nla_get_u32(a);
		if (!cfg->sections) {
			NL_SET_ERR_MSG_ATTR(extack, a, "no sections");
			return -EINVAL;
		}
		*mask |= KST_CFG_SECTIONS;
	}
	if (tb[KSTAT_A_CONFIG_BATCH]) {
		cfg->batch = nla_get_u32(tb[KSTAT_A_CONFIG_BATCH]);
		*mask |= KST_CFG_BATCH;
	}
	if (tb[KSTAT_A_CONFIG_PERCPU]) {
		cfg->percpu = nla_get_u8(tb[KSTAT_A_CONFIG_PERCPU]);
		*mask |= KST_CFG_PERCPU;
	}
	if (tb[KSTAT_A_CONFIG_NETNS]) {
		cfg->netns = nla_get_u8(tb[KSTAT_A_CONFIG_NETNS]);
		*mask |= KST_CFG_NETNS;
	}
	return 0;
}

int kst_limits_parse(const struct nlattr *nest, struct kst_limits *lim,
		     u32 *mask, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[KSTAT_A_LIMITS_MAX + 1];
	int err;

	err = nla_parse_nested(tb, KSTAT_A_LIMITS_MAX, nest,
			       kstat_limits_nl_policy, extack);
	if (err)
		return err;
	if (tb[KSTAT_A_LIMITS_MIN_INTERVAL_MS]) {
		lim->min_interval_ms =
			nla_get_u32(tb[KSTAT_A_LIMITS_MIN_INTERVAL_MS]);
		*mask |= KST_LIM_INTERVAL;
	}
	if (tb[KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS]) {
		lim->max_subscriptions =
			nla_get_u32(tb[KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS]);
		*mask |= KST_LIM_SUBS;
	}
	return 0;
}

/* Fields left out keep their value; netns is the caller's to set. */
void kst_config_merge(struct kst_config *cfg, struct kst_limits *lim,
		      const struct kst_config *ncfg,
		      const struct kst_limits *nlim, u32 mask)
{
	if (mask & KST_CFG_INTERVAL)
		cfg->interval_ms = ncfg->interval_ms;
	if (mask & KST_CFG_BATCH)
		cfg->batch = ncfg->batch;
	if (mask & KST_CFG_SECTIONS)
		cfg->sections = ncfg->sections;
	if (mask & KST_CFG_PERCPU)
		cfg->percpu = ncfg->percpu;
	if (mask & KST_LIM_INTERVAL)
		lim->min_interval_ms = nlim->min_interval_ms;
	if (mask & KST_LIM_SUBS)
		lim->max_subscriptions = nlim->max_subscriptions;
}

size_t kst_config_size(void)
{
	return nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) +
	       2 * nla_total_size(sizeof(u8)) +
	       nla_total_size(0) + 2 * nla_total_size(sizeof(u32));
}

/* CONFIG_GET's reply: the config nest, then the limits nest. */
int kst_config_fill(struct sk_buff *skb, const struct kst_config *cfg,
		    const struct kst_limits *lim)
{
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_CONFIG);

	if (!nest ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_INTERVAL_MS, cfg->interval_ms) ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_BATCH, cfg->batch) ||
	    nla_put_u32(skb, KSTAT_A_CONFIG_SECTIONS, cfg->sections) ||
	    nla_put_u8(skb, KSTAT_A_CONFIG_PERCPU, cfg->percpu) ||
	    nla_put_u8(skb, KSTAT_A_CONFIG_NETNS, cfg->netns))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	nest = nla_nest_start(skb, KSTAT_A_LIMITS);
	if (!nest ||
	    nla_put_u32(skb, KSTAT_A_LIMITS_MIN_INTERVAL_MS,
			lim->min_interval_ms) ||
	    nla_put_u32(skb, KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS,
			lim->max_subscriptions))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}
