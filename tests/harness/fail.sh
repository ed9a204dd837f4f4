#!/bin/bash
# Deliberately failing test for tests/harness.sh (not run directly).
source tests/lib.sh

t_log "about to fail"
assert_eq 1 2 "harness self-test value"
echo "not reached"
