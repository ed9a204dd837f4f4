#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench.sh - what `make bench` runs: bench/guest-bench.sh in a
# 2-, a 4- and an 8-CPU guest (BENCH_SMP), bench/parse-cost.sh on the host, then
# bench/report.py into docs/performance.md (with docs/performance-seed.md,
# the section `make bench-seed` writes, at its end).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
res=build/bench
# BENCH_REPORT_ONLY=1: rebuild docs/performance.md from the last results.
if [[ -z ${BENCH_REPORT_ONLY:-} ]]; then
	rm -rf "$res" build/vm/results/bench
	mkdir -p "$res"
	for smp in ${BENCH_SMP:-2 4 8}; do
		SMP=$smp tests/vm/run-guest.sh bench/guest-bench.sh
		cp build/vm/results/bench/*.txt "$res/"
	done
	bench/parse-cost.sh >"$res/parse-cost.txt"
fi
{
	echo "# kstat performance"
	echo
	echo "Reproduce with \`make bench\` (about 8 minutes here: three guest boots under TCG)."
	echo "Every figure is a ratio measured in one guest run, kstat against /proc;"
	echo "absolute times are TCG's and only mean something side by side."
	echo
	bench/report.py "$res" "$res/parse-cost.txt" "make bench"
	if [[ -f docs/performance-analysis.md ]]; then
		echo
		cat docs/performance-analysis.md
	fi
	# The seed-scale run's section, from the last `make bench-seed`
	# (scripts/bench-seed.sh replaces the same block in place).
	if [[ -f docs/performance-seed.md ]]; then
		echo
		echo "<!-- bench-seed: begin -->"
		cat docs/performance-seed.md
		echo "<!-- bench-seed: end -->"
	fi
} >docs/performance.md
cat docs/performance.md
