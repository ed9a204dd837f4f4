/* SPDX-License-Identifier: GPL-2.0 */
/* nlraw subcommands living in their own files. */
#ifndef NLRAW_H
#define NLRAW_H

int run_cases(int argc, char **argv);	/* cases.c */
int run_fuzz(int argc, char **argv);	/* fuzz.c */
int run_load(int argc, char **argv);	/* load.c */

#endif
