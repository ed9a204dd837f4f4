/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's log: one line per event on stderr, "kstat: export: ...".
 * Under systemd stderr is the journal's stream, and each line then starts
 * with its sd-daemon(3) priority, "<4>" for a warning, which the journal
 * takes as the line's priority and strips (journalctl -p warning finds it).
 *
 * Lost samples are worth a line, but not one per sample when a slow
 * exporter loses many: the first loss is logged at once, then at most one
 * line per LOSS_LOG_MS, with the samples lost since the last line summed.
 */
#ifndef KSTAT_CLI_EXPORT_LOG_H
#define KSTAT_CLI_EXPORT_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libkstat.h>

#define LOSS_LOG_MS	(10 * 1000)

/*
 * Whether @fp is the journal's stream: JOURNAL_STREAM ("DEV:INODE", set by
 * systemd for a service whose stderr it connected) names its device and
 * inode, as sd-daemon(3) says to check (a child that inherited the
 * variable but writes elsewhere must not prefix).
 */
bool log_is_journal(FILE *fp, const char *journal_stream);

/*
 * Priorities of syslog(3), which the journal takes; log_to() writes the
 * prefix only when log_is_journal() said so.
 */
void log_to(FILE *fp, bool journal, int prio, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Samples lost and not logged yet. */
struct loss_log {
	uint64_t pending;		/* since the last line */
	uint64_t by_reason[KSTAT_LOST_VERSION + 1];
	uint64_t total;			/* since the start */
	uint64_t last_ms;		/* of the last line */
	bool logged;			/* a line was written */
};

/* @n samples lost for @why (libkstat's loss callback). */
void loss_note(struct loss_log *l, uint64_t n, enum kstat_lost_reason why);

/*
 * A line is due at @now_ms (any monotonic clock, in ms): something is pending and none was written in
 * the last LOSS_LOG_MS.  If so, the line into @buf and the counts restart.
 */
bool loss_line(struct loss_log *l, uint64_t now_ms, char *buf, size_t len);

/* When the pending losses may be logged (ms), or UINT64_MAX: none. */
uint64_t loss_due_ms(const struct loss_log *l);

#endif
