#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/guest-bench-percpu.sh - run in the test guest by hand, e.g.
#   SMP=8 tests/vm/run-guest.sh bench/guest-bench-percpu.sh
# (KSTAT_APPEND=possible_cpus=N for more possible CPUs): per-CPU IRQ
# counts against totals only, side by side (kstat-bench percpu), with
# BENCH_IRQS synthetic IRQs (default 1024 4096) affine as on real
# machines: IRQ index i fires (i % 7) + 1 times on CPU i % CPUs, so each
# fires on one CPU.  Results into the writable results share.  Not a test.
# timeout: 3000
source tests/lib.sh
# Overrides (BENCH_IRQS, BENCH_ARGS) from the host: the guest runner passes
# only its own settings, and the guest sees this tree read-only.
if [[ -r build/bench/guest.env ]]; then
	source build/bench/guest.env
fi

out=${BENCH_OUT:-/run/kstat-results/bench}
mkdir -p "$out"
cpus=$(nproc)
possible=$(possible_cpus)
read -r -a counts <<<"${BENCH_IRQS:-1024 4096}"

for n in "${counts[@]}"; do
	irqsim_load irqs="$n"
	irqsim_fire_affine "$n"
	file=$out/percpu-irqs-$n-cpus-$cpus-possible-$possible.txt
	{
		echo "config irqs $n cpus $cpus possible $possible descriptors $(ls /sys/kernel/irq | wc -l)"
		bench/kstat-bench ${BENCH_ARGS:--r 5 -n 10} percpu
	} >"$file" || t_fail "kstat-bench percpu failed with $n synthetic IRQs"
	cat "$file" >&2
	irqsim_unload
done
