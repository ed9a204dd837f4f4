#!/bin/bash
# Proves: `kstat top` draws a full screen from the summaries in a tmux
# pane: the header, the CPU shares, the IRQ table with the IRQ fired the
# most (kstat_irqsim) ranked first with its action; the sort key t
# (total), the per-CPU toggle c, paging through 1500 IRQs (PgDn), resizing
# the window (every line fits, the key line stays at the bottom, and the
# libsmartcols layout keeps the busiest IRQ's action name whole at 52
# columns, where fixed-width columns left room for 3 characters), the
# module going away ("kstat module gone") and coming back (frames
# resume), and q (exit 0).  Batch mode (-b -n N) prints N plain-text
# frames (and with -j N JSON objects) with the same IRQ first; procps
# top's combined short options (-bn1, -n1, -b -n1) give that many frames,
# and "-s delta" and the d key (irqtop's delta) sort by rate.  The
# actions' names end in "é": under a UTF-8 locale the screen shows it as
# such (setlocale), not as "M-CM-)".  A resize lays the tables out again
# at once, not at the next frame.  A fatal error while the screen is up
# (the subscription fails) is printed after it, not lost with it.
# timeout: 300
# leave-out: userspace-only
source tests/lib.sh
require_cmd tmux jq cc pgrep
require_kstat

SFX=$'\xc3\xa9'		# "é" in UTF-8: one column, two bytes
t_cleanup config_reset
kstat_load_interval 100
irqsim_load irqs=1500 "suffix=$SFX"
IRQ=$(irqsim_irq 7)

# Keep IRQ index 7 the busiest one while the test runs.
( while :; do echo "7 0 5000" > "$IRQSIM_DIR/fire" 2>/dev/null || true; sleep 0.05; done ) &
fire=$!
t_cleanup t_kill $fire

# ---- batch mode ----
# Frames of 1 s: each spans about ten 100 ms samples.  With 0.3 s, one
# frame on the debug kernel held no new sample of the fired IRQ, and
# virtio0-requests came first.
assert_exit 0 "$KSTAT" top -b -n 3 -d 1s
frames=$(grep -c '^kstat top - interval' <<<"$T_OUT" || true)
assert_eq 3 "$frames" "batch frames"
# The last frame: under TCG the first may cover a pause of the firing loop.
first=$(awk '/^ +IRQ +RATE/ { getline; r = $1 " " $NF } END { print r }' <<<"$T_OUT")
assert_eq "$IRQ kstat-sim-7$SFX" "$first" "first IRQ row of the last batch frame"
assert_exit 0 "$KSTAT" -j top -b -n 2 -d 1s rows 5
assert_eq 2 "$(jq -s length <<<"$T_OUT")" "JSON frames"
assert_eq "$IRQ" "$(jq -s '.[1].irq[0].irq' <<<"$T_OUT")" "first IRQ of the JSON frame"
assert_eq 5 "$(jq -s '.[1].irq | length' <<<"$T_OUT")" "rows 5 in JSON"
assert_eq "true" "$(jq -s '.[1].cpu[0].cpu == null and (.[1].softirq | length) > 0' <<<"$T_OUT")" \
	"JSON frame has the total CPU row and softirqs"
assert_exit 2 "$KSTAT" top sort bogus
# procps top's short options: combined, a value glued or in the next word.
# Each case: the frames it asks for, then the arguments.
for c in "1 -bn1 -d 1s" "1 -b -n1 -d 1s" "1 -n1 -bd 1s" "2 -bcn2 -d1s"; do
	read -r want args <<<"$c"
	read -ra argv <<<"$args"
	assert_exit 0 "$KSTAT" top "${argv[@]}"
	assert_eq "$want" "$(grep -c '^kstat top - interval' <<<"$T_OUT")" "frames of top $args"
done
assert_exit 0 "$KSTAT" top -bn1 -d 1s -s delta
assert_match '^kstat top - interval.*, sort rate' "$T_OUT" "-s delta is the rate sort"
for args in "-bx" "-bn" "-bn0" "-bn1x" "-b -s bogus" "--bn1"; do
	read -ra argv <<<"$args"
	assert_exit 2 "$KSTAT" top "${argv[@]}"
	assert_match '^kstat: ' "$T_ERR" "stderr of top $args"
	assert_eq "" "$T_OUT" "stdout of top $args"
done
assert_exit 2 "$KSTAT" -j top
t_log "batch mode ok"

# ---- full screen in tmux ----
TM=(tmux -u -L "kstat-top-$$" -f /dev/null)
t_cleanup "${TM[@]}" kill-server
"${TM[@]}" new-session -d -s top -x 100 -y 30 \
	"env TERM=screen LC_ALL=C.UTF-8 '$KSTAT' top -d 0.3s; echo \$? > '$TMPDIR/rc'; sleep 60"
# pane [SESSION]: its text (UTF-8)
pane() { "${TM[@]}" capture-pane -p -t "${1:-top}"; }
pane_has() { grep -q -- "$1" <<<"$(pane "${2:-top}")"; }
# the first IRQ row: the line after the IRQ table's header
first_row() { pane "${1:-top}" | awk '/^ *IRQ +RATE/ { getline; print $1, $NF; exit }'; }
first_is() { [[ $(first_row "${2:-top}") == "$1" ]]; }
# the sample a frame ends with: "seq N" in the header
pane_seq() { pane "$1" | sed -n '1s/.*, seq \([0-9]*\).*/\1/p'; }

wait_until 60 pane_has '^kstat top - interval'
# "é" as such, not "M-CM-)": the screen runs in the user's (UTF-8) locale
wait_until 30 first_is "$IRQ kstat-sim-7$SFX"
screen=$(pane)
assert_match '^CPU +%usr' "$screen" "CPU header"
assert_match '^all ' "$screen" "the total CPU row"
assert_match '^SOFTIRQ/s .*TIMER' "$screen" "softirq rates"
assert_match 'q quit.*IRQs 1-[0-9]+ of 15[0-9][0-9]' "$(tail -n 1 <<<"$screen")" "key line"
t_log "screen: $(head -n 1 <<<"$screen")"

"${TM[@]}" send-keys -t top t
wait_until 30 pane_has 'sort total'
"${TM[@]}" send-keys -t top c
wait_until 30 pane_has '^0 '
"${TM[@]}" send-keys -t top r
wait_until 30 pane_has 'sort rate'
# d: irqtop's key for its delta sort, our rate sort
"${TM[@]}" send-keys -t top t
wait_until 30 pane_has 'sort total'
"${TM[@]}" send-keys -t top d
wait_until 30 pane_has 'sort rate'
assert_match 'r/d rate' "$(pane | tail -n 1)" "the key line names d"

"${TM[@]}" send-keys -t top NPage
wait_until 30 pane_has 'IRQs [1-9][0-9]-'
"${TM[@]}" send-keys -t top Home
wait_until 30 pane_has 'IRQs 1-'
t_log "sort, per-CPU and paging keys ok"

"${TM[@]}" resize-window -t top -x 52 -y 15
narrow() {
	local -a lines
	local l LC_ALL=C.UTF-8		# ${#l} in characters, not bytes
	mapfile -t lines < <(pane)
	((${#lines[@]} == 15)) || return 1
	for l in "${lines[@]}"; do ((${#l} <= 52)) || return 1; done
	[[ ${lines[14]} == "q quit"* ]]
}
for ((i = 0; i < 100; i++)); do narrow && break; sleep 0.1; done
narrow || t_fail "after resizing to 52x15: $(pane | cat -A)"
wait_until 30 first_is "$IRQ kstat-sim-7$SFX"
t_log "resized to 52x15: $(pane | grep -A1 -E '^ *IRQ +RATE' | tail -n 1)"
"${TM[@]}" resize-window -t top -x 100 -y 30

kstat_unload_busy
wait_until 30 pane_has 'kstat module gone'
kstat_load_interval 100
wait_until 30 first_is "$IRQ kstat-sim-7$SFX"
pane_has 'kstat module gone' && t_fail "still says gone after the module is back"
t_log "gone and back"

"${TM[@]}" send-keys -t top q
wait_until 10 test -s "$TMPDIR/rc"
assert_eq 0 "$(cat "$TMPDIR/rc")" "kstat top exit status after q"

# ---- a resize lays the tables out again at once ----
# Frames of 15 s: the first one drawn at 52 columns (the CPU table cut
# before %gnice), then the window widened: the whole CPU table shows
# within 5 s, in the same frame (its seq), not 15 s later.
"${TM[@]}" new-session -d -s slow -x 52 -y 15 \
	"env TERM=screen LC_ALL=C.UTF-8 '$KSTAT' top -d 15s; sleep 60"
wait_until 60 pane_has '^kstat top - interval' slow
seq=$(pane_seq slow)
pane_has '%gnice' slow && t_fail "the CPU table is not cut at 52 columns: $(pane slow)"
"${TM[@]}" resize-window -t slow -x 100 -y 30
start=$SECONDS
until pane_has '%gnice' slow; do
	((SECONDS - start < 5)) || t_fail "5 s after widening, the CPU table is still cut: $(pane slow | head -n 3)"
	sleep 0.1
done
assert_eq "$seq" "$(pane_seq slow)" "the frame shown when the table was laid out again"
t_log "re-laid out at once, in frame seq $seq"
"${TM[@]}" kill-session -t slow
# A top whose terminal is gone ends, and lets go of its subscription (it
# used to stay, polling a hung-up terminal, for the rest of the suite).
slow_top_ended() { ! pgrep -f "^$KSTAT top -d 15s\$" > /dev/null; }
wait_until 10 slow_top_ended

# ---- a fatal error while the screen is up is printed after it ----
# The subscription's socket fails once the screen is up (a preloaded
# socket() that refuses netlink sockets after initscr()): top ends, and
# its "kstat: ..." line (libkstat's reason, as it is) stays on the
# terminal after endwin().
cat > "$TMPDIR/failsub.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

static int screen_up;

void *initscr(void)
{
	void *(*real)(void) = (void *(*)(void))dlsym(RTLD_NEXT, "initscr");

	screen_up = 1;
	return real();
}

int socket(int domain, int type, int protocol)
{
	int (*real)(int, int, int) = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");

	if (screen_up && domain == AF_NETLINK) {
		errno = EMFILE;
		return -1;
	}
	return real(domain, type, protocol);
}
EOF
cc -shared -fPIC -o "$TMPDIR/failsub.so" "$TMPDIR/failsub.c" -ldl
"${TM[@]}" new-session -d -s fail -x 100 -y 30 \
	"env TERM=screen LD_PRELOAD='$TMPDIR/failsub.so' '$KSTAT' top; echo rc=\$?; sleep 60"
wait_until 30 pane_has '^rc=' fail
screen=$(pane fail)
assert_match '^rc=1$' "$screen" "kstat top's exit status after the error"
assert_match '^kstat: .+' "$screen" "the error, after the screen"
t_log "fatal error shown: $(grep '^kstat:' <<<"$screen")"
