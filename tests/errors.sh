#!/bin/bash
# Proves: bad requests get a real errno and the kernel's explanation: from
# the CLI (exit 1, "kstat: <kernel message>") and from crafted messages
# (tests/tools/nlraw: wrong types and lengths, out-of-range CPUs and IRQs,
# unknown attributes and commands, attributes an op does not take).
source tests/lib.sh

assert_exit 1 "$KSTAT" irq show 999999
assert_match '^kstat: .*no such IRQ' "$T_ERR" "CLI error for an unknown IRQ"

assert_exit 1 "$KSTAT" cpu show 4000
assert_match '^kstat: .*CPU out of range' "$T_ERR" "CLI error for an unknown CPU"

out=$(tests/tools/nlraw cases) || { echo "$out"; t_fail "malformed-request table"; }
t_log "$(tail -n 1 <<<"$out")"
