#!/bin/bash
# Proves: up to 100000 random and mutated requests, 25 s of them
# (tests/tools/fuzz.c, fixed seed: "nlraw fuzz -n N -s 20261130" with the
# N it reports sends the same messages again) - every command, as
# do and as dump, random nesting, truncation, lengths, flags, bit flips,
# joining and leaving "summary" - each get an answer when one is due (no
# hang, none lost), the kernel still serves afterwards, and dmesg stays
# clean (the harness checks).  The long run is tests/long/fuzz-long.sh
# (make fuzz).
# timeout: 120
source tests/lib.sh
require_kstat
t_cleanup config_reset

SEED=20261130
t_log "nlraw fuzz -n 100000 -d 25 -s $SEED"
out=$(tests/tools/nlraw fuzz -n 100000 -d 25 -s "$SEED" -t 10 2>&1) ||
	{ echo "$out"; t_fail "fuzzer (seed $SEED): $(grep -m1 -E 'no answer|hangs' <<<"$out")"; }
echo "$out" >&2
assert_match '^fuzz: hangs 0, lost answers 0$' "$out" "fuzzer result"
[[ $out =~ fuzz:\ seed\ [0-9]+:\ ([0-9]+)\ messages ]] || t_fail "no message count from the fuzzer"
((BASH_REMATCH[1] >= 2000)) || t_fail "only ${BASH_REMATCH[1]} messages in 25 s"

assert_ok "$KSTAT" -j cpu show
assert_ok "$KSTAT" -j irq show
