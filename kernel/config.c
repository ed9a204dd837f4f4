// SPDX-License-Identifier: GPL-2.0
/*
 * kstat summary configuration: the checks its policy (generated from the
 * spec, kstat_config_nl_policy in kstat-nl-gen.c) cannot express, and its
 * encoder (CONFIG_GET replies and samples that announce a change).
 */
#include <net/netlink.h>

#include "kst.h"

/*
 * What the policy cannot say: the interval's bounds (in code to say so in
 * words; its ceiling is past a policy's s16 bounds), a non-empty set.
 * Fills the fields given and says which in @mask.
 */
int kst_config_parse(struct nlattr **tb, struct kst_config *cfg, u32 *mask,
		     struct netlink_ext_ack *extack)
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
		if (cfg->interval_ms > KSTAT_INTERVAL_MAX_MS) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "interval above the 60000 ms maximum");
			return -ERANGE;
		}
		*mask |= KST_CFG_INTERVAL;
	}
	a = tb[KSTAT_A_CONFIG_SECTIONS];
	if (a) {
		cfg->sections = nla_get_u32(a);
		if (!cfg->sections) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a summary needs at least one section");
			return -EINVAL;
		}
		*mask |= KST_CFG_SECTIONS;
	}
	if (tb[KSTAT_A_CONFIG_BATCH]) {
		cfg->batch = nla_get_u32(tb[KSTAT_A_CONFIG_BATCH]);
		*mask |= KST_CFG_BATCH;
	}
	if (tb[KSTAT_A_CONFIG_KEYFRAME]) {
		cfg->keyframe = nla_get_u32(tb[KSTAT_A_CONFIG_KEYFRAME]);
		*mask |= KST_CFG_KEYFRAME;
	}
	if (tb[KSTAT_A_CONFIG_PERCPU]) {
		cfg->percpu = nla_get_u8(tb[KSTAT_A_CONFIG_PERCPU]);
		*mask |= KST_CFG_PERCPU;
	}
	return 0;
}

size_t kst_config_size(void)
{
	return nla_total_size(0) + 4 * nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(u8));
}

int kst_config_fill(struct sk_buff *skb, int type,
		    const struct kst_config *cfg)
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

bool kst_config_eq(const struct kst_config *a, const struct kst_config *b)
{
	return a->interval_ms == b->interval_ms && a->batch == b->batch &&
	       a->keyframe == b->keyframe && a->sections == b->sections &&
	       a->percpu == b->percpu;
}

/* ---- the limits on streams of a reader's own --------------------------- */

/*
 * The fields given replace those of @lim.  The floor of the floor is
 * KSTAT_INTERVAL_MIN_MS, as for everyone (checked here to say so).
 */
int kst_limits_parse(struct nlattr **tb, struct kst_limits *lim,
		     struct netlink_ext_ack *extack)
{
	struct nlattr *a = tb[KSTAT_A_LIMITS_MIN_INTERVAL_MS];
	static const struct {
		int type;
		size_t offset;
	} f[] = {
		{ KSTAT_A_LIMITS_MIN_INTERVAL_MS,
		  offsetof(struct kst_limits, min_interval_ms) },
		{ KSTAT_A_LIMITS_MAX_STREAMS,
		  offsetof(struct kst_limits, max_streams) },
		{ KSTAT_A_LIMITS_MAX_MEMBERS_USER,
		  offsetof(struct kst_limits, max_members_user) },
		{ KSTAT_A_LIMITS_MAX_MEMBERS_NET,
		  offsetof(struct kst_limits, max_members_net) },
	};
	unsigned int i;

	if (a && (nla_get_u32(a) < KSTAT_INTERVAL_MIN_MS ||
		  nla_get_u32(a) > KSTAT_INTERVAL_MAX_MS)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "min-interval-ms out of 10..60000 ms");
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (tb[f[i].type])
			*(u32 *)((char *)lim + f[i].offset) =
				nla_get_u32(tb[f[i].type]);
	return 0;
}

size_t kst_limits_size(void)
{
	return nla_total_size(0) + 4 * nla_total_size(sizeof(u32));
}

int kst_limits_fill(struct sk_buff *skb, const struct kst_limits *lim)
{
	struct nlattr *nest = nla_nest_start(skb, KSTAT_A_LIMITS);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KSTAT_A_LIMITS_MIN_INTERVAL_MS,
			lim->min_interval_ms) ||
	    nla_put_u32(skb, KSTAT_A_LIMITS_MAX_STREAMS, lim->max_streams) ||
	    nla_put_u32(skb, KSTAT_A_LIMITS_MAX_MEMBERS_USER,
			lim->max_members_user) ||
	    nla_put_u32(skb, KSTAT_A_LIMITS_MAX_MEMBERS_NET,
			lim->max_members_net)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

const char *kst_limits_msg(int type)
{
	switch (type) {
	case KSTAT_A_LIMITS_MIN_INTERVAL_MS:
		return "interval below the floor for unprivileged readers (limits min-interval-ms)";
	case KSTAT_A_LIMITS_MAX_STREAMS:
		return "this user has as many streams as it may (limits max-streams)";
	case KSTAT_A_LIMITS_MAX_MEMBERS_USER:
		return "this user has as many stream members as it may (limits max-members-user)";
	default:
		return "this netns has as many stream members as it may (limits max-members-net)";
	}
}
