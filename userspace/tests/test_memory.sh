#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test: the C unit tests again, built with
# -fsanitize=address,undefined, and then under valgrind memcheck; any
# sanitizer report, memcheck error or definite leak fails.
set -u
cd "$(dirname "$0")/.." || exit 1
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
failed=0

# A private copy of the sources only (no objects from the normal build,
# which make would take as up to date), so that build is left alone.
mkdir -p "$build/lib" "$build/tests" "$build/cli"
cp lib/*.c lib/*.h lib/*.map lib/*.pc.in "$build/lib/"
# test_json_print, test_print, test_cli_numbers; test_rates, test_frame_due;
# test_export_counters
cp cli/json_print.[ch] cli/print.[ch] cli/utils.[ch] cli/rates.[ch] cli/sample.[ch] \
   cli/irqlabels.[ch] cli/kstat.h cli/export-counters.[ch] "$build/cli/"
cp tests/*.c tests/*.h "$build/tests/"
cp Makefile "$build/"
if make -s -C "$build" tests UAPI_DIR="$PWD/../include/uapi" \
	EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -O1" \
	EXTRA_LDFLAGS="-fsanitize=address,undefined" >"$build/log" 2>&1; then
	echo "ok - unit tests build with ASan and UBSan"
	if ! nm "$build/tests/test_parse" | grep -q __asan_init; then
		echo "not ok - the sanitized build has no ASan runtime"
		exit 1
	fi
else
	echo "not ok - unit tests build with ASan and UBSan: $(tail -3 "$build/log")"
	exit 1
fi
for t in "$build"/tests/test_*; do
	[[ -x $t && $t != *.sh ]] || continue
	name=${t##*/}
	if KSTAT_FIXTURES=$PWD/../tests/fixtures \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$t" >"$build/$name.out" 2>&1; then
		echo "ok - $name under ASan/UBSan"
	else
		echo "not ok - $name under ASan/UBSan: $(grep -m1 -E 'ERROR|runtime error|not ok' "$build/$name.out")"
		failed=1
	fi
done
for t in tests/test_*; do
	[[ -x $t && $t != *.sh ]] || continue
	if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		"$t" >"$build/vg.out" 2>&1; then
		echo "ok - ${t##*/} under valgrind: 0 errors, 0 definite leaks"
	else
		echo "not ok - ${t##*/} under valgrind: $(grep -m1 -E '==[0-9]+==' "$build/vg.out")"
		failed=1
	fi
done
exit $failed
