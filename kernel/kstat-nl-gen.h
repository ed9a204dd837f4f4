/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	docs/netlink/specs/kstat.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_KSTAT_GEN_H
#define _LINUX_KSTAT_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/kstat.h>

/* Common nested types */
extern const struct nla_policy kstat_config_nl_policy[KSTAT_A_CONFIG_NETNS + 1];
extern const struct nla_policy kstat_limits_nl_policy[KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS + 1];

extern const struct nla_policy kstat_get_nl_policy[KSTAT_A_IRQ_LIST + 1];

extern const struct nla_policy kstat_config_get_nl_policy[KSTAT_A_UNSPEC + 1];

extern const struct nla_policy kstat_config_set_nl_policy[KSTAT_A_LIMITS + 1];

extern const struct nla_policy kstat_stats_get_nl_policy[KSTAT_A_UNSPEC + 1];

extern const struct nla_policy kstat_subscribe_nl_policy[KSTAT_A_CONFIG + 1];

extern const struct nla_policy kstat_unsubscribe_nl_policy[KSTAT_A_UNSPEC + 1];

/* Ops table for kstat */
extern const struct genl_ops kstat_nl_ops[6];

int kstat_nl_get_doit(struct sk_buff *skb, struct genl_info *info);
int kstat_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int kstat_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info);
int kstat_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info);
int kstat_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int kstat_nl_subscribe_doit(struct sk_buff *skb, struct genl_info *info);
int kstat_nl_unsubscribe_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	KSTAT_NLGRP_SUMMARY,
};

#endif /* _LINUX_KSTAT_GEN_H */
