#!/bin/bash
# Proves: libkstat's kstat_last_error() describes the call that failed and
# is emptied by every call that asks the kernel (issue "Safety first",
# point 10: after a failed GET, a kstat_subscribe() that succeeded still
# returned the GET's "no such IRQ").  tests/tools/liberr: a GET of an IRQ
# that cannot exist fails with its explanation; the subscription that
# follows succeeds and leaves "", as does a config GET after another
# failed GET.
# timeout: 60
# leave-out: userspace-only
source tests/lib.sh
require_kstat
BIN=$KSTAT_ROOT/tests/tools/liberr
[[ -x $BIN ]] || t_fail "$BIN is not built (make tools)"

assert_ok "$BIN"
t_log "$T_OUT"
assert_match "^irq_get -[0-9]+ '.+'$" "$(sed -n 1p <<<"$T_OUT")" "the failed GET explains itself"
assert_eq "subscribe 0 ''" "$(sed -n 2p <<<"$T_OUT")" "kstat_last_error() after a subscription that succeeded"
assert_eq "config_get 0 ''" "$(sed -n 3p <<<"$T_OUT")" "kstat_last_error() after a config GET that succeeded"
