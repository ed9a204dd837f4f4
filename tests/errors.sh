#!/bin/bash
# Proves: bad requests get a real errno and the kernel's explanation: from
# the CLI (exit 1, "kstat: <kernel message>") and from crafted messages
# (tests/tools/nlraw cases, tests/tools/cases.c): a generated table of
# 150+ requests - framing the kernel drops, truncated and bad genl
# headers, bad flags, unknown commands, unknown and foreign attributes,
# wrong lengths, NLA_F_NESTED missing or unexpected, oversized attributes
# and lists, CPU/IRQ/interval values at and past each bound, missing
# attributes, attributes a do or a dump does not take - for every command,
# as do and as dump.  Each must get its exact errno, extack text, attribute
# offset and missing-attribute report; afterwards the kernel still serves,
# and a shorter interval ends the hour-long wait the table left behind.
source tests/lib.sh
require_kstat
t_cleanup "$KSTAT" config set interval 1000 batch 1 keyframe 10 sections all percpu off

assert_exit 1 "$KSTAT" irq show 999999
assert_match '^kstat: .*no such IRQ' "$T_ERR" "CLI error for an unknown IRQ"

assert_exit 1 "$KSTAT" cpu show 4000
assert_match '^kstat: .*CPU out of range' "$T_ERR" "CLI error for an unknown CPU"

out=$(tests/tools/nlraw cases) || { echo "$out"; t_fail "malformed-request table: $(tail -n 1 <<<"$out")"; }
t_log "$(grep '^categories:' <<<"$out")"
t_log "$(tail -n 1 <<<"$out")"
[[ $(tail -n 1 <<<"$out") =~ ^cases:\ ([0-9]+)\ passed,\ 0\ failed$ ]] ||
	t_fail "no summary line from nlraw cases"
((BASH_REMATCH[1] >= 150)) || t_fail "only ${BASH_REMATCH[1]} cases ran, expected 150 or more"

# The table's SUBSCRIBE started the producer under its last valid config
# (interval KSTAT_INTERVAL_MAX_MS, a minute; batch 64): its next tick is a
# minute away.  A shorter interval must bring that tick forward, or
# summaries stall until then.
"$KSTAT" config set interval 100 batch 1
assert_ok timeout 20 "$KSTAT" -j monitor count 2
assert_match '"seq"' "$T_OUT" "samples after the interval went from 1 h to 100 ms"

# Still healthy: normal requests work.
assert_ok "$KSTAT" -j cpu show
assert_ok "$KSTAT" -j irq show
assert_ok "$KSTAT" -j config show
