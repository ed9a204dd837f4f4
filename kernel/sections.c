// SPDX-License-Identifier: GPL-2.0
/*
 * The table of kstat's sections.  A summary sample carries them in this
 * order; netlink.c registers each GET command from here.  The table is
 * generated: Kbuild finds every "const struct kst_section kst_NAME_section"
 * in the module's files, in the files' (alphabetical) order, so adding a
 * section is adding its file (docs/adding-a-section.md).
 */
#include <linux/kernel.h>

#include "kst.h"

const struct kst_section *const kst_sections[] = {
	KST_SECTIONS_TABLE
};

const unsigned int kst_nr_sections = ARRAY_SIZE(kst_sections);
