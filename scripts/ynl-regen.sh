#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/ynl-regen.sh - regenerate what the kernel's YNL generator makes of
# docs/netlink/specs/kstat.yaml, or check that it is what is committed: the
# kernel's tools/net/ynl/ynl-regen.sh, for this repository.
#
#   scripts/ynl-regen.sh           rewrite every generated file
#   scripts/ynl-regen.sh --check   regenerate into a scratch directory and
#                                  fail (diff -u, exit 1) on any difference
#   --root DIR                     the tree to work on (default this one)
#
# The generated files are those whose header has a "/* YNL-GEN MODE KIND */"
# line; the line before it names the spec, a "/* YNL-ARG ... */" line the
# generator's further arguments, as in the kernel:
#
#   include/uapi/linux/kstat.h     --mode uapi --header
#   kernel/kstat-nl-gen.h          --mode kernel --header
#   kernel/kstat-nl-gen.c          --mode kernel --source
#
# ynl-gen-c.py is Linux 6.12's, unpacked by scripts/ynl-tree.sh into
# build/ynl (YNL_DIR).  It is run from the tree's root: the MAINTAINERS
# file there ends its search for the kernel's root, and the spec's path in
# the files' headers is relative to it.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$REPO
CHECK=
while (($#)); do
	case $1 in
	--check) CHECK=1; shift ;;
	--root) ROOT=$(cd "$2" && pwd); shift 2 ;;
	*) echo "usage: $0 [--check] [--root DIR]" >&2; exit 2 ;;
	esac
done
GEN=${YNL_DIR:-$REPO/build/ynl}/tools/net/ynl/ynl-gen-c.py
[[ -f $GEN ]] || { echo "ynl-regen: no $GEN: run scripts/ynl-tree.sh" >&2; exit 1; }

cd "$ROOT"
mapfile -t files < <(grep -rl --include='*.[ch]' --exclude-dir=build \
	--exclude-dir=.git -e '^/\* YNL-GEN \(kernel\|uapi\|user\) ' . |
	sed 's|^\./||' | sort)
((${#files[@]})) || { echo "ynl-regen: no generated files under $ROOT" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for f in "${files[@]}"; do
	# spec YNL-GEN mode kind, from the two comment lines
	read -r spec _ mode kind < <(grep -B1 -h '^/\* YNL-GEN' "$f" |
		sed 's@/\*\(.*\)\*/@\1@' | tr '\n' ' '; echo)
	args=$(sed -n 's@^/\* YNL-ARG \(.*\) \*/$@\1@p' "$f")
	out=$f
	[[ -z $CHECK ]] || { mkdir -p "$tmp/${f%/*}"; out=$tmp/$f; }
	# shellcheck disable=SC2086 # YNL-ARG holds several arguments
	if ! python3 "$GEN" --mode "$mode" "--$kind" --spec "$spec" $args \
		-o "$out" > "$tmp/gen.out" 2>&1; then
		echo "ynl-regen: $f: ynl-gen-c.py --mode $mode --$kind failed:" >&2
		tail -n 5 "$tmp/gen.out" >&2
		failed=1
		continue
	fi
	if [[ -n $CHECK ]] && ! diff -u "$f" "$out"; then
		echo "ynl-regen: $f differs from what $spec generates" \
			"(scripts/ynl-regen.sh rewrites it)" >&2
		failed=1
	fi
	[[ -n $CHECK ]] || echo "	GEN $mode	$f"
done
exit $failed
