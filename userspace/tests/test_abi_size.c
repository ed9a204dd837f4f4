// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libkstat 2's ABI rules that need no kernel (libkstat.h, "ABI"): a
 * struct passed with its size is refused below the 2.0 size (-EINVAL)
 * and above the library's when the part it does not know is set
 * (-E2BIG, and past a page without reading it), a zero tail is fine, and
 * each refusal says why; structs the
 * library fills are filled to the caller's size.  The version rule:
 * modules of protocol 5 and later are read, older ones refused saying
 * what to install.  And on this host, without the module: kstat_open()
 * and kstat_subscribe() fail with -ENOENT and say why
 * (kstat_open_error(), thread-local), kstat_wait_family() times out, and
 * a subscription with KSTAT_SUB_WAIT starts and waits.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "unit.h"
#include "fake_kernel.h"

static void nop_sample(const struct kstat_sample *s, void *arg)
{
	(void)s;
	(void)arg;
}

static void test_versions(void)
{
	char text[256] = "";

	CHECK(kstat_version_text(5, text, sizeof(text)) == 0 &&
	      kstat_version_text(6, text, sizeof(text)) == 0 &&
	      kstat_version_text(100, text, sizeof(text)) == 0,
	      "protocol 5, 6 and 100: read (later ones only add)");
	CHECK(kstat_version_text(4, text, sizeof(text)) == -EPROTO &&
	      strstr(text, "version 4") && strstr(text, "install"),
	      "protocol 4: -EPROTO, \"%s\"", text);
	CHECK(kstat_version_text(0, text, sizeof(text)) == -EPROTO,
	      "no version at all: -EPROTO");
}

/* Queries on a handle whose fake kernel answers every GET with nothing. */
static void test_query_sizes(void)
{
	struct {
		struct kstat_query q;
		uint64_t newer;
	} big = { KSTAT_QUERY_INIT, 0 };
	struct kstat_query q = KSTAT_QUERY_INIT;
	struct kstat_handle *h;
	struct kstat_sample *s;
	struct fake k;
	struct req r[4];
	struct msg m;
	int err, n;

	if (fake_open(&k) || kstat_open_peer(&h, NETLINK_USERSOCK, k.port,
					     FAMILY, &k.peer))
		exit(1);
	q.size = KSTAT_QUERY_SIZE_2_0 - 1;
	err = kstat_get_send(h, &q);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "KSTAT_QUERY_INIT"),
	      "a query below the 2.0 size: -EINVAL, \"%s\"", kstat_last_error(h));
	big.q.size = sizeof(big);
	big.newer = 1;
	err = kstat_get_send(h, &big.q);
	CHECK(err == -E2BIG && strstr(kstat_last_error(h), "does not know"),
	      "a newer query with its new field set: -E2BIG, \"%s\"", kstat_last_error(h));
	q = (struct kstat_query)KSTAT_QUERY_INIT;
	q.irq_first = (int64_t)UINT32_MAX + 1;
	CHECK(kstat_get_send(h, &q) == -EINVAL, "an IRQ past 2^32 - 1: -EINVAL");
	q = (struct kstat_query)KSTAT_QUERY_INIT;
	q.nr_irqs = 20000;
	q.irqs = calloc(q.nr_irqs, 4);
	err = kstat_get_send(h, &q);
	CHECK(err == -ERANGE && strstr(kstat_last_error(h), "at most"),
	      "an IRQ list too long for one attribute: -ERANGE, \"%s\"",
	      kstat_last_error(h));
	free((void *)q.irqs);
	CHECK(fake_requests(&k, r, 4) == 0, "none of them sent");

	/* a size never set, the struct at the end of the caller's memory */
	{
		long page = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct kstat_query *edge = (void *)(p + page - sizeof(*edge));

		if (p == MAP_FAILED || mprotect(p + page, page, PROT_NONE))
			exit(1);
		*edge = (struct kstat_query)KSTAT_QUERY_INIT;
		edge->size = (size_t)1 << 40;
		err = kstat_get_send(h, edge);
		CHECK(err == -E2BIG, "a query whose size is garbage: -E2BIG, nothing read past it (%d)",
		      err);
		munmap(p, 2 * page);
	}

	big.newer = 0;
	big.q.sections = KSTAT_SECTION_CPU;
	err = kstat_get_send(h, &big.q);
	n = fake_requests(&k, r, 4);
	CHECK(!err && n == 1 && req_u32(&r[0], 0, KSTAT_A_SECTIONS) == KSTAT_SECTION_CPU,
	      "a newer query with its new field 0: sent (%d)", err);
	done_msg(&m, 0, NULL);
	fake_send(&k, &m, n ? r[0].seq : 0);
	err = kstat_get_recv(h, &s);
	CHECK(!err && s && s->size == sizeof(*s) && s->nr_irqs == 0 &&
	      s->cputime_size == sizeof(struct kstat_cputime) &&
	      s->irq_size == sizeof(struct kstat_irq) &&
	      s->softirq_size == sizeof(struct kstat_softirq) &&
	      s->arch_size == sizeof(struct kstat_arch),
	      "a sample carries the library's sizes");
	kstat_sample_free(s);
	kstat_close(h);
	close(k.fd);
}

/* Structs the library fills or reads with the caller's size. */
static void test_struct_sizes(void)
{
	struct {
		struct kstat_config c;
		uint32_t newer;
	} cfg = { { 0 }, 1 };
	struct kstat_stats st;
	struct kstat_limits l = { 0 };
	struct kstat_handle *h;
	struct fake k;
	int err;

	if (fake_open(&k) || kstat_open_peer(&h, NETLINK_USERSOCK, k.port,
					     FAMILY, &k.peer))
		exit(1);
	err = kstat_config_set_sz(h, &cfg.c, sizeof(cfg), KSTAT_CONFIG_BATCH);
	CHECK(err == -E2BIG && strstr(kstat_last_error(h), "kstat_config"),
	      "config with an unknown field set: -E2BIG, \"%s\"", kstat_last_error(h));
	err = kstat_config_set_sz(h, &cfg.c, KSTAT_CONFIG_SIZE_2_0 - 1,
				  KSTAT_CONFIG_BATCH);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "too small"),
	      "config below the 2.0 size: -EINVAL, \"%s\"", kstat_last_error(h));
	err = kstat_config_get_sz(h, &cfg.c, 8);
	CHECK(err == -EINVAL, "config get into 8 bytes: -EINVAL");
	err = kstat_stats_get_sz(h, &st, KSTAT_STATS_SIZE_2_0 - 4);
	CHECK(err == -EINVAL && strstr(kstat_last_error(h), "kstat_stats"),
	      "stats below the 2.0 size: -EINVAL, \"%s\"", kstat_last_error(h));
	err = kstat_limits_set_sz(h, &l, 4, KSTAT_LIMITS_MIN_INTERVAL);
	CHECK(err == -EINVAL, "limits below the 2.0 size: -EINVAL");
	CHECK(KSTAT_CONFIG_SIZE_2_0 == sizeof(struct kstat_config) &&
	      KSTAT_QUERY_SIZE_2_0 == sizeof(struct kstat_query) &&
	      KSTAT_SUB_OPS_SIZE_2_0 == sizeof(struct kstat_sub_ops),
	      "today's structs are the 2.0 ones (query %zu bytes)",
	      sizeof(struct kstat_query));
	kstat_close(h);
	close(k.fd);
}

static void test_sub_sizes(void)
{
	struct {
		struct kstat_sub_ops ops;
		void (*newer)(void);
	} big = { .ops = { .sample = nop_sample } };
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_sub *sub = NULL;
	int err;

	big.newer = (void (*)(void))nop_sample;
	err = kstat_subscribe_sz(&big.ops, sizeof(big), NULL, NULL, &sub);
	CHECK(err == -E2BIG && !sub && strstr(kstat_open_error(), "does not know"),
	      "ops with a callback this libkstat does not know: -E2BIG, \"%s\"",
	      kstat_open_error());
	err = kstat_subscribe_sz(&big.ops, sizeof(void (*)(void)), NULL, NULL, &sub);
	CHECK(err == -EINVAL && !sub, "ops below the 2.0 size: -EINVAL (%d)", err);
	big.ops.sample = NULL;
	err = kstat_subscribe_sz(&big.ops, sizeof(big.ops), NULL, NULL, &sub);
	CHECK(err == -EINVAL && strstr(kstat_open_error(), "no sample callback"),
	      "no sample callback: -EINVAL, \"%s\"", kstat_open_error());
	big.ops.sample = nop_sample;
	o.fields = KSTAT_CONFIG_BATCH;
	err = kstat_subscribe(&big.ops, &o, NULL, &sub);
	CHECK(err == -EINVAL && !sub, "a subscription's batch: -EINVAL, \"%s\"",
	      kstat_open_error());
	o.fields = 0;
	o.flags = 1 << 7;
	CHECK(kstat_subscribe(&big.ops, &o, NULL, &sub) == -EINVAL,
	      "unknown flags: -EINVAL");
	o.flags = 0;
	o.size = 8;
	CHECK(kstat_subscribe(&big.ops, &o, NULL, &sub) == -EINVAL,
	      "options below the 2.0 size: -EINVAL");
}

/* This host has no kstat module: what the calls say. */
static void test_no_module(void)
{
	static const struct kstat_sub_ops ops = { .sample = nop_sample };
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct kstat_handle *h = NULL;
	struct kstat_sub *sub = NULL;
	int err = kstat_open(&h);

	if (err == 0) {
		CHECK(!kstat_open_error()[0] && kstat_family_version(h) >= 5,
		      "the module is loaded here: open works, no error text");
		kstat_close(h);
		return;
	}
	CHECK(err == -ENOENT && !h && strstr(kstat_open_error(), "not loaded"),
	      "open without the module: -ENOENT, \"%s\"", kstat_open_error());
	err = kstat_subscribe(&ops, NULL, NULL, &sub);
	CHECK(err == -ENOENT && !sub && strstr(kstat_open_error(), "not loaded"),
	      "subscribe without the module: -ENOENT, \"%s\"", kstat_open_error());
	err = kstat_wait_family(50);
	CHECK(err == -ETIMEDOUT && strstr(kstat_open_error(), "50 ms"),
	      "kstat_wait_family(50): -ETIMEDOUT, \"%s\"", kstat_open_error());
	o.flags = KSTAT_SUB_WAIT;
	err = kstat_subscribe(&ops, &o, NULL, &sub);
	CHECK(!err && sub && kstat_sub_fd(sub) >= 0 && !kstat_open_error()[0] &&
	      kstat_sub_dispatch(sub) == 0 && kstat_sub_rcvbuf(sub) > 0,
	      "KSTAT_SUB_WAIT: subscribed, waiting (%d)", err);
	kstat_unsubscribe(sub);
}

int main(void)
{
	test_versions();
	test_query_sizes();
	test_struct_sizes();
	test_sub_sizes();
	test_no_module();
	CHECK(!strcmp(kstat_lost_reason_name(KSTAT_LOST_PARTIAL), "partial") &&
	      !strcmp(kstat_lost_reason_name(99), "unknown") &&
	      !strcmp(kstat_cputime_name(KSTAT_CPUTIME_GUEST_NICE), "guest_nice") &&
	      !kstat_cputime_name(KSTAT_CPUTIME_NR),
	      "names of loss reasons and CPU time fields");
	return unit_exit();
}
