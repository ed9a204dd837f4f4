// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host unit test of the libkstat 1.0 ABI rules that need no kernel:
 * structs passed with their size are refused below the 1.0 size
 * (-EINVAL) and above the library's when the unknown tail is not zero
 * (-E2BIG), a zero tail is fine; kstat_open()'s failure keeps its text
 * (kstat_open_error(), thread-local) though the handle is gone.
 */
#include <errno.h>
#include <string.h>

#include "libkstat.h"
#include "internal.h"
#include "unit.h"

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)s;
	(void)arg;
}

static void on_lost(uint64_t lost, enum kstat_lost_reason why, void *arg)
{
	(void)lost;
	(void)why;
	(void)arg;
}

int main(void)
{
	struct {
		struct kstat_sub_ops ops;
		void (*newer)(void);
	} big = { .ops = { .sample = on_sample, .lost = on_lost } };
	struct {
		struct kstat_config cfg;
		uint32_t newer;
	} cfg = { { 0 }, 1 };
	struct kstat_stats st;
	struct kstat_handle *h = NULL;
	struct kstat_sub *sub = NULL;
	int err;

	big.newer = (void (*)(void))on_sample;
	err = kstat_subscribe_sz(NULL, &big.ops, sizeof(big), NULL, 0, &sub);
	CHECK(err == -E2BIG && !sub, "ops with an unknown callback: -E2BIG (%d)", err);
	err = kstat_subscribe_sz(NULL, &big.ops, sizeof(void (*)(void)), NULL, 0, &sub);
	CHECK(err == -EINVAL && !sub, "ops without lost: -EINVAL (%d)", err);
	err = kstat_config_set_sz(NULL, &cfg.cfg, sizeof(cfg), KSTAT_CONFIG_BATCH);
	CHECK(err == -E2BIG, "config with an unknown non-zero field: -E2BIG (%d)", err);
	err = kstat_config_set_sz(NULL, &cfg.cfg, KSTAT_CONFIG_SIZE_1_0 - 1,
				  KSTAT_CONFIG_BATCH);
	CHECK(err == -EINVAL, "config below the 1.0 size: -EINVAL (%d)", err);
	err = kstat_stats_get_sz(NULL, &st, KSTAT_STATS_SIZE_1_0 - 4);
	CHECK(err == -EINVAL, "stats below the 1.0 size: -EINVAL (%d)", err);

	/* No module on the build host: the open fails, and says why. */
	err = kstat_open(&h);
	if (err == 0) {
		CHECK(kstat_open_error()[0] == '\0', "open: no error text after a success");
		kstat_close(h);
	} else {
		CHECK(!h && kstat_open_error()[0],
		      "open failed (%d) and kept its text: \"%s\"", err,
		      kstat_open_error());
	}
	return unit_exit();
}
