// SPDX-License-Identifier: GPL-2.0
/* `kstat top` in the programs without ncurses: kstat-top runs it (helper.c). */
#include "kstat.h"

int do_top(int argc, char **argv)
{
	return run_helper("kstat-top", argc, argv);
}
