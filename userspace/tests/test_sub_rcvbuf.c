// SPDX-License-Identifier: GPL-2.0
/*
 * The receive buffer fits the stream.  A batch of n parts comes at once
 * (a keyframe, a snapshot); the kernel accounts each part's 16 KiB
 * buffer against the socket.  The library grows the buffer to n * 16 KiB
 * as it learns n from the parts, and when the system does not allow it
 * (no CAP_NET_ADMIN, net.core.rmem_max too low: the shipped unit's
 * case), says so once, through ops->warning or else on stderr, with the
 * size it needs and what to grant.  Before, it said nothing unless the
 * program had asked for a size.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"
#include "fake_kernel.h"

static int warnings;
static char warned[512];

static void on_warning(const char *msg, void *arg)
{
	(void)arg;
	warnings++;
	snprintf(warned, sizeof(warned), "%s", msg);
}

static const struct kstat_sub_ops warn_ops = {
	.sample = on_sample, .lost = on_lost, .warning = on_warning,
};

/* Part 0 of a batch of @parts. */
static void feed_parts(struct kstat_sub *sub, uint64_t seq, uint32_t parts)
{
	struct msg m;

	msg_start(&m, seq, 0, parts);
	piece(&m, seq, 1);
	kstat_sub_feed(sub, &m.nlh);
}

static void test_warning(void)
{
	struct fake k = { .fd = -1 };
	struct seen w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&warn_ops, &w);
	int err = fake_open(&k, sub), before;
	char need[32];

	CHECK(!err, "a subscription on NETLINK_USERSOCK (%s)", strerror(-err));
	if (err)
		goto out;
	before = kstat_sub_rcvbuf(sub);
	feed_parts(sub, 10, 1);
	feed_parts(sub, 11, 2);
	CHECK(warnings == 0 && kstat_sub_rcvbuf(sub) == before,
	      "bursts of 1 and 2 parts fit %d bytes: no warning, no change", before);

	/* 21 parts: granted (CAP_NET_ADMIN, or a high rmem_max), or said */
	feed_parts(sub, 20, 21);
	CHECK((kstat_sub_rcvbuf(sub) >= 20 * 16384 && warnings == 0) ||
	      (warnings == 1 && strstr(warned, "327680")),
	      "bursts of 21 parts: the buffer grew to %d, or a warning: \"%s\"",
	      kstat_sub_rcvbuf(sub), warnings ? warned : "");

	/* more than any socket may hold: said, once in all */
	if (!warnings) {
		feed_parts(sub, 30, 200000);
		snprintf(need, sizeof(need), "%d", INT32_MAX);
		CHECK(warnings == 1 && strstr(warned, need) &&
		      strstr(warned, "net.core.rmem_max") &&
		      strstr(warned, "CAP_NET_ADMIN"),
		      "bursts beyond any buffer: the need and what to grant: \"%s\"",
		      warned);
	}
	feed_parts(sub, 40, 300000);
	feed_parts(sub, 50, 200000);
	CHECK(warnings == 1, "said once (%d warnings)", warnings);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* Without ops->warning: one line on stderr. */
static void test_stderr(void)
{
	struct fake k = { .fd = -1 };
	struct seen w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&ops, &w);
	FILE *tmp = tmpfile();
	char line[512] = "";
	int saved = dup(2), err = fake_open(&k, sub);

	CHECK(!err && tmp && saved >= 0, "a subscription, stderr to a file (%s)",
	      strerror(-err));
	if (err || !tmp || saved < 0)
		goto out;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	feed_parts(sub, 30, 200000);
	feed_parts(sub, 40, 200000);
	fflush(stderr);
	dup2(saved, 2);
	rewind(tmp);
	if (!fgets(line, sizeof(line), tmp))
		line[0] = '\0';
	CHECK(!strncmp(line, "libkstat: warning: ", 19) && strstr(line, "rmem_max") &&
	      !fgets(line + 256, 256, tmp),
	      "one line on stderr: \"%.*s\"", (int)strcspn(line, "\n"), line);
out:
	if (tmp)
		fclose(tmp);
	if (saved >= 0)
		close(saved);
	fake_close(&k);
	kstat_unsubscribe(sub);
}

/* Drop CAP_NET_ADMIN from the effective set (run as root). */
static void drop_net_admin(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return;
	data[CAP_TO_INDEX(CAP_NET_ADMIN)].effective &= ~CAP_TO_MASK(CAP_NET_ADMIN);
	(void)syscall(SYS_capset, &hdr, data);
}

static long rmem_max(void)
{
	FILE *f = fopen("/proc/sys/net/core/rmem_max", "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Without CAP_NET_ADMIN (the unit's DynamicUser): the buffer grows to
 * rmem_max, no further, and the warning says so.
 */
static void test_unprivileged(void)
{
	struct fake k = { .fd = -1 };
	struct seen w = { 0 };
	struct kstat_sub *sub = kstat_sub_alloc(&warn_ops, &w);
	long max = rmem_max();
	uint32_t parts = max > 0 ? max / 16384 + 2 : 0;
	char need[32];
	int err;

	drop_net_admin();
	err = fake_open(&k, sub);
	CHECK(!err && max > 0, "without CAP_NET_ADMIN, rmem_max %ld (%s)", max,
	      strerror(-err));
	if (err || max <= 0)
		goto out;
	warnings = 0;
	feed_parts(sub, 10, parts);
	snprintf(need, sizeof(need), "%u", (parts - 1) * 16384);
	CHECK(kstat_sub_rcvbuf(sub) == max && warnings == 1 && strstr(warned, need),
	      "bursts of %u parts: grown to rmem_max (%d), and said: \"%s\"",
	      parts, kstat_sub_rcvbuf(sub), warned);
out:
	fake_close(&k);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_warning();
	test_stderr();
	test_unprivileged();
	return unit_exit();
}
