#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# timeout: 240
#
# Proves the harness reports failures: runs tests/vm/guest-runner.sh (the
# very runner of this suite) over the deliberately bad tests in
# tests/harness/ with a 5 s limit and checks what it says about each:
#   pass.sh   ok, though it leaves kstat unloaded and kstat_irqsim loaded
#   fail.sh   not ok, with the failed assertion's message
#   hang.sh   not ok, timed out; its cleanup ran on SIGTERM, and its child
#             that ignores SIGTERM was killed all the same
#   warn.sh   not ok, kernel log: the WARNING it provoked
#   skip.sh   skip, with its reason
#   orphan.sh not ok, "left running": a process it started in a session
#             of its own (as tmux or a daemon does), out of reach of the
#             group kill; the runner names it and kills it
#   a missing test: not ok
# and the summary line.  After the run, kstat is loaded again and
# kstat_irqsim is gone.
#
# The WARNING of warn.sh is in this test's kernel log too.  warn.sh carries
# an "# expect: kernel-warning" header, so the inner runner brackets its run
# with "kstat-harness: expected-warn begin/end" markers, and the runner
# running this test skips exactly that region of the log (see
# docs/testing.md).  Any other kernel complaint still fails this test.
#
# It runs no kstat.ko code beyond loading it: CI's debug stage leaves it
# out (the harness is the same shell on every kernel; make check, rt and
# 6.12 run it).
# leave-out: no-kstat-code
source tests/lib.sh

had_kstat=0
kstat_loaded && had_kstat=1

export HARNESS_STATE=$TMPDIR/state
mkdir "$HARNESS_STATE"
out=$TMPDIR/runner.out
rc=0
# The runner multiplies the 5 s by KSTAT_TIMEOUT_SCALE (make check-debug).
limit=$((5 * ${KSTAT_TIMEOUT_SCALE:-1}))
t_log "running the harness on tests/harness/ (6 tests, one times out after $limit s)"
tests/vm/guest-runner.sh --timeout 5 --kill-grace 2 \
	tests/harness/pass.sh tests/harness/fail.sh tests/harness/hang.sh \
	tests/harness/warn.sh tests/harness/skip.sh tests/harness/orphan.sh \
	tests/harness/missing.sh \
	> "$out" 2>&1 || rc=$?
sed 's/^/  | /' "$out" >&2
res=$(< "$out")

assert_match '^ok - tests/harness/pass\.sh \([0-9]+\.[0-9]s\)$' "$res" "pass.sh"
assert_match "^not ok - tests/harness/fail\.sh: harness self-test value: expected '1', got '2'$" \
	"$res" "fail.sh"
assert_match "^    FAIL: harness self-test value" "$res" "fail.sh's output tail"
assert_match "^not ok - tests/harness/hang\\.sh: timed out after ${limit}s\$" "$res" "hang.sh"
[[ -f $IRQSIM_KO ]] || t_fail "$IRQSIM_KO is not built (make irqsim): warn.sh cannot warn"
assert_match '^not ok - tests/harness/warn\.sh: kernel log: WARNING: .*kstat_irqsim' \
	"$res" "warn.sh"
assert_match '^    --- kernel log:$' "$res" "kernel log excerpt for warn.sh"
assert_match '^skip - tests/harness/skip\.sh: harness self-test skip$' "$res" "skip.sh"
assert_match '^not ok - tests/harness/missing\.sh: no such test$' "$res" "a missing test"
assert_match '^not ok - tests/harness/orphan\.sh: left running: [0-9]+ sleep 997 \(killed\)$' \
	"$res" "orphan.sh"
left=''
for d in /proc/[0-9]*; do
	args=()
	{ mapfile -t -d '' args < "$d/cmdline"; } 2>/dev/null || true
	[[ ${args[*]} != "sleep 997" ]] || left+=" ${d#/proc/}"
done
assert_eq '' "$left" "orphan.sh's sleep 997 killed"
assert_eq "1 passed, 5 failed, 1 skipped" "$(tail -n 1 "$out")" "summary line"
assert_eq 1 "$rc" "runner exit status"

# hang.sh: cleanups run on SIGTERM, SIGKILL reaches what ignores SIGTERM.
[[ -e $HARNESS_STATE/hang-cleanup-ran ]] || t_fail "hang.sh's cleanup did not run on timeout"
child=$(< "$HARNESS_STATE/hang-child.pid")
if kill -0 "$child" 2> /dev/null; then
	t_fail "hang.sh's child $child (ignores SIGTERM) survived the timeout"
fi

# The runner restored the module state after each test.
irqsim_loaded && t_fail "kstat_irqsim is still loaded after the harness run"
if ((had_kstat)); then
	kstat_loaded || t_fail "kstat was not reloaded after pass.sh unloaded it"
fi
t_log "all harness checks passed"
