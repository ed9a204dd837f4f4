#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-lint.sh - the kernel code's lint: `make kernel-lint`, and
# the host unit test tests/unit/test_kernel_lint.
#
#   checkpatch  scripts/checkpatch.pl --strict (from Debian's linux-source-6.1)
#               on kernel/*.[ch], include/uapi/linux/kstat.h, tests/irqsim/*.c
#   sparse+W=1  kstat.ko and kstat_irqsim.ko built with C=2 W=1 against the
#               Debian kernel headers, in a scratch copy: C=2 checks every
#               file, not only those make recompiles, and the repository's
#               own build products stay as they are
#
# Any finding fails: one "ok - ..." / "not ok - ..." line per check, the
# findings under a failed one, exit status 1.  Exit status 77 (skip) only when
# a tool is missing: sparse, the kernel headers or the kernel source package.
#
# checkpatch.pl and its data files are unpacked once into
# $KSTAT_CACHE/checkpatch-<tarball size> (default ~/.cache/kstat).
#
# --root DIR lints the same files under DIR instead of this repository
# (tests/unit/test_kernel_lint uses it to prove a finding fails the lint).
#
# Environment: KDIR (kernel headers, default /lib/modules/$KVER/build, KVER
# by default scripts/kver.sh's, as in the Makefile), LINUX_TARBALL,
# KSTAT_CACHE.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$REPO
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
CACHE=${KSTAT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kstat}

# checkpatch types not enforced, with why (keep this list short):
#   (none at present)
CHECKPATCH_IGNORE=
# ... and in kernel/compat.h alone, whose one job is to test the kernel
# version (the out-of-tree module builds on several): LINUX_VERSION_CODE,
# and CONSTANT_COMPARISON, which takes LINUX_VERSION_CODE for a constant.
COMPAT_IGNORE=LINUX_VERSION_CODE,CONSTANT_COMPARISON

FAILED=0

skip() { echo "SKIP: $*"; exit 77; }

# lint_files: what is linted, relative to the repository.
lint_files() {
	local f
	for f in kernel/*.c kernel/*.h include/uapi/linux/kstat.h \
		 tests/irqsim/*.c; do
		[[ $f == *.mod.c || $f == *.gen.h || ! -f $f ]] || echo "$f"
	done
}

# checkpatch_dir: unpack checkpatch.pl and what it reads; print its dir.
checkpatch_dir() {
	local dir members
	dir=$CACHE/checkpatch-$(stat -L -c '%s' "$TARBALL")
	if [[ ! -f $dir/scripts/checkpatch.pl ]]; then
		mkdir -p "$CACHE"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		members=(scripts/checkpatch.pl scripts/spelling.txt
			 scripts/const_structs.checkpatch)
		tar -xJf "$TARBALL" -C "$dir.tmp" --strip-components=1 \
			"${members[@]/#/linux-source-6.1/}"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir/scripts"
}

# report NAME OUTPUT_FILE RC: ok when the command succeeded and said nothing.
report() {
	local name=$1 out=$2 rc=$3
	if ((rc == 0)) && [[ ! -s $out ]]; then
		echo "ok - $name"
	else
		FAILED=$((FAILED + 1))
		echo "not ok - $name (exit status $rc, $(wc -l < "$out") lines of findings)"
		sed 's/^/    /' "$out"
	fi
}

run_checkpatch() {
	local dir=$1 out=$WORK/checkpatch.out f rc=0
	local -a opts=(--strict --no-tree --terse --no-summary --show-types)
	[[ -z $CHECKPATCH_IGNORE ]] || opts+=(--ignore "$CHECKPATCH_IGNORE")
	: > "$out"
	while read -r f; do
		if [[ $f == kernel/compat.h ]]; then
			perl "$dir/checkpatch.pl" "${opts[@]}" \
				--ignore "${CHECKPATCH_IGNORE:+$CHECKPATCH_IGNORE,}$COMPAT_IGNORE" \
				-f "$f" >> "$out" 2>&1 || rc=$?
		else
			perl "$dir/checkpatch.pl" "${opts[@]}" -f "$f" >> "$out" 2>&1 || rc=$?
		fi
	done < <(lint_files)
	report "checkpatch --strict: $(lint_files | wc -l) files" "$out" "$rc"
}

# run_sparse: build both modules with sparse (C=2) and W=1 in a scratch
# copy; any warning or error line from the compiler or sparse is a finding.
run_sparse() {
	local kdir=$1 copy=$WORK/src out=$WORK/sparse.out log=$WORK/sparse.log
	local rc=0 m
	local -a mods=()
	mkdir -p "$copy"
	for m in kernel tests/irqsim; do
		[[ -f $m/Kbuild ]] && mods+=("$m")
	done
	{ lint_files; printf '%s/Kbuild\n' "${mods[@]}"; } | xargs cp --parents -t "$copy"
	: > "$log"
	# Not the caller's MAKEFLAGS: `make -s kernel-lint` would silence the
	# CHECK lines that prove sparse ran.
	for m in "${mods[@]}"; do
		MAKEFLAGS='' make -C "$kdir" M="$copy/$m" CONFIG_KSTAT=m C=2 W=1 modules \
			>> "$log" 2>&1 || rc=$?
	done
	grep -E ':[0-9]+(:[0-9]+)?: (warning|error):|^(error|warning):' "$log" |
		sed "s|$copy/||g" > "$out" || true
	if ((rc != 0)) && [[ ! -s $out ]]; then
		tail -n 20 "$log" > "$out"
	fi
	grep -q 'CHECK ' "$log" || echo "sparse checked nothing (no CHECK lines)" >> "$out"
	report "sparse (C=2) and W=1: ${mods[*]}" "$out" "$rc"
}

main() {
	local kver kdir cpdir
	case ${1:-} in
	--root) ROOT=$(cd "${2:?}" && pwd) ;;
	'') ;;
	*) echo "usage: $0 [--root DIR]" >&2; exit 2 ;;
	esac
	cd "$ROOT"
	command -v sparse > /dev/null || skip "sparse is not installed (scripts/install-deps.sh)"
	command -v perl > /dev/null || skip "perl is not installed"
	[[ -r $TARBALL ]] || skip "$TARBALL not found (apt-get install linux-source-6.1)"
	kver=${KVER:-$("$REPO/scripts/kver.sh")}
	kdir=${KDIR:-/lib/modules/$kver/build}
	[[ -n $kver && -d $kdir ]] || skip "no kernel headers in ${kdir:-/lib/modules/*/build}"

	WORK=$(mktemp -d "${TMPDIR:-/tmp}/kstat-lint.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	cpdir=$(checkpatch_dir)
	run_checkpatch "$cpdir"
	run_sparse "$kdir"
	((FAILED == 0))
}

main "$@"
