// SPDX-License-Identifier: GPL-2.0
/*
 * liberr: kstat_last_error() across calls, against the running module.
 * A GET of an IRQ that cannot exist fails and explains itself; the calls
 * that succeed after it (a subscription, a config GET) must leave the
 * error empty, not the old text.  Prints one line per call:
 * "CALL ERR 'LAST_ERROR'".
 */
#include <stdio.h>

#include <libkstat.h>

static void on_sample(const struct kstat_sample *s, void *arg)
{
	(void)s;
	(void)arg;
}

static void on_lost(uint64_t n, enum kstat_lost_reason why, void *arg)
{
	(void)n;
	(void)why;
	(void)arg;
}

int main(void)
{
	static const struct kstat_sub_ops ops = {
		.sample = on_sample, .lost = on_lost,
	};
	struct kstat_irq_list *l = NULL;
	struct kstat_config cfg;
	struct kstat_handle *h;
	struct kstat_sub *sub = NULL;
	int err;

	err = kstat_open(&h);
	if (err) {
		fprintf(stderr, "liberr: kstat_open: %d\n", err);
		return 1;
	}
	err = kstat_irq_get(h, 0x7fffffff, NULL, &l);
	printf("irq_get %d '%s'\n", err, kstat_last_error(h));
	kstat_irq_list_free(l);
	err = kstat_subscribe(h, &ops, NULL, 0, &sub);
	printf("subscribe %d '%s'\n", err, kstat_last_error(h));
	kstat_unsubscribe(sub);
	err = kstat_irq_get(h, 0x7fffffff, NULL, &l);
	kstat_irq_list_free(l);
	err = kstat_config_get(h, &cfg);
	printf("config_get %d '%s'\n", err, kstat_last_error(h));
	kstat_close(h);
	return 0;
}
