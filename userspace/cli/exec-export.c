// SPDX-License-Identifier: GPL-2.0
/* `kstat export` in the programs without libmicrohttpd: kstat-exporter runs it (helper.c). */
#include "kstat.h"

int do_export(int argc, char **argv)
{
	return run_helper("kstat-exporter", argc, argv);
}
