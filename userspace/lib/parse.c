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
int kstat_get_percpu(const struct nlattr *a, uint32_t **out, uint32_t *nr)
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

int kstat_get_bytes(const struct nlattr *a, uint8_t **out, size_t *len)
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
int kstat_grow(void **arr, size_t nr, size_t size)
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

int kstat_reserve_slow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	while (n < need)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *cap * size, 0, (n - *cap) * size);
	*arr = p;
	*cap = n;
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
int kstat_msg_attrs(const struct nlmsghdr *nlh, const struct nlattr **head,
		    int *len)
{
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	*head = (const struct nlattr *)((const char *)NLMSG_DATA(nlh) +
					GENL_HDRLEN);
	*len = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return kstat_attrs_tile(*head, *len);
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
	const struct nlattr *head;
	const struct nlattr *a;
	int len, rem, err;

	err = kstat_msg_attrs(nlh, &head, &len);
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
	case KSTAT_A_STATS_TICKS:
		return kstat_get_u64(a, &st->ticks);
	case KSTAT_A_STATS_TICK_NS_TOTAL:
		return kstat_get_u64(a, &st->tick_ns_total);
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
	const struct nlattr *head;
	int len, rem, rem2, err;

	err = kstat_msg_attrs(nlh, &head, &len);
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

/* ---- streams (KSTAT_1.1) ---- */

static int parse_limits_nest(const struct nlattr *nest, struct kstat_limits *l)
{
	const struct nlattr *a;
	int rem, err = 0;

	memset(l, 0, sizeof(*l));
	kattr_for_each_nested(a, nest, rem) {
		switch (kattr_type(a)) {
		case KSTAT_A_LIMITS_MIN_INTERVAL_MS:
			err = kstat_get_u32(a, &l->min_interval_ms);
			break;
		case KSTAT_A_LIMITS_MAX_STREAMS:
			err = kstat_get_u32(a, &l->max_streams);
			break;
		case KSTAT_A_LIMITS_MAX_MEMBERS_USER:
			err = kstat_get_u32(a, &l->max_members_user);
			break;
		case KSTAT_A_LIMITS_MAX_MEMBERS_NET:
			err = kstat_get_u32(a, &l->max_members_net);
			break;
		}
		if (err)
			return err;
	}
	return rem <= 0 ? 0 : -EBADMSG;
}

int kstat_parse_limits_msg(const struct nlmsghdr *nlh, struct kstat_limits *l)
{
	const struct nlattr *head, *a;
	int len, rem, err;

	err = kstat_msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem)
		if (kattr_type(a) == KSTAT_A_LIMITS)
			return parse_limits_nest(a, l);
	return -ENOENT;
}

static int parse_stream_attr(const struct nlattr *a, struct kstat_stream *s)
{
	switch (kattr_type(a)) {
	case KSTAT_A_STREAM_ID:
		return kstat_get_u32(a, &s->id);
	case KSTAT_A_STREAM_CONFIG:
		return kstat_parse_config_nest(a, &s->config);
	case KSTAT_A_STREAM_MEMBERS:
		return kstat_get_u32(a, &s->members);
	case KSTAT_A_STREAM_SAMPLES:
		return kstat_get_u64(a, &s->samples);
	case KSTAT_A_STREAM_BYTES:
		return kstat_get_u64(a, &s->bytes);
	case KSTAT_A_STREAM_RESYNCS:
		return kstat_get_u64(a, &s->resyncs);
	default:
		return 0;	/* newer attributes, and the pad */
	}
}

static int parse_stream_nest(const struct nlattr *nest, struct kstat_stream *s)
{
	const struct nlattr *a;
	int rem, err;

	memset(s, 0, sizeof(*s));
	kattr_for_each_nested(a, nest, rem) {
		err = parse_stream_attr(a, s);
		if (err)
			return err;
	}
	return rem <= 0 ? 0 : -EBADMSG;
}

int kstat_parse_streams_msg(const struct nlmsghdr *nlh,
			    struct kstat_stream_list *l)
{
	size_t stride = l->stream_size ? l->stream_size : sizeof(struct kstat_stream);
	const struct nlattr *head, *a;
	struct kstat_stream one;
	int len, rem, err;

	err = kstat_msg_attrs(nlh, &head, &len);
	if (err)
		return err;
	kattr_for_each(a, head, len, rem) {
		if (kattr_type(a) != KSTAT_A_STREAM)
			continue;
		err = parse_stream_nest(a, &one);
		if (!err)
			err = kstat_grow((void **)&l->streams, l->nr, stride);
		if (err)
			return err;
		kstat_copy_out((char *)l->streams + l->nr * stride, stride,
			       &one, sizeof(one));
		l->nr++;
	}
	return 0;
}

/* A sample's new configuration: the producer's, as CONFIG_GET's. */
static int config_apply(struct kstat_state *st, const struct nlattr *a,
			int key)
{
	(void)key;
	st->s.config_changed = 1;
	return kstat_parse_config_nest(a, &st->s.config);
}

const struct kstat_section kstat_section_config = {
	.name = "config",
	.sample_attr = KSTAT_A_SAMPLE_CONFIG,
	.apply = config_apply,
};
