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
	# The guest runner passes only its own settings; the guest reads
	# these from the tree (bench/guest-bench.sh says what they do).
	for v in BENCH_IRQS BENCH_ARGS BENCH_STREAMS_CPUS BENCH_STREAMS_IRQS \
		 BENCH_STREAMS_ROUNDS BENCH_STREAMS_SECS; do
		[[ -z ${!v+set} ]] || printf '%s=%q\n' "$v" "${!v}"
	done >"$res/guest.env"
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
	if compgen -G "$res/streams-cpus-*.txt" >/dev/null; then
		echo
		echo "## Streams of readers' own: what they cost the producer"
		echo
		echo "Each tick reads the counters once for every stream due at it"
		echo "(docs/protocol.md, \"Streams of a reader's own\"); these cases run one"
		echo "after the other in each round, in one guest (bench/streams-cost.sh)."
		echo "The producer's time is STATS' tick_ns_total: wall time in its work"
		echo "item, so a busy guest inflates it.  The readers, one Python process,"
		echo "only receive (tests/helpers/streams.py drain): readers that parse"
		echo "every sample took host CPU from the producer's vCPU, most with 64"
		echo "members (docs/performance-analysis.md, \"Issue 27: readers that only"
		echo "receive\")."
		echo
		bench/report-streams.py "$res"/streams-cpus-*.txt
	fi
	if [[ -f docs/performance-analysis.md ]]; then
		echo
		cat docs/performance-analysis.md
	fi
	# The seed-scale run's section, from the last `make bench-seed`
	# (scripts/bench-seed.sh replaces the same block in place).
	if [[ -f docs/performance-seed.md ]]; then
		echo
		echo "<!-- bench-seed: begin -->"
		# without its trailing blank lines, as scripts/bench-seed.sh puts it
		printf '%s\n' "$(cat docs/performance-seed.md)"
		echo "<!-- bench-seed: end -->"
	fi
} >docs/performance.md
cat docs/performance.md
