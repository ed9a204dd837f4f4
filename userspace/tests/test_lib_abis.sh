#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test: libkstat's sources compile for i386 (-m32) and x32
# (-mx32), warnings as errors (make -C userspace lib-abis): size_t and
# pointers are 32-bit there, and the 2.0 sizes of the structs passed with
# their size (internal.h) are ends of members, right on every ABI.
# Compile-only: libnl's 32-bit libraries are not needed.
set -u
cd "$(dirname "$0")/.." || exit 1
for abi in -m32 -mx32; do
	if ! echo '#include <stdint.h>' | ${CC:-cc} "$abi" -fsyntax-only -x c - 2>/dev/null; then
		echo "SKIP: ${CC:-cc} $abi cannot compile: install gcc-multilib (scripts/install-deps.sh)"
		exit 77
	fi
done
failed=0
for abi in -m32 -mx32; do
	if out=$(make -s lib-abis LIB_ABIS="$abi" 2>&1); then
		echo "ok - libkstat's sources compile with $abi, no warnings"
	else
		echo "not ok - libkstat's sources with $abi: $(grep -m1 -E 'error|warning' <<<"$out")"
		failed=1
	fi
done
exit $failed
