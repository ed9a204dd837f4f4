// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Host unit test of the libkstat 1.0 ABI rules that need no kernel:
 * structs passed with their size are refused below the 1.0 size
 * (-EINVAL) and above the library's when the unknown tail is not zero
 * (-E2BIG), a zero tail is fine, and each refusal says why in
 * kstat_last_error(); struct kstat_filter is read with the size it
 * carries and no further; kstat_open()'s failure keeps its text
 * (kstat_open_error(), thread-local) though the handle is gone.
 * (Arrays of struct kstat_cputime at the caller's stride: test_fixtures.)
 */
#include <errno.h>
#include <stddef.h>
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

/* A module of another wire format is refused, saying what to install. */
static void test_version_check(void)
{
	struct kstat_handle *h = kstat_handle_alloc_offline();
	char older[64], newer[32];
	int err;

	snprintf(older, sizeof(older), "protocol version %d, this libkstat version %d",
		 KSTAT_FAMILY_VERSION - 1, KSTAT_FAMILY_VERSION);
	snprintf(newer, sizeof(newer), "protocol version %d",
		 KSTAT_FAMILY_VERSION + 1);
	CHECK(kstat_version_check(h, KSTAT_FAMILY_VERSION) == 0,
	      "the module's version is the library's: accepted");
	err = kstat_version_check(h, KSTAT_FAMILY_VERSION - 1);
	CHECK(err == -EPROTO && strstr(kstat_last_error(h), older) &&
	      strstr(kstat_last_error(h), "install"),
	      "an older module: -EPROTO, \"%s\"", kstat_last_error(h));
	err = kstat_version_check(h, KSTAT_FAMILY_VERSION + 1);
	CHECK(err == -EPROTO && strstr(kstat_last_error(h), newer),
	      "a newer module: -EPROTO, \"%s\"", kstat_last_error(h));
	kstat_close(h);
}

/* The refusals of a bad size, each with its text, on a socketless handle. */
static void test_size_errors(void)
{
	struct kstat_handle *h = kstat_handle_alloc_offline();
	static const struct kstat_sub_ops ops = { .sample = on_sample,
						  .lost = on_lost };
	struct kstat_filter f = KSTAT_FILTER_INIT;
	struct kstat_cpu_list *cl = (void *)1;
	struct kstat_irq_list *il = (void *)1;
	struct kstat_softirq_list *sl = (void *)1;
	struct kstat_sub *sub = NULL;
	struct kstat_cputime c;
	struct kstat_stats st;
	int err;

	err = kstat_cpu_get_sz(h, -1, &c, KSTAT_CPUTIME_SIZE_1_0 - 8);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "sizeof(struct kstat_cputime)"),
	      "cputime below the 1.0 size: -EINVAL, \"%s\"", kstat_last_error(h));
	err = kstat_cpu_list_get_sz(h, &cl, KSTAT_CPUTIME_SIZE_1_0 + 4);
	CHECK(err == -EINVAL && !cl && strstr(kstat_last_error(h), "multiple of 8"),
	      "cputime stride not a multiple of 8: -EINVAL, no list, \"%s\"",
	      kstat_last_error(h));
	err = kstat_subscribe_sz(h, &ops, sizeof(ops), 8, NULL, 0, &sub);
	CHECK(err == -EINVAL && !sub && strstr(kstat_last_error(h), "kstat_cputime"),
	      "subscribe with a bad cputime size: -EINVAL, \"%s\"",
	      kstat_last_error(h));

	f.size = 0;	/* a filter not started from KSTAT_FILTER_INIT */
	err = kstat_irq_list_get(h, &f, &il);
	CHECK(err == -EINVAL && !il && strstr(kstat_last_error(h), "KSTAT_FILTER_INIT"),
	      "filter without its size: -EINVAL, \"%s\"", kstat_last_error(h));
	err = kstat_softirq_get(h, &f, &sl);
	CHECK(err == -EINVAL && !sl, "softirq: the same filter refused (%d)", err);

	err = kstat_stats_get_sz(h, &st, KSTAT_STATS_SIZE_1_0 - 8);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "sizeof(struct kstat_stats)"),
	      "stats below the 1.0 size: -EINVAL, \"%s\"", kstat_last_error(h));
	kstat_close(h);
}

/*
 * struct kstat_filter carries its size.  A program built against a newer
 * header (a bigger filter) works when the fields this library does not
 * know are 0, and is refused when they are set; one built against the
 * 1.0 header is read up to its size and no further.
 */
static void test_filter_sizes(void)
{
	struct {
		struct kstat_filter f;
		uint64_t newer;
	} big = { KSTAT_FILTER_INIT, 0 };
	union {
		struct kstat_filter f;
		unsigned char bytes[KSTAT_FILTER_SIZE_1_0 + 32];
	} old;
	struct kstat_filter in;
	int err;

	CHECK(sizeof(struct kstat_filter) >= KSTAT_FILTER_SIZE_1_0 &&
	      offsetof(struct kstat_filter, size) == 0,
	      "struct kstat_filter: size first, %zu bytes (1.0: %zu)",
	      sizeof(struct kstat_filter), KSTAT_FILTER_SIZE_1_0);

	big.f.size = sizeof(big);
	big.f.flags = KSTAT_F_META;
	err = kstat_filter_take(NULL, &big.f, &in);
	CHECK(err == 0 && in.flags == KSTAT_F_META && in.size == sizeof(in),
	      "a newer, larger filter with its new field 0: taken (%d)", err);
	big.newer = 1;
	err = kstat_filter_take(NULL, &big.f, &in);
	CHECK(err == -E2BIG, "a newer filter with its new field set: -E2BIG (%d)", err);

	/* The 1.0 filter, then bytes that are not the caller's: not read. */
	memset(&old, 0xa5, sizeof(old));
	old.f = (struct kstat_filter)KSTAT_FILTER_INIT;
	old.f.size = KSTAT_FILTER_SIZE_1_0;
	old.f.cpu_last = 3;
	memset(old.bytes + KSTAT_FILTER_SIZE_1_0, 0xa5,
	       sizeof(old) - KSTAT_FILTER_SIZE_1_0);
	err = kstat_filter_take(NULL, &old.f, &in);
	CHECK(err == 0 && in.cpu_last == 3 && in.irq_first == -1,
	      "a 1.0-sized filter: taken, nothing read past its size (%d)", err);
	err = kstat_filter_take(NULL, NULL, &in);
	CHECK(err == 0 && in.cpu_first == -1 && in.flags == 0,
	      "no filter: the kernel's defaults (%d)", err);
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

	test_version_check();
	big.newer = (void (*)(void))on_sample;
	err = kstat_subscribe_sz(NULL, &big.ops, sizeof(big),
				 sizeof(struct kstat_cputime), NULL, 0, &sub);
	CHECK(err == -E2BIG && !sub, "ops with an unknown callback: -E2BIG (%d)", err);
	err = kstat_subscribe_sz(NULL, &big.ops, sizeof(void (*)(void)),
				 sizeof(struct kstat_cputime), NULL, 0, &sub);
	CHECK(err == -EINVAL && !sub, "ops without lost: -EINVAL (%d)", err);
	err = kstat_config_set_sz(NULL, &cfg.cfg, sizeof(cfg), KSTAT_CONFIG_BATCH);
	CHECK(err == -E2BIG, "config with an unknown non-zero field: -E2BIG (%d)", err);
	err = kstat_config_set_sz(NULL, &cfg.cfg, KSTAT_CONFIG_SIZE_1_0 - 1,
				  KSTAT_CONFIG_BATCH);
	CHECK(err == -EINVAL, "config below the 1.0 size: -EINVAL (%d)", err);
	err = kstat_stats_get_sz(NULL, &st, KSTAT_STATS_SIZE_1_0 - 4);
	CHECK(err == -EINVAL, "stats below the 1.0 size: -EINVAL (%d)", err);

	test_size_errors();
	test_filter_sizes();

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
