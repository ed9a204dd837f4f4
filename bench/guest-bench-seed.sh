#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-bench-seed.sh - run in the test guest by `make bench-seed`
# (scripts/bench-seed.sh): the seed thread's experiment at its own scale.
# The guest has 96 CPUs; synthetic IRQs from kstat_irqsim bring the number
# of IRQ descriptors to BENCH_SEED_IRQS (2824, the seed's machine).  Then
# one kstat-bench run: the seed's 10,000 reads of /proc/stat first, then
# kstat's CPU GET, IRQ dump, procfs files, agent and summary figures, and
# per-CPU IRQ counts against totals (the synthetic IRQs fired affine).
# Then `kstat export prometheus` beside Debian's node_exporter, and the
# shipped unit's case, percpu on as uid 65534 (bench/export-vs-node.sh).
# Results into the writable results share.  Not a test: nothing is timed
# against a limit.
# timeout: 5400
source tests/lib.sh
# Overrides from scripts/bench-seed.sh (the host's tree, read-only here).
if [[ -r build/bench-seed/guest.env ]]; then
	source build/bench-seed/guest.env
fi

out=${BENCH_OUT:-/run/kstat-results/bench-seed}
mkdir -p "$out"
cpus=$(nproc)
target=${BENCH_SEED_IRQS:-2824}
args=${BENCH_SEED_ARGS:--r 5 -n 10 -N 10000 -S 1}
# What to run: "bench" (kstat-bench), "export" (bench/export-vs-node.sh),
# "streams" (bench/streams-cost.sh: what streams of readers' own cost).
parts=${BENCH_SEED_PARTS:-bench export streams}
source bench/export-vs-node.sh
source bench/streams-cost.sh

# The IRQ descriptors the guest has: one directory each.
descriptors() {
	local d=(/sys/kernel/irq/*)
	echo "${#d[@]}"
}

before=$(descriptors)
n=$((target - before))
if ((n > 0)); then
	irqsim_load irqs="$n"
	t_cleanup irqsim_unload
else
	n=0
fi
# Affine, so each IRQ has its count on one CPU (what per-CPU records are
# for; kstat-bench's percpu metric measures them).
irqsim_fire_affine "$n"
descs=$(descriptors)
((descs == target)) ||
	echo "guest-bench-seed: $descs IRQ descriptors, not $target ($before before irqsim, $n synthetic)" >&2

file=$out/seed-cpus-$cpus.txt
if [[ " $parts " == *" bench "* ]]; then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		echo "# descriptors before irqsim: $before; guest memory: $(awk '/MemTotal/ { print $2, $3 }' /proc/meminfo)"
		echo "# kstat-bench $args seed floor cpu raw irq files agent summary sections percpu"
		# shellcheck disable=SC2086
		bench/kstat-bench $args seed floor cpu raw irq files agent summary sections percpu
		echo "# kstat stats after the run:"
		"$KSTAT" stats | sed 's/^/# /'
	} >"$file" || t_fail "kstat-bench failed at $cpus CPUs, $descs descriptors"
	cat "$file" >&2
fi

file=$out/export-cpus-$cpus.txt
if [[ " $parts " == *" export "* ]]; then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		export_vs_node
	} >"$file" || t_fail "the exporter against node_exporter failed at $cpus CPUs"
	cat "$file" >&2
fi

file=$out/streams-cpus-$cpus.txt
if [[ " $parts " == *" streams "* ]]; then
	streams_cost "${BENCH_STREAMS_ROUNDS:-5}" "${BENCH_STREAMS_SECS:-10}" >"$file" ||
		t_fail "the streams' cost failed at $cpus CPUs"
	cat "$file" >&2
fi
