#!/bin/bash
# Deliberately bad test for tests/harness.sh (not run directly): it passes
# its assertions but leaves a process running in a session of its own,
# out of reach of the runner's process-group kill, as a tmux server or a
# daemon would.  The runner must fail it, name the process and kill it.
source tests/lib.sh

# -f: always fork, so the sleep is in its own session before we go on.
setsid -f sleep 997 < /dev/null > /dev/null 2>&1
wait_until 10 pgrep -x -f 'sleep 997'
assert_eq 4 $((2 + 2)) "arithmetic"
