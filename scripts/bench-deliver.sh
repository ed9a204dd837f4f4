#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-deliver.sh [OLD_KO]: bench/guest-deliver.sh in one 2-CPU
# guest, OLD_KO (kstat.ko built from an older commit, for the same
# kernel) beside this tree's kernel/kstat.ko: the default stream's cost
# and sample spacing quiet, with 256 subscribed user+net namespaces and
# under a SUBSCRIBE storm (docs/robustness.md).  Results in
# build/deliver/deliver.txt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p build/deliver
rm -f build/deliver/old.ko
[[ -z ${1:-} ]] || cp "$1" build/deliver/old.ko
tests/vm/run-guest.sh bench/guest-deliver.sh
cp build/vm/results/bench/deliver.txt build/deliver/
cat build/deliver/deliver.txt
