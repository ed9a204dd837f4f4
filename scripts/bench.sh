#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench.sh - what `make bench` runs: bench/guest-bench.sh in a
# 2-, a 4- and an 8-CPU guest (BENCH_SMP), with protocol 4's module and
# kstat-bench beside this tree's in each boot (scripts/bench-before.sh
# builds them from BENCH_BEFORE, default ffdd1b0; empty: skip), then
# bench/parse-cost.sh on the host, then bench/report.py into
# docs/performance.md (with docs/performance-seed.md, the section `make
# bench-seed` writes, at its end).  The guests run in KSTAT_VMDIR
# (build/vm-bench), so they neither wait for nor hold up a test run in
# build/vm; how busy the host was is recorded (build/bench/host.txt) and
# said on the page.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
res=build/bench
export KSTAT_VMDIR=${KSTAT_VMDIR:-$PWD/build/vm-bench}

# other_qemu: QEMU processes running now, other than ours (none yet).
other_qemu() { pgrep -c -x qemu-system-x86 || true; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# BENCH_REPORT_ONLY=1: rebuild docs/performance.md from the last results.
if [[ -z ${BENCH_REPORT_ONLY:-} ]]; then
	rm -rf "$res" "$KSTAT_VMDIR/results/bench"
	mkdir -p "$res"
	if [[ -n ${BENCH_BEFORE-ffdd1b0} ]]; then
		scripts/bench-before.sh "${BENCH_BEFORE-ffdd1b0}" ||
			echo "bench: protocol 4's build failed (build/before/build.log): no same-boot before figures" >&2
	fi
	# What was measured: the commit, and what of the tree differed from it
	# (other work in progress shares this tree).
	{
		echo "head $(git rev-parse --short HEAD)"
		echo "dirty $(git status --porcelain -- kernel userspace include bench tests/irqsim |
			awk '{ print $2 }' | cut -d/ -f1-2 | sort -u | tr '\n' ' ')"
	} >"$res/tree.txt"
	# The guest runner passes only its own settings; the guest reads
	# these from the tree (bench/guest-bench.sh says what they do).
	for v in BENCH_IRQS BENCH_ARGS BENCH_READERS_CPUS BENCH_READERS_IRQS \
		 BENCH_READERS_ROUNDS BENCH_READERS_SECS; do
		[[ -z ${!v+set} ]] || printf '%s=%q\n' "$v" "${!v}"
	done >"$res/guest.env"
	for smp in ${BENCH_SMP:-2 4 8}; do
		start=$(date +%s) l0=$(load1) q0=$(other_qemu) rc=0
		# 1: the runner saw a failure (a kernel warning in the guest's
		# log fails a run): the results stand, and the page says so
		SMP=$smp tests/vm/run-guest.sh bench/guest-bench.sh >"$res/guest-$smp.log" 2>&1 || rc=$?
		cat "$res/guest-$smp.log"
		echo "smp $smp wall $(($(date +%s) - start)) load_start $l0 load_end $(load1)" \
			"other_qemu $q0 guest_rc $rc" >>"$res/host.txt"
		cp "$KSTAT_VMDIR"/results/bench/*.txt "$res/" || true
	done
	bench/parse-cost.sh >"$res/parse-cost.txt" ||
		echo "bench: parse-cost.sh failed: no parse cost on the page" >&2
fi
{
	echo "# kstat performance"
	echo
	echo "Reproduce with \`make bench\` (three guest boots under TCG, about 15 minutes"
	echo "here with protocol 4's figures taken in the same boots).  Every ratio is"
	echo "measured in one guest run, kstat against /proc; absolute times are TCG's and"
	echo "only mean something side by side.  \`make bench-seed\` measures the same at"
	echo "the seed's scale (its section follows this run's; protocol 4's history last)."
	echo
	bench/report.py "$res" "$res/parse-cost.txt" "make bench"
	# The seed-scale run's section, from the last `make bench-seed`
	# (scripts/bench-seed.sh replaces the same block in place).
	if [[ -f docs/performance-seed.md ]]; then
		echo
		echo "<!-- bench-seed: begin -->"
		# without its trailing blank lines, as scripts/bench-seed.sh puts it
		printf '%s\n' "$(cat docs/performance-seed.md)"
		echo "<!-- bench-seed: end -->"
	fi
	if [[ -f docs/performance-analysis.md ]]; then
		echo
		echo "# History: protocol 4 (before issue 38)"
		echo
		echo "What the benchmark taught while protocol 4 grew (issues 14 to 37), kept as"
		echo "it was written; the mechanisms it measures (keyframes and deltas, per-CPU"
		echo "hints, the record cache, streams' members) are gone in protocol 5."
		echo
		cat docs/performance-analysis.md
	fi
} >docs/performance.md
cat docs/performance.md
