// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's table of counter sections, from CLI_SECTIONS: the Makefile
 * generates it from the sections' definitions (see struct cli_section in
 * kstat.h), so no section is named here.
 */
#include "kstat.h"

#define CLI_SECTION_ENTRY(name)	&cli_section_##name,
const struct cli_section *const cli_sections[CLI_NR_SECTIONS] = {
	CLI_SECTIONS(CLI_SECTION_ENTRY)
};
#undef CLI_SECTION_ENTRY

uint32_t cli_sections_all(void)
{
	uint32_t all = 0;
	size_t i;

	for (i = 0; i < CLI_NR_SECTIONS; i++)
		all |= cli_sections[i]->bit;
	return all;
}
