#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-bench-seed.sh - run in the test guest by `make bench-seed`
# (scripts/bench-seed.sh): the seed thread's experiment at its own scale.
# The guest has 96 CPUs; synthetic IRQs from kstat_irqsim bring the number
# of IRQ descriptors to BENCH_SEED_IRQS (2824, the seed's machine), fired
# affine (each on one CPU).  Then, as BENCH_SEED_PARTS says:
#   bench     one kstat-bench run: the seed's 10,000 reads of /proc/stat
#             first, then GETs, the procfs files, the agent, the samples'
#             sizes, per-CPU dumps against totals, the idle producer
#   before    protocol 4's kstat.ko and kstat-bench in the same boot
#             (scripts/bench-before.sh builds them; skipped without), then
#             this tree's module again
#   export    `kstat export prometheus` beside Debian's node_exporter
#             (bench/export-vs-node.sh)
#   readers   what readers cost the producer (kstat-bench readers)
#   sections  the producer's cost per section (kstat-bench sections; not
#             in the default parts: 3 more windows a round)
#   harness   what a benchmark harness pays to watch the counters: kstat
#             record and kstat run against LKP's monitors
#             (bench/harness-vs-lkp.sh)
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
args=${BENCH_SEED_ARGS:--r 5 -n 10 -N 10000}
parts=${BENCH_SEED_PARTS:-bench before export readers harness}
source bench/export-vs-node.sh
source bench/harness-vs-lkp.sh

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
# Affine, so each IRQ has its count on one CPU, as on real machines (what
# per-CPU records' pairs are for).
irqsim_fire_affine "$n"
descs=$(descriptors)
((descs == target)) ||
	echo "guest-bench-seed: $descs IRQ descriptors, not $target ($before before irqsim, $n synthetic)" >&2

metrics="seed floor cpu irq files agent sizes percpu idle"
file=$out/seed-cpus-$cpus.txt
if [[ " $parts " == *" bench "* ]]; then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		echo "# descriptors before irqsim: $before; guest memory: $(awk '/MemTotal/ { print $2, $3 }' /proc/meminfo)"
		echo "# kstat-bench $args $metrics"
		# shellcheck disable=SC2086
		bench/kstat-bench $args $metrics
		echo "# kstat stats after the run:"
		"$KSTAT" stats 2>&1 | sed 's/^/# /'
	} >"$file" || t_fail "kstat-bench failed at $cpus CPUs, $descs descriptors: $(tail -3 "$file")"
	cat "$file" >&2
fi

BEFORE=build/before
file=$out/seed-cpus-$cpus.before.txt
if [[ " $parts " == *" before "* && -f $BEFORE/kernel/kstat.ko && -x $BEFORE/bench/kstat-bench ]]; then
	kstat_unload
	_t_insmod "$BEFORE/kernel/kstat.ko"
	bargs="-r 5 -n 10 -S 1 floor cpu raw irq agent summary percpu"
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		echo "# protocol 4: $BEFORE/bench/kstat-bench $bargs ($(cut -c1-12 $BEFORE/REV))"
		# shellcheck disable=SC2086
		"$BEFORE/bench/kstat-bench" $bargs
	} >"$file" 2>&1 || echo "# protocol 4's kstat-bench failed" >>"$file"
	cat "$file" >&2
	kstat_unload
	kstat_load
fi

file=$out/export-cpus-$cpus.txt
if [[ " $parts " == *" export "* ]]; then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		export_vs_node
	} >"$file" || t_fail "the exporter against node_exporter failed at $cpus CPUs"
	cat "$file" >&2
fi

readers=()
[[ " $parts " != *" readers "* ]] || readers+=(readers)
[[ " $parts " != *" sections "* ]] || readers+=(sections)
file=$out/readers-cpus-$cpus.txt
if ((${#readers[@]})); then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		BENCH_DESCRIPTORS=$descs bench/kstat-bench -R "${BENCH_READERS_ROUNDS:-5}" \
			-w "${BENCH_READERS_SECS:-10}" "${readers[@]}"
	} >"$file" || t_fail "kstat-bench ${readers[*]} failed at $cpus CPUs: $(tail -3 "$file")"
	cat "$file" >&2
fi

file=$out/harness-cpus-$cpus.txt
if [[ " $parts " == *" harness "* ]]; then
	{
		echo "config irqs $n cpus $cpus descriptors $descs"
		harness_vs_lkp
	} >"$file" || t_fail "kstat against LKP's monitors failed at $cpus CPUs: $(tail -3 "$file")"
	cat "$file" >&2
fi
