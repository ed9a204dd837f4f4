// SPDX-License-Identifier: GPL-2.0
/*
 * The library's waits: a timeout of 0 polls once (an answer queued
 * already is not a timeout).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "unit.h"
#include "fake_kernel.h"

static void test_poll_zero(void)
{
	int sv[2], err;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		exit(1);
	err = kstat_poll(sv[0], kstat_deadline(0), 0);
	CHECK(err == -ETIMEDOUT, "timeout 0, nothing queued: -ETIMEDOUT (%d)", err);
	if (write(sv[1], "x", 1) != 1)
		exit(1);
	err = kstat_poll(sv[0], kstat_deadline(0), 0);
	CHECK(err == 0, "timeout 0, data queued: ready, not -ETIMEDOUT (%d)", err);
	err = kstat_poll(sv[0], kstat_deadline(-1), 0);
	CHECK(err == 0, "no timeout, data queued: ready (%d)", err);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	test_poll_zero();
	return unit_exit();
}
