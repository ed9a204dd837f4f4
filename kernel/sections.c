// SPDX-License-Identifier: GPL-2.0
/*
 * The table of kstat's sections.  A summary sample carries them in this
 * order; netlink.c finds each GET command's ops here.
 */
#include "kst.h"

const struct kst_section *const kst_sections[KST_NR_SECTIONS] = {
	&kst_cpu_section,
	&kst_softirq_section,
	&kst_irq_section,
	&kst_arch_section,
};
