// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: reply parsers.  Every length is checked against its type
 * before it is read; attributes a newer kernel adds are skipped, so old
 * clients keep working.  A reply that breaks the protocol is -EBADMSG.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "libkstat.h"
#include "internal.h"

static const char *const kstat_cputime_names[KSTAT_CPUTIME_NR] = {
	"user", "nice", "system", "idle", "iowait",
	"irq", "softirq", "steal", "guest", "guest_nice",
};

const char *kstat_cputime_name(enum kstat_cputime_field f)
{
	return (unsigned int)f < KSTAT_CPUTIME_NR ? kstat_cputime_names[f] : NULL;
}

int kstat_cpu_is_online(const uint8_t *online, size_t len, unsigned int cpu)
{
	return online && cpu / 8 < len && (online[cpu / 8] >> (cpu % 8)) & 1;
}

/* ---- checked attribute access ---- */

int kstat_get_u8(const struct nlattr *a, uint8_t *v)
{
	if (kattr_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, kattr_data(a), sizeof(*v));
	return 0;
}

int kstat_get_u32(const struct nlattr *a, uint32_t *v)
{
	if (kattr_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, kattr_data(a), sizeof(*v));
	return 0;
}

int kstat_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (kattr_len(a) != sizeof(*v))
		return -EBADMSG;
	memcpy(v, kattr_data(a), sizeof(*v));
	return 0;
}

/* A NUL-terminated string attribute, copied; replaces *out. */
int kstat_get_str(const struct nlattr *a, char **out)
{
	int len = kattr_len(a);
	char *s;

	if (len < 1 || !memchr(kattr_data(a), '\0', len))
		return -EBADMSG;
	s = strdup(kattr_data(a));
	if (!s)
		return -ENOMEM;
	free(*out);
	*out = s;
	return 0;
}

/* A __u32[] per-CPU array, copied; replaces *out. */
static int get_percpu(const struct nlattr *a, uint32_t **out, uint32_t *nr)
{
	int len = kattr_len(a);
	uint32_t *arr;

	if (len % sizeof(uint32_t))
		return -EBADMSG;
	arr = malloc(len ? len : 1);
	if (!arr)
		return -ENOMEM;
	memcpy(arr, kattr_data(a), len);
	free(*out);
	*out = arr;
	*nr = len / sizeof(uint32_t);
	return 0;
}

static int get_bytes(const struct nlattr *a, uint8_t **out, size_t *len)
{
	uint8_t *p = malloc(kattr_len(a) ? kattr_len(a) : 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, kattr_data(a), kattr_len(a));
	free(*out);
	*out = p;
	*len = kattr_len(a);
	return 0;
}

/*
 * Make room for element @nr in a growing array and zero that element
 * only.  Capacity is implicit: the array is resized whenever @nr reaches
 * a power of two.  (Zeroing the whole new capacity cost more than the
 * parsing: under QEMU TCG a large memset runs byte by byte.)
 */
static int grow(void **arr, size_t nr, size_t size)
{
	size_t cap = nr < 8 ? 8 : nr * 2;
	void *p = *arr;

	if (!nr || (nr >= 8 && !(nr & (nr - 1)))) {
		if (cap > SIZE_MAX / size)
			return -ENOMEM;
		p = realloc(*arr, cap * size);
		if (!p)
			return -ENOMEM;
		*arr = p;
	}
	memset((char *)p + nr * size, 0, size);
	return 0;
}

/*
 * Do the attributes at @head fill exactly @len bytes?  A truncated or
 * corrupted buffer leaves bytes that are no attribute: -EBADMSG, rather
 * than a quietly shorter result.
 */
int kstat_attrs_tile(const struct nlattr *head, int len)
{
	const struct nlattr *a;
	int rem;

	kattr_for_each(a, head, len, rem)
		;
	return rem ? -EBADMSG : 0;
}

/* The attributes after the genl header, checked to fill the message. */
static int msg_attrs(const struct nlmsghdr *nlh, struct nlattr **head, int *len)
{
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	*head = (struct nlattr *)((char *)NLMSG_DATA(nlh) + GENL_HDRLEN);
	*len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return kstat_attrs_tile(*head, *len);
}

/* ---- CPU ---- */

int kstat_parse_cpu_nest(const struct nlattr *nest, struct kstat_cputime *c)
{
	const struct nlattr *a;
	uint32_t cpu = 0;
	int rem, t, err = 0;

	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	c->nr_ns = KSTAT_CPUTIME_NR;
	kattr_for_each_nested(a, nest, rem) {
		t = kattr_type(a);
		if (t == KSTAT_A_CPU_ID) {
			err = kstat_get_u32(a, &cpu);
			if (!err && cpu > INT32_MAX)
				err = -EBADMSG;
			c->cpu = cpu;
		} else if (t >= KSTAT_A_CPU_USER && t <= KSTAT_A_CPU_GUEST_NICE) {
			err = kstat_get_u64(a, &c->ns[t - KSTAT_A_CPU_USER]);
		}
		if (err)
			return err;
	}
	return rem > 0 ? -EBADMSG : 0;
}

int kstat_parse_cpu_msg(const struct nlmsghdr *nlh, struct kstat_cpu_list *l)
{
	size_t stride = l->cputime_size ? l->cputime_size : sizeof(struct kstat_cputime);
	struct kstat_cputime c;
	struct nlattr *head;
	const struct nlattr *a;
	int len, rem, err;

	err = msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		if (kattr_type(a) != KSTAT_A_CPU)
			continue;
		err = kstat_parse_cpu_nest(a, &c);
		if (!err)
			err = grow((void **)&l->cpus, l->nr, stride);
		if (err)
			return err;
		kstat_cputime_store(kstat_cputime_at(l->cpus, stride, l->nr),
				    stride, &c);
		l->nr++;
	}
	return 0;
}

int kstat_cputime_size_check(struct kstat_handle *h, size_t size)
{
	if (size >= KSTAT_CPUTIME_SIZE_1_0 && size % sizeof(uint64_t) == 0)
		return 0;
	kstat_set_error(h, "a struct kstat_cputime of %zu bytes is invalid: pass sizeof(struct kstat_cputime) (at least %d bytes, a multiple of 8)",
			size, KSTAT_CPUTIME_SIZE_1_0);
	return -EINVAL;
}

void kstat_cputime_store(void *dst, size_t size, const struct kstat_cputime *c)
{
	struct kstat_cputime t = *c;
	size_t slots = (size - offsetof(struct kstat_cputime, ns)) /
		       sizeof(t.ns[0]);

	if (size == sizeof(t)) {	/* the common case: same header */
		memcpy(dst, c, sizeof(t));
		return;
	}
	if (slots < t.nr_ns)
		t.nr_ns = slots;
	kstat_copy_out(dst, size, &t, sizeof(t));
}

void kstat_cpu_list_clear(struct kstat_cpu_list *l)
{
	size_t stride = l->cputime_size;

	free(l->cpus);
	memset(l, 0, sizeof(*l));
	l->cputime_size = stride;
}

void kstat_cpu_list_free(struct kstat_cpu_list *l)
{
	if (!l)
		return;
	kstat_cpu_list_clear(l);
	free(l);
}

/* ---- IRQs ---- */

static int add_action(struct kstat_irq *q, const struct nlattr *a)
{
	char *name = NULL;
	int err;

	err = kstat_get_str(a, &name);
	if (!err)
		err = grow((void **)&q->actions, q->nr_actions,
			   sizeof(*q->actions));
	if (err) {
		free(name);
		return err;
	}
	q->actions[q->nr_actions++] = name;
	return 0;
}

static int parse_irq_attr(const struct nlattr *a, struct kstat_irq *q,
			  int *seen)
{
	uint8_t level = 0;
	int err;

	switch (kattr_type(a)) {
	case KSTAT_A_IRQ_ID:
		*seen |= 1;
		return kstat_get_u32(a, &q->irq);
	case KSTAT_A_IRQ_COUNT:
		*seen |= 2;
		return kstat_get_u64(a, &q->count);
	case KSTAT_A_IRQ_PERCPU:
		return get_percpu(a, &q->percpu, &q->nr_percpu);
	case KSTAT_A_IRQ_CHIP:
		return kstat_get_str(a, &q->chip);
	case KSTAT_A_IRQ_HWIRQ:
		q->has_hwirq = 1;
		return kstat_get_u64(a, &q->hwirq);
	case KSTAT_A_IRQ_LEVEL:
		err = kstat_get_u8(a, &level);
		q->level = level;
		return err;
	case KSTAT_A_IRQ_NAME:
		return kstat_get_str(a, &q->name);
	case KSTAT_A_IRQ_ACTION:
		return add_action(q, a);
	default:
		return 0;	/* newer kernel: skip */
	}
}

int kstat_parse_irq_nest(const struct nlattr *nest, struct kstat_irq *q)
{
	const struct nlattr *a;
	int rem, err, seen = 0;

	kattr_for_each_nested(a, nest, rem) {
		err = parse_irq_attr(a, q, &seen);
		if (err)
			return err;
	}
	/* id and count are required; leftover bytes are corruption */
	return seen == 3 && rem <= 0 ? 0 : -EBADMSG;
}

int kstat_parse_arch_nest(const struct nlattr *nest, struct kstat_arch *r)
{
	const struct nlattr *a;
	int rem, err = 0;

	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_ARCH_NAME:
			err = kstat_get_str(a, &r->name);
			break;
		case KSTAT_A_ARCH_DESC:
			err = kstat_get_str(a, &r->desc);
			break;
		case KSTAT_A_ARCH_COUNT:
			err = kstat_get_u64(a, &r->count);
			break;
		case KSTAT_A_ARCH_PERCPU:
			err = get_percpu(a, &r->percpu, &r->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return r->name && rem <= 0 ? 0 : -EBADMSG;
}

static int parse_irq_top(const struct nlattr *a, struct kstat_irq_list *l)
{
	struct kstat_irq *q;
	int err;

	switch (kattr_type(a)) {
	case KSTAT_A_IRQ:
		err = grow((void **)&l->irqs, l->nr, sizeof(*l->irqs));
		if (err)
			return err;
		q = &l->irqs[l->nr++];	/* counted first: clear() frees it */
		if (kattr_len(a) == IRQ_TOTALS_LEN &&
		    irq_totals_fast(a, &q->irq, &q->count))
			return 0;
		return kstat_parse_irq_nest(a, q);
	case KSTAT_A_ARCH:
		err = grow((void **)&l->arch, l->nr_arch, sizeof(*l->arch));
		if (err)
			return err;
		return kstat_parse_arch_nest(a, &l->arch[l->nr_arch++]);
	case KSTAT_A_INTR_SUM:
		l->has_totals = 1;
		return kstat_get_u64(a, &l->intr_sum);
	case KSTAT_A_NR_IRQS:
		return kstat_get_u32(a, &l->nr_irqs);
	case KSTAT_A_ONLINE_CPUS:
		return get_bytes(a, &l->online, &l->online_len);
	default:
		return 0;
	}
}

int kstat_parse_irq_msg(const struct nlmsghdr *nlh, struct kstat_irq_list *l)
{
	struct nlattr *head;
	const struct nlattr *a;
	int len, rem, err;

	err = msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		err = parse_irq_top(a, l);
		if (err)
			return err;
	}
	return 0;
}

void kstat_irq_free(struct kstat_irq *q)
{
	size_t i;

	/* Most IRQs in summaries own nothing: skip the calls to free(). */
	if (!q->actions && !q->percpu && !q->chip && !q->name)
		return;
	for (i = 0; i < q->nr_actions; i++)
		free(q->actions[i]);
	free(q->actions);
	free(q->percpu);
	free(q->chip);
	free(q->name);
}

void kstat_arch_free(struct kstat_arch *r)
{
	free(r->name);
	free(r->desc);
	free(r->percpu);
}

void kstat_irq_list_clear(struct kstat_irq_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		kstat_irq_free(&l->irqs[i]);
	for (i = 0; i < l->nr_arch; i++)
		kstat_arch_free(&l->arch[i]);
	free(l->irqs);
	free(l->arch);
	free(l->online);
	memset(l, 0, sizeof(*l));
}

void kstat_irq_list_free(struct kstat_irq_list *l)
{
	if (!l)
		return;
	kstat_irq_list_clear(l);
	free(l);
}

/* ---- softirqs ---- */

int kstat_parse_softirq_nest(const struct nlattr *nest, struct kstat_softirq *s)
{
	const struct nlattr *a;
	int rem, err = 0;

	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_SOFTIRQ_VEC:
			err = kstat_get_u32(a, &s->vec);
			break;
		case KSTAT_A_SOFTIRQ_NAME:
			err = kstat_get_str(a, &s->name);
			break;
		case KSTAT_A_SOFTIRQ_COUNT:
			err = kstat_get_u64(a, &s->count);
			break;
		case KSTAT_A_SOFTIRQ_PERCPU:
			err = get_percpu(a, &s->percpu, &s->nr_percpu);
			break;
		}
		if (err)
			return err;
	}
	return s->name && rem <= 0 ? 0 : -EBADMSG;
}

int kstat_parse_softirq_msg(const struct nlmsghdr *nlh,
			    struct kstat_softirq_list *l)
{
	struct nlattr *head;
	const struct nlattr *a;
	int len, rem, err;

	err = msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		if (kattr_type(a) == KSTAT_A_ONLINE_CPUS) {
			err = get_bytes(a, &l->online, &l->online_len);
		} else if (kattr_type(a) == KSTAT_A_SOFTIRQ) {
			err = grow((void **)&l->vecs, l->nr, sizeof(*l->vecs));
			if (!err)
				err = kstat_parse_softirq_nest(a, &l->vecs[l->nr++]);
		}
		if (err)
			return err;
	}
	return 0;
}

void kstat_softirq_list_clear(struct kstat_softirq_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->vecs[i].name);
		free(l->vecs[i].percpu);
	}
	free(l->vecs);
	free(l->online);
	memset(l, 0, sizeof(*l));
}

void kstat_softirq_list_free(struct kstat_softirq_list *l)
{
	if (!l)
		return;
	kstat_softirq_list_clear(l);
	free(l);
}

/* ---- summary configuration and telemetry ---- */

int kstat_parse_config_nest(const struct nlattr *nest, struct kstat_config *c)
{
	const struct nlattr *a;
	uint8_t percpu = 0;
	int rem, err = 0;

	memset(c, 0, sizeof(*c));
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_CONFIG_INTERVAL_MS:
			err = kstat_get_u32(a, &c->interval_ms);
			break;
		case KSTAT_A_CONFIG_BATCH:
			err = kstat_get_u32(a, &c->batch);
			break;
		case KSTAT_A_CONFIG_KEYFRAME:
			err = kstat_get_u32(a, &c->keyframe);
			break;
		case KSTAT_A_CONFIG_SECTIONS:
			err = kstat_get_u32(a, &c->sections);
			break;
		case KSTAT_A_CONFIG_PERCPU:
			err = kstat_get_u8(a, &percpu);
			c->percpu = percpu;
			break;
		}
		if (err)
			return err;
	}
	return c->interval_ms && rem <= 0 ? 0 : -EBADMSG;
}

int kstat_parse_config_msg(const struct nlmsghdr *nlh, struct kstat_config *c)
{
	struct nlattr *head;
	const struct nlattr *a;
	int len, rem, err;

	err = msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem)
		if (kattr_type(a) == KSTAT_A_CONFIG)
			return kstat_parse_config_nest(a, c);
	return -EBADMSG;
}

static int parse_stats_attr(const struct nlattr *a, struct kstat_stats *st)
{
	uint8_t flag = 0;
	int err;

	switch (kattr_type(a)) {
	case KSTAT_A_STATS_SAMPLES:
		return kstat_get_u64(a, &st->samples_taken);
	case KSTAT_A_STATS_SUMMARIES:
		return kstat_get_u64(a, &st->summaries_sent);
	case KSTAT_A_STATS_MESSAGES:
		return kstat_get_u64(a, &st->messages_sent);
	case KSTAT_A_STATS_DELIVERY_FAILURES:
		return kstat_get_u64(a, &st->delivery_failures);
	case KSTAT_A_STATS_ALLOC_FAILURES:
		return kstat_get_u64(a, &st->alloc_failures);
	case KSTAT_A_STATS_BUILD_NS_LAST:
		return kstat_get_u64(a, &st->build_ns_last);
	case KSTAT_A_STATS_BUILD_NS_MAX:
		return kstat_get_u64(a, &st->build_ns_max);
	case KSTAT_A_STATS_BUILD_NS_TOTAL:
		return kstat_get_u64(a, &st->build_ns_total);
	case KSTAT_A_STATS_KEYFRAME_BYTES:
		return kstat_get_u64(a, &st->keyframe_bytes);
	case KSTAT_A_STATS_DELTA_BYTES:
		return kstat_get_u64(a, &st->delta_bytes);
	case KSTAT_A_STATS_GENERATION:
		return kstat_get_u32(a, &st->generation);
	case KSTAT_A_STATS_LISTENING:
		err = kstat_get_u8(a, &flag);
		st->listening = flag;
		return err;
	case KSTAT_A_STATS_RUNNING:
		err = kstat_get_u8(a, &flag);
		st->running = flag;
		return err;
	default:
		return 0;
	}
}

int kstat_parse_stats_msg(const struct nlmsghdr *nlh, struct kstat_stats *st)
{
	const struct nlattr *a, *b;
	struct nlattr *head;
	int len, rem, rem2, err;

	err = msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		if (kattr_type(a) != KSTAT_A_STATS)
			continue;
		kattr_for_each_nested(b, a, rem2) {
			err = parse_stats_attr(b, st);
			if (err)
				return err;
		}
		return 0;
	}
	return -EBADMSG;
}
