#!/bin/bash
# Proves: a million random and mutated requests (tests/tools/fuzz.c, a
# random seed, printed first) each get an answer when one is due, the
# kernel still serves afterwards, and dmesg stays clean (the harness
# checks).  Not part of make check (tests/long/ is not scanned): run by
# `make fuzz`.  The count can be changed only here: environment variables
# do not reach the guest.
# timeout: 7200
source tests/lib.sh
require_kstat
t_cleanup config_reset

COUNT=1000000
SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
t_log "nlraw fuzz -n $COUNT -s $SEED"
rc=0
tests/tools/nlraw fuzz -n "$COUNT" -s "$SEED" -t 30 >"$TMPDIR/fuzz.out" 2>&1 || rc=$?
cat "$TMPDIR/fuzz.out" >&2
((rc == 0)) || t_fail "fuzzer (seed $SEED) exit $rc: $(grep -m1 -E 'no answer|hangs' "$TMPDIR/fuzz.out")"
assert_match '^fuzz: hangs 0, lost answers 0$' "$(<"$TMPDIR/fuzz.out")" "fuzzer result"

assert_ok "$KSTAT" -j cpu show
assert_ok "$KSTAT" -j irq show
