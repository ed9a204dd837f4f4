#!/bin/bash
# Proves: an IRQ dump whose descriptors changed while it ran carries
# NLM_F_DUMP_INTR even when its trailer did not fit where its header did.
# nlraw lays a list dump out so that the trailer's header fits at the end
# of the last IRQs' reply buffer and its body does not, and unloads
# kstat_irqsim (the list's first IRQ) after reading the first buffer:
# the trailer is put again in the next dumpit call, where the netlink
# core does not flag it a second time, and the flag was lost (the reader
# took the inconsistent dump for a good one).  Both shapes of an IRQ
# dump: a nest per IRQ (with metadata), and packed chunks (without).
# timeout: 120
source tests/lib.sh
require_kstat

unload_sim() { ! irqsim_loaded || irqsim_unload; }
t_cleanup unload_sim
# An IRQ that stays: the first numbered row of /proc/interrupts.
stable=$(awk -F: '$1 ~ /^ *[0-9]+$/ { print $1 + 0; exit }' /proc/interrupts)

# $1: "" for a nest per IRQ (metadata), "packed" for chunks without it.
prove() {
	local shape=${1:-nests} rc=0 out changing

	irqsim_load irqs=1
	changing=$(irqsim_irq 0)
	[[ -n $stable && $stable != "$changing" ]] || t_fail "no IRQ besides the synthetic one"
	t_log "$shape: stable IRQ $stable, changing IRQ $changing"
	out=$(tests/tools/nlraw dump-trailer "$stable" "$changing" "rmmod kstat_irqsim" "$@") || rc=$?
	printf '%s\n' "$out" >&2
	irqsim_loaded && t_fail "$shape: kstat_irqsim is still loaded: the dump saw no change"
	case $rc in
	3) t_log "$shape: the trailer, put again, carried NLM_F_DUMP_INTR" ;;
	0) t_fail "$shape: the IRQ set changed during the dump, and no message carried NLM_F_DUMP_INTR" ;;
	2) t_fail "$shape: nlraw could not lay the dump out: $(tail -n 1 <<<"$out")" ;;
	*) t_fail "$shape: nlraw dump-trailer failed ($rc)" ;;
	esac
}

prove
prove packed
