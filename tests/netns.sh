#!/bin/bash
# Proves: the counters are host-wide, so kstat answers in the initial
# network namespace only, unless the admin opens it (docs/protocol.md,
# "Namespaces"):
#  - netns off (the default): in a new netns, and in a new user+net
#    namespace, every command that asks the kernel exits 1 with the
#    kernel's reason ("initial network namespace") and prints nothing;
#    a listener there gets no sample while the host's does;
#  - `kstat config set netns on` (root, initial user namespace): the same
#    IRQ counts as the host, exactly, in both; the config and stats; the
#    same samples for a monitor in each namespace and on the host;
#    SUBSCRIBE from a container (nlraw cases subscribe);
#  - CONFIG_SET needs CAP_NET_ADMIN in the initial user namespace: root of
#    a user namespace gets EPERM (netns on or off), root of a mere network
#    namespace may set it once the family answers there;
#  - `config set netns off` closes it again.
source tests/lib.sh
require_cmd unshare jq
require_kstat
t_cleanup config_reset

in_net() { unshare --net -- "$@"; }
in_userns() { unshare --user --map-root-user --net -- "$@"; }

in_userns true || t_skip "cannot create a user namespace here"
irqsim_load irqs=1
t_cleanup irqsim_unload
irq=$(irqsim_irq 0)
irqsim_fire 0 0 37
assert_eq false "$("$KSTAT" -j config show | jq .netns)" "netns in a fresh module's config"

# Closed: every request refused, with the kernel's reason.
for ns in in_net in_userns; do
	for cmd in "cpu show" "irq show $irq" "softirq show" "config show" "stats"; do
		# shellcheck disable=SC2086
		assert_exit 1 $ns "$KSTAT" -j $cmd
		assert_match '^kstat: .*initial network namespace' "$T_ERR" "$ns kstat $cmd with netns off"
		assert_eq "" "$T_OUT" "$ns kstat $cmd's output with netns off"
	done
done
# ... and its listeners get nothing while the host's get samples.
"$KSTAT" config set interval 200
in_net timeout -s INT "$(t_scaled 4)" "$KSTAT" -j monitor >"$TMPDIR/closed" 2>"$TMPDIR/closed.err" &
closed=$!
assert_ok timeout -s INT "$(t_scaled 20)" "$KSTAT" -j monitor count 5
wait $closed || true
assert_eq 0 "$(monitor_count "$TMPDIR/closed")" "samples reaching a listener in a netns with netns off"
t_log "a monitor in a netns with netns off: $(head -c 200 "$TMPDIR/closed.err")"

# Open: the same counters everywhere.
assert_ok "$KSTAT" config set netns on
assert_eq true "$("$KSTAT" -j config show | jq .netns)" "netns after config set netns on"
host=$("$KSTAT" -j irq show "$irq" | jq '.[0].count')
assert_eq 37 "$host" "IRQ $irq count on the host"
assert_eq "$host" "$(in_net "$KSTAT" -j irq show "$irq" | jq '.[0].count')" "count in a new netns"
assert_eq "$host" "$(in_userns "$KSTAT" -j irq show "$irq" | jq '.[0].count')" "count in a user+net namespace"
for cmd in "cpu show" "softirq show" "config show" "stats"; do
	# shellcheck disable=SC2086
	assert_ok in_userns "$KSTAT" -j $cmd
done
assert_eq "$("$KSTAT" -j config show)" "$(in_userns "$KSTAT" -j config show)" "config in a user+net namespace"

# Samples in every namespace: the same ones for all three monitors, which
# run until 5 samples have reached all three (or the time limit).
limit=$(t_scaled 60)
timeout -s INT "$limit" "$KSTAT" -j monitor >"$TMPDIR/host" &
h=$!
# unshare execs timeout, so $! is the process to signal.
unshare --net -- timeout -s INT "$limit" "$KSTAT" -j monitor >"$TMPDIR/net" &
n=$!
unshare --user --map-root-user --net -- timeout -s INT "$limit" "$KSTAT" -j monitor >"$TMPDIR/user" &
u=$!
stop_monitors() { kill -INT $h $n $u 2>/dev/null; wait $h $n $u; true; }
t_cleanup stop_monitors
files=("$TMPDIR/host" "$TMPDIR/net" "$TMPDIR/user")
enough_common() { (($(common_samples "${files[@]}") >= 5)); }
wait_until 30 enough_common
stop_monitors
for f in "${files[@]}"; do
	t_log "${f##*/}: $(monitor_samples "$f" | wc -l) samples"
done
common=$(common_samples "${files[@]}")
t_log "samples seen in all three namespaces: $common"
((common >= 5)) || t_fail "expected >= 5 samples common to host, netns and userns, got $common"

# SUBSCRIBE from a container: ENOTCONN before joining, then an ACK.
assert_ok in_userns tests/tools/nlraw cases subscribe
t_log "SUBSCRIBE in a user+net namespace: $(tail -n 1 <<<"$T_OUT")"

# CONFIG_SET: host-wide, so root of a user namespace may not.
assert_exit 1 in_userns "$KSTAT" config set interval 300
assert_match '^kstat: .*CAP_NET_ADMIN' "$T_ERR" "config set from a user namespace"
assert_eq 200 "$("$KSTAT" -j config show | jq .interval_ms)" "interval after the refused change"
assert_ok in_net "$KSTAT" config set interval 300
assert_eq 300 "$("$KSTAT" -j config show | jq .interval_ms)" "interval set by root in a new netns"

# Closed again.
assert_ok "$KSTAT" config set netns off
assert_exit 1 in_net "$KSTAT" -j cpu show
assert_match '^kstat: .*initial network namespace' "$T_ERR" "a netns after config set netns off"
