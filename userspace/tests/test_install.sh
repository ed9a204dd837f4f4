#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit test: `make install DESTDIR= PREFIX=` installs exactly the
# files the README lists (CLI, library, headers, libkstat.pc, man pages,
# bash completion, systemd unit, modules-load.d snippet, module), for
# PREFIX=/usr and /usr/local; the library exports only versioned kstat_*
# symbols (node KSTAT_2, nothing internal); the installed CLI runs against the installed library;
# `pkg-config libkstat` works against the DESTDIR tree and a program built
# with its flags links and runs, dynamically and statically; and `make
# uninstall` removes every file it installed.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
check() {	# WHAT CMD...
	local what=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		sed 's/^/    /' "$tmp/out"
		failed=1
	fi
}

# shellcheck disable=SC2016  # $(...) are make's
vars=$(make -s -f - <<<'include Makefile
print-vars: ; @echo $(KVER) $(VERSION)' print-vars 2>/dev/null)
read -r kver version <<<"$vars"
[[ -n $kver && -n $version ]] || { echo "not ok - cannot read KVER and VERSION from the Makefile"; exit 1; }

# shellcheck disable=SC2317  # the functions below are called indirectly
# expected PREFIX: every file (and link) make install should create.
expected() {
	local p=${1#/}
	printf '%s\n' "$p/bin/kstat" "$p/bin/kstat-exporter" "$p/bin/kstat-top" \
		"$p/lib/libkstat.so.2" "$p/lib/libkstat.so" \
		"$p/lib/libkstat.a" "$p/lib/pkgconfig/libkstat.pc" \
		"$p/include/kstat/libkstat.h" "$p/include/kstat/linux/kstat.h" \
		"$p/share/man/man8/kstat.8" "$p/share/man/man3/libkstat.3" \
		$(man3_links "$p") \
		"$p/share/bash-completion/completions/kstat" \
		"$p/lib/systemd/system/kstat-exporter.service" \
		"$p/lib/modules-load.d/kstat.conf" \
		"lib/modules/$kver/extra/kstat.ko" | LC_ALL=C sort
}

man3_links() {	# P: a .so page per public function and macro
	local f
	for f in $(nm -D --defined-only userspace/lib/libkstat.so.2 |
		   awk '$3 ~ /^kstat_/ { sub(/@.*/, "", $3); print $3 }') \
		 kstat_config_get kstat_config_set kstat_stats_get kstat_subscribe \
		 kstat_limits_get kstat_limits_set kstat_sample_cpu kstat_sample_irq \
		 kstat_sample_arch kstat_sample_softirq; do
		echo "$1/share/man/man3/$f.3"
	done
}

installed() {	# DEST: what is there, relative to DEST
	(cd "$1" && find . \( -type f -o -type l \) -printf '%P\n' | LC_ALL=C sort)
}

# shellcheck disable=SC2317
same_files() {	# DEST PREFIX
	diff -u <(expected "$2") <(installed "$1")
}

# A program using the library, built below with pkg-config's flags.
cat >"$tmp/prog.c" <<'EOF'
#include <errno.h>
#include <stdio.h>
#include <libkstat.h>
int main(void)
{
	struct kstat_handle *h;
	int err = kstat_open(&h);

	/* The host has no kstat module: -ENOENT is the expected answer. */
	if (!err)
		kstat_close(h);
	printf("%s\n", kstat_cputime_name(KSTAT_CPUTIME_USER));
	return err && err != -ENOENT;
}
EOF

for prefix in /usr /usr/local; do
	dest=$tmp/dest${prefix//\//_}
	p=$dest$prefix
	echo "# make install PREFIX=$prefix"
	check "make install DESTDIR=... PREFIX=$prefix" \
		make -s install DESTDIR="$dest" PREFIX="$prefix"
	check "exactly the expected files are installed" same_files "$dest" "$prefix"
	check "the installed kstat, kstat-exporter, kstat-top have no RPATH or RUNPATH (the tree's have one)" \
		sh -c "for b in kstat kstat-exporter kstat-top; do
			 ! readelf -d '$p/bin/'\$b | grep -qE 'RPATH|RUNPATH' &&
			 readelf -d userspace/cli/\$b | grep -qE 'RPATH|RUNPATH' || exit 1; done"
	check "man finds a page for every public function (man kstat_open)" \
		sh -c "for f in kstat_open kstat_subscribe kstat_sub_rcvbuf kstat_stats_get_sz; do
			 LC_ALL=C.UTF-8 MANWIDTH=80 man -M '$p/share/man' 3 \$f 2>/dev/null |
			 grep -q 'kstat_open_error' || exit 1; done"
	check "libkstat.so is a link to libkstat.so.2" \
		test "$(readlink "$p/lib/libkstat.so")" = libkstat.so.2
	check "the man pages, the completion and the modules-load.d snippet are the tree's" \
		sh -c "cmp docs/man/kstat.8 '$p/share/man/man8/kstat.8' &&
		       cmp docs/man/libkstat.3 '$p/share/man/man3/libkstat.3' &&
		       cmp userspace/cli/kstat.bash-completion '$p/share/bash-completion/completions/kstat' &&
		       cmp dist/modules-load.d/kstat.conf '$p/lib/modules-load.d/kstat.conf'"
	check "the unit runs $prefix/bin/kstat-exporter" \
		sh -c "grep -q '^ExecStart=$prefix/bin/kstat-exporter export prometheus' '$p/lib/systemd/system/kstat-exporter.service' &&
		       ! grep -qE '@[A-Z]+@' '$p/lib/systemd/system/kstat-exporter.service'"
	check "libkstat.pc: prefix=$prefix, version $version, nothing left to fill in" \
		sh -c "grep -qx 'prefix=$prefix' '$p/lib/pkgconfig/libkstat.pc' &&
		       grep -qx 'Version: $version' '$p/lib/pkgconfig/libkstat.pc' &&
		       ! grep -qE '@[A-Z]+@' '$p/lib/pkgconfig/libkstat.pc'"

	# pkg-config on the DESTDIR tree, as for a sysroot.  It prefixes
	# libnl's -I too, which does not matter: libkstat.h needs no libnl
	# header, and the linker finds libnl's libraries in its default path.
	pc() { PKG_CONFIG_PATH=$p/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"; }
	check "pkg-config --modversion libkstat is $version" test "$(pc --modversion libkstat)" = "$version"
	flags=$(pc --cflags --libs libkstat)
	check "pkg-config --cflags --libs libkstat points into DESTDIR, headers in include/kstat ($flags)" \
		sh -c "case ' $flags ' in *' -I$p/include/kstat '*) ;; *) exit 1;; esac &&
		       case ' $flags ' in *' -L$p/lib -lkstat '*) ;; *) exit 1;; esac"
	check "pkg-config --static --libs libkstat adds libnl" \
		sh -c "case ' $(pc --static --libs libkstat) ' in *' -lnl-genl-3 '*' -lnl-3 '*) ;; *) exit 1;; esac"
	# shellcheck disable=SC2086  # pkg-config's flags are words
	check "a program builds and links with pkg-config's flags" \
		cc -Wall -Werror -o "$tmp/prog" "$tmp/prog.c" $flags
	check "it runs against the installed libkstat.so.2" \
		sh -c "LD_LIBRARY_PATH='$p/lib' '$tmp/prog' | grep -qx user &&
		       LD_LIBRARY_PATH='$p/lib' ldd '$tmp/prog' | grep -q '$p/lib/libkstat.so.2'"
	# shellcheck disable=SC2046
	check "a program links libkstat.a statically (libnl from --static --libs)" \
		sh -c "cc -Wall -Werror -o '$tmp/prog-static' '$tmp/prog.c' $(pc --cflags libkstat) \
		       '$p/lib/libkstat.a' $(pc --static --libs-only-l libkstat | sed 's/-lkstat//') &&
		       '$tmp/prog-static' | grep -qx user &&
		       ! ldd '$tmp/prog-static' | grep -q libkstat"

	if [[ $prefix == /usr ]]; then
		check "SONAME is libkstat.so.2" \
			sh -c "readelf -d '$p/lib/libkstat.so.2' | grep -q 'SONAME.*libkstat.so.2'"
		# libkstat 2's one node (protocol 5 broke the ABI: a new soname)
		check "every exported symbol is kstat_* in KSTAT_2" \
			sh -c "! nm -D --defined-only '$p/lib/libkstat.so.2' | awk '\$3 != \"KSTAT_2\"' | grep -Ev ' kstat_[a-z_]*@@KSTAT_2\$'"
		check "no test-only export (kstat_build_*, kstat_sub_feed)" \
			sh -c "! nm -D --defined-only '$p/lib/libkstat.so.2' | grep -qE ' kstat_(build_|sub_feed|sub_alloc|open_peer)'"
		check "structs go with their size (kstat_subscribe_sz, kstat_stats_get_sz)" \
			sh -c "nm -D --defined-only '$p/lib/libkstat.so.2' | grep -q ' kstat_subscribe_sz@@KSTAT_2\$' &&
			       nm -D --defined-only '$p/lib/libkstat.so.2' | grep -q ' kstat_stats_get_sz@@KSTAT_2\$'"
		check "installed CLI runs with the installed library and says $version" \
			sh -c "test \"\$(LD_LIBRARY_PATH='$p/lib' '$p/bin/kstat' -V)\" = 'kstat $version'"
		check "the installed kstat runs the installed kstat-exporter" \
			sh -c "LD_LIBRARY_PATH='$p/lib' '$p/bin/kstat' export help | grep -q '^Usage: kstat export prometheus'"
		check "the installed man pages format" \
			sh -c "MANWIDTH=80 man -l '$p/share/man/man8/kstat.8' | grep -q 'kstat export prometheus' &&
			       MANWIDTH=80 man -l '$p/share/man/man3/libkstat.3' | grep -q kstat_subscribe"
	fi

	if [[ $prefix == /usr ]]; then
		check "with DKMS managing the module, make install puts no kstat.ko in extra/" \
			sh -c "make -s install DESTDIR='$tmp/dkms' PREFIX=/usr DKMS=1 >/dev/null &&
			       test -z \"\$(find '$tmp/dkms' -name 'kstat.ko*')\" &&
			       test -x '$tmp/dkms/usr/bin/kstat'"
	fi
	check "make uninstall DESTDIR=... PREFIX=$prefix" \
		make -s uninstall DESTDIR="$dest" PREFIX="$prefix"
	check "make uninstall leaves no file behind" test -z "$(installed "$dest")"
done
exit $failed
