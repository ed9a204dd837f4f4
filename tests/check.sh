#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/check.sh - what `make check` runs after building.  Not a guest test.
#
#   1. the host unit tests (tests/run-unit.sh), unless CHECK_UNIT=0 (make
#      check-debug: they do not involve the guest kernel);
#   2. one guest boot (tests/vm/run-guest.sh) running the selected guest
#      tests: $T (space-separated, e.g. T="tests/irqsim.sh tests/json.sh"; a
#      bare name like "irqsim" works too), or every tests/*.sh;
#      CHECK_LEAVE_OUT="TAG..." (space-separated) leaves out the tests
#      with a header line "# leave-out: TAG" for one of the TAGs, and
#      names them (.ci/run's debug stage: "userspace-only no-kstat-code");
#   3. for the full suite, more boots for the tests with a header line
#      "# also: SETTINGS", one boot per distinct SETTINGS (words SMP=N and
#      KSTAT_APPEND=PARAM, e.g. "# also: SMP=8" or "# also: SMP=8
#      KSTAT_APPEND=possible_cpus=4096"), unless CHECK_SMP8=0 (.ci/run's
#      kernels and debug stages).
#
# Prints one line per test ("ok - ...", "not ok - ...: reason" + output
# tail, "skip - ...: reason"); its very last line is "N passed, N failed, N
# skipped" over both.  A guest that fails to boot, crashes or hangs counts as
# a failure, and so does every selected test that produced no result.
# Exit status 1 if anything failed.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VMDIR=${KSTAT_VMDIR:-$REPO/build/vm}
RESULTS=$VMDIR/results
SUMMARY_RE='^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$'
# tests/*.sh files that are not tests.
NOT_TESTS=(tests/lib.sh tests/check.sh tests/run-unit.sh)

PASSED=0 FAILED=0 SKIPPED=0

# relay: copy stdin to stdout, counting the result lines as they pass (so a
# run cut short still counts what it did); the runners' own summary lines
# are dropped, this script prints the grand total.  Sets GOT_SUMMARY, and
# LAST_SAID to the last "run-guest: ..." message.
relay() {
	local line
	GOT_SUMMARY=0 LAST_SAID=''
	while IFS= read -r line; do
		[[ $line != "run-guest: "* ]] || LAST_SAID=${line#run-guest: }
		case $line in
		"ok - "*) PASSED=$((PASSED + 1)) ;;
		"not ok - "*) FAILED=$((FAILED + 1)) ;;
		"skip - "*) SKIPPED=$((SKIPPED + 1)) ;;
		esac
		if [[ $line =~ $SUMMARY_RE ]]; then
			GOT_SUMMARY=1
		else
			printf '%s\n' "$line"
		fi
	done
}

fail() {
	FAILED=$((FAILED + 1))
	echo "not ok - $1: $2"
}

run_unit() {
	echo "# host unit tests"
	relay < <(tests/run-unit.sh)
	((GOT_SUMMARY)) || fail "<unit>" "tests/run-unit.sh ended without a summary"
}

# select_tests: the guest tests to run, one per line.
select_tests() {
	local t
	if [[ -n ${T:-} ]]; then
		for t in $T; do
			if [[ ! -f $t && -f tests/$t ]]; then t=tests/$t; fi
			if [[ ! -f $t && -f tests/$t.sh ]]; then t=tests/$t.sh; fi
			echo "$t"
		done
		return
	fi
	for t in tests/*.sh; do
		[[ " ${NOT_TESTS[*]} " == *" $t "* ]] || left_out "$t" || echo "$t"
	done | LC_ALL=C sort
}

# left_out TEST: TEST's header has "# leave-out: TAG" for a TAG of
# $CHECK_LEAVE_OUT.
left_out() {
	local tag
	for tag in ${CHECK_LEAVE_OUT:-}; do
		head -n 30 "$1" | grep -qxF "# leave-out: $tag" && return 0
	done
	return 1
}

# say_left_out: one comment line naming the tests CHECK_LEAVE_OUT dropped.
say_left_out() {
	local t out=()
	[[ -z ${T:-} && -n ${CHECK_LEAVE_OUT:-} ]] || return 0
	for t in tests/*.sh; do
		if left_out "$t"; then out+=("${t#tests/}"); fi
	done
	echo "# left out (leave-out: $CHECK_LEAVE_OUT): ${#out[@]} tests: ${out[*]}"
}

# run_guest TEST...: one boot for all tests; then every selected test must
# have a result line in the guest's runner.out.
run_guest() {
	local rc=0 t why=''
	local -A seen=()
	echo "# guest tests ($# selected)"
	# A results directory left by an earlier run must not pass for this
	# one's: run-guest.sh writes this id into it.
	export KSTAT_RUN_ID=$$.${EPOCHREALTIME/./}
	relay < <(tests/vm/run-guest.sh "$@" 2>&1)
	wait $! || rc=$?

	if [[ $(cat "$RESULTS/run-id" 2>/dev/null) == "$KSTAT_RUN_ID" ]]; then
		if [[ -f $RESULTS/runner.out ]]; then
			while IFS= read -r t; do
				if [[ $t =~ ^(ok|not\ ok|skip)\ -\ ([^ :]+) ]]; then
					seen[${BASH_REMATCH[2]}]=1
				fi
			done < "$RESULTS/runner.out"
		fi
		why=$(cat "$RESULTS/guest-failure" 2>/dev/null)
	elif ((rc != 0)); then
		why="could not start the guest: ${LAST_SAID:-tests/vm/run-guest.sh exit status $rc}"
	fi
	if [[ -n $why ]]; then
		fail "<guest>" "$why"
	elif ((rc >= 2)); then
		fail "<guest>" "tests/vm/run-guest.sh exit status $rc"
	fi
	for t in "$@"; do
		[[ -n ${seen[$t]:-} ]] || fail "$t" "no result (the guest run ended before it)"
	done
}

# also_settings: the distinct "# also:" settings of the selected tests,
# one per line, in the order first seen.
also_settings() {
	local t line
	local -A seen=()
	for t in "${tests[@]}"; do
		while IFS= read -r line; do
			line=${line#"# also: "}
			[[ -n ${seen[$line]:-} ]] || echo "$line"
			seen[$line]=1
		done < <(head -n 30 "$t" | grep -x '# also: .*')
	done
}

# also_tests SETTINGS: of the selected tests, those with "# also: SETTINGS".
also_tests() {
	local t
	for t in "${tests[@]}"; do
		head -n 30 "$t" | grep -qxF "# also: $1" && echo "$t"
	done
}

# run_also SETTINGS TEST...: one more boot with SETTINGS: SMP=N sets its
# CPUs, KSTAT_APPEND=PARAM adds to its kernel command line.  Anything else
# in a header is a mistake, reported as a failure rather than ignored.
run_also() {
	local settings=$1 word
	local SMP=${SMP:-2} KSTAT_APPEND=${KSTAT_APPEND:-}
	export SMP KSTAT_APPEND
	shift
	for word in $settings; do
		case $word in
		SMP=[0-9]*) SMP=${word#SMP=} ;;
		KSTAT_APPEND=?*) KSTAT_APPEND+=" ${word#KSTAT_APPEND=}" ;;
		*)
			fail "<also>" "'# also: $settings' in $1: $word is not SMP=N or KSTAT_APPEND=PARAM"
			return ;;
		esac
	done
	echo "# again with $settings"
	run_guest "$@"
}

main() {
	local -a tests more settings
	local setting
	cd "$REPO" || exit 1
	[[ ${CHECK_UNIT:-1} == 0 ]] || run_unit
	mapfile -t tests < <(select_tests)
	say_left_out
	if ((${#tests[@]})); then
		run_guest "${tests[@]}"
	fi
	# More boots, only for the full suite: tests that also run on more
	# CPUs or with a boot parameter (one boot per distinct setting).
	if [[ ${CHECK_SMP8:-1} == 0 ]]; then
		echo "# no '# also:' boots (CHECK_SMP8=0)"
	elif [[ -z ${T:-} ]]; then
		mapfile -t settings < <(also_settings)
		for setting in "${settings[@]}"; do
			# this boot had it already (SMP=8 make check)
			[[ $setting != "SMP=${SMP:-2}" ]] || continue
			mapfile -t more < <(also_tests "$setting")
			run_also "$setting" "${more[@]}"
		done
	fi
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	((FAILED == 0))
}

# Sourced (tests/unit/test_leave_out), it only defines the functions.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
