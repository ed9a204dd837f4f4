// SPDX-License-Identifier: GPL-2.0
/*
 * The table of kstat's sections.  A summary sample carries them in this
 * order; netlink.c registers each GET command from here.  Adding a section:
 * docs/adding-a-section.md.
 */
#include <linux/kernel.h>

#include "kst.h"

const struct kst_section *const kst_sections[] = {
	&kst_cpu_section,
	&kst_softirq_section,
	&kst_irq_section,
	&kst_arch_section,
};

const unsigned int kst_nr_sections = ARRAY_SIZE(kst_sections);
