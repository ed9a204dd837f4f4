#!/bin/bash
# Proves: libkstat's kstat_last_error() describes the call that failed and
# is emptied by every call that asks the kernel (issue "Safety first",
# point 10: a kstat_subscribe() that succeeded after a failed GET still
# returned the GET's text).  tests/tools/liberr, one line per call: a GET
# the kernel refuses (a CPU far out of range) explains itself ("CPU out of
# range"); a CONFIG_GET, a STATS_GET and a GET that succeed after such a
# failure each leave ""; a subscription the kernel refuses (5 ms) says
# so at its first dispatch with the kernel's text, and one that works
# delivers a sample and leaves "".
# timeout: 60
# leave-out: userspace-only
source tests/lib.sh
require_kstat
BIN=$KSTAT_ROOT/tests/tools/liberr
[[ -x $BIN ]] || t_fail "$BIN is not built (make tools)"

assert_ok "$BIN"
t_log "$(tr '\n' ';' <<<"$T_OUT")"
line() { sed -n "${1}p" <<<"$T_OUT"; }
assert_eq "get -22 'CPU out of range'" "$(line 1)" "the failed GET explains itself"
assert_eq "config_get 0 ''" "$(line 2)" "kstat_last_error() after a CONFIG_GET that succeeded"
assert_match "^get -22 '.+'$" "$(line 3)" "a failed GET again"
assert_eq "stats_get 0 ''" "$(line 4)" "kstat_last_error() after a STATS_GET that succeeded"
assert_match "^get -22 '.+'$" "$(line 5)" "a failed GET again"
assert_eq "get 0 ''" "$(line 6)" "kstat_last_error() after a GET that succeeded"
assert_match "^sub_refused -22 '.*interval below 10 ms'$" "$(line 7)" "a refused subscription's error: the kernel's text"
assert_match "^sub [1-9][0-9]* ''$" "$(line 8)" "a subscription that works: samples, no error"
