# SPDX-License-Identifier: GPL-2.0
#
# Checks the text output of `kstat monitor 2>&1` as it streams (no file of
# samples kept), for tests/helpers/stress-lib.sh.  At the end, one line:
#
#   samples N lost L events E unnoticed U fromget F other O last S
#
# samples: sample lines; lost: samples the library reported lost, in E
# "lost" warnings; unnoticed: seq jumps with no loss reported before them
# (must be 0); fromget: samples libkstat read by a GET on joining (their
# seq is not the stream's: the stream's next sample starts the seq
# check again); other: any other line (copied to the file named by -v
# others=FILE); last: last seq.  Every sample is whole (protocol 5): after
# a loss the next one needs nothing before it.  Sequence numbers stay far
# below 2^53, exact in awk's doubles.

/^seq [0-9]+ timestamp_ns [0-9]+ generation [0-9]+ from_get/ {
	n++
	fromget++
	have = 0
	lostsince = 0
	next
}
/^seq [0-9]+ timestamp_ns [0-9]+ generation [0-9]+/ {
	n++
	seq = $2 + 0
	if (have && !lostsince && seq != prev + 1)
		unnoticed++
	have = 1
	prev = seq
	lostsince = 0
	next
}
/^kstat: warning: lost [0-9]+ samples? / {
	lost += $4
	events++
	lostsince = 1
	next
}
{
	other++
	if (others != "")
		print > others
}
END {
	printf "samples %d lost %d events %d unnoticed %d fromget %d other %d last %d\n",
		n, lost, events, unnoticed, fromget, other, prev
}
