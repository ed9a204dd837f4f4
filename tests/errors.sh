#!/bin/bash
# Proves: bad requests get a real errno and the kernel's explanation: from
# the CLI (exit 1, "kstat: <kernel message>") and from crafted messages
# (tests/tools/nlraw cases, tests/tools/cases.c): a generated table of
# 150+ requests - framing the kernel drops, truncated and bad genl
# headers, bad flags, unknown commands, unknown and foreign attributes,
# wrong lengths, NLA_F_NESTED missing or unexpected, oversized attributes
# and lists, CPU/IRQ/interval values at and past each bound, a range and
# a list together, attributes a do or a dump does not take - for every
# command, as do and as dump.  Each must get its exact errno, extack text
# and attribute offset; afterwards the kernel still serves.  And a
# shorter interval brings the next tick forward: with the default stream
# at 60 s (the ceiling) and a listener that has its first pushed sample,
# `config set interval 100` makes samples come at once, not a minute later.
source tests/lib.sh
require_kstat
t_cleanup config_reset

assert_exit 1 "$KSTAT" irq show 999999
assert_match '^kstat: .*no such IRQ' "$T_ERR" "CLI error for an unknown IRQ"

assert_exit 1 "$KSTAT" cpu show 4000
assert_match '^kstat: .*CPU out of range' "$T_ERR" "CLI error for an unknown CPU"

out=$(tests/tools/nlraw cases) || { echo "$out"; t_fail "malformed-request table: $(tail -n 1 <<<"$out")"; }
t_log "$(grep '^categories:' <<<"$out" || true)"
t_log "$(tail -n 1 <<<"$out")"
[[ $(tail -n 1 <<<"$out") =~ ^cases:\ ([0-9]+)\ passed,\ 0\ failed$ ]] ||
	t_fail "no summary line from nlraw cases"
((BASH_REMATCH[1] >= 150)) || t_fail "only ${BASH_REMATCH[1]} cases ran, expected 150 or more"

# The next tick a minute away, then a shorter interval: it comes at once.
"$KSTAT" config set interval 60000 batch 1
"$KSTAT" -j monitor >"$TMPDIR/mon" 2>"$TMPDIR/mon.err" &
mon=$!
t_cleanup t_kill $mon
monitor_wait 20 "$TMPDIR/mon" 1	# the state read on joining
sleep 1				# the producer runs, its next tick 59 s away
t=$(boottime_ns)
"$KSTAT" config set interval 100
monitor_wait 10 "$TMPDIR/mon" 3 "$t"
t_log "3 samples within $((($(boottime_ns) - t) / 1000000)) ms of the interval going from 60 s to 100 ms"
t_term $mon 5

# Still healthy: normal requests work.
assert_ok "$KSTAT" -j cpu show
assert_ok "$KSTAT" -j irq show
assert_ok "$KSTAT" -j config show
