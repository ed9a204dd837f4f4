#!/bin/bash
# Proves: with no subscriber nothing runs: samples_taken does not move in
# 3 s, and the producer reports not running; with one, it does move (so
# this test can fail).
# Its kernel paths (the producer stopping with its last subscriber and
# starting with the first) run whenever any monitor test's monitor ends
# and starts; what it proves is a count.  So CI's debug stage leaves it
# out (32 s there).
# leave-out: kernel-paths-covered
source tests/lib.sh
require_cmd jq

stat_() { "$KSTAT" -j stats | jq -r ".$1"; }

timeout -s INT "$(t_scaled 3)" "$KSTAT" -j monitor count 2 >/dev/null
sleep 1.5	# the producer notices the empty group at its next tick
assert_eq false "$(stat_ running)" "producer running with no subscriber"
a=$(stat_ samples_taken)
sleep 3
b=$(stat_ samples_taken)
assert_eq "$a" "$b" "samples taken in 3 s without subscribers"

timeout -s INT "$(t_scaled 3)" "$KSTAT" -j monitor >/dev/null || true
c=$(stat_ samples_taken)
((c > b)) || t_fail "samples_taken did not move with a subscriber ($b -> $c)"
