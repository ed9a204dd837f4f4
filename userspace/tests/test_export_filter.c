// SPDX-License-Identifier: GPL-2.0
// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the exporter's cardinality control (cli/export-filter.c)
 * and the label text it shares with the renderers (cli/export-render.c,
 * irq_info_devices(), irq_filter_text()): the name a regex sees is
 * "TYPE;INFO;DEVICES" as each naming serves those labels, for every shape
 * of IRQ (with and without hwirq, several actions, a chained IRQ's
 * nameless action, labels not known yet); include keeps only matches,
 * exclude drops them, no regex keeps all; a bad regex is refused with
 * regerror's reason; each decision is made once per load of the labels
 * (cached in struct meta, forgotten by meta_sets_clear()), an IRQ without
 * labels is not served under a regex, arch rows are "NAME;DESC;";
 * --no-zeros keeps only nonzero values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkstat.h"
#include "../cli/export-filter.h"
#include "../cli/export-render.h"
#include "unit.h"

struct kstat_handle *kstat_handle(void);
struct kstat_handle *kstat_handle(void)
{
	return NULL;	/* irqlabels.o's loader: never called here */
}

/* irq_filter_text() of @l under @names into a static buffer. */
static const char *name_of(uint32_t irq, const struct kstat_irq *l,
			   enum export_names names)
{
	static char out[256];
	struct buf t = { 0 };

	if (!irq_filter_text(&t, irq, l, names))
		strcpy(out, "(oom)");
	else
		snprintf(out, sizeof(out), "%s", t.p);
	buf_free(&t);
	return out;
}

static void test_names(void)
{
	static const char *const two[] = { "eth0-rx", "eth0-tx" };
	static const char *const nameless[] = { "" };
	struct kstat_irq l = { .irq = 25, .chip = "PCI-MSI", .name = "edge",
			       .actions = two, .nr_actions = 2,
			       .hwirq = 1048576, .has_hwirq = 1,
			       .has_meta = 1 };
	struct buf t = { 0 };
	size_t dev = 0;
	const char *s;

	s = name_of(25, &l, NAMES_KSTAT);
	CHECK(!strcmp(s, "25;PCI-MSI;1048576-edge eth0-rx, eth0-tx"), "two actions: %s", s);
	s = name_of(25, &l, NAMES_NODE);
	CHECK(!strcmp(s, "25;PCI-MSI;1048576-edge eth0-rx, eth0-tx"), "node, two actions: %s", s);
	CHECK(irq_info_devices(&t, &l, NAMES_KSTAT, &dev) &&
	      !strcmp(t.p, "PCI-MSI") &&
	      !strcmp(t.p + dev, "1048576-edge eth0-rx, eth0-tx"),
	      "info and devices apart: %s / %s", t.p, t.p + dev);
	l.has_hwirq = 0;
	l.nr_actions = 0;
	l.name = NULL;
	l.level = 1;
	s = name_of(9, &l, NAMES_KSTAT);
	CHECK(!strcmp(s, "9;PCI-MSI;level"), "no hwirq, no action: %s", s);
	/* node_exporter's: no flow name printed, nothing after the chip */
	s = name_of(9, &l, NAMES_NODE);
	CHECK(!strcmp(s, "9;PCI-MSI;"), "node, no hwirq, no flow: %s", s);
	l.name = "edge";
	l.actions = two;
	l.nr_actions = 1;
	s = name_of(0, &l, NAMES_NODE);
	CHECK(!strcmp(s, "0;PCI-MSI;-edge eth0-rx"), "node, no hwirq: %s", s);
	s = name_of(0, &l, NAMES_KSTAT);
	CHECK(!strcmp(s, "0;PCI-MSI;edge eth0-rx"), "kstat, no hwirq: %s", s);
	l.name = NULL;
	l.actions = nameless;
	s = name_of(9, &l, NAMES_KSTAT);
	CHECK(!strcmp(s, "9;PCI-MSI;level"), "a nameless action is not printed: %s", s);
	s = name_of(7, NULL, NAMES_KSTAT);
	CHECK(!strcmp(s, "7;;"), "labels not known: %s", s);
	s = name_of(7, NULL, NAMES_NODE);
	CHECK(!strcmp(s, "7;;"), "node, labels not known: %s", s);
	/* node_exporter splits at white space: a chip's second word is a device */
	l.chip = "two  words";
	l.name = "edge";
	l.has_hwirq = 1;
	l.hwirq = 3;
	s = name_of(3, &l, NAMES_NODE);
	CHECK(!strcmp(s, "3;two;words 3-edge"), "node, split at white space: %s", s);
	buf_free(&t);
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

/* A meta whose labels are @lab (sorted by IRQ), filtered by @f. */
static void meta_init(struct meta *m, struct kstat_sample *labels,
		      struct kstat_irq *lab, size_t nr,
		      const struct irq_filter *f)
{
	*labels = (struct kstat_sample){
		.size = sizeof(*labels), .irqs = lab, .nr_irqs = nr,
		.irq_size = sizeof(lab[0]), .sections = KSTAT_SECTION_IRQ,
	};
	*m = (struct meta){ .loaded = true, .filter = f };
	m->labels.s = labels;
}

static void meta_done(struct meta *m)
{
	buf_free(&m->set_text);
	free(m->set_off);
	free(m->set_len);
	free(m->irq_keep);
	free(m->arch_keep);
}

static void test_kept(void)
{
	static const char *const eth[] = { "eth0" }, *const ahci[] = { "ahci" };
	struct kstat_irq lab[] = {
		{ .irq = 25, .chip = "PCI-MSI", .name = "edge", .hwirq = 1,
		  .has_hwirq = 1, .actions = eth, .nr_actions = 1, .has_meta = 1 },
		{ .irq = 26, .chip = "PCI-MSI", .name = "edge", .hwirq = 2,
		  .has_hwirq = 1, .actions = ahci, .nr_actions = 1, .has_meta = 1 },
	};
	struct kstat_arch loc = { .name = "LOC", .desc = "Local timer interrupts" };
	struct kstat_arch nmi = { .name = "NMI", .desc = "Non-maskable interrupts" };
	struct irq_filter none = { 0 }, inc = { 0 }, zeros = { .drop_zeros = true };
	struct kstat_sample labels;
	char err[128];
	struct meta m;

	meta_init(&m, &labels, lab, 2, NULL);
	CHECK(irq_kept(&m, NAMES_KSTAT, 25) && irq_kept(&m, NAMES_KSTAT, 99),
	      "no filter: every IRQ kept, labels or not");
	CHECK(value_kept(&m, 0), "no filter: zeros kept");
	m.filter = &none;
	CHECK(irq_kept(&m, NAMES_NODE, 99) && arch_kept(&m, 0, &loc),
	      "a filter without regex keeps all");
	CHECK(!irq_filter_set(&inc, "eth0$|^LOC;", false, err, sizeof(err)),
	      "include compiles");
	m.filter = &inc;
	CHECK(irq_kept(&m, NAMES_KSTAT, 25), "include keeps eth0");
	CHECK(!irq_kept(&m, NAMES_KSTAT, 26), "include drops ahci");
	CHECK(!irq_kept(&m, NAMES_KSTAT, 99), "an IRQ without labels is held back");
	CHECK(arch_kept(&m, 0, &loc) && !arch_kept(&m, 1, &nmi),
	      "arch rows by NAME;DESC;");
	CHECK(m.irq_keep_cap > 26 && m.irq_keep[25] && m.irq_keep[26],
	      "the decisions are cached");
	/* the same labels: the cached decision, even if the labels change */
	lab[0].actions = ahci;
	CHECK(irq_kept(&m, NAMES_KSTAT, 25), "cached until the labels load again");
	meta_sets_clear(&m);
	CHECK(!m.irq_keep[25] && !m.irq_keep[26] && !m.arch_keep[0],
	      "a load forgets every decision");
	CHECK(!irq_kept(&m, NAMES_KSTAT, 25), "decided again after a load");
	m.filter = &zeros;
	CHECK(!value_kept(&m, 0) && value_kept(&m, 1), "--no-zeros drops 0 only");
	CHECK(irq_kept(&m, NAMES_KSTAT, 99), "--no-zeros alone keeps every IRQ");
	irq_filter_free(&inc);
	meta_done(&m);
}

int main(void)
{
	test_names();
	test_keeps();
	test_kept();
	return unit_exit();
}
