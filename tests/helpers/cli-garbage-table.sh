# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/helpers/cli-garbage-table.sh - bad kstat command lines and what
# each must do.  Not a test: sourced by tests/unit/test_cli_garbage (the
# usage table on the host, where no module is needed: the CLI rejects
# these before it connects) and tests/cli-garbage.sh (the kernel table in
# the guest, with the module loaded: requests the kernel rejects).
#
# The caller sets KSTAT (the CLI), G_TMP (a scratch directory) and defines
# garbage_fail MSG (report a failure).  `expect CODES ARGS...` runs
# kstat ARGS and checks: no signal, an exit status among CODES ("1", "2"),
# stderr starting with "kstat: ", and for a usage error nothing on stdout.
# G_CHECKED counts the command lines checked.

G_CHECKED=0
G_LONG=$(printf 'x%.0s' {1..5000})
G_BIN=$'\x01\x02\x7f\x80\xfe\xff\xc3\x28'
G_LONGNUM=$(printf '9%.0s' {1..400})

_g_short() {
	local s=$1
	((${#s} <= 200)) || s="${s:0:200}..."
	printf "'%s'" "$s"
}

# _g_run ARGS...: kstat ARGS; G_RC, G_OUT, G_ERR.
_g_run() {
	G_RC=0
	"$KSTAT" "$@" >"$G_TMP/out" 2>"$G_TMP/err" </dev/null || G_RC=$?
	G_OUT=$(<"$G_TMP/out")
	G_ERR=$(<"$G_TMP/err")
}

expect() {
	local codes=$1 what
	shift
	_g_run "$@"
	G_CHECKED=$((G_CHECKED + 1))
	what="kstat $(_g_short "$*")"
	if ((G_RC >= 128)); then
		garbage_fail "$what: killed by signal $((G_RC - 128))"
	elif [[ $codes != *"$G_RC"* ]]; then
		garbage_fail "$what: expected exit $codes, got $G_RC; stderr: $(_g_short "$G_ERR")"
	elif [[ $G_ERR != "kstat: "* ]]; then
		garbage_fail "$what: stderr does not start with 'kstat: ': $(_g_short "$G_ERR")"
	elif ((G_RC == 2)) && [[ -n $G_OUT ]]; then
		garbage_fail "$what: usage error with output on stdout: $(_g_short "$G_OUT")"
	fi
}

# expect_batch TEXT: a batch file holding TEXT fails with exit 1 and
# "kstat: FILE:LINE: ...".
expect_batch() {
	printf '%s' "$1" >"$G_TMP/batch"
	expect 1 -b "$G_TMP/batch"
	[[ $G_ERR == "kstat: $G_TMP/batch:"* ]] ||
		garbage_fail "batch $(_g_short "$1"): no FILE:LINE in $(_g_short "$G_ERR")"
}

# The CLI's own checks: exit 2 before any request (1 for a batch).
cli_garbage_usage() {
	local w o n r v
	local -a objects

	# Options.
	expect 2 -x
	expect 2 --nosuch
	expect 2 --json=1
	expect 2 --batch
	expect 2 -b
	expect 2 -j
	expect 2 -j --
	expect 2 -jx cpu
	expect 2 -- ''
	expect 2 ''
	expect 2 ' '
	expect 2 -
	expect 2 "$G_LONG"
	expect 2 "$G_BIN"
	expect 2 -b - cpu show
	expect 2 -b /nonexistent/batch
	expect 2 -b ''

	# Ambiguous prefixes (a unique one would run: only "help" here).
	for w in c s i so st; do
		expect 2 "$w" help
		[[ $G_ERR == *ambiguous* ]] || garbage_fail "kstat $w: not ambiguous: $G_ERR"
	done
	expect 2 config s
	expect 2 stats sh extra
	expect 2 cpu sh 0 1

	# Every object "kstat help" lists: unknown commands, garbage words.
	mapfile -t objects < <("$KSTAT" help | awk '/^Objects:/ { on = 1; next } on && NF { print $1 }')
	((${#objects[@]} >= 10)) || garbage_fail "kstat help lists only ${#objects[@]} objects"
	for o in "${objects[@]}"; do
		expect 2 "$o" help extra
		expect 2 "$o" ''
		# record's and report's first word is a FILE, which any other
		# word can name.
		[[ $o == record || $o == report ]] && continue
		expect 2 "$o" nosuchcommand
		expect 2 "$o" "$G_LONG"
		expect 2 "$o" "$G_BIN"
	done
	# report: its words after FILE, judged before FILE is opened; a FILE
	# that is not there is a runtime error.
	for w in nosuch format sections -- "$G_BIN"; do
		expect 2 report "$G_TMP/none.jsonl" "$w"
	done
	for v in '' xml "$G_BIN" "$G_LONG"; do
		expect 2 report "$G_TMP/none.jsonl" format "$v"
	done
	for v in '' cpu all none irq,cpu "$G_BIN"; do
		expect 2 report "$G_TMP/none.jsonl" format lkp sections "$v"
	done
	expect 2 report "$G_TMP/none.jsonl" sections irq
	expect 2 report "$G_TMP/none.jsonl" format proc format
	expect 2 -j report "$G_TMP/none.jsonl" format lkp
	expect 2 -j report "$G_TMP/none.jsonl" format proc
	expect 2 -j report "$G_TMP/none.jsonl" format text
	expect 1 report "$G_TMP/none.jsonl"
	expect 1 report "$G_BIN"
	expect 1 report "$G_LONG"
	# record: its words after FILE (a usage error creates no file).
	# (percpu alone is percpu on: no usage error)
	for w in nosuch count interval sections duration --; do
		expect 2 record "$G_TMP/rec" "$w"
	done
	for v in 0 -1 x 2.5ms 8d ''; do
		expect 2 record "$G_TMP/rec" duration "$v"
	done
	for v in 0 -1 4294967296 "$G_LONGNUM" x ''; do
		expect 2 record "$G_TMP/rec" count "$v"
	done
	expect 2 record "$G_TMP/rec" interval 2.5
	expect 2 record "$G_TMP/rec" interval 4294967296
	expect 2 record "$G_TMP/rec" percpu maybe
	expect 2 record "$G_TMP/rec" sections none
	expect 2 record "$G_TMP/rec" sections "$G_BIN"
	expect 2 record - -- true
	expect 2 record "$G_TMP/rec" count 1 count
	[[ -e $G_TMP/rec ]] && garbage_fail "record: a usage error created FILE"

	# Numbers: CPU ids, IRQ numbers and ranges.
	for n in -1 +1 ' 1' '1 ' 1x 0x 0x1 abc '' 4294967296 18446744073709551616 \
		"$G_LONGNUM" 1e3 1.5 '1,2' "$G_BIN"; do
		expect 2 cpu show "$n"
		expect 2 irq show "$n"
		expect 2 irq show 1 "$n"
		expect 2 irq show "$n-3"
		expect 2 irq show "1-$n"
	done
	for r in - -- 1- -1 3-1 1--2 1-2-3 '1 -2' 0-8191,1 "$G_LONGNUM-1"; do
		expect 2 irq show "$r"
	done
	expect 2 cpu show total 1
	expect 2 cpu show totally
	expect 2 cpu show 4294967295
	expect 2 softirq show percpu 1
	expect 2 softirq show perc x

	# /proc printers: no arguments, no JSON.
	for o in stat interrupts softirqs; do
		expect 2 "$o" show extra
		expect 2 -j "$o"
		expect 2 -p "$o" show
	done

	# watch and monitor: bad values (good ones would run until stopped).
	for v in '' 0 -1 abc 1e999 nan inf -inf 0.001 2 86400001 "$G_LONGNUM" \
		0x1 +1 ' 1' '1 ' 1e0 . 1..2 1.2.3 .; do
		expect 2 watch interval "$v"
		expect 2 watch cpu interval "$v"
	done
	for v in '' 0 -1 abc 4294967296 18446744073709551616 0x1; do
		expect 2 watch count "$v"
		expect 2 watch irq top "$v"
		expect 2 monitor count "$v"
		expect 2 monitor rcvbuf "$v"
	done
	for v in '' -1 abc 4294967296; do
		expect 2 monitor delay "$v"
	done
	# Intervals and delays: units (ms, s, m, h) and bare numbers (always
	# milliseconds) alike.
	for v in 1S 1sec '1 s' ms 1e3s 0x1s 1..2s 9ms 25h 86401s 1441m \
		18446744073709551616ms 5124095576030431h; do
		expect 2 watch interval "$v"
		expect 2 top -b delay "$v"
	done
	for v in 1.5 0.5ms 1x 1e3 1ms5; do
		expect 2 monitor delay "$v"
		expect 2 monitor interval "$v"
		expect 2 config set interval "$v"
		expect 2 config set min-interval "$v"
	done
	expect 2 monitor delay 3601s	# at most 1h (config's interval: the kernel judges)
	expect 2 monitor delay 2h
	expect 2 config set interval 4294968s
	expect 2 config set interval 4294967296ms
	# Numbers that overflow what they go into are refused, and say so:
	# rcvbuf is an int (3000000000 once became the default), monitor's
	# delay times 1000 overflowed a u32 (4294967 ms).
	for a in "monitor rcvbuf 3000000000:at most 2147483647" \
		 "monitor rcvbuf 2147483648:at most 2147483647" \
		 "monitor delay 4294967:at most 1h" \
		 "monitor delay 18446744073709551616:at most 1h" \
		 "monitor count 4294967296:at most 4294967295" \
		 "watch count 4294967296:at most 4294967295" \
		 "watch top 18446744073709551616:at most 4294967295" \
		 "top -b rows 4294967296:at most 4294967295" \
		 "top -b -n 4294967296:at most 4294967295" \
		 "watch interval 99999999999999999999:at most 24h" \
		 "top -d 86400001:a bare number is milliseconds: for 2 seconds write 2s; at most 24h" \
		 "top -b -d 2:a bare number is milliseconds: for 2 seconds write 2s; at least 10ms" \
		 "watch interval 1:a bare number is milliseconds: for 2 seconds write 2s; at least 10ms" \
		 "watch cpu interval 0.5:a bare number is milliseconds: for 2 seconds write 2s; at least 10ms" \
		 "top -b -d 86401s:at most 24h" \
		 "config set interval 4294967296:at most 4294967295ms" \
		 "config set batch 4294967296:at most 4294967295" \
		 "config set min-interval 4294967296:at most 4294967295ms" \
		 "config set max-subscriptions 4294967296:at most 4294967295" \
		 "cpu show 2147483648:at most 2147483647" \
		 "irq show 4294967296:0 to 4294967295"; do
		# shellcheck disable=SC2086  # the words of the command line
		expect 2 ${a%%:*}
		[[ $G_ERR == *"${a#*:}"* ]] ||
			garbage_fail "kstat ${a%%:*}: no \"${a#*:}\" in $(_g_short "$G_ERR")"
	done
	expect 2 watch interval
	expect 2 watch cpu irq
	expect 2 watch softirq count
	expect 2 watch nosuch 1
	expect 2 watch c		# ambiguous: cpu, count
	expect 2 watch i 1		# ambiguous: irq, interval
	expect 2 watch ir irq
	# top: bad values, and no terminal (stdin is not one here) without -b
	for v in '' -1 0 abc 1e1 2 86400001; do
		expect 2 top delay "$v"
		expect 2 top -d "$v"
	done
	for v in '' -1 0 abc 4294967296; do
		expect 2 top -b count "$v"
		expect 2 top -b rows "$v"
	done
	# export (kstat-exporter, which kstat runs): the port overflows into
	# "at most", never a wrap to a port that binds
	for v in 65536 4294967297 18446744073709551617 "$G_LONGNUM" -1 0x10 ''; do
		expect 2 export prometheus --listen "127.0.0.1:$v"
		expect 2 export prometheus --listen "[::1]:$v"
	done
	for v in "$G_LONG" "$G_BIN" '[::1' ':' '[' ']:1'; do
		expect 2 export prometheus --listen "$v"
	done
	expect 2 export prometheus --listen 127.0.0.1:1 --bogus "$G_BIN"
	expect 2 export nosuch
	expect 2 -j export prometheus --textfile /nonexistent/x
	expect 2 top sort nosuch
	expect 2 top -s ''
	expect 2 top nosuch
	expect 2 top -x
	expect 2 top delay
	expect 2 -j top
	expect 2 top
	expect 2 monitor count
	expect 2 monitor count 1 rcvbuf
	expect 2 monitor nosuch 1
	expect 2 monitor count 1 nosuch 1
	# The message names the keyword in full, not the abbreviation typed.
	for kw in count rcvbuf; do
		expect 2 monitor "${kw:0:2}" 0
		[[ $G_ERR == *"bad $kw \"0\" (at least 1)"* ]] ||
			garbage_fail "kstat monitor ${kw:0:2} 0: stderr: $(_g_short "$G_ERR")"
	done

	# config: malformed values (the kernel judges the ranges).
	for v in '' -1 abc 0x10 4294967296 18446744073709551616 "$G_LONGNUM"; do
		expect 2 config set interval "$v"
		expect 2 config set batch "$v"
		expect 2 config set min-interval "$v"
		expect 2 config set max-subscriptions "$v"
	done
	for v in '' ',' none cpu,none 'cpu irq' ',,' "$G_LONG" "$G_BIN" CPU; do
		expect 2 config set sections "$v"
	done
	# "o" is ambiguous (on, off); "of" is off, as every keyword abbreviates
	for v in '' yes 1 ON o "$G_BIN"; do
		expect 2 config set percpu "$v"
		expect 2 config set netns "$v"
		expect 2 monitor percpu "$v"
	done
	# settings that are gone with protocol 4 (keyframes, own streams)
	for w in keyframe max-streams max-members-user max-members-net; do
		expect 2 config set "$w" 1
	done
	expect 2 config set
	expect 2 config set interval
	expect 2 config set interval 100 batch
	expect 2 config set nosuch 1
	expect 2 config show extra
	expect 2 stats extra

	# Batch files: a garbage line stops the batch, exit 1 and FILE:LINE.
	expect_batch $'cpu show "total\n'
	expect_batch $'"\n'
	expect_batch $'""\n'
	expect_batch $'"" ""\n'
	expect_batch $'nosuch\n'
	expect_batch $'export prometheus --listen 127.0.0.1:4294967297\n'
	expect_batch $'top -d 0\n'
	expect_batch $'cpu show -1\n'
	expect_batch $'cpu help\nirq show 3-1\n'
	expect_batch "$(printf 'w %.0s' {1..65})"$'\n'
	expect_batch "$G_LONG"$'\n'
	expect_batch "$G_BIN"$'\n'
	expect_batch "-b $G_TMP/batch"$'\n'
	expect_batch $'-j cpu show\n'
	expect_batch $'monitor count 0\n'
	printf 'help\0 cpu show\n' >"$G_TMP/nul"	# binary, not a command
	expect 1 -b "$G_TMP/nul"
	[[ $G_ERR == "kstat: $G_TMP/nul:1: "* ]] ||
		garbage_fail "a NUL byte in a batch line: $(_g_short "$G_ERR")"
	{ printf x; head -c 4096 /dev/urandom | tr -d '\n'; printf '\n'; } >"$G_TMP/random"
	expect 1 -b "$G_TMP/random"
	expect 1 -b "$G_TMP"
	"$KSTAT" -b - >"$G_TMP/out" 2>"$G_TMP/err" <<<"nosuch" && G_RC=0 || G_RC=$?
	((G_RC == 1)) || garbage_fail "a garbage line on stdin: exit $G_RC"
	[[ $(<"$G_TMP/err") == "kstat: <stdin>:1: "* ]] ||
		garbage_fail "a garbage line on stdin: stderr $(_g_short "$(<"$G_TMP/err")")"
	G_CHECKED=$((G_CHECKED + 1))
}

# What only the kernel can reject: exit 1 with its message.  Changes the
# configuration only in ways the kernel refuses.
cli_garbage_kernel() {
	expect 1 cpu show 99999
	expect 1 cpu show 2147483647
	expect 1 irq show 999999
	expect 1 irq show 4294967295
	expect 1 -j irq show 4294967295 percpu
	expect 1 config set interval 9
	expect 1 config set interval 60001
	expect 1 config set interval 4294967295
	expect 1 config set batch 0
	expect 1 config set batch 65
	expect 1 config set interval 9 batch 1
	# A unit reaches the kernel as milliseconds: it judges the range.
	expect 1 config set interval 9ms
	expect 1 config set interval 61s
	# A subscription's interval too (the monitor stops at the refusal).
	expect 1 monitor interval 9 count 1
	expect 1 monitor interval 61s count 1
	expect_batch $'config set interval 9\n'
	expect_batch $'cpu show total\nirq show 999999\n'
}
