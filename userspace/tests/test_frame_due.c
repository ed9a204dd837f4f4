// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of frame_due() (cli/rates.c), the one rule by which
 * kstat watch and kstat top judge that a sample ends a frame.  Before it,
 * top allowed 1 ms of slack and stuttered ("interval 2.00 s") when a
 * sample came a little late, and watch allowed a tenth of the interval
 * and ended 1 s frames at 0.9 s on a 100 ms grid.  Timestamps are fed
 * the way both commands do: the frame's start, the previous sample, this
 * one.
 */
#include <stdlib.h>

#include "../cli/rates.h"
#include "unit.h"

#define MS 1000000ULL

/* rates.o links irqlabels.o, which asks for the handle: not here. */
struct kstat_handle *kstat_handle(void);
struct kstat_handle *kstat_handle(void)
{
	return NULL;
}

/*
 * Feed @n timestamps (ms) to the rule as watch and top do, for frames of
 * @want_ms; the lengths of the frames that came out (ms) into @len.
 * Returns how many.
 */
static size_t frames(const double *ts_ms, size_t n, double want_ms,
		     uint64_t *len)
{
	uint64_t start = (uint64_t)(ts_ms[0] * MS), prev = start, now;
	size_t i, nr = 0;

	for (i = 1; i < n; i++) {
		now = (uint64_t)(ts_ms[i] * MS);
		if (frame_due(start, prev, now, (uint64_t)(want_ms * MS))) {
			len[nr++] = (now - start + MS / 2) / MS;
			start = now;
		}
		prev = now;
	}
	return nr;
}

/* All @nr frames are @want ms long, within @slack ms. */
static bool all_near(const uint64_t *len, size_t nr, uint64_t want,
		     uint64_t slack)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (len[i] + slack < want || len[i] > want + slack)
			return false;
	return true;
}

int main(void)
{
	/* 1 s samples, some a few ms late (the work item ran late). */
	static const double late[] = { 0, 1002, 2000, 3001, 4000, 5003, 6000,
				       7000.5, 8000, 9004, 10000 };
	/* 100 ms samples with 1 ms of jitter either way, for 3 s. */
	double grid[31];
	uint64_t len[64];
	size_t nr, i;

	for (i = 0; i < 31; i++)
		grid[i] = i * 100.0 + (i % 3 == 0 ? 1 : i % 3 == 1 ? -1 : 0);
	grid[0] = 0;

	nr = frames(late, 11, 1000, len);
	CHECK(nr == 10 && all_near(len, nr, 1000, 5),
	      "1 s frames on a 1 s grid with late samples: %zu frames of 1 s "
	      "(10 wanted; none of 2 s)", nr);

	nr = frames(late, 11, 2000, len);
	CHECK(nr == 5 && all_near(len, nr, 2000, 5),
	      "2 s frames on a 1 s grid: %zu frames of 2 s (5 wanted)", nr);

	nr = frames(grid, 31, 1000, len);
	CHECK(nr == 3 && all_near(len, nr, 1000, 2),
	      "1 s frames on a 100 ms grid: %zu frames of 1 s, none of 0.9 s "
	      "(3 wanted; first %llu ms)", nr,
	      nr ? (unsigned long long)len[0] : 0ULL);

	nr = frames(grid, 31, 300, len);
	CHECK(nr == 10 && all_near(len, nr, 300, 2),
	      "0.3 s frames on a 100 ms grid: %zu frames of 0.3 s (10 wanted)", nr);

	/* Shorter than the kernel's interval: every sample ends a frame. */
	nr = frames(late, 11, 10, len);
	CHECK(nr == 10, "10 ms frames on a 1 s grid: one per sample (%zu of 10)", nr);

	/* Never a frame from a sample that is not after the start. */
	CHECK(!frame_due(5 * MS, 5 * MS, 5 * MS, 1),
	      "a sample at the frame's start ends no frame");
	CHECK(!frame_due(5 * MS, 5 * MS, 4 * MS, 1),
	      "a sample before the frame's start ends no frame");
	return unit_exit();
}
