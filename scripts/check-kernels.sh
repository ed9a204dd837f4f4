#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-kernels.sh - what `make check-kernels` runs after `make
# all`: scripts/check-kernel.sh rt and scripts/check-kernel.sh 6.12 side
# by side, each guest with its own KSTAT_VMDIR (build/vm-rt,
# build/vm-6.12), each one's lines printed as they come with "rt: " or
# "6.12: " before them.  The last line is "N passed, N failed, N skipped"
# over both; a side that ends without its own summary line counts as one
# failure.
#
# Why side by side: one guest of these suites keeps about 1.2 of the 2
# cores busy (the tests wait for samples and timeouts much of the time),
# so the two together took 722 s where one after the other took 532 +
# 492 s in CI (docs/testing.md, "In CI").  Both run with
# KSTAT_TIMEOUT_SCALE 2, as alone.
#
# Environment: as for scripts/check-kernel.sh (T=, CHECK_SMP8=,
# CHECK_LEAVE_OUT=, RT_KVER, K612_KVER, KSTAT_TIMEOUT_SCALE), except
# KSTAT_VMDIR, which this script sets.  CHECK_KERNELS names the sides
# (default "rt 6.12"); "debug" is scripts/check-debug.sh's suite (the
# debug kernel must be built or buildable), with CHECK_LEAVE_OUT taken
# from DEBUG_LEAVE_OUT when that is set.  .ci/run runs all three at once:
# a third guest fills what the two leave of the cores (docs/testing.md).
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The kernels: rt and 6.12, or CHECK_KERNELS (CI: "rt 6.12 debug").
read -r -a FLAVOURS <<<"${CHECK_KERNELS:-rt 6.12}"
SUMMARY_RE='^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$'

# run_side FLAVOUR: the suite on that kernel, its lines prefixed; the whole
# output also in build/FLAVOUR/check.log, for the totals.
run_side() {
	local flavour=$1 log=$REPO/build/$1/check.log
	local cmd=("$REPO/scripts/check-kernel.sh" "$flavour")

	# debug: make check-debug's suite, with its own leave-out list
	[[ $flavour != debug ]] ||
		cmd=(env ${DEBUG_LEAVE_OUT+"CHECK_LEAVE_OUT=$DEBUG_LEAVE_OUT"}
		     "$REPO/scripts/check-debug.sh")
	mkdir -p "$REPO/build/$flavour"
	KSTAT_VMDIR=$REPO/build/vm-$flavour "${cmd[@]}" \
		< /dev/null 2>&1 | tee "$log" | sed -u "s/^/$flavour: /"
}

# add_totals FLAVOUR: add that side's summary line to the totals.
add_totals() {
	local summary
	summary=$(grep -E "$SUMMARY_RE" "$REPO/build/$1/check.log" | tail -n 1)
	if [[ $summary =~ $SUMMARY_RE ]]; then
		PASSED=$((PASSED + BASH_REMATCH[1]))
		FAILED=$((FAILED + BASH_REMATCH[2]))
		SKIPPED=$((SKIPPED + BASH_REMATCH[3]))
	else
		echo "not ok - <$1-kernel>: ended without a summary line (build/$1/check.log)"
		FAILED=$((FAILED + 1))
	fi
}

main() {
	local pids=() flavour start=$SECONDS
	PASSED=0 FAILED=0 SKIPPED=0
	for flavour in "${FLAVOURS[@]}"; do
		rm -f "$REPO/build/$flavour/check.log"
		run_side "$flavour" &
		pids+=($!)
	done
	wait "${pids[@]}"
	for flavour in "${FLAVOURS[@]}"; do add_totals "$flavour"; done
	echo "# ${FLAVOURS[*]} side by side: $((SECONDS - start))s"
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	((FAILED == 0))
}
main "$@"
