#!/bin/bash
# Proves: the kstat command line is strict and predictable.
#   - Every bad invocation in the table below (unknown option, object or
#     command, bad or negative numbers, bad ranges, stray arguments, -j on a
#     /proc printer, a missing batch file, ...) exits 2 with a "kstat: "
#     message on stderr and nothing on stdout; none crashes.
#   - -V, -h, --help, help and OBJECT help exit 0 and print to stdout;
#     "help OBJECT", "OBJECT -h" and "OBJECT --help" print what "OBJECT
#     help" prints, for every object.
#   - Words abbreviate to a unique prefix ("kstat cp s", "kstat ir sh per"),
#     an exact name beats a longer one ("softirq" vs "softirqs", "stat" vs
#     "stats"), and an ambiguous prefix ("kstat c": cpu or config) is an
#     error.
#   - irq show -o COLUMNS (any case, in order) and -n print those columns
#     without headings, -j those keys; an unknown column is a usage error
#     naming the columns.
#   - In a batch, the first failing line stops the run: exit 1 and
#     "kstat: FILE:LINE: message".
# leave-out: userspace-only
source tests/lib.sh
require_cmd jq

bad=(
	"-x"
	"--no-such-option"
	"-b"
	"-b /nonexistent/kstat-batch"
	"-b - cpu"
	"nosuch"
	"help extra"
	"help nosuch"
	"help cpu extra"
	"help c"
	"cpu -h extra"
	"cpu --help extra"
	"cpu nosuch"
	"cpu help extra"
	"cpu show -1"
	"cpu show +1"
	"cpu show 1x"
	"cpu show 0x1"
	"cpu show 99999999999999999999"
	"cpu show 4294967296"
	"cpu show 0 1"
	"cpu show ns 0 1"
	"cpu show 0 ns x"
	"cpu show total 0"
	"watch interval 2"
	"watch cpu interval 0.5"
	"watch cpu percpu"
	"watch percpu"
	"watch irq count 1 percpu"
	"top -b -d 1"
	"top -bn1 -d 2"
	"irq show 1-"
	"irq show -1"
	"irq show abc"
	"irq show 3-1"
	"irq show 1--2"
	"irq show 4294967296"
	"irq show -o"
	"irq show -o NAME"
	"irq show -o irq,,count"
	"irq show -o irq,IRQ"
	"irq show -x"
	"softirq show bogus"
	"stat extra"
	"interrupts extra"
	"softirqs extra"
	"-j stat"
	"-j interrupts"
	"-p softirqs"
)

for args in "${bad[@]}"; do
	read -ra argv <<<"$args"
	assert_exit 2 "$KSTAT" "${argv[@]}"
	assert_match '^kstat: ' "$T_ERR" "stderr of 'kstat $args'"
	assert_eq "" "$T_OUT" "stdout of 'kstat $args'"
done

assert_exit 2 "$KSTAT"
assert_match '^kstat: ' "$T_ERR" "stderr of 'kstat' without arguments"
# A bare TIME is milliseconds everywhere; one out of range says so.
assert_exit 2 "$KSTAT" watch interval 2
assert_match 'bad interval "2" \(a bare number is milliseconds: for 2 seconds write 2s; at least 10ms\)' \
	"$T_ERR" "watch interval 2: the rule and the fix"
for word in c i s soft sta; do
	assert_exit 2 "$KSTAT" $word
	assert_match 'ambiguous' "$T_ERR" "'kstat $word' is ambiguous"
done

# Help and version: stdout, exit 0, no module needed (it is loaded here).
assert_exit 0 "$KSTAT" -V
assert_match '^kstat [0-9]' "$T_OUT" "kstat -V"
for args in "-h" "--help" "help" "h"; do
	assert_exit 0 "$KSTAT" $args
	assert_match '^Usage: kstat ' "$T_OUT" "kstat $args"
done
for obj in cpu irq softirq stat interrupts softirqs; do
	assert_exit 0 "$KSTAT" $obj help
	assert_match "^Usage: kstat $obj " "$T_OUT" "kstat $obj help"
done
# Every object of "kstat help", its help four ways, the same text.
objects=$("$KSTAT" help | sed -n '/^Objects:/,/^$/s/^  \([a-z]*\) .*/\1/p')
assert_match 'cpu.*top.*export' "$(echo $objects)" "the objects of kstat help"
for obj in $objects; do
	assert_exit 0 "$KSTAT" $obj help
	want=$T_OUT
	assert_match "^Usage: kstat $obj " "$want" "kstat $obj help"
	for args in "help $obj" "$obj -h" "$obj --help"; do
		assert_exit 0 "$KSTAT" $args
		assert_eq "$want" "$T_OUT" "kstat $args is kstat $obj help"
	done
done
assert_exit 0 "$KSTAT" help cp
assert_match '^Usage: kstat cpu ' "$T_OUT" "kstat help cp (a prefix)"
assert_exit 0 "$KSTAT" help help
assert_match '^Usage: kstat ' "$T_OUT" "kstat help help"

# Prefixes: each of these prints the table its full spelling prints.
assert_exit 0 "$KSTAT" cp s
assert_match '^CPU +user\(s\) +nice\(s\) +system\(s\)' "$T_OUT" "kstat cp s"
assert_exit 0 "$KSTAT" cpu
assert_match '^CPU +user\(s\) +nice\(s\)' "$T_OUT" "kstat cpu"
assert_exit 0 "$KSTAT" cpu show tot
assert_match 'total +[0-9]+\.[0-9]{2} ' "$T_OUT" "kstat cpu show tot: seconds"
# ns: the kernel's nanoseconds, under unitless headers, either order
assert_exit 0 "$KSTAT" cpu show tot ns
assert_match '^ *CPU +user +nice +system' "$T_OUT" "kstat cpu show tot ns: headers"
assert_match 'total +[0-9]+ +[0-9]+ ' "$T_OUT" "kstat cpu show tot ns: integers"
assert_exit 0 "$KSTAT" cpu show n 0
assert_match '^ +0 +[0-9]+ +[0-9]+ ' "$(sed -n 2p <<<"$T_OUT")" "kstat cpu show n 0"
# the seconds are the nanoseconds: idle of the total, read twice in a row
secs=$("$KSTAT" cpu show total | awk 'NR == 2 { print $5 }')
ns=$("$KSTAT" -j cpu show total | jq '.[0].idle')
assert_eq 1 "$(awk -v s="$secs" -v n="$ns" 'BEGIN { d = n / 1e9 - s; print (d > -0.5 && d < 0.5) }')" \
	"cpu show total idle(s) $secs is -j's $ns ns"
assert_exit 0 "$KSTAT" ir sh per
assert_match '^IRQ +COUNT +CPU0 ' "$T_OUT" "kstat ir sh per"
# irq show -o COLUMNS -n, as lsirq: the columns named, any case, in order
assert_exit 2 "$KSTAT" irq show -o irq,Name
assert_eq "kstat: unknown column 'Name'; columns are: IRQ, COUNT, PERCPU, CHIP, HWIRQ, TYPE, ACTIONS" \
	"$(head -1 <<<"$T_ERR")" "irq show -o: an unknown column"
assert_exit 0 "$KSTAT" irq show -o count,IRQ
assert_match '^ *COUNT +IRQ$' "$(head -1 <<<"$T_OUT")" "irq show -o count,IRQ: headings"
assert_eq "" "$(sed 1d <<<"$T_OUT" | awk 'NF != 2')" "irq show -o count,IRQ: two columns"
assert_exit 0 "$KSTAT" irq show -n -o irq,percpu
assert_eq "" "$(awk -v n="$(possible_cpus)" 'NF != n + 1 || $1 !~ /^[0-9]+$/' <<<"$T_OUT")" \
	"irq show -n -o irq,percpu: no headings, IRQ and a count per CPU"
assert_exit 0 "$KSTAT" -j irq show -o actions,irq
assert_eq '["actions","irq"]' "$(jq -c '[.[] | keys_unsorted] | unique | .[0]' <<<"$T_OUT")" \
	"-j irq show -o actions,irq: those keys, in that order"
assert_exit 0 "$KSTAT" softirq
assert_match '^NAME +COUNT' "$T_OUT" "kstat softirq (an exact name)"
assert_exit 0 "$KSTAT" softirqs
assert_match '^ +CPU0 ' "$T_OUT" "kstat softirqs"
assert_exit 0 "$KSTAT" stat
assert_match '^cpu  [0-9]' "$T_OUT" "kstat stat (an exact name)"

# A batch stops at its first failing line, and says where it was.
printf 'cpu show\n\n# a comment\nnosuch\ncpu show\n' >"$TMPDIR/cli-usage.batch"
assert_exit 1 "$KSTAT" -b "$TMPDIR/cli-usage.batch"
assert_match "^kstat: $TMPDIR/cli-usage.batch:4: unknown object \"nosuch\"" \
	"$T_ERR" "batch error location"
assert_eq 1 "$(grep -c '^CPU ' <<<"$T_OUT")" "tables printed before the failing line"
