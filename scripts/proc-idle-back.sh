#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# proc-idle-back.sh - a measurement of the kernel, not of kstat: how often
# /proc/stat's idle+iowait of one CPU comes out lower than in the read
# before.  Read from another CPU, a sleeping CPU's idle time runs up to
# the reader's clock: a CPU that has woken but not yet stored its
# wake-up counts as idle up to the reading, so one reading is high and
# the next one looks like time going back.  kstat reads the same
# functions (kernel/cpu.c), so its samples show the same, and
# tests/summary-cputime.sh tells such a lone high reading from a stale
# row.  Run in a guest, for 60 s, every CPU woken
# every 3 ms:
#
#   SMP=8 tests/vm/run-guest.sh scripts/proc-idle-back.sh
#   cat build/vm/results/logs/scripts_proc-idle-back.sh.log
#
# Figures (docs/robustness.md): 3 and 7 decreases in 6906 and 8468 reads
# on 6.1 (two runs), 3 in 19608 on 6.12, each one tick (10 ms).
source tests/lib.sh
require_cmd perl taskset

for cpu in $(seq 0 $(($(nproc) - 1))); do
	taskset -c "$cpu" perl -e 'select(undef, undef, undef, 0.003) while 1' &
done
# shellcheck disable=SC2046  # one PID a word
stop_load() { kill $(jobs -p) 2>/dev/null || true; }
t_cleanup stop_load

perl -e '
	my (%last, $reads, $rows, $back);
	my $end = time + 60;
	while (time < $end) {
		open(my $f, "<", "/proc/stat") or die "/proc/stat: $!\n";
		$reads++;
		while (<$f>) {
			next unless /^(cpu\d+) \d+ \d+ \d+ (\d+) (\d+)/;
			my ($cpu, $idle) = ($1, $2 + $3);
			$rows++;
			if (exists $last{$cpu} && $idle < $last{$cpu}) {
				$back++;
				print STDERR "read $reads: $cpu idle+iowait $last{$cpu} -> $idle\n";
			}
			$last{$cpu} = $idle;
		}
		close $f;
	}
	die "no cpuN rows in /proc/stat\n" unless $rows;
	printf STDERR "%s: %d reads of %d CPUs, idle+iowait went back %d times\n",
		`uname -r` =~ s/\n//r, $reads, scalar(keys %last), $back // 0;
'
