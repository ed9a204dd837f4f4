#!/bin/bash
# Proves: anyone may read the configuration, only CAP_NET_ADMIN may change
# it (an unprivileged `kstat config set` fails clearly and changes
# nothing), bounds are enforced with the kernel's message, and a change
# applies to the default stream at once: after `config set sections cpu`
# its samples carry the cpu section alone, after `sections irq` the irq
# section alone.  (Samples no longer carry the config: protocol 5.)
source tests/lib.sh
require_cmd jq
require_cmd setpriv
t_cleanup config_reset

nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups --inh-caps=-all --bounding-set=-all -- "$@"; }

before=$("$KSTAT" -j config show)
assert_exit 0 nobody "$KSTAT" -j config show
assert_eq "$before" "$T_OUT" "config as seen by an unprivileged user"
assert_exit 1 nobody "$KSTAT" config set interval 500
assert_match '^kstat: .*CAP_NET_ADMIN' "$T_ERR" "unprivileged config set error"
assert_eq "$before" "$("$KSTAT" -j config show)" "config after a refused change"

assert_exit 1 "$KSTAT" config set interval 9
assert_match 'interval below 10 ms' "$T_ERR" "interval 9 rejected"
assert_exit 1 "$KSTAT" config set interval 60001
assert_match 'interval above 60000 ms' "$T_ERR" "interval 60001 rejected"
assert_exit 1 "$KSTAT" config set interval 4294967295
assert_match '^kstat: ' "$T_ERR" "interval 2^32-1 rejected"
assert_exit 1 "$KSTAT" config set batch 0
assert_exit 1 "$KSTAT" config set batch 65
assert_exit 2 "$KSTAT" config set sections bogus
assert_eq "$before" "$("$KSTAT" -j config show)" "config after rejected changes"

assert_exit 0 "$KSTAT" config set interval 250 batch 2 sections cpu,irq percpu on
assert_eq '{"interval_ms":250,"batch":2,"sections":["cpu","irq"],"percpu":true,"netns":false}' \
	"$("$KSTAT" -j config show | jq -c 'del(.limits)')" "config after a change"

# A change applies to the default stream: its samples carry what the
# config names, from the first tick after the change.
"$KSTAT" config set interval 100 batch 1 sections cpu percpu off
"$KSTAT" -j monitor >"$TMPDIR/m" 2>"$TMPDIR/m.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 10 "$TMPDIR/m" 3
t=$(boottime_ns)
"$KSTAT" config set sections irq
# a tick may have read the old config before the set returned: one sample
monitor_wait 10 "$TMPDIR/m" 3 "$t"
t_term $mon 5
cat "$TMPDIR/m.err" >&2
keys() { jq -c --argjson t "$2" "$T_PUSHED"' | select(.timestamp_ns '"$1"' $t) |
	[keys[] | select(. == "cpu" or . == "irq" or . == "softirq")]' "$TMPDIR/m" | sort -u | tr '\n' ' '; }
assert_eq '["cpu"] ' "$(keys '<' "$t")" "sections of the samples under sections cpu"
assert_eq '["irq"] ' "$("$KSTAT" -j monitor count 3 | jq -c "$T_PUSHED"' | [keys[] | select(. == "cpu" or . == "irq" or . == "softirq")]' | sort -u | tr '\n' ' ')" \
	"sections of a new listener's samples under sections irq"
after=$(keys '>' "$t")
[[ $after == *'["irq"]'* ]] || t_fail "no sample with the irq section alone after the change: $after"
