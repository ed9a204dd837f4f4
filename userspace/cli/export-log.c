// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's log lines (export-log.h): the journal's priority prefix
 * and the rate limit on lost samples, apart from export.c so that a host
 * unit test can drive them with a clock of its own.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "export-log.h"

bool log_is_journal(FILE *fp, const char *journal_stream)
{
	unsigned long long dev, ino;
	struct stat st;
	char end;

	if (!journal_stream ||
	    sscanf(journal_stream, "%llu:%llu%c", &dev, &ino, &end) != 2)
		return false;
	if (fstat(fileno(fp), &st))
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

void log_to(FILE *fp, bool journal, int prio, const char *fmt, ...)
{
	va_list ap;

	if (journal)
		fprintf(fp, "<%d>", prio);
	fputs("kstat: export: ", fp);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputc('\n', fp);
	fflush(fp);
}

void loss_note(struct loss_log *l, uint64_t n, enum kstat_lost_reason why)
{
	if (!n)
		return;		/* a reload: counts restart, nothing lost */
	l->pending += n;
	l->total += n;
	if ((unsigned int)why < sizeof(l->by_reason) / sizeof(l->by_reason[0]))
		l->by_reason[why] += n;
}

uint64_t loss_due_ms(const struct loss_log *l)
{
	if (!l->pending)
		return UINT64_MAX;
	return l->logged ? l->last_ms + LOSS_LOG_MS : 0;
}

bool loss_line(struct loss_log *l, uint64_t now_ms, char *buf, size_t len)
{
	size_t n, i;
	const char *sep = " (";

	if (!l->pending || now_ms < loss_due_ms(l))
		return false;
	n = snprintf(buf, len, "lost %" PRIu64 " sample%s", l->pending,
		     l->pending == 1 ? "" : "s");
	for (i = 0; i < sizeof(l->by_reason) / sizeof(l->by_reason[0]); i++) {
		if (!l->by_reason[i] || n >= len)
			continue;
		n += snprintf(buf + n, len - n, "%s%s %" PRIu64, sep,
			      kstat_lost_reason_name(i), l->by_reason[i]);
		sep = ", ";
	}
	if (n < len)
		n += snprintf(buf + n, len - n, ")%s; %" PRIu64 " since the start "
			      "(kstat_exporter_samples_lost_total)",
			      l->logged ? " since the last such line" : "",
			      l->total);
	l->pending = 0;
	memset(l->by_reason, 0, sizeof(l->by_reason));
	l->last_ms = now_ms;
	l->logged = true;
	return true;
}
