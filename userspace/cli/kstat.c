// SPDX-License-Identifier: GPL-2.0
/*
 * kstat - show CPU time, IRQ and softirq counters from the kstat kernel
 * module.
 *
 *	kstat [OPTIONS] OBJECT { COMMAND | help }
 *	kstat [OPTIONS] -b FILE
 *
 * Modelled on iproute2's ip(8): a table of objects, each with its own table
 * of commands, every word abbreviable to a unique prefix (unlike ip,
 * where the first match in table order wins, an ambiguous prefix is an
 * error: "kstat s" could be softirq, stat, softirqs or stats).  This file holds
 * main(), the options, the object table, batch mode and error reporting.
 *
 * Exit status: 0 success, 1 runtime failure (kernel error, module not
 * loaded, write error, failing batch line), 2 bad command line.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "json_print.h"
#include "kstat.h"

#ifndef KSTAT_VERSION
#define KSTAT_VERSION "unknown"
#endif

/* The most words a batch line may have. */
#define BATCH_MAX_ARGS 64

struct kstat_opts opts;
const char *kstat_argv0 = "kstat";

/* Opened on first use; see kstat_handle(). */
static struct kstat_handle *handle;

/* The batch line being run, for error messages; file NULL outside batch. */
static struct {
	const char *file;
	unsigned long line;
} batch_pos;

/* A helper run for a line of kstat's batch: that line, "FILE:LINE". */
static const char *batch_at;

static int do_help(int argc, char **argv);

/*
 * The objects that are not a counter section's: adding one is adding a
 * line here (and its do_*() in kstat.h).  The sections' own objects come
 * first, from cli_sections[] (see objects_init()).
 */
static const struct cmd commands[] = {
	{ "stat",	do_stat,	"the cpu, intr and softirq lines of /proc/stat" },
	{ "interrupts",	do_interrupts,	"the format of /proc/interrupts" },
	{ "softirqs",	do_softirqs,	"the format of /proc/softirqs" },
	{ "watch",	do_watch,	"live rates from the kernel's samples" },
	{ "top",	do_top,		"a full-screen view of CPU, softirq and IRQ rates" },
	{ "monitor",	do_monitor,	"every sample as it arrives" },
	{ "record",	do_record,	"write the samples to a file (JSON Lines)" },
	{ "config",	do_config,	"the default stream's settings and the limits" },
	{ "stats",	do_stats,	"the sample producer's own counters" },
	{ "export",	do_export,	"Prometheus metrics over HTTP or a textfile" },
	{ "report",	do_report,	"a recording read back: a summary, LKP's names, /proc text" },
	{ "run",	do_run,		"run a command, show what changed while it ran" },
	{ "compare",	do_compare,	"counters of two sets of runs: mean, spread, change" },
	{ "help",	do_help,	NULL },
	{ NULL, NULL, NULL }
};

/* The sections' objects, then commands[] with its NULL end. */
static struct cmd objects[CLI_NR_SECTIONS + ARRAY_SIZE(commands)];

static void objects_init(void)
{
	size_t i, n = 0;

	for (i = 0; i < CLI_NR_SECTIONS; i++)
		if (cli_sections[i]->func)
			objects[n++] = (struct cmd){ cli_sections[i]->name,
						     cli_sections[i]->func,
						     cli_sections[i]->help };
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		objects[n++] = commands[i];
}

static void usage(FILE *f)
{
	const struct cmd *o;

	fputs("Usage: kstat [OPTIONS] OBJECT { COMMAND | help }\n"
	      "       kstat [OPTIONS] -b FILE\n"
	      "       kstat { -V | -h }\n"
	      "where  OBJECT := {", f);
	for (o = objects; o->name; o++)
		if (o->help)
			fprintf(f, "%s %s", o == objects ? "" : " |", o->name);
	fputs(" }\n"
	      "       OPTIONS := { -j[son] | -p[retty] | -t[imestamp] | -b[atch] FILE }\n"
	      "\n"
	      "Options:\n"
	      "  -j, --json         JSON output\n"
	      "  -p, --pretty       indented JSON output (implies -j)\n"
	      "  -t, --timestamp    the local time before each text line of monitor,\n"
	      "                     and on a line before each watch and top -b frame\n"
	      "  -b, --batch FILE   run the commands in FILE (\"-\": stdin), one per\n"
	      "                     line, in one process; stop at the first that fails\n"
	      "  -V, --version      print the version and exit\n"
	      "  -h, --help         print this help and exit\n"
	      "\n"
	      "Objects:\n", f);
	for (o = objects; o->name; o++)
		if (o->help)
			fprintf(f, "  %-12s %s\n", o->name, o->help);
	fputs("\n"
	      "Every word may be abbreviated to a unique prefix: \"kstat cp s\" is\n"
	      "\"kstat cpu show\".  \"kstat OBJECT help\" describes an object.\n"
	      "Exit status: 0 success, 1 runtime error, 2 bad command line.\n", f);
}

static int do_help(int argc, char **argv)
{
	(void)argv;
	if (argc)
		return usage_err(NULL, "\"help\" takes no arguments");
	usage(stdout);
	return EXIT_OK;
}

/* ---- errors ------------------------------------------------------------- */

static void vkstat_err(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

static void vkstat_err(const char *fmt, va_list ap)
{
	/* Keep what a command printed before its error in order. */
	fflush(stdout);
	fputs("kstat: ", stderr);
	if (batch_pos.file)
		fprintf(stderr, "%s:%lu: ", batch_pos.file, batch_pos.line);
	else if (batch_at)
		fprintf(stderr, "%s: ", batch_at);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void kstat_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vkstat_err(fmt, ap);
	va_end(ap);
}

int usage_err(const char *object, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vkstat_err(fmt, ap);
	va_end(ap);
	if (object)
		fprintf(stderr, "Try \"kstat %s help\".\n", object);
	else
		fputs("Try \"kstat help\".\n", stderr);
	return EXIT_USAGE;
}

int kernel_err(const char *what)
{
	kstat_err("%s: %s", what, kstat_last_error(handle));
	return EXIT_FAIL;
}

int show_help(const char *object, const char *text, int argc)
{
	if (argc)
		return usage_err(object, "\"help\" takes no arguments");
	fputs(text, stdout);
	return EXIT_OK;
}

int reject_json(const char *object)
{
	if (!opts.json)
		return EXIT_OK;
	return usage_err(object, "\"%s\" prints the /proc text format only; "
			 "it has no JSON output", object);
}

struct kstat_handle *kstat_handle(void)
{
	int err;

	if (handle)
		return handle;
	err = kstat_open(&handle);
	if (err == -ENOENT) {
		kstat_err("the kstat kernel module is not loaded (try: modprobe kstat)");
	} else if (err) {
		kstat_err("cannot connect to the kstat kernel module: %s",
			  kstat_open_error());
	}
	if (err)
		handle = NULL;
	return handle;
}

void kstat_handle_drop(void)
{
	if (handle)
		kstat_close(handle);
	handle = NULL;
}

/*
 * Where the batch is, "FILE:LINE", for a helper run for one of its lines
 * (helper.c): it prefixes its errors with it, as this process would.
 */
const char *kstat_batch_where(char *buf, size_t len)
{
	if (!batch_pos.file)
		return NULL;
	snprintf(buf, len, "%s:%lu", batch_pos.file, batch_pos.line);
	return buf;
}

/* ---- dispatch ------------------------------------------------------------ */

static int match_err(const char *object, const struct cmd *tab,
		     const char *kind, const char *word, int idx)
{
	char cand[256];

	if (idx == MATCH_NONE)
		return usage_err(object, "unknown %s \"%s\"", kind, word);
	cmd_candidates(tab, word, cand, sizeof(cand));
	return usage_err(object, "ambiguous %s \"%s\" (%s)", kind, word, cand);
}

int cmd_dispatch(const char *object, const struct cmd *tab,
		 int argc, char **argv)
{
	int i;

	if (argc == 0)
		return tab[0].func(0, argv);
	i = cmd_match(tab, argv[0]);
	if (i < 0)
		return match_err(object, tab, "command", argv[0], i);
	return tab[i].func(argc - 1, argv + 1);
}

/* One command: "OBJECT [COMMAND [ARGS]]", on the command line or a line. */
static int run_command(int argc, char **argv)
{
	int i, ret;

	i = cmd_match(objects, argv[0]);
	if (i < 0)
		return match_err(NULL, objects, "object", argv[0], i);

	new_json_obj(opts.json, opts.pretty);
	ret = objects[i].func(argc - 1, argv + 1);
	delete_json_obj();
	fflush(stdout);
	return ret;
}

/* ---- batch --------------------------------------------------------------- */

/*
 * Split @s in place into words: blanks separate words, double quotes
 * group blanks into a word ("a b"), and a word starting with '#' starts a
 * comment.  Returns the word count, -E2BIG or -EINVAL (open quote).
 */
static int split_line(char *s, char **argv, int max)
{
	int argc = 0;
	bool quoted, more;
	char *out;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			return argc;
		if (argc == max)
			return -E2BIG;
		argv[argc++] = out = s;
		for (quoted = false; *s && (quoted || !isspace((unsigned char)*s)); s++) {
			if (*s == '"')
				quoted = !quoted;
			else
				*out++ = *s;
		}
		if (quoted)
			return -EINVAL;
		/* out may sit on the separator: look at it before the NUL. */
		more = *s != '\0';
		*out = '\0';
		if (more)
			s++;
	}
}

static int run_batch_file(FILE *f)
{
	char *argv[BATCH_MAX_ARGS + 1];
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int argc, ret = EXIT_OK;

	while ((len = getline(&line, &cap, f)) >= 0) {
		batch_pos.line++;
		/* Binary data, not a command: the words would end at the NUL. */
		if (memchr(line, '\0', (size_t)len)) {
			kstat_err("a NUL byte in the line");
			ret = EXIT_FAIL;
			break;
		}
		argc = split_line(line, argv, BATCH_MAX_ARGS);
		if (argc == -E2BIG) {
			kstat_err("more than %d words", BATCH_MAX_ARGS);
			ret = EXIT_FAIL;
			break;
		}
		if (argc < 0) {
			kstat_err("unterminated quote");
			ret = EXIT_FAIL;
			break;
		}
		if (argc == 0)
			continue;
		argv[argc] = NULL;
		if (run_command(argc, argv) != EXIT_OK) {
			ret = EXIT_FAIL;
			break;
		}
	}
	if (ret == EXIT_OK && ferror(f)) {
		kstat_err("read error: %s", strerror(errno));
		ret = EXIT_FAIL;
	}
	free(line);
	return ret;
}

static int run_batch(const char *path)
{
	bool use_stdin = strcmp(path, "-") == 0;
	FILE *f = use_stdin ? stdin : fopen(path, "r");
	int ret;

	if (!f)
		return usage_err(NULL, "cannot open batch file \"%s\": %s",
				 path, strerror(errno));
	batch_pos.file = use_stdin ? "<stdin>" : path;
	batch_pos.line = 0;
	ret = run_batch_file(f);
	batch_pos.file = NULL;
	if (!use_stdin)
		fclose(f);
	return ret;
}

/* ---- main ---------------------------------------------------------------- */

static const struct option long_opts[] = {
	{ "json",	no_argument,		NULL, 'j' },
	{ "pretty",	no_argument,		NULL, 'p' },
	{ "timestamp",	no_argument,		NULL, 't' },
	{ "batch",	required_argument,	NULL, 'b' },
	{ "version",	no_argument,		NULL, 'V' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Parse the options.  Returns -1 to go on (batch file in *batch, or NULL),
 * else the exit status (after -V, -h or an error).
 */
static int parse_opts(int argc, char **argv, const char **batch)
{
	int c;

	opterr = 0;	/* our own messages, in our own format */
	/* '+': options end at OBJECT, so "cpu show -1" is not an option. */
	while ((c = getopt_long(argc, argv, "+:jpb:tVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.json = opts.pretty = true;
			break;
		case 't':
			opts.timestamp = true;
			break;
		case 'b':
			*batch = optarg;
			break;
		case 'V':
			printf("kstat %s\n", KSTAT_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case ':':
			return usage_err(NULL, "option \"%s\" needs an argument",
					 argv[optind - 1]);
		default:
			/* A long option has no optopt worth showing. */
			if (optopt && strncmp(argv[optind - 1], "--", 2))
				return usage_err(NULL, "unknown option \"-%c\"",
						 optopt);
			return usage_err(NULL, "unknown option \"%s\"",
					 argv[optind - 1]);
		}
	}
	return -1;
}

/* Like gnulib's close_stdout(): a full disk is an error, not success. */
static int close_stdout(int ret)
{
	if (ferror(stdout) | fclose(stdout)) {
		kstat_err("write error: %s", strerror(errno));
		return EXIT_FAIL;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const char *batch = NULL;
	int ret;

	if (argc > 0)
		kstat_argv0 = argv[0];
	batch_at = getenv(KSTAT_BATCH_ENV);
	objects_init();
	ret = parse_opts(argc, argv, &batch);
	if (ret >= 0)
		return close_stdout(ret);

	if (batch && optind < argc)
		ret = usage_err(NULL, "-b FILE takes no OBJECT (\"%s\")",
				argv[optind]);
	else if (batch)
		ret = run_batch(batch);
	else if (optind == argc)
		ret = usage_err(NULL, "no OBJECT given");
	else
		ret = run_command(argc - optind, argv + optind);

	if (handle)
		kstat_close(handle);
	return close_stdout(ret);
}
