#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-unit.sh - run the host unit tests.  Not a guest test.
#
# A unit test is an executable userspace/tests/test_* or tests/unit/test_*
# (built by `make userspace`).  Each prints TAP-like "ok - ..." / "not ok -
# ..." lines and exits non-zero on failure (77 = skip).  Each executable
# counts as one test, run from the repository root with LD_LIBRARY_PATH
# pointing at userspace/lib and stdin from /dev/null.
#
# Prints "ok - <path> (<secs>s)", "skip - <path>: ..." or "not ok - <path>:
# <reason>" plus the tail of its output, then "N passed, N failed, N
# skipped" (tests/check.sh adds that line to its own totals).  Exit status 1
# if any failed.
#
# Environment: UNIT_TIMEOUT (seconds per test, default 300: test_dkms builds
# the module for three kernels, 112 s on a quiet host here, and CI builds
# the debug kernel beside it); UNIT_VALGRIND=1
# runs each test under valgrind and fails it on any memory error or leak.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TIMEOUT=${UNIT_TIMEOUT:-300}
LOGDIR=$REPO/build/unit
TAIL_LINES=40
PASSED=0 FAILED=0 SKIPPED=0

# unit_tests: the unit test executables, sorted.
unit_tests() {
	local f
	for f in userspace/tests/test_* tests/unit/test_*; do
		[[ -f $f && -x $f ]] || continue
		case $f in *.c|*.h|*.o|*.d|*.log) continue ;; esac
		echo "$f"
	done | LC_ALL=C sort
}

# run_one TEST: run it, print its result line, count it.
run_one() {
	local t=$1 log rc=0 start secs reason
	local -a cmd=("./$t")
	log=$LOGDIR/${t//\//_}.log
	if [[ ${UNIT_VALGRIND:-0} == 1 ]]; then
		# shellcheck disable=SC2054  # the commas are valgrind syntax
		cmd=(valgrind -q --error-exitcode=99 --leak-check=full
		     --errors-for-leak-kinds=definite,indirect "./$t")
	fi
	start=${EPOCHREALTIME/./}
	timeout -k 5 "$TIMEOUT" "${cmd[@]}" < /dev/null > "$log" 2>&1 || rc=$?
	secs=$(( (${EPOCHREALTIME/./} - start + 50000) / 100000 ))

	case $rc in
	0)
		PASSED=$((PASSED + 1))
		echo "ok - $t ($((secs / 10)).$((secs % 10))s)"
		;;
	77)
		SKIPPED=$((SKIPPED + 1))
		reason=$(sed -n '/^SKIP: /{s///p;q;}' "$log")
		echo "skip - $t: ${reason:-no reason given}"
		;;
	*)
		FAILED=$((FAILED + 1))
		case $rc in
		124|137) reason="timed out after ${TIMEOUT}s" ;;
		99) reason="valgrind found memory errors" ;;
		*)
			reason=$(sed -n '/^not ok - /{s///p;q;}' "$log")
			reason="exit status $rc${reason:+; first failure: $reason}"
			;;
		esac
		echo "not ok - $t: $reason"
		tail -n "$TAIL_LINES" "$log" | sed 's/^/    /'
		;;
	esac
}

main() {
	local t
	cd "$REPO"
	mkdir -p "$LOGDIR"
	export LD_LIBRARY_PATH=$REPO/userspace/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	for t in $(unit_tests); do
		run_one "$t"
	done
	echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
	((FAILED == 0))
}

main "$@"
