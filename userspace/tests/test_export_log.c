// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the exporter's log (cli/export-log.c): a line starts
 * with its sd-daemon priority only when stderr is the journal's stream
 * (JOURNAL_STREAM names stderr's device and inode), never for another
 * file or a malformed variable; lost samples are logged at once the first
 * time, then at most once per 10 s with the counts summed and split by
 * reason, and a reload (0 samples) is no loss.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libkstat.h"
#include "../cli/export-log.h"
#include "unit.h"

static void test_journal(void)
{
	FILE *a = tmpfile(), *b = tmpfile();
	char var[64], line[128] = "";
	struct stat st;

	fstat(fileno(a), &st);
	snprintf(var, sizeof(var), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	CHECK(log_is_journal(a, var), "JOURNAL_STREAM %s names the stream", var);
	CHECK(!log_is_journal(b, var), "another file is not the journal");
	CHECK(!log_is_journal(a, NULL), "no JOURNAL_STREAM: no journal");
	CHECK(!log_is_journal(a, "12"), "JOURNAL_STREAM without an inode");
	snprintf(var, sizeof(var), "%llu:%llux", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	CHECK(!log_is_journal(a, var), "JOURNAL_STREAM with trailing junk");

	log_to(a, true, 4, "gone %d", 1);
	log_to(b, false, 4, "gone %d", 1);
	rewind(a);
	CHECK(fgets(line, sizeof(line), a) && !strcmp(line, "<4>kstat: export: gone 1\n"),
	      "journal line: %s", line);
	rewind(b);
	CHECK(fgets(line, sizeof(line), b) && !strcmp(line, "kstat: export: gone 1\n"),
	      "plain line: %s", line);
	fclose(a);
	fclose(b);
}

static void test_loss(void)
{
	struct loss_log l = { 0 };
	char line[256];

	CHECK(!loss_line(&l, 0, line, sizeof(line)), "nothing lost: no line");
	CHECK(loss_due_ms(&l) == UINT64_MAX, "nothing lost: nothing due");
	loss_note(&l, 0, KSTAT_LOST_RELOAD);
	CHECK(!loss_line(&l, 0, line, sizeof(line)), "a reload is no loss");

	loss_note(&l, 3, KSTAT_LOST_OVERRUN);
	CHECK(loss_due_ms(&l) == 0, "the first loss is due at once");
	CHECK(loss_line(&l, 1000, line, sizeof(line)) &&
	      !strcmp(line, "lost 3 samples (overrun 3); 3 since the start (kstat_exporter_samples_lost_total)"),
	      "first line: %s", line);

	loss_note(&l, 1, KSTAT_LOST_GAP);
	CHECK(!loss_line(&l, 1000 + LOSS_LOG_MS - 1, line, sizeof(line)),
	      "no second line within 10 s");
	loss_note(&l, 2, KSTAT_LOST_OVERRUN);
	loss_note(&l, 1, KSTAT_LOST_PARTIAL);
	CHECK(loss_due_ms(&l) == 1000 + LOSS_LOG_MS, "due 10 s after the last line");
	CHECK(loss_line(&l, 1000 + LOSS_LOG_MS, line, sizeof(line)) &&
	      !strcmp(line, "lost 4 samples (gap 1, overrun 2, partial 1) since the last such line; 7 since the start (kstat_exporter_samples_lost_total)"),
	      "summed line: %s", line);
	CHECK(!loss_line(&l, 1000 + 5 * LOSS_LOG_MS, line, sizeof(line)),
	      "nothing new: no line");

	loss_note(&l, 1, KSTAT_LOST_GAP);
	CHECK(loss_line(&l, 1000 + 5 * LOSS_LOG_MS, line, sizeof(line)) &&
	      !strcmp(line, "lost 1 sample (gap 1) since the last such line; 8 since the start (kstat_exporter_samples_lost_total)"),
	      "after a quiet while, at once: %s", line);
}

int main(void)
{
	test_journal();
	test_loss();
	return unit_exit();
}
