/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libkstat internals shared between the request side and the parsers. */
#ifndef LIBKSTAT_INTERNAL_H
#define LIBKSTAT_INTERNAL_H

#include "libkstat.h"

/* Free what a list holds and zero it, keeping the list itself. */
void kstat_cpu_list_clear(struct kstat_cpu_list *l);
void kstat_irq_list_clear(struct kstat_irq_list *l);
void kstat_softirq_list_clear(struct kstat_softirq_list *l);

struct nlattr;

/* Checked attribute access: -EBADMSG when the length is wrong. */
int kstat_get_u8(const struct nlattr *a, uint8_t *v);
int kstat_get_u32(const struct nlattr *a, uint32_t *v);
int kstat_get_u64(const struct nlattr *a, uint64_t *v);
int kstat_get_str(const struct nlattr *a, char **out);

int kstat_attrs_tile(const struct nlattr *head, int len);

/* Nest parsers shared by replies and summaries. */
int kstat_parse_cpu_nest(const struct nlattr *nest, struct kstat_cputime *c);
int kstat_parse_irq_nest(const struct nlattr *nest, struct kstat_irq *q);
int kstat_parse_arch_nest(const struct nlattr *nest, struct kstat_arch *r);
int kstat_parse_softirq_nest(const struct nlattr *nest,
			     struct kstat_softirq *s);
int kstat_parse_config_nest(const struct nlattr *nest, struct kstat_config *c);
int kstat_parse_config_msg(const struct nlmsghdr *nlh, struct kstat_config *c);
int kstat_parse_stats_msg(const struct nlmsghdr *nlh, struct kstat_stats *st);
void kstat_irq_free(struct kstat_irq *q);
int kstat_summary_kick(struct kstat_handle *h);
int kstat_handle_family(const struct kstat_handle *h);

/* Subscriptions without a socket, fed recorded messages (tests, bench). */
struct kstat_sub *kstat_sub_alloc(const struct kstat_sub_ops *ops, void *arg);
int kstat_sub_feed(struct kstat_sub *sub, const struct nlmsghdr *nlh);
void kstat_arch_free(struct kstat_arch *r);

#endif
