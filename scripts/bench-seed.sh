#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-seed.sh - what `make bench-seed` runs: the seed thread's
# experiment at its own scale.  One guest with 96 CPUs (SEED_SMP) and 2824
# IRQ descriptors (BENCH_SEED_IRQS), synthetic ones included, runs
# bench/guest-bench-seed.sh; bench/report-seed.py turns the results
# (build/bench-seed/) into docs/performance-seed.md, which replaces the
# seed-scale section of docs/performance.md (scripts/bench.sh includes the
# same file, so `make bench` keeps it).  Not part of `make check`: 20 minutes
# or more under TCG on 2 cores (protocol 4's last run: 1182 s), boot included.
#
# Environment: SEED_SMP (96), BENCH_SEED_IRQS (2824), BENCH_SEED_ARGS
# (kstat-bench options, "-r 5 -n 10 -N 10000"), BENCH_SEED_PARTS
# ("bench before export readers": kstat-bench, protocol 4's kstat-bench
# and module in the same boot, the exporter beside node_exporter, what
# readers cost the producer; "harness": kstat record and run against
# LKP's monitors, its own section of docs/performance.md; "sections" adds
# the producer's cost per section; EXPORT_EVERY_S, EXPORT_NODE_SCRAPES, EXPORT_QUIET_S: see
# bench/export-vs-node.sh), BENCH_BEFORE (the protocol 4 commit
# scripts/bench-before.sh builds, ffdd1b0; empty: none), KSTAT_VMDIR (the
# guest's directory, default build/vm-seed), BOOT_MARGIN (900 s: a 96-CPU
# boot exceeds run-guest.sh's 240 s default), BENCH_REPORT_ONLY=1 (rebuild
# the documents from the last results).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
res=build/bench-seed
smp=${SEED_SMP:-96}
export KSTAT_VMDIR=${KSTAT_VMDIR:-$PWD/build/vm-seed}

if [[ -z ${BENCH_REPORT_ONLY:-} ]]; then
	rm -rf "$res" "$KSTAT_VMDIR/results/bench-seed"
	mkdir -p "$res"
	# What was measured: the commit, and what of the tree differed from it
	# (other work in progress shares this tree).
	{
		echo "head $(git rev-parse --short HEAD)"
		echo "dirty $(git status --porcelain -- kernel userspace include bench tests/irqsim |
			awk '{ print $2 }' | cut -d/ -f1-2 | sort -u | tr '\n' ' ')"
	} >"$res/tree.txt"
	# The guest runner passes only its own settings to the guest; it
	# sees this tree read-only, so the bench's go in a file there.
	{
		[[ -z ${BENCH_SEED_IRQS:-} ]] || printf 'BENCH_SEED_IRQS=%q\n' "$BENCH_SEED_IRQS"
		[[ -z ${BENCH_SEED_ARGS:-} ]] || printf 'BENCH_SEED_ARGS=%q\n' "$BENCH_SEED_ARGS"
		for v in BENCH_SEED_PARTS BENCH_READERS_ROUNDS BENCH_READERS_SECS EXPORT_EVERY_S EXPORT_NODE_SCRAPES EXPORT_QUIET_S \
			 EXPORT_ROUNDS EXPORT_NODE_ROUNDS EXPORT_KSTAT_S; do
			[[ -z ${!v:-} ]] || printf '%s=%q\n' "$v" "${!v}"
		done
	} >"$res/guest.env"
	if [[ -n ${BENCH_BEFORE-ffdd1b0} ]]; then
		scripts/bench-before.sh "${BENCH_BEFORE-ffdd1b0}" ||
			echo "bench-seed: protocol 4's build failed (build/before/build.log): no same-boot before figures" >&2
	fi
	start=$(date +%s) l0=$(cut -d' ' -f1 /proc/loadavg) q0=$(pgrep -c -x qemu-system-x86 || true)
	rc=0
	# 1: the runner saw a failure (a kernel warning in the guest's log
	# fails a run): the results stand, and the page says so
	BOOT_MARGIN=${BOOT_MARGIN:-900} SMP=$smp \
		tests/vm/run-guest.sh bench/guest-bench-seed.sh >"$res/guest.log" 2>&1 || rc=$?
	cat "$res/guest.log"
	end=$(date +%s)
	cp "$KSTAT_VMDIR"/results/bench-seed/*.txt "$res/" || true
	echo "run smp $smp wall $((end - start)) load_start $l0 load_end $(cut -d' ' -f1 /proc/loadavg)" \
		"other_qemu $q0 guest_rc $rc date $(date -u -d @"$start" '+%Y-%m-%d %H:%M')" >"$res/run.txt"
fi
# section FILE BEGIN END: replace the text between the markers in
# docs/performance.md with FILE's, or append it.
section() {
	python3 - docs/performance.md "$1" "$2" "$3" <<'PY'
import sys
doc, sec, begin, end = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
text = open(doc).read()
block = f"{begin}\n{sec.rstrip()}\n{end}\n"
if begin in text and end in text:
    i, j = text.index(begin), text.index(end) + len(end)
    text = text[:i] + block.rstrip("\n") + text[j:]
else:
    text = text.rstrip("\n") + "\n\n" + block
open(doc, "w").write(text)
PY
}
# Each part's section is replaced only when this run measured it.
if compgen -G "$res/seed-cpus-*.txt" >/dev/null; then
	bench/report-seed.py "$res" >docs/performance-seed.md
	section docs/performance-seed.md "<!-- bench-seed: begin -->" "<!-- bench-seed: end -->"
fi
if compgen -G "$res/harness-cpus-*.txt" >/dev/null; then
	bench/report-harness.py "$res" >build/bench-seed/harness.md
	section build/bench-seed/harness.md "<!-- bench-harness: begin -->" "<!-- bench-harness: end -->"
fi
