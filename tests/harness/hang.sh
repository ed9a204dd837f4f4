#!/bin/bash
# Deliberately hanging test for tests/harness.sh (not run directly).
# Its cleanup must run on the runner's SIGTERM, and its child, which ignores
# SIGTERM, must still be killed (SIGKILL to the process group).  It leaves
# evidence in $HARNESS_STATE.
source tests/lib.sh

HARNESS_STATE=${HARNESS_STATE:-$TMPDIR}
t_cleanup touch "$HARNESS_STATE/hang-cleanup-ran"
(trap '' TERM; exec sleep 1000) &
echo $! > "$HARNESS_STATE/hang-child.pid"
t_log "hanging"
sleep 1000
