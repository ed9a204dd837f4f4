#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/demo.sh - what `make run` shows in the guest: kstat loaded, the
# family as generic netlink lists it, a few requests, then `kstat watch`
# for a few intervals.  Not a test.

set -u
export PATH=$KSTAT_ROOT/userspace/cli:$PATH

step() {
	printf '\n\033[1m$ %s\033[0m\n' "$*"
	"$@"
}

step genl ctrl get name kstat
step kstat cpu show
step kstat irq show 0-15
step kstat softirq show
step kstat config show
step kstat watch count 3
step kstat watch irq interval 2s count 2 top 5
step kstat stats
