/* SPDX-License-Identifier: GPL-2.0 */
/* Recorded kernel replies (tests/fixtures/NAME.nl) for the host tests. */
#ifndef KSTAT_FIXTURE_H
#define KSTAT_FIXTURE_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "libkstat.h"
#include "internal.h"

struct fixture {
	char *data;
	size_t len;
};

/*
 * $KSTAT_FIXTURES, or tests/fixtures found from this executable
 * (userspace/tests/...).  A missing fixture ends the test: what follows
 * would only report on nothing.
 */
static inline int fixture_load(const char *name, struct fixture *f)
{
	char exe[PATH_MAX], path[PATH_MAX + 64], *slash;
	const char *dir = getenv("KSTAT_FIXTURES");
	ssize_t n;
	FILE *in;
	long len;

	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -1;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/../../tests/fixtures/%s", exe,
			 name);
	}
	in = fopen(path, "rb");
	if (!in) {
		printf("not ok - fixture %s: cannot open %s\n", name, path);
		exit(1);
	}
	fseek(in, 0, SEEK_END);
	len = ftell(in);
	rewind(in);
	f->data = malloc(len ? len : 1);
	f->len = len;
	if (!f->data || fread(f->data, 1, len, in) != (size_t)len) {
		fclose(in);
		return -1;
	}
	fclose(in);
	return 0;
}

/* Call @fn on every message of a recording; 0 or the first error. */
static inline int for_each_msg(const struct fixture *f,
			int (*fn)(const struct nlmsghdr *, void *), void *arg,
			int *count)
{
	size_t off = 0;
	int err;

	*count = 0;
	while (off + NLMSG_HDRLEN <= f->len) {
		const struct nlmsghdr *nlh = (const void *)(f->data + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || off + nlh->nlmsg_len > f->len)
			return -EBADMSG;
		err = fn(nlh, arg);
		if (err)
			return err;
		(*count)++;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	return 0;
}

/* The request parsers, as for_each_msg() callbacks. */
static inline int irq_fn(const struct nlmsghdr *nlh, void *l)
{
	return kstat_parse_irq_msg(nlh, l);
}

static inline int cpu_fn(const struct nlmsghdr *nlh, void *l)
{
	return kstat_parse_cpu_msg(nlh, l);
}

static inline int softirq_fn(const struct nlmsghdr *nlh, void *l)
{
	return kstat_parse_softirq_msg(nlh, l);
}

#endif
