// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat: the default stream's configuration, the subscribers' limits
 * (CONFIG_GET, CONFIG_SET) and the producer's telemetry (STATS_GET).
 * Each nest is read through a table of its fields.
 */
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

/* An attribute of a nest and where it goes: u8 into an int, else as is. */
struct field {
	uint16_t type;
	uint16_t len;
	size_t off;
};

#define U8(t, s, m)	{ t, 1, offsetof(struct s, m) }
#define U32(t, s, m)	{ t, 4, offsetof(struct s, m) }
#define U64(t, s, m)	{ t, 8, offsetof(struct s, m) }

static const struct field config_fields[] = {
	U32(KSTAT_A_CONFIG_INTERVAL_MS, kstat_config, interval_ms),
	U32(KSTAT_A_CONFIG_BATCH, kstat_config, batch),
	U32(KSTAT_A_CONFIG_SECTIONS, kstat_config, sections),
	U8(KSTAT_A_CONFIG_PERCPU, kstat_config, percpu),
	U8(KSTAT_A_CONFIG_NETNS, kstat_config, netns),
	{ 0 }
};

static const struct field limits_fields[] = {
	U32(KSTAT_A_LIMITS_MIN_INTERVAL_MS, kstat_limits, min_interval_ms),
	U32(KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS, kstat_limits, max_subscriptions),
	{ 0 }
};

static const struct field stats_fields[] = {
	U64(KSTAT_A_STATS_TICKS, kstat_stats, ticks),
	U64(KSTAT_A_STATS_TICK_NS_TOTAL, kstat_stats, tick_ns_total),
	U64(KSTAT_A_STATS_TICK_NS_MAX, kstat_stats, tick_ns_max),
	U64(KSTAT_A_STATS_SAMPLES, kstat_stats, samples),
	U64(KSTAT_A_STATS_MESSAGES, kstat_stats, messages),
	U64(KSTAT_A_STATS_BYTES, kstat_stats, bytes),
	U64(KSTAT_A_STATS_DELIVERY_FAILURES, kstat_stats, delivery_failures),
	U64(KSTAT_A_STATS_ALLOC_FAILURES, kstat_stats, alloc_failures),
	U8(KSTAT_A_STATS_RUNNING, kstat_stats, running),
	U8(KSTAT_A_STATS_LISTENING, kstat_stats, listening),
	U32(KSTAT_A_STATS_SUBSCRIPTIONS, kstat_stats, subscriptions),
	U32(KSTAT_A_STATS_INTERVAL_MS, kstat_stats, interval_ms),
	U32(KSTAT_A_STATS_GENERATION, kstat_stats, generation),
	{ 0 }
};

/* The nest of @type in @nlh's attributes into @dst: 0, -ENOENT, -EBADMSG. */
static int nest_read(const struct nlmsghdr *nlh, int type,
		     const struct field *fields, void *dst)
{
	const struct nlattr *head, *nest, *a;
	const struct field *f;
	int len, rem, rem2;
	uint8_t u8;

	if (kstat_msg_attrs(nlh, &head, &len))
		return -EBADMSG;
	kattr_for_each(nest, head, len, rem) {
		if (kattr_type(nest) != type)
			continue;
		kattr_for_each_nested(a, nest, rem2) {
			for (f = fields; f->type && f->type != kattr_type(a); f++)
				;
			if (!f->type)
				continue;	/* newer than us */
			if (kattr_len(a) != f->len)
				return -EBADMSG;
			if (f->len == 1) {
				memcpy(&u8, kattr_data(a), 1);
				*(int *)((char *)dst + f->off) = u8;
			} else {
				memcpy((char *)dst + f->off, kattr_data(a), f->len);
			}
		}
		return 0;
	}
	return -ENOENT;
}

int kstat_parse_config(const struct nlmsghdr *nlh, struct kstat_config *c)
{
	return nest_read(nlh, KSTAT_A_CONFIG, config_fields, c);
}

static int config_fn(const struct nlmsghdr *nlh, void *c)
{
	int err = kstat_parse_config(nlh, c);

	return err == -ENOENT ? -EBADMSG : err;
}

static int limits_fn(const struct nlmsghdr *nlh, void *l)
{
	int err = nest_read(nlh, KSTAT_A_LIMITS, limits_fields, l);

	return err == -ENOENT ? -EBADMSG : err;
}

static int stats_fn(const struct nlmsghdr *nlh, void *st)
{
	int err = nest_read(nlh, KSTAT_A_STATS, stats_fields, st);

	return err == -ENOENT ? -EBADMSG : err;
}

/* A caller's struct of @size bytes below the 2.0 size: -EINVAL, and why. */
static int size_ok(struct kstat_handle *h, const char *what, size_t size,
		   size_t min)
{
	h->errmsg[0] = '\0';
	if (size >= min)
		return 0;
	kstat_set_error(h, "struct %s of %zu bytes is too small (at least %zu): pass sizeof(struct %s)",
			what, size, min, what);
	return -EINVAL;
}

/* CONFIG_GET or STATS_GET, its nest read by @fn into @out. */
static int get_nest(struct kstat_handle *h, uint8_t cmd,
		    int (*fn)(const struct nlmsghdr *, void *), void *out)
{
	return kstat_request(h, kstat_msg(h->family, 0, cmd), fn, out);
}

int kstat_config_get_sz(struct kstat_handle *h, struct kstat_config *cfg,
			size_t size)
{
	struct kstat_config c = { 0 };
	int err = size_ok(h, "kstat_config", size, KSTAT_CONFIG_SIZE_2_0);

	if (!err)
		err = get_nest(h, KSTAT_CMD_CONFIG_GET, config_fn, &c);
	if (!err)
		kstat_copy_out(cfg, size, &c, sizeof(c));
	return err;
}

int kstat_limits_get_sz(struct kstat_handle *h, struct kstat_limits *l,
			size_t size)
{
	struct kstat_limits in = { 0 };
	int err = size_ok(h, "kstat_limits", size, KSTAT_LIMITS_SIZE_2_0);

	if (!err)
		err = get_nest(h, KSTAT_CMD_CONFIG_GET, limits_fn, &in);
	if (!err)
		kstat_copy_out(l, size, &in, sizeof(in));
	return err;
}

int kstat_stats_get_sz(struct kstat_handle *h, struct kstat_stats *st,
		       size_t size)
{
	struct kstat_stats s = { 0 };
	int err = size_ok(h, "kstat_stats", size, KSTAT_STATS_SIZE_2_0);

	if (!err)
		err = get_nest(h, KSTAT_CMD_STATS_GET, stats_fn, &s);
	if (!err)
		kstat_copy_out(st, size, &s, sizeof(s));
	return err;
}

/* The fields of @src that @fields names into a nest @type of @msg. */
static int nest_put(struct nl_msg *msg, int type, const struct field *f,
		    const void *src, unsigned int fields)
{
	struct nlattr *nest = nla_nest_start(msg, type);
	const char *p;

	if (!nest)
		return -EMSGSIZE;
	for (; f->type; f++, fields >>= 1) {
		p = (const char *)src + f->off;
		if (!(fields & 1))
			continue;
		if (f->len == 1 ? nla_put_u8(msg, f->type, !!*(const int *)p) :
				  nla_put(msg, f->type, f->len, p))
			return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

int kstat_put_config(struct nl_msg *msg, const struct kstat_config *c,
		     unsigned int fields)
{
	return nest_put(msg, KSTAT_A_CONFIG, config_fields, c, fields);
}

/*
 * CONFIG_SET of the nest @type, @fields of the caller's struct @src of
 * @size bytes (ours: @ours, at least @min).
 */
static int set_nest(struct kstat_handle *h, const char *what, int type,
		    const struct field *f, unsigned int known, const void *src,
		    size_t size, size_t min, unsigned int fields)
{
	union {
		struct kstat_config c;
		struct kstat_limits l;
	} in;
	size_t ours = type == KSTAT_A_CONFIG ? sizeof(in.c) : sizeof(in.l);
	struct nl_msg *msg;
	int err = size_ok(h, what, size, min);

	if (err)
		return err;
	err = kstat_copy_in(&in, ours, src, size, min);
	if (err) {
		kstat_set_error(h, "struct %s has fields this libkstat does not know set (%zu bytes, it knows %zu)",
				what, size, ours);
		return err;
	}
	if (fields & ~known) {
		kstat_set_error(h, "unknown fields 0x%x for struct %s",
				fields & ~known, what);
		return -EINVAL;
	}
	msg = kstat_msg(h->family, NLM_F_ACK, KSTAT_CMD_CONFIG_SET);
	if (msg && nest_put(msg, type, f, &in, fields)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return kstat_request(h, msg, NULL, NULL);
}

int kstat_config_set_sz(struct kstat_handle *h, const struct kstat_config *cfg,
			size_t size, unsigned int fields)
{
	return set_nest(h, "kstat_config", KSTAT_A_CONFIG, config_fields,
			KSTAT_CONFIG_INTERVAL | KSTAT_CONFIG_BATCH |
			KSTAT_CONFIG_SECTIONS | KSTAT_CONFIG_PERCPU |
			KSTAT_CONFIG_NETNS, cfg, size, KSTAT_CONFIG_SIZE_2_0,
			fields);
}

int kstat_limits_set_sz(struct kstat_handle *h, const struct kstat_limits *l,
			size_t size, unsigned int fields)
{
	return set_nest(h, "kstat_limits", KSTAT_A_LIMITS, limits_fields,
			KSTAT_LIMITS_MIN_INTERVAL | KSTAT_LIMITS_MAX_SUBSCRIPTIONS,
			l, size, KSTAT_LIMITS_SIZE_2_0, fields);
}
