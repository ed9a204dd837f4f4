// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the exporter's cardinality control (cli/export-filter.c):
 * the name a regex sees is node_exporter's "TYPE;INFO;DEVICES" for every
 * shape of IRQ (with and without hwirq, several actions, a chained IRQ's
 * nameless action, labels not known yet); include keeps only matches,
 * exclude drops them, no regex keeps all; a bad regex is refused with
 * regerror's reason; a long name is truncated, never overrun.
 */
#include <string.h>

#include "libkstat.h"
#include "../cli/export-filter.h"
#include "unit.h"

static void test_names(void)
{
	static const char *const two[] = { "eth0-rx", "eth0-tx" };
	static const char *const nameless[] = { "" };
	struct kstat_irq l = { .irq = 25, .chip = "PCI-MSI", .name = "edge",
			       .actions = two, .nr_actions = 2,
			       .hwirq = 1048576, .has_hwirq = 1,
			       .has_meta = 1 };
	char buf[128], small[8];

	irq_filter_name(buf, sizeof(buf), 25, &l);
	CHECK(!strcmp(buf, "25;PCI-MSI;1048576-edge eth0-rx, eth0-tx"), "two actions: %s", buf);
	l.has_hwirq = 0;
	l.nr_actions = 0;
	l.name = NULL;
	l.level = 1;
	irq_filter_name(buf, sizeof(buf), 9, &l);
	CHECK(!strcmp(buf, "9;PCI-MSI;level"), "no hwirq, no action: %s", buf);
	l.actions = nameless;
	l.nr_actions = 1;
	irq_filter_name(buf, sizeof(buf), 9, &l);
	CHECK(!strcmp(buf, "9;PCI-MSI;level"), "a nameless action is not printed: %s", buf);
	irq_filter_name(buf, sizeof(buf), 7, NULL);
	CHECK(!strcmp(buf, "7;;"), "labels not known: %s", buf);
	memset(small, 'x', sizeof(small));
	l.actions = two;
	irq_filter_name(small, sizeof(small), 25, &l);
	CHECK(strlen(small) == sizeof(small) - 1 && !strncmp(small, "25;PCI-", 7),
	      "truncated to its buffer: %s", small);
}

static void test_keeps(void)
{
	struct irq_filter none = { 0 }, inc = { 0 }, exc = { 0 }, bad = { 0 };
	char err[128] = "";

	CHECK(irq_filter_keeps(&none, "25;PCI-MSI;1-edge eth0"), "no regex keeps all");
	CHECK(!irq_filter_set(&inc, "eth[0-9]|^LOC;", false, err, sizeof(err)),
	      "include compiles");
	CHECK(irq_filter_keeps(&inc, "25;PCI-MSI;1-edge eth0"), "include keeps a match");
	CHECK(irq_filter_keeps(&inc, "LOC;Local timer interrupts;"), "anchored arch row");
	CHECK(!irq_filter_keeps(&inc, "26;PCI-MSI;2-edge ahci"), "include drops the rest");
	CHECK(!irq_filter_set(&exc, "ahci", true, err, sizeof(err)), "exclude compiles");
	CHECK(!irq_filter_keeps(&exc, "26;PCI-MSI;2-edge ahci"), "exclude drops a match");
	CHECK(irq_filter_keeps(&exc, "25;PCI-MSI;1-edge eth0"), "exclude keeps the rest");
	CHECK(irq_filter_set(&bad, "eth(", false, err, sizeof(err)) && err[0],
	      "a bad regex is refused: %s", err);
	CHECK(!bad.has_re && irq_filter_keeps(&bad, "x"), "and leaves no filter");
	irq_filter_free(&inc);
	irq_filter_free(&exc);
	irq_filter_free(&bad);
	irq_filter_free(&none);
	CHECK(!inc.has_re, "freed");
}

int main(void)
{
	test_names();
	test_keeps();
	return unit_exit();
}
