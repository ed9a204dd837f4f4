#!/bin/bash
# Proves: anyone may read the configuration, only CAP_NET_ADMIN may change
# it (an unprivileged `kstat config set` fails clearly and changes
# nothing), bounds are enforced with the kernel's message, and a change
# is announced in the stream.
source tests/lib.sh
require_cmd jq
require_cmd setpriv
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10 sections all percpu off

nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }

before=$("$KSTAT" -j config show)
assert_exit 0 nobody "$KSTAT" -j config show
assert_eq "$before" "$T_OUT" "config as seen by an unprivileged user"
assert_exit 1 nobody "$KSTAT" config set interval 500
assert_match '^kstat: .*CAP_NET_ADMIN' "$T_ERR" "unprivileged config set error"
assert_eq "$before" "$("$KSTAT" -j config show)" "config after a refused change"

assert_exit 1 "$KSTAT" config set interval 9
assert_match 'interval below the 10 ms minimum' "$T_ERR" "interval 9 rejected"
assert_exit 1 "$KSTAT" config set interval 4294967295
assert_match '^kstat: ' "$T_ERR" "interval 2^32-1 rejected"
assert_exit 1 "$KSTAT" config set batch 0
assert_exit 2 "$KSTAT" config set sections bogus
assert_eq "$before" "$("$KSTAT" -j config show)" "config after rejected changes"

assert_exit 0 "$KSTAT" config set interval 250 batch 2 keyframe 3 sections cpu,irq percpu on
assert_eq '{"interval_ms":250,"batch":2,"keyframe":3,"sections":["cpu","irq"],"percpu":true}' \
	"$("$KSTAT" -j config show | jq -c 'del(.limits)')" "config after a change"

# Announced in the stream: samples after a change carry the new config.
"$KSTAT" config set interval 100 batch 1 keyframe 50
timeout -s INT "$(t_scaled 10)" "$KSTAT" -j monitor count 30 >"$TMPDIR/m" &
pid=$!
sleep 1
"$KSTAT" config set keyframe 7
wait $pid || true
assert_match '"keyframe":7' "$(jq -c .config "$TMPDIR/m")" "config change announced in the stream"
