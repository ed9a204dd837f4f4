#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-bench.sh - run in the test guest by `make bench`: kstat-bench
# (its default metrics: floor cpu irq agent sizes idle) for each synthetic
# IRQ count (BENCH_IRQS, "0 1024 4096"), then, in the BENCH_READERS_CPUS-CPU
# guest (4; none: "") with BENCH_READERS_IRQS synthetic IRQs (4096), what
# readers cost the producer (kstat-bench readers: BENCH_READERS_ROUNDS
# rounds of BENCH_READERS_SECS-second windows).  After each kstat-bench
# run, protocol 4's module and kstat-bench in the same boot, when
# scripts/bench-before.sh built them (the before columns).  Results into
# the writable results share.  Not a test: nothing is asserted.
# timeout: 3000
source tests/lib.sh
# Overrides (BENCH_IRQS, BENCH_ARGS, BENCH_READERS_*) from the host: the
# guest runner passes only its own settings, and the guest sees this tree
# read-only.
if [[ -r build/bench/guest.env ]]; then
	source build/bench/guest.env
fi

out=${BENCH_OUT:-/run/kstat-results/bench}
mkdir -p "$out"
cpus=$(nproc)
read -r -a counts <<<"${BENCH_IRQS:-0 1024 4096}"
args=${BENCH_ARGS:--r 7 -n 20}

descriptors() { local d=(/sys/kernel/irq/*); echo "${#d[@]}"; }

# before_bench FILE ARGS...: protocol 4's kstat.ko and kstat-bench (built
# by scripts/bench-before.sh) in this boot, then this tree's module again.
BEFORE=build/before
before_bench() {
	local file=$1
	shift
	[[ -f $BEFORE/kernel/kstat.ko && -x $BEFORE/bench/kstat-bench ]] || return 0
	kstat_unload
	_t_insmod "$BEFORE/kernel/kstat.ko"
	{
		echo "config irqs $n cpus $cpus descriptors $(descriptors)"
		echo "# protocol 4: $BEFORE/bench/kstat-bench $* ($(cut -c1-12 $BEFORE/REV))"
		"$BEFORE/bench/kstat-bench" "$@"
	} >"$file" 2>&1 || echo "# protocol 4's kstat-bench failed" >>"$file"
	cat "$file" >&2
	kstat_unload
	kstat_load
}

for n in "${counts[@]}"; do
	if ((n > 0)); then
		irqsim_load irqs="$n"
	fi
	file=$out/irqs-$n-cpus-$cpus.txt
	{
		echo "config irqs $n cpus $cpus descriptors $(descriptors)"
		# shellcheck disable=SC2086
		bench/kstat-bench $args
	} >"$file" || t_fail "kstat-bench failed with $n synthetic IRQs: $(tail -3 "$file")"
	cat "$file" >&2
	# shellcheck disable=SC2086
	before_bench "$out/irqs-$n-cpus-$cpus.before.txt" $args -S 1 floor cpu irq agent summary
	if ((n > 0)); then
		irqsim_unload
	fi
done

if [[ $cpus == "${BENCH_READERS_CPUS-4}" ]]; then
	n=${BENCH_READERS_IRQS:-4096}
	irqsim_load irqs="$n"
	file=$out/readers-cpus-$cpus.txt
	{
		echo "config irqs $n cpus $cpus descriptors $(descriptors)"
		BENCH_DESCRIPTORS=$(descriptors) bench/kstat-bench -R "${BENCH_READERS_ROUNDS:-5}" \
			-w "${BENCH_READERS_SECS:-10}" readers
	} >"$file" || t_fail "kstat-bench readers failed: $(tail -3 "$file")"
	cat "$file" >&2
	irqsim_unload
fi
