// SPDX-License-Identifier: GPL-2.0
/*
 * The objects built into a program of their own: `kstat export` is
 * kstat-exporter (libmicrohttpd, zlib: gnutls and a dozen more shared
 * objects behind them) and `kstat top` is kstat-top (ncursesw,
 * libsmartcols).  Linked into kstat, every `kstat cpu show` a script runs
 * would load them all for a daemon or a screen it is not running: twice
 * the CPU of a start without them (docs/exporter.md, "Its own program").
 *
 * Each of the three programs is kstat's main() with every object; the
 * ones it lacks come through run_helper(), which runs the program that
 * has them, from the directory this one was started from (make install
 * puts all three in BINDIR; in the tree they are side by side in cli/).
 * The helper gets kstat's command line again: the global options, then
 * the object's word and its arguments, argv[0] unchanged (so `ps` shows
 * what the user typed).  It replaces this process (the pid a service
 * manager or a script holds stays the exporter's), except in batch mode,
 * where the lines after it must still run: there it is a child, waited
 * for.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kstat.h"

/* The directory of the running program, with a '/': into @buf. */
static int self_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	slash[1] = '\0';
	return 0;
}

/* The command line again: argv[0], the global options, the object's words. */
static char **helper_argv(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 6, sizeof(*v));
	int n = 0, i;

	if (!v)
		return NULL;
	v[n++] = (char *)kstat_argv0;
	if (opts.pretty)
		v[n++] = "-p";
	else if (opts.json)
		v[n++] = "-j";
	if (opts.timestamp)
		v[n++] = "-t";
	/* The object's word as typed (a prefix, maybe): just before argv. */
	v[n++] = argv[-1];
	for (i = 0; i < argc; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	return v;
}

/*
 * Batch mode: the helper as a child, told the line (its errors say
 * "kstat: FILE:LINE: ..." as ours do); its exit status is the line's.
 */
static int spawn_wait(const char *path, char **v, const char *where)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setenv(KSTAT_BATCH_ENV, where, 1);
		execv(path, v);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && access(path, X_OK))
		return -ENOENT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAIL;
}

int run_helper(const char *name, int argc, char **argv)
{
	char path[PATH_MAX], where[PATH_MAX + 32];
	char **v;
	int err;

	err = self_dir(path, sizeof(path) - strlen(name));
	if (err) {
		kstat_err("cannot find %s: /proc/self/exe: %s", name, strerror(-err));
		return EXIT_FAIL;
	}
	strcat(path, name);
	v = helper_argv(argc, argv);
	if (!v) {
		kstat_err("out of memory");
		return EXIT_FAIL;
	}
	if (kstat_batch_where(where, sizeof(where))) {
		err = spawn_wait(path, v, where);
	} else {
		fflush(NULL);
		execv(path, v);
		err = -errno;
	}
	free(v);
	if (err >= 0)
		return err;
	kstat_err("cannot run %s: %s (it is installed beside kstat, which runs it for \"%s\")",
		  path, strerror(-err), argv[-1]);
	return EXIT_FAIL;
}
