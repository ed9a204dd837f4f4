#!/bin/bash
# Proves: kstat behaves the same in any network and user namespace, as
# documented in docs/protocol.md ("Privilege and namespaces"): counters
# are host-wide (a new netns, and a new user+net namespace, read the same
# IRQ counts as the host, exactly), summaries reach listeners in every
# namespace (a monitor in each netns and on the host see the same
# samples), joining and SUBSCRIBE work from a container, and
# CONFIG_SET needs CAP_NET_ADMIN in the initial user namespace: root of a
# user namespace gets EPERM, root of a mere network namespace does not.
source tests/lib.sh
require_cmd unshare jq
require_kstat
t_cleanup config_reset

in_net() { unshare --net -- "$@"; }
in_userns() { unshare --user --map-root-user --net -- "$@"; }

in_userns true || t_skip "cannot create a user namespace here"

# Host-wide counters: fire a synthetic IRQ, read it from everywhere.
irqsim_load irqs=1
irq=$(irqsim_irq 0)
irqsim_fire 0 0 37
host=$("$KSTAT" -j irq show "$irq" | jq '.[0].count')
assert_eq 37 "$host" "IRQ $irq count on the host"
assert_eq "$host" "$(in_net "$KSTAT" -j irq show "$irq" | jq '.[0].count')" "count in a new netns"
assert_eq "$host" "$(in_userns "$KSTAT" -j irq show "$irq" | jq '.[0].count')" "count in a user+net namespace"
for cmd in "cpu show" "softirq show" "config show" "stats show"; do
	# shellcheck disable=SC2086
	assert_ok in_userns "$KSTAT" -j $cmd
done
assert_eq "$("$KSTAT" -j config show)" "$(in_userns "$KSTAT" -j config show)" "config in a user+net namespace"

# Summaries in every namespace: the same samples for all three.  The
# monitors run until 5 samples have reached all three (or the time limit).
"$KSTAT" config set interval 200
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

# Joining and SUBSCRIBE from a container: ENOTCONN before joining, then
# an ACK (nobody else listens now).
assert_ok in_userns tests/tools/nlraw cases subscribe
t_log "SUBSCRIBE in a user+net namespace: $(tail -n 1 <<<"$T_OUT")"

# CONFIG_SET: host-wide, so root of a user namespace may not.
assert_exit 1 in_userns "$KSTAT" config set interval 300
assert_match '^kstat: .*CAP_NET_ADMIN' "$T_ERR" "config set from a user namespace"
assert_eq 200 "$("$KSTAT" -j config show | jq .interval_ms)" "interval after the refused change"
assert_ok in_net "$KSTAT" config set interval 300
assert_eq 300 "$("$KSTAT" -j config show | jq .interval_ms)" "interval set by root in a new netns"
