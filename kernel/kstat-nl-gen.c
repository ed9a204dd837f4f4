// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	docs/netlink/specs/kstat.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "kstat-nl-gen.h"

#include <uapi/linux/kstat.h>

/* Common nested types */
const struct nla_policy kstat_config_nl_policy[KSTAT_A_CONFIG_NETNS + 1] = {
	[KSTAT_A_CONFIG_INTERVAL_MS] = { .type = NLA_U32, },
	[KSTAT_A_CONFIG_BATCH] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
	[KSTAT_A_CONFIG_SECTIONS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[KSTAT_A_CONFIG_PERCPU] = NLA_POLICY_MAX(NLA_U8, 1),
	[KSTAT_A_CONFIG_NETNS] = NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy kstat_limits_nl_policy[KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS + 1] = {
	[KSTAT_A_LIMITS_MIN_INTERVAL_MS] = { .type = NLA_U32, },
	[KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS] = { .type = NLA_U32, },
};

/* KSTAT_CMD_GET - do */
const struct nla_policy kstat_get_nl_policy[KSTAT_A_IRQ_LIST + 1] = {
	[KSTAT_A_SECTIONS] = NLA_POLICY_MASK(NLA_U32, 0x7),
	[KSTAT_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[KSTAT_A_CPU_FIRST] = { .type = NLA_U32, },
	[KSTAT_A_CPU_LAST] = { .type = NLA_U32, },
	[KSTAT_A_IRQ_FIRST] = { .type = NLA_U32, },
	[KSTAT_A_IRQ_LAST] = { .type = NLA_U32, },
	[KSTAT_A_IRQ_LIST] = { .type = NLA_BINARY, },
};

/* KSTAT_CMD_CONFIG_GET - do */
const struct nla_policy kstat_config_get_nl_policy[KSTAT_A_UNSPEC + 1] = {
};

/* KSTAT_CMD_CONFIG_SET - do */
const struct nla_policy kstat_config_set_nl_policy[KSTAT_A_LIMITS + 1] = {
	[KSTAT_A_CONFIG] = NLA_POLICY_NESTED(kstat_config_nl_policy),
	[KSTAT_A_LIMITS] = NLA_POLICY_NESTED(kstat_limits_nl_policy),
};

/* KSTAT_CMD_STATS_GET - do */
const struct nla_policy kstat_stats_get_nl_policy[KSTAT_A_UNSPEC + 1] = {
};

/* KSTAT_CMD_SUBSCRIBE - do */
const struct nla_policy kstat_subscribe_nl_policy[KSTAT_A_CONFIG + 1] = {
	[KSTAT_A_CONFIG] = NLA_POLICY_NESTED(kstat_config_nl_policy),
};

/* KSTAT_CMD_UNSUBSCRIBE - do */
const struct nla_policy kstat_unsubscribe_nl_policy[KSTAT_A_UNSPEC + 1] = {
};

/* Ops table for kstat */
const struct genl_ops kstat_nl_ops[6] = {
	{
		.cmd		= KSTAT_CMD_GET,
		.doit		= kstat_nl_get_doit,
		.dumpit		= kstat_nl_get_dumpit,
		.policy		= kstat_get_nl_policy,
		.maxattr	= KSTAT_A_IRQ_LIST,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_GET,
		.doit		= kstat_nl_config_get_doit,
		.policy		= kstat_config_get_nl_policy,
		.maxattr	= KSTAT_A_UNSPEC,
	},
	{
		.cmd		= KSTAT_CMD_CONFIG_SET,
		.doit		= kstat_nl_config_set_doit,
		.policy		= kstat_config_set_nl_policy,
		.maxattr	= KSTAT_A_LIMITS,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= KSTAT_CMD_STATS_GET,
		.doit		= kstat_nl_stats_get_doit,
		.policy		= kstat_stats_get_nl_policy,
		.maxattr	= KSTAT_A_UNSPEC,
	},
	{
		.cmd		= KSTAT_CMD_SUBSCRIBE,
		.doit		= kstat_nl_subscribe_doit,
		.policy		= kstat_subscribe_nl_policy,
		.maxattr	= KSTAT_A_CONFIG,
	},
	{
		.cmd		= KSTAT_CMD_UNSUBSCRIBE,
		.doit		= kstat_nl_unsubscribe_doit,
		.policy		= kstat_unsubscribe_nl_policy,
		.maxattr	= KSTAT_A_UNSPEC,
	},
};

static const struct genl_multicast_group kstat_nl_mcgrps[] = {
	[KSTAT_NLGRP_SUMMARY] = { "summary", },
};
