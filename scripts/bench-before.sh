#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-before.sh [REV]: build protocol 4's kstat.ko and
# kstat-bench (commit REV, default ffdd1b0: the last of protocol 4) in
# build/before, for the kernel this tree builds against, so that `make
# bench` and `make bench-seed` measure the module before issue 38 in the
# same guest boot as this tree's: the guest scripts swap the modules and
# run build/before/bench/kstat-bench when these files are there
# (bench/guest-bench.sh, bench/guest-bench-seed.sh).  kstat-bench links
# its libkstat statically, so nothing else of the old tree is needed.
# BENCH_BEFORE= (empty) makes scripts/bench.sh and scripts/bench-seed.sh
# skip it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rev=${1:-ffdd1b0}
dir=build/before
KVER=${KVER:-$(scripts/kver.sh)}
KDIR=${KDIR:-/lib/modules/$KVER/build}
if [[ -f $dir/REV && $(<"$dir/REV") == "$(git rev-parse "$rev") $KVER" &&
      -f $dir/kernel/kstat.ko && -x $dir/bench/kstat-bench ]]; then
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
git archive "$rev" kernel userspace include bench Makefile | tar -x -C "$dir"
make -s -C "$KDIR" M="$PWD/$dir/kernel" CONFIG_KSTAT=m modules >"$dir/build.log" 2>&1
make -s -C "$dir/userspace" lib/libkstat.a >>"$dir/build.log" 2>&1
make -s -C "$dir/bench" kstat-bench >>"$dir/build.log" 2>&1
echo "$(git rev-parse "$rev") $KVER" >"$dir/REV"
echo "bench-before: protocol 4's kstat.ko and kstat-bench from $rev in $dir"
