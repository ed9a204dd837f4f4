/* SPDX-License-Identifier: GPL-2.0 */
/* A tiny TAP-like harness for host unit tests: `ok - name` lines. */
#ifndef KSTAT_UNIT_H
#define KSTAT_UNIT_H

#include <stdio.h>

static int unit_failed;

#define CHECK(cond, ...) do {						\
	if (cond) {							\
		printf("ok - ");					\
	} else {							\
		printf("not ok - %s:%d: ", __FILE__, __LINE__);		\
		unit_failed++;						\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

static inline int unit_exit(void)
{
	return unit_failed ? 1 : 0;
}

#endif
