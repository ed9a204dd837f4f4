#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ynl-tree.sh - unpack the kernel's own YNL tools and netlink
# schemas from Debian's linux-source-6.12 into build/ynl, once:
#
#   build/ynl/tools/net/ynl            cli.py, ynl-gen-c.py, lib/ (ynl.py,
#                                      ynl.c: the Python and C libraries)
#   build/ynl/Documentation/netlink    genetlink*.yaml, the specs' schemas
#
# 780 KB of the 140 MB tarball.  ynl-gen-c.py gets one patch,
# scripts/ynl-gen-c-multi-attr-string.patch: 6.12's generator makes no
# user C for a multi-attr string (kstat's irq "action"); with it, the
# user library of tests/ynl is generated from the spec in place.  The guest tests (tests/ynl-cli.sh,
# tests/ynl-c.sh) read it there: the guest sees this machine's file system
# read-only, so it must exist before the guest boots.  scripts/install-
# deps.sh runs this after installing linux-source-6.12.  Unpacked again
# only when the tarball or the patch changes (build/ynl/.source).
#
#   scripts/ynl-tree.sh          unpack if needed; print the directory
#
# Environment: YNL_TARBALL (default /usr/src/linux-source-6.12.tar.xz),
# YNL_DIR (default build/ynl of this repository).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARBALL=${YNL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
DIR=${YNL_DIR:-$REPO/build/ynl}
MEMBERS=(tools/net/ynl Documentation/netlink)

die() { echo "ynl-tree: $*" >&2; exit 1; }

[[ -r $TARBALL ]] || die "$TARBALL not found (apt-get install linux-source-6.12)"
PATCH=$REPO/scripts/ynl-gen-c-multi-attr-string.patch
source_id="$(stat -L -c '%s %Y' "$TARBALL") $(md5sum < "$PATCH" | cut -d' ' -f1)"
if [[ $(cat "$DIR/.source" 2>/dev/null || true) != "$source_id" ]]; then
	top=$(basename "$TARBALL" .tar.xz)
	rm -rf "$DIR.tmp"
	mkdir -p "$DIR.tmp"
	tar -xJf "$TARBALL" -C "$DIR.tmp" --strip-components=1 \
		"${MEMBERS[@]/#/$top/}" ||
		die "cannot unpack ${MEMBERS[*]} from $TARBALL"
	patch -s -p1 -d "$DIR.tmp" < "$PATCH" || die "cannot apply $PATCH"
	echo "$source_id" > "$DIR.tmp/.source"
	rm -rf "$DIR"
	mv "$DIR.tmp" "$DIR"
fi
echo "$DIR"
