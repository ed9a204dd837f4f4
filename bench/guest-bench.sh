#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-bench.sh - run in the test guest by `make bench` (and, with
# BENCH_SMOKE, by tests/bench-smoke.sh): kstat-bench for each synthetic
# IRQ count, then, in the BENCH_STREAMS_CPUS-CPU guest (4; none: "") with
# BENCH_STREAMS_IRQS synthetic IRQs (4096), what streams of readers' own
# cost the producer (bench/streams-cost.sh).  Results into the writable
# results share.  Not a test.
# timeout: 3000
source tests/lib.sh
source bench/streams-cost.sh
# Overrides (BENCH_IRQS, BENCH_ARGS) from the host: the guest runner passes
# only its own settings, and the guest sees this tree read-only.
if [[ -r build/bench/guest.env ]]; then
	source build/bench/guest.env
fi

out=${BENCH_OUT:-/run/kstat-results/bench}
mkdir -p "$out"
cpus=$(nproc)
read -r -a counts <<<"${BENCH_IRQS:-0 1024 4096}"
args=${BENCH_ARGS:--r 7 -n 20}

for n in "${counts[@]}"; do
	if ((n > 0)); then
		irqsim_load irqs="$n"
	fi
	file=$out/irqs-$n-cpus-$cpus.txt
	{
		echo "config irqs $n cpus $cpus descriptors $(ls /sys/kernel/irq | wc -l)"
		# shellcheck disable=SC2086
		bench/kstat-bench $args
	} >"$file" || t_fail "kstat-bench failed with $n synthetic IRQs"
	cat "$file" >&2
	if ((n > 0)); then
		irqsim_unload
	fi
done

if [[ $cpus == "${BENCH_STREAMS_CPUS-4}" ]]; then
	irqsim_load irqs="${BENCH_STREAMS_IRQS:-4096}"
	file=$out/streams-cpus-$cpus.txt
	streams_cost "${BENCH_STREAMS_ROUNDS:-5}" "${BENCH_STREAMS_SECS:-10}" >"$file" ||
		t_fail "the streams' cost failed"
	cat "$file" >&2
	irqsim_unload
fi
