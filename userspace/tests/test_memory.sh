#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test: the C unit tests again, built with
# -fsanitize=address,undefined (leaks included), and the library's under
# valgrind memcheck; any sanitizer report, memcheck error or definite
# leak fails, and so does a test that does not build.  A test that skips
# (77) is said, not failed.
set -u
cd "$(dirname "$0")/.." || exit 1
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
failed=0

# A private copy of the sources only (no objects from the normal build,
# which make would take as up to date), so that build is left alone.
mkdir -p "$build/lib" "$build/tests" "$build/cli"
cp lib/*.c lib/*.h lib/*.map lib/*.pc.in "$build/lib/"
cp cli/*.c cli/*.h "$build/cli/"	# the CLI's unit tests link its objects
cp tests/*.c tests/*.h "$build/tests/"
cp Makefile "$build/"
jobs=$(($(nproc) * 2))
make -k -s -j"$jobs" -C "$build" tests UAPI_DIR="$PWD/../include/uapi" \
	EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -O1" \
	EXTRA_LDFLAGS="-fsanitize=address,undefined" >"$build/log" 2>&1
if nm "$build/tests/test_parse" 2>/dev/null | grep -q __asan_init; then
	echo "ok - the unit tests build with ASan and UBSan"
else
	echo "not ok - test_parse built with ASan: $(grep -m3 -E 'error' "$build/log")"
	exit 1
fi

# start NAME CMD...: run CMD in the background, its output and status
# kept under NAME; at most $jobs at once (valgrind is slow to start).
start() {
	local name=$1
	shift
	while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
	{ "$@" >"$build/$name.out" 2>&1; echo $? >"$build/$name.rc"; } &
}

# report NAME WHAT: one line for what start() ran.
report() {
	local rc
	rc=$(cat "$build/$1.rc")
	case $rc in
	0) echo "ok - $2" ;;
	77) echo "skip - $2: $(sed -n 's/^SKIP: //p' "$build/$1.out")" ;;
	*) echo "not ok - $2: $(grep -m1 -E 'ERROR|runtime error|not ok|==[0-9]+==' "$build/$1.out")"
	   failed=1 ;;
	esac
}

names=()
for src in tests/test_*.c; do
	name=$(basename "$src" .c)
	if [[ ! -x $build/tests/$name ]]; then
		echo "not ok - $name does not build with ASan: $(grep -m1 -E "$name|error" "$build/log")"
		failed=1
		continue
	fi
	names+=("$name")
	start "$name.asan" env KSTAT_FIXTURES="$PWD/../tests/fixtures" \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$build/tests/$name"
done
# valgrind sees what ASan does not (reads of uninitialised bytes) and
# is slow: the library's tests under it (those that link no CLI object).
vg=()
for t in tests/test_*; do
	[[ -x $t && $t != *.sh && -f $t.c ]] || continue
	grep -q '\.\./cli/' "$t.c" && continue
	vg+=("$t")
	start "${t##*/}.vg" valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$t"
done
wait
for name in "${names[@]}"; do
	report "$name.asan" "$name under ASan/UBSan"
done
for t in "${vg[@]}"; do
	report "${t##*/}.vg" "${t##*/} under valgrind: 0 errors, 0 definite leaks"
done
exit $failed
