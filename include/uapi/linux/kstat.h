/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * kstat: CPU time, IRQ and softirq counters over generic netlink.
 *
 * This header is the protocol manual: every command, attribute, unit and
 * error a client can meet is described here.
 *
 * Family
 * ======
 * Generic netlink family "kstat" (KSTAT_FAMILY_NAME), version 4.  The
 * version is the wire format's: it changes when a reply or sample would
 * no longer mean to an older client what it meant (version 2 packed IRQ
 * totals and cputime, which version 1 clients would skip as unknown
 * attributes; version 3 sends IRQs' per-CPU counts as records, see
 * "Per-CPU records", where version 2 sent KSTAT_A_IRQ_PERCPU arrays: a
 * version 2 client would skip them and show no per-CPU counts at all;
 * version 4 sends a chunk's counts as KSTAT_A_IRQS_COUNTS32 when they
 * fit 32 bits, which a version 3 client would find missing),
 * and a client should refuse a version it does not know (libkstat does,
 * with an error saying so).  Requests
 * are validated strictly: reserved genl header bytes must be zero, unknown
 * attributes and unknown nlmsg flags are rejected, every attribute has an
 * exact type and length, and every rejection carries an extended-ACK message
 * (set NETLINK_EXT_ACK on the socket to read it).
 *
 * Privilege and namespaces
 * ========================
 * Reading needs no privilege: every GET (do and dump), CONFIG_GET,
 * STATS_GET, joining "summary" and SUBSCRIBE work for any user, since the
 * same counters are world-readable in /proc/stat, /proc/interrupts and
 * /proc/softirqs.  SUBSCRIBE only starts the one shared producer, at the
 * rate the administrator configured, and the producer stops by itself
 * once nobody listens.  CONFIG_SET, the one change of state, needs
 * CAP_NET_ADMIN in the initial user namespace (GENL_ADMIN_PERM): the
 * configuration is host-wide, so root of a user namespace (a container)
 * gets EPERM.
 *
 * The family exists in every network namespace.  The counters are
 * host-wide, as in /proc/stat, which no namespace virtualises: every
 * namespace reads the same numbers.  Summaries go to every network
 * namespace that sent SUBSCRIBE (the same samples, the same sequence
 * numbers everywhere), one copy per namespace, and stop going to one
 * whose listeners all left; at most KSTAT_NETNS_MAX namespaces besides
 * the initial one at a time.  A socket listening to all namespaces
 * (NETLINK_LISTEN_ALL_NSID) gets a copy from each subscribed namespace it
 * has an id for: the same seq again, which a client drops (libkstat does).
 *
 * Units
 * =====
 * - CPU times are u64 nanoseconds.
 * - IRQ and softirq counts are u64 attributes.  The kernel keeps per-CPU IRQ
 *   and softirq counters in 32-bit variables, so each per-CPU count wraps at
 *   2^32.  An IRQ's total (KSTAT_A_IRQ_COUNT) is the kernel's own
 *   kstat_irqs() value, which is 32 bits too and wraps exactly like the
 *   numbers in /proc/interrupts and /proc/stat's "intr" line.  Per-CPU
 *   arrays (KSTAT_A_*_PERCPU) are arrays of __u32 in host byte order.
 *
 * Per-CPU arrays
 * ==============
 * A per-CPU array holds one __u32 per CPU id, for every CPU id from the
 * request's KSTAT_A_SEL_CPU_FIRST (default 0) to KSTAT_A_SEL_CPU_LAST
 * (default: the highest possible CPU id), offline CPUs included.  Element i belongs to CPU
 * id (first + i).  Which CPUs are online is reported separately in
 * KSTAT_A_ONLINE_CPUS, a bitmap of bytes, bit (cpu % 8) of byte (cpu / 8).
 *
 * Per-CPU records
 * ===============
 * Most IRQs fire on one CPU, so an IRQ's per-CPU counts in packed chunks
 * (KSTAT_A_IRQS_CPUS), and in KSTAT_A_IRQ nests (KSTAT_A_IRQ_CPUS, which
 * replaces the dense KSTAT_A_IRQ_PERCPU when it and KSTAT_A_IRQ_NR_CPUS
 * take fewer bytes), come as a record of __u32 words that lists only the
 * CPUs with a non-zero count, or as the whole array where that is
 * smaller: the kernel picks the smallest form for each IRQ, and a record
 * is never larger than the array plus its one header word.  The first
 * word is the header: its top two bits (KSTAT_CPUS_KIND) the form, the
 * other 30 (KSTAT_CPUS_VALUE) a number:
 * - KSTAT_CPUS_PAIRS, value n: n pairs { index, count } follow, indexes
 *   ascending; every CPU not listed has a count of 0 (n = 0: all 0);
 * - KSTAT_CPUS_ONE, value index: the IRQ's counts are all on that CPU,
 *   whose count is the IRQ's count modulo 2^32 (in a delta: the count
 *   after the increment); every other CPU has 0.  No further words;
 * - KSTAT_CPUS_DENSE, value n: n counts follow, for indexes 0 .. n-1,
 *   n being the array's length.
 * An index is an element of the per-CPU array: CPU id (first + index),
 * first being KSTAT_A_SEL_CPU_FIRST (0 in samples).  The array's length
 * is the chunk's KSTAT_A_IRQS_NR_CPUS (a nest's KSTAT_A_IRQ_NR_CPUS).  A
 * record always describes the IRQ's whole array, in keyframes and deltas
 * alike, except that in a summary a record too large for a part comes in
 * PAIRS pieces: the IRQ then appears in consecutive chunks, the first
 * with its count (or increment), the others repeating the count (or
 * with an increment of 0), and its array is the union of the pieces.
 * The counts are read in one pass with the IRQ's count, which, over
 * every CPU id, is their sum (modulo 2^32).
 *
 * Commands
 * ========
 * KSTAT_CMD_CPU_GET
 *   do:    optional KSTAT_A_SEL_CPU.  Reply: one KSTAT_A_CPU nest for that
 *          CPU, or without KSTAT_A_SEL_CPU the sum over all possible CPUs
 *          (the "cpu" line of /proc/stat; the nest then has no
 *          KSTAT_A_CPU_ID).  With KSTAT_A_SEL_FLAGS KSTAT_F_PERCPU instead:
 *          one KSTAT_A_CPU nest per online CPU, then the sum, from one
 *          reading, in one reply (the whole of /proc/stat's cpu lines in
 *          one round trip).  Errors: EINVAL "CPU out of range" when the id
 *          is not a possible CPU; EINVAL when both are given.
 *   dump:  no attributes.  One KSTAT_A_CPU nest per online CPU (the "cpuN"
 *          lines of /proc/stat), from one reading.
 *   Idle and iowait follow /proc/stat: the NO_HZ idle accounting
 *   (get_cpu_idle_time_us / get_cpu_iowait_time_us) for online CPUs where
 *   it is valid, the tick-based kernel_cpustat value otherwise.  Like
 *   /proc/stat's, one reading of a CPU's idle (or iowait) can come out
 *   high, and the next one then lower: read from another CPU, a
 *   sleeping CPU's idle time runs up to the reader's clock, so a CPU
 *   that has woken but not yet accounted its wake-up counts as idle
 *   until the reading (seen on 6.1 and 6.12; docs/robustness.md).
 *   kstat reports the kernel's readings as they are; a consumer that
 *   derives rates must not assume idle only grows.
 *
 * KSTAT_CMD_IRQ_GET
 *   do:    KSTAT_A_SEL_IRQ (required), optional KSTAT_A_SEL_FLAGS,
 *          KSTAT_A_SEL_CPU_FIRST, KSTAT_A_SEL_CPU_LAST.  Reply: one
 *          KSTAT_A_IRQ nest.
 *          Errors: ENOENT "no such IRQ" when the number has no descriptor.
 *   dump:  optional selection: KSTAT_A_SEL_IRQ_FIRST / KSTAT_A_SEL_IRQ_LAST
 *          (a range) or KSTAT_A_SEL_IRQ_LIST (an array of __u32 IRQ numbers;
 *          not both), KSTAT_A_SEL_FLAGS, KSTAT_A_SEL_CPU_FIRST,
 *          KSTAT_A_SEL_CPU_LAST.
 *          Replies: messages each carrying one or more KSTAT_A_IRQ nests,
 *          every selected IRQ exactly once, in the order selected.
 *          Without KSTAT_F_META the IRQs come packed instead, as
 *          KSTAT_A_IRQS chunks: dense ones for a range, listed ones for
 *          a list; with KSTAT_F_PERCPU each IRQ with a per-CPU record.  IRQ
 *          numbers without a descriptor are skipped (a listed number without
 *          a descriptor is simply absent).  The last message of the dump
 *          carries KSTAT_A_INTR_SUM, KSTAT_A_NR_IRQS, KSTAT_A_ONLINE_CPUS and,
 *          with KSTAT_F_ARCH, the KSTAT_A_ARCH nests.  A dump whose IRQs
 *          fit in one reply buffer is one pass over them, as a read of
 *          /proc/interrupts is.  One that takes several is checked: if the
 *          set of IRQ descriptors in the selection changed meanwhile, the
 *          last message carries NLM_F_DUMP_INTR: start again.
 *   Only what is asked for is computed: IRQs outside the selection are not
 *   looked at, per-CPU counts are read only with KSTAT_F_PERCPU, names are
 *   formatted only with KSTAT_F_META.
 *
 * KSTAT_CMD_SOFTIRQ_GET
 *   do:    optional KSTAT_A_SEL_FLAGS (KSTAT_F_PERCPU), KSTAT_A_SEL_CPU_FIRST,
 *          KSTAT_A_SEL_CPU_LAST.  Reply: one KSTAT_A_SOFTIRQ nest per vector
 *          (NR_SOFTIRQS of them, in vector order) and KSTAT_A_ONLINE_CPUS.
 *
 * KSTAT_CMD_CONFIG_GET
 *   do:    no attributes.  Reply: KSTAT_A_CONFIG, the default stream's
 *          configuration, and KSTAT_A_LIMITS.
 *
 * KSTAT_CMD_CONFIG_SET (needs CAP_NET_ADMIN, else EPERM)
 *   do:    KSTAT_A_CONFIG and/or KSTAT_A_LIMITS (at least one) with the
 *          fields to change; the others
 *          keep their value.  Interval below KSTAT_INTERVAL_MIN_MS: EINVAL
 *          "interval below the 10 ms minimum"; empty section set: EINVAL.
 *          Applies from the next sample on, which comes within the new
 *          interval; that sample carries KSTAT_A_SAMPLE_CONFIG to
 *          announce it.
 *
 * KSTAT_CMD_STATS_GET
 *   do:    no attributes.  Reply: KSTAT_A_STATS, the producer's telemetry,
 *          and a KSTAT_A_STREAM nest per stream, the default one first.
 *
 * KSTAT_CMD_SUBSCRIBE
 *   do:    no attributes: the default stream.  Send it from the socket that joined "summary"
 *          (generic netlink on 6.1 tells a family nothing of joins).  It
 *          starts the summary producer if it is idle, taking the first
 *          sample at once (a keyframe; when its batch is complete it is
 *          multicast at once to every listener but the sender, so that
 *          the answer is all the sender gets before the ACK).  It
 *          answers, before its ACK if one was asked for, with the current
 *          state: a SUMMARY_NTF batch unicast to the
 *          sender, flagged KSTAT_A_SNAPSHOT, holding one keyframe sample
 *          with the seq S, timestamp and config of the latest sample the
 *          producer took.  Apply every multicast sample with seq > S on top
 *          of it and ignore those with seq <= S: they are in the snapshot
 *          already (a batch still open when S was taken is multicast after
 *          the snapshot).  A subscriber therefore has complete state as
 *          soon as SUBSCRIBE is answered, however long the producer has
 *          been running, and the other subscribers pay nothing for it.
 *          A producer whose samples fail (no memory) tries again at its
 *          next tick, one interval later, not at each SUBSCRIBE.
 *          Errors: ENOTCONN when the group is empty ("join the "summary"
 *          multicast group first"), ESHUTDOWN while the module unloads,
 *          ENOBUFS when the sender's receive buffer cannot take the
 *          snapshot, EUSERS from a namespace not subscribed yet when
 *          KSTAT_NETNS_MAX others besides the initial one are ("summaries
 *          go to at most 256 network namespaces besides the initial one").
 *          Idempotent.  No privilege needed.  The producer stops
 *          by itself at the first tick that finds nobody listening.
 *          SUBSCRIBE also records the sender's network namespace: samples
 *          are multicast only into namespaces that subscribed, until a
 *          multicast there finds no listener left.  A socket without
 *          NETLINK_BROADCAST_ERROR whose queue is full counts as no
 *          listener: after ENOBUFS on receive, send SUBSCRIBE again.
 *
 *   do with KSTAT_A_CONFIG: a stream of the reader's own.  The nest's
 *          fields (interval, sections, percpu, batch, keyframe) choose
 *          it; those left out take the default stream's values at that
 *          moment, and a stream's config never changes afterwards (an
 *          admin's CONFIG_SET changes the default stream only).  Readers
 *          asking the same config share one stream.  The sender need not
 *          join "summary": its stream's SUMMARY_NTF messages are unicast
 *          to it, each carrying KSTAT_A_SUMMARY_STREAM, starting with the
 *          snapshot (KSTAT_A_SNAPSHOT, as above, of that stream's state).
 *          A socket is a member of at most one stream of its own: a
 *          second SUBSCRIBE with KSTAT_A_CONFIG moves it.  It leaves on
 *          UNSUBSCRIBE or when it closes.  A member that misses a message
 *          (its receive queue was full) gets a snapshot as its next
 *          message, at the stream's next sample; the other members pay
 *          nothing for it.  Limits (KSTAT_A_LIMITS, see CONFIG_SET):
 *          EINVAL below the interval floor, EBUSY over the stream limit,
 *          EUSERS over a per-user or per-netns member limit, each with
 *          an extended ACK saying which; such a refusal leaves the
 *          socket where it was.  An interval left out is the default
 *          stream's and is not held to the floor.  ENOBUFS (its receive
 *          buffer could not take the snapshot) or ENOMEM leave it in no
 *          stream of its own: SUBSCRIBE again.
 *
 * KSTAT_CMD_UNSUBSCRIBE
 *   do:    no attributes.  The sender leaves its stream of its own
 *          (ENOENT when it has none).  A stream left without members
 *          stops and is freed.  The default stream is left by leaving
 *          the "summary" group.
 *
 * KSTAT_CMD_SUMMARY_NTF (multicast to "summary")
 *   Every config batch samples, one notification: a batch of samples,
 *   split over several messages when large.  Each message carries
 *   KSTAT_A_BATCH_SEQ (the seq of the batch's first sample), KSTAT_A_PART
 *   (0-based) and KSTAT_A_PARTS, then KSTAT_A_SAMPLE nests.  A sample
 *   split over parts repeats its header (SEQ, TIMESTAMP, GENERATION,
 *   KEYFRAME) in each piece.  Sample contents, by section:
 *   - cpu: KSTAT_A_SAMPLE_CPUTIME nests, packed rows of CPU time (see
 *     enum kstat_cputime_attr): a keyframe has every online CPU's row,
 *     then the sum over possible CPUs; a delta only the rows that changed
 *     since the previous sample, then the sum if it changed.  Values are
 *     absolute ns, so a row simply replaces the subscriber's.  Every
 *     sample of a config with this section has at least one such nest;
 *     the rows are in ascending CPU id across the nests of a sample, and
 *     the sum comes after the last row;
 *   - softirq: KSTAT_A_SAMPLE_SOFTIRQ nests;
 *   - irq: KSTAT_A_SAMPLE_IRQS chunks, dense in keyframes and
 *     incremental in deltas (the increment is added to the count the
 *     subscriber holds), with the config's per-CPU counts a per-CPU
 *     record for each IRQ in them; KSTAT_A_SAMPLE_ARCH nests (name and count; the
 *     description in keyframes only), KSTAT_A_SAMPLE_INTR_SUM.
 *   A keyframe (KSTAT_A_SAMPLE_KEYFRAME) carries every IRQ, vector and
 *   arch row and replaces the subscriber's state.  A delta carries only
 *   those whose count changed since the previous sample.  Keyframes come
 *   as the first sample of every config keyframe-th batch, whenever the
 *   generation changes (IRQ descriptors or online CPUs changed, in the
 *   sections of the config: the IRQs of a cpu-only config are not even
 *   read), when the sections or per-CPU setting change, and after the
 *   producer had to drop a sample.
 *   Every count in a sample is 64-bit and monotonic while the producer
 *   runs with its section in the config:
 *   - an IRQ's count is extended from the kernel's 32-bit total: the
 *     producer adds (u32)(now - before) at every sample, which is exact
 *     as long as fewer than 2^32 interrupts of one IRQ happen between two
 *     samples (KSTAT_HORIZON_MS says how that is kept).  The producer
 *     keys this state by descriptor, not by IRQ number: it holds a
 *     reference on every descriptor it tracks, so a descriptor freed and
 *     reallocated under the same number, even at the same address, is
 *     seen as new.  Its count then restarts from the new
 *     descriptor's own count, and the generation changes;
 *   - softirq, arch and intr-sum counts are extended per CPU the same
 *     way, so they are exact as long as fewer than 2^32 events of one
 *     counter happen on one CPU between two samples.  They start from the
 *     values /proc shows when the producer starts and, unlike /proc, never
 *     drop when a per-CPU counter wraps;
 *   - a sample the producer fails to build or send is lost (a seq gap)
 *     but its reading becomes the base of the next one, which is a
 *     keyframe: every count stays exact, and never ages past the
 *     horizon while samples fail;
 *   - the counts of a section start when it enters the config (or the
 *     producer starts): a section outside the config is not read at all,
 *     and one that comes back starts again from the kernel's counters,
 *     in a keyframe.
 *   Per-CPU counts in samples are the kernel's 32-bit counters, read
 *   when the sample is taken, in the same pass as the IRQ's count: they
 *   sum to it modulo 2^32.
 *   Sequence numbers are consecutive while the module is loaded: a gap
 *   means lost samples (the socket overran, or the producer could not
 *   build a sample, counted in KSTAT_A_STATS_ALLOC_FAILURES).  After a
 *   reload they start again from 0: a client learns of the reload from
 *   nlctrl (CTRL_CMD_DELFAMILY / CTRL_CMD_NEWFAMILY on its "notify"
 *   group), joins the new family's group and subscribes again.
 *
 * What kstat does not report (x86, built as a module)
 * ===================================================
 * /proc/interrupts' ERR, MIS, MCE and MCP rows come from irq_err_count,
 * irq_mis_count, mce_exception_count and mce_poll_count, which the kernel
 * does not export to modules.  kstat leaves those rows out rather than guess
 * them, and KSTAT_A_INTR_SUM (the "intr" total of /proc/stat) excludes them:
 * it is the sum over all CPUs of every IRQ descriptor's count plus the arch
 * counters kstat does report.  ERR, MIS and MCE stay zero on a healthy
 * machine; MCP counts the periodic machine-check polls (every 5 minutes by
 * default), so kstat's "intr" total is below /proc/stat's by that count.
 */
#ifndef _UAPI_LINUX_KSTAT_H
#define _UAPI_LINUX_KSTAT_H

#define KSTAT_FAMILY_NAME		"kstat"
#define KSTAT_FAMILY_VERSION		4

/* Multicast group for periodic summaries (see the summary commands). */
#define KSTAT_MCGRP_SUMMARY_NAME	"summary"

enum kstat_cmd {
	KSTAT_CMD_UNSPEC,
	KSTAT_CMD_CPU_GET,
	KSTAT_CMD_IRQ_GET,
	KSTAT_CMD_SOFTIRQ_GET,
	KSTAT_CMD_CONFIG_GET,
	KSTAT_CMD_CONFIG_SET,
	KSTAT_CMD_STATS_GET,
	KSTAT_CMD_SUBSCRIBE,
	KSTAT_CMD_SUMMARY_NTF,
	KSTAT_CMD_UNSUBSCRIBE,

	__KSTAT_CMD_MAX,
	KSTAT_CMD_MAX = __KSTAT_CMD_MAX - 1
};

/* KSTAT_A_SEL_FLAGS bits: what a request wants besides totals. */
enum kstat_flags {
	KSTAT_F_PERCPU	= 1U << 0,	/* per-CPU counts (KSTAT_A_*_PERCPU) */
	KSTAT_F_META	= 1U << 1,	/* IRQ chip, hwirq, trigger, actions */
	KSTAT_F_ARCH	= 1U << 2,	/* arch counters (IRQ_GET dumps) */
};

#define KSTAT_F_ALL	(KSTAT_F_PERCPU | KSTAT_F_META | KSTAT_F_ARCH)

/* The longest KSTAT_A_SEL_IRQ_LIST, in IRQ numbers. */
#define KSTAT_IRQ_LIST_MAX	8192

/* Top-level attributes, in requests and replies. */
enum kstat_attr {
	KSTAT_A_UNSPEC,
	KSTAT_A_PAD,

	/* request selection */
	KSTAT_A_SEL_CPU,	/* u32: CPU_GET do, the CPU to report */
	KSTAT_A_SEL_IRQ,	/* u32: IRQ_GET do, the IRQ to report */
	KSTAT_A_SEL_IRQ_FIRST,	/* u32: IRQ_GET dump, first IRQ of a range */
	KSTAT_A_SEL_IRQ_LAST,	/* u32: IRQ_GET dump, last IRQ (inclusive) */
	KSTAT_A_SEL_IRQ_LIST,	/* binary: __u32[], IRQs to dump, at most
				 * KSTAT_IRQ_LIST_MAX
				 */
	KSTAT_A_SEL_CPU_FIRST,	/* u32: first CPU of per-CPU arrays */
	KSTAT_A_SEL_CPU_LAST,	/* u32: last CPU of per-CPU arrays (inclusive) */
	KSTAT_A_SEL_FLAGS,	/* u32: KSTAT_F_*; CPU_GET do: KSTAT_F_PERCPU */

	/* replies */
	KSTAT_A_CPU,		/* nest: enum kstat_cpu_attr */
	KSTAT_A_IRQ,		/* nest: enum kstat_irq_attr */
	KSTAT_A_SOFTIRQ,	/* nest: enum kstat_softirq_attr */
	KSTAT_A_ARCH,		/* nest: enum kstat_arch_attr */
	KSTAT_A_INTR_SUM,	/* u64: /proc/stat "intr" total (see above) */
	KSTAT_A_NR_IRQS,	/* u32: the kernel's nr_irqs */
	KSTAT_A_ONLINE_CPUS,	/* binary: bitmap of online CPUs */

	/* summaries */
	KSTAT_A_CONFIG,		/* nest: enum kstat_config_attr */
	KSTAT_A_STATS,		/* nest: enum kstat_stats_attr */
	KSTAT_A_SAMPLE,		/* nest: enum kstat_sample_attr, repeated */
	KSTAT_A_BATCH_SEQ,	/* u64: seq of the batch's first sample */
	KSTAT_A_PART,		/* u32: this message's part, 0-based */
	KSTAT_A_PARTS,		/* u32: messages in this batch */
	KSTAT_A_SNAPSHOT,	/* flag: a SUBSCRIBE answer, unicast */

	KSTAT_A_IRQS,		/* nest: enum kstat_irqs_attr, repeated: IRQ
				 * totals in chunks (dumps without flags)
				 */

	/* streams: a reader's own summaries */
	KSTAT_A_LIMITS,		/* nest: enum kstat_limits_attr */
	KSTAT_A_STREAM,		/* nest: enum kstat_stream_attr, repeated in
				 * STATS_GET: one per stream
				 */
	KSTAT_A_SUMMARY_STREAM,	/* u32: the stream of a SUMMARY_NTF; 0 is
				 * the default stream
				 */

	__KSTAT_A_MAX,
	KSTAT_A_MAX = __KSTAT_A_MAX - 1
};

/* KSTAT_A_CPU: CPU time of one CPU, or of all, in nanoseconds. */
enum kstat_cpu_attr {
	KSTAT_A_CPU_UNSPEC,
	KSTAT_A_CPU_PAD,
	KSTAT_A_CPU_ID,		/* u32: CPU id; absent in the all-CPU sum */
	KSTAT_A_CPU_USER,	/* u64 ns */
	KSTAT_A_CPU_NICE,	/* u64 ns */
	KSTAT_A_CPU_SYSTEM,	/* u64 ns */
	KSTAT_A_CPU_IDLE,	/* u64 ns */
	KSTAT_A_CPU_IOWAIT,	/* u64 ns */
	KSTAT_A_CPU_IRQ,	/* u64 ns */
	KSTAT_A_CPU_SOFTIRQ,	/* u64 ns */
	KSTAT_A_CPU_STEAL,	/* u64 ns */
	KSTAT_A_CPU_GUEST,	/* u64 ns */
	KSTAT_A_CPU_GUEST_NICE,	/* u64 ns */

	__KSTAT_A_CPU_MAX,
	KSTAT_A_CPU_MAX = __KSTAT_A_CPU_MAX - 1
};

/*
 * KSTAT_A_SAMPLE_CPUTIME: CPU time rows of a summary sample, packed.  A
 * sample's rows may come in several of these nests (chunks, each within
 * one part); every chunk carries FIELDS.
 *   FIELDS  u32: values per row, in enum kstat_cpu_attr order from
 *           KSTAT_A_CPU_USER (10 today: USER..GUEST_NICE).  A later
 *           kernel may send more (new fields are appended): a reader
 *           takes the ones it knows and skips the rest of each row; a
 *           reader that knows more than FIELDS has only FIELDS of them.
 *   IDS     binary: __u32[n], the CPU ids of the rows, ascending.
 *   VALUES  binary: __u64[n * FIELDS], ns, row after row, in the order of
 *           IDS.  IDS and VALUES come together or not at all; their
 *           lengths must agree.
 *   SUM     binary: __u64[FIELDS], ns, the all-CPU sum row (the "cpu"
 *           line of /proc/stat).
 * The arrays are in host byte order and only 4-byte aligned on some
 * architectures: read them with memcpy.
 */
enum kstat_cputime_attr {
	KSTAT_A_CPUTIME_UNSPEC,
	KSTAT_A_CPUTIME_PAD,
	KSTAT_A_CPUTIME_FIELDS,		/* u32: values per row */
	KSTAT_A_CPUTIME_IDS,		/* binary: __u32[] CPU ids */
	KSTAT_A_CPUTIME_VALUES,		/* binary: __u64[ids * FIELDS] ns */
	KSTAT_A_CPUTIME_SUM,		/* binary: __u64[FIELDS] ns */

	__KSTAT_A_CPUTIME_MAX,
	KSTAT_A_CPUTIME_MAX = __KSTAT_A_CPUTIME_MAX - 1
};

/* KSTAT_A_IRQ: one IRQ descriptor. */
enum kstat_irq_attr {
	KSTAT_A_IRQ_UNSPEC,
	KSTAT_A_IRQ_PAD,
	KSTAT_A_IRQ_ID,		/* u32: IRQ number */
	KSTAT_A_IRQ_COUNT,	/* u64: total, as kstat_irqs() (wraps at 2^32) */
	KSTAT_A_IRQ_PERCPU,	/* binary: __u32[] per CPU (KSTAT_F_PERCPU) */
	KSTAT_A_IRQ_CHIP,	/* string: irq chip name (KSTAT_F_META) */
	KSTAT_A_IRQ_HWIRQ,	/* u64: hardware IRQ number, when the IRQ has
				 * a domain (KSTAT_F_META)
				 */
	KSTAT_A_IRQ_LEVEL,	/* u8: 1 level-triggered, 0 edge (KSTAT_F_META) */
	KSTAT_A_IRQ_NAME,	/* string: flow handler name, e.g. "edge"; absent
				 * when the descriptor has none (KSTAT_F_META)
				 */
	KSTAT_A_IRQ_ACTION,	/* string, repeated: action names in order
				 * (KSTAT_F_META)
				 */
	KSTAT_A_IRQ_NR_CPUS,	/* u32: length of the per-CPU array CPUS
				 * describes (KSTAT_F_PERCPU)
				 */
	KSTAT_A_IRQ_CPUS,	/* binary: __u32[], a per-CPU record; sent
				 * with NR_CPUS instead of PERCPU when the
				 * two are smaller (KSTAT_F_PERCPU)
				 */

	__KSTAT_A_IRQ_MAX,
	KSTAT_A_IRQ_MAX = __KSTAT_A_IRQ_MAX - 1
};

/*
 * KSTAT_A_IRQS, KSTAT_A_SAMPLE_IRQS: a chunk of IRQ totals, packed.  A
 * reply or sample carries as many chunks as it takes, each covering at
 * most KSTAT_IRQS_CHUNK_MAX IRQs, in ascending IRQ order (list dumps: in
 * the order listed).  A chunk has one of three shapes:
 * - dense (range dumps, keyframes): FIRST, PRESENT and the counts.  Bit
 *   (i % 8) of byte (i / 8) of PRESENT set means IRQ FIRST + i has a
 *   descriptor; the counts hold one per set bit, in bit order.
 * - listed (list dumps): IDS and the counts, one per id, same order.
 * The counts are COUNTS32 (one __u32 each) when every count of the chunk
 * is below 2^32, else COUNTS (one __u64 each); a chunk has one of the
 * two, never both.  A dump's counts are the kernel's 32-bit totals, so
 * dumps always send COUNTS32; a keyframe sends COUNTS for a chunk where
 * a 64-bit running total has passed 2^32.
 * - incremental (deltas): IDS and INCREMENTS, one __u32 per id: what
 *   the IRQ's 64-bit count grew by since the previous sample.  It is
 *   below 2^32 by construction: the producer extends a count by adding
 *   (u32)(now - before) of the kernel's 32-bit total, and an IRQ whose
 *   descriptor changed makes the sample a keyframe.
 * With per-CPU counts (KSTAT_F_PERCPU dumps without KSTAT_F_META, and
 * samples of a config with percpu) a chunk also has NR_CPUS, the length
 * of the per-CPU arrays, and CPUS, one per-CPU record per IRQ, in the
 * chunk's order (see "Per-CPU records"; in a delta a record comes with
 * each IRQ that moved).  Such a chunk may cover fewer IRQs, so that it
 * stays small.
 * Arrays are in host byte order and only 4-byte aligned: copy __u64s out.
 * A chunk whose arrays disagree in length is corrupt.
 */
#define KSTAT_IRQS_CHUNK_MAX	256

/* The header word of a per-CPU record (see "Per-CPU records" above). */
#define KSTAT_CPUS_KIND		0xc0000000U
#define KSTAT_CPUS_VALUE	0x3fffffffU
#define KSTAT_CPUS_PAIRS	0x00000000U
#define KSTAT_CPUS_ONE		0x40000000U
#define KSTAT_CPUS_DENSE	0x80000000U

enum kstat_irqs_attr {
	KSTAT_A_IRQS_UNSPEC,
	KSTAT_A_IRQS_FIRST,	/* u32: IRQ number of PRESENT's bit 0 */
	KSTAT_A_IRQS_PRESENT,	/* binary: bitmap of bytes, from FIRST */
	KSTAT_A_IRQS_COUNTS,	/* binary: __u64[], one per IRQ */
	KSTAT_A_IRQS_IDS,	/* binary: __u32[], IRQ numbers */
	KSTAT_A_IRQS_INCREMENTS,	/* binary: __u32[], one per id (deltas) */
	KSTAT_A_IRQS_NR_CPUS,	/* u32: length of the per-CPU arrays */
	KSTAT_A_IRQS_CPUS,	/* binary: __u32[], one per-CPU record per
				 * IRQ of the chunk, in its order
				 */
	KSTAT_A_IRQS_COUNTS32,	/* binary: __u32[], one per IRQ: COUNTS
				 * when every count fits 32 bits
				 */

	__KSTAT_A_IRQS_MAX,
	KSTAT_A_IRQS_MAX = __KSTAT_A_IRQS_MAX - 1
};

/* KSTAT_A_SOFTIRQ: one softirq vector. */
enum kstat_softirq_attr {
	KSTAT_A_SOFTIRQ_UNSPEC,
	KSTAT_A_SOFTIRQ_PAD,
	KSTAT_A_SOFTIRQ_VEC,	/* u32: vector number */
	KSTAT_A_SOFTIRQ_NAME,	/* string: "HI", "TIMER", ... as /proc/softirqs */
	KSTAT_A_SOFTIRQ_COUNT,	/* u64: sum over possible CPUs */
	KSTAT_A_SOFTIRQ_PERCPU,	/* binary: __u32[] per CPU (KSTAT_F_PERCPU) */

	__KSTAT_A_SOFTIRQ_MAX,
	KSTAT_A_SOFTIRQ_MAX = __KSTAT_A_SOFTIRQ_MAX - 1
};

/*
 * KSTAT_A_ARCH: one architecture counter row of /proc/interrupts (on x86
 * NMI, LOC, SPU, PMI, IWI, RTR, RES, CAL, TLB, TRM, THR, DFR, HYP, ...).
 */
enum kstat_arch_attr {
	KSTAT_A_ARCH_UNSPEC,
	KSTAT_A_ARCH_PAD,
	KSTAT_A_ARCH_NAME,	/* string: row label, e.g. "NMI" */
	KSTAT_A_ARCH_DESC,	/* string: row description */
	KSTAT_A_ARCH_COUNT,	/* u64: sum over possible CPUs */
	KSTAT_A_ARCH_PERCPU,	/* binary: __u32[] per CPU (KSTAT_F_PERCPU) */

	__KSTAT_A_ARCH_MAX,
	KSTAT_A_ARCH_MAX = __KSTAT_A_ARCH_MAX - 1
};

/* KSTAT_A_CONFIG_SECTIONS bits: what a summary sample carries. */
enum kstat_sections {
	KSTAT_SECTION_CPU	= 1U << 0,	/* cputime per CPU and total */
	KSTAT_SECTION_IRQ	= 1U << 1,	/* IRQs, arch rows, intr sum */
	KSTAT_SECTION_SOFTIRQ	= 1U << 2,	/* softirq vectors */
};

#define KSTAT_SECTION_ALL \
	(KSTAT_SECTION_CPU | KSTAT_SECTION_IRQ | KSTAT_SECTION_SOFTIRQ)

/*
 * Bounds of the summary configuration.  The longest interval keeps every
 * count exact: see KSTAT_HORIZON_MS.
 */
#define KSTAT_INTERVAL_MIN_MS	10
#define KSTAT_INTERVAL_MAX_MS	60000

/*
 * The increment horizon.  Summaries extend the kernel's 32-bit counters
 * by adding (u32)(now - before) at every reading, and a delta carries an
 * IRQ's increment as a __u32: both are exact as long as fewer than 2^32
 * events of one counter happen between two readings.  The producer
 * reads at every attempt, at most KSTAT_INTERVAL_MAX_MS apart (an attempt
 * whose sample cannot be sent still reads, and the next sample is a
 * keyframe), and never extends a count across more than KSTAT_HORIZON_MS
 * (CLOCK_MONOTONIC: a suspend, in which counters stand still, does not
 * count): when readings failed for that long (no memory), it starts its
 * counts again from the kernel's, in a keyframe of a new generation.  So every
 * count is exact up to 2^32 events of one counter in KSTAT_HORIZON_MS,
 * about 35.8 million a second: per CPU for softirq and arch counters,
 * per IRQ for IRQ totals (an IRQ is handled on one CPU at a time, except
 * per-CPU IRQs, whose total sums every CPU's).
 */
#define KSTAT_HORIZON_MS	120000
#define KSTAT_BATCH_MAX		64

/*
 * Network namespaces the default stream's summaries go to, besides the
 * initial one, which always may subscribe.  Each costs one broadcast per
 * message, and a broadcast walks every generic netlink multicast socket
 * of every namespace; any user can make namespaces.  SUBSCRIBE from one
 * more gets EUSERS.  A namespace leaves the count when a multicast finds
 * nobody listening there, when it is destroyed, or when the producer
 * stops (nobody listens anywhere).
 */
#define KSTAT_NETNS_MAX		256
#define KSTAT_KEYFRAME_MAX	3600

/* KSTAT_A_CONFIG: the summary producer's configuration. */
enum kstat_config_attr {
	KSTAT_A_CONFIG_UNSPEC,
	KSTAT_A_CONFIG_INTERVAL_MS,	/* u32: sampling period, 10..60000 */
	KSTAT_A_CONFIG_BATCH,		/* u32: samples per notification */
	KSTAT_A_CONFIG_KEYFRAME,	/* u32: a full sample every N batches */
	KSTAT_A_CONFIG_SECTIONS,	/* u32: KSTAT_SECTION_* */
	KSTAT_A_CONFIG_PERCPU,		/* u8: per-CPU IRQ counts in samples */

	__KSTAT_A_CONFIG_MAX,
	KSTAT_A_CONFIG_MAX = __KSTAT_A_CONFIG_MAX - 1
};

/*
 * KSTAT_A_LIMITS: what unprivileged readers may ask of streams of their
 * own (CONFIG_GET shows them, CONFIG_SET changes them, CAP_NET_ADMIN).
 * Readers with CAP_NET_ADMIN are held to the interval floor of
 * KSTAT_INTERVAL_MIN_MS only, and to none of the counts.
 */
enum kstat_limits_attr {
	KSTAT_A_LIMITS_UNSPEC,
	KSTAT_A_LIMITS_MIN_INTERVAL_MS,	/* u32: shortest interval an
					 * unprivileged reader may ask
					 */
	KSTAT_A_LIMITS_MAX_STREAMS,	/* u32: streams besides the default */
	KSTAT_A_LIMITS_MAX_MEMBERS_USER, /* u32: own-stream members per uid */
	KSTAT_A_LIMITS_MAX_MEMBERS_NET,	/* u32: own-stream members per netns */

	__KSTAT_A_LIMITS_MAX,
	KSTAT_A_LIMITS_MAX = __KSTAT_A_LIMITS_MAX - 1
};

/* KSTAT_A_STREAM: one stream of summaries, in STATS_GET. */
enum kstat_stream_attr {
	KSTAT_A_STREAM_UNSPEC,
	KSTAT_A_STREAM_PAD,
	KSTAT_A_STREAM_ID,		/* u32: 0 is the default stream */
	KSTAT_A_STREAM_CONFIG,		/* nest: enum kstat_config_attr */
	KSTAT_A_STREAM_MEMBERS,		/* u32: sockets in it (0 for the
					 * default stream: it multicasts)
					 */
	KSTAT_A_STREAM_SAMPLES,		/* u64: samples sent */
	KSTAT_A_STREAM_BYTES,		/* u64: bytes sent, all members */
	KSTAT_A_STREAM_RESYNCS,		/* u64: snapshots sent to members
					 * that overran
					 */

	__KSTAT_A_STREAM_MAX,
	KSTAT_A_STREAM_MAX = __KSTAT_A_STREAM_MAX - 1
};

/* KSTAT_A_STATS: the summary producer's own telemetry. */
enum kstat_stats_attr {
	KSTAT_A_STATS_UNSPEC,
	KSTAT_A_STATS_PAD,
	KSTAT_A_STATS_SAMPLES,		/* u64: samples taken */
	KSTAT_A_STATS_SUMMARIES,	/* u64: batches multicast */
	KSTAT_A_STATS_MESSAGES,		/* u64: messages multicast */
	KSTAT_A_STATS_DELIVERY_FAILURES, /* u64: messages some listener
					  * did not get (ENOBUFS)
					  */
	KSTAT_A_STATS_ALLOC_FAILURES,	/* u64: samples dropped, unbuilt */
	KSTAT_A_STATS_LISTENING,	/* u8: the group has listeners now */
	KSTAT_A_STATS_RUNNING,		/* u8: the producer is running */
	KSTAT_A_STATS_BUILD_NS_LAST,	/* u64: ns the last sample cost, from
					 * reading counters to multicast
					 */
	KSTAT_A_STATS_BUILD_NS_MAX,	/* u64: the most ns a sample took */
	KSTAT_A_STATS_KEYFRAME_BYTES,	/* u64: size of the last full sample */
	KSTAT_A_STATS_DELTA_BYTES,	/* u64: size of the last delta sample */
	KSTAT_A_STATS_GENERATION,	/* u32: current generation */
	KSTAT_A_STATS_BUILD_NS_TOTAL,	/* u64: ns of all samples together */

	__KSTAT_A_STATS_MAX,
	KSTAT_A_STATS_MAX = __KSTAT_A_STATS_MAX - 1
};

/*
 * KSTAT_A_SAMPLE: one sample of a summary.  A sample split over several
 * messages (parts) repeats its SEQ, TIMESTAMP, GENERATION and KEYFRAME in
 * each; a client merges the pieces with the same SEQ.
 */
enum kstat_sample_attr {
	KSTAT_A_SAMPLE_UNSPEC,
	KSTAT_A_SAMPLE_PAD,
	KSTAT_A_SAMPLE_SEQ,		/* u64: consecutive across batches */
	KSTAT_A_SAMPLE_TIMESTAMP,	/* u64: CLOCK_BOOTTIME ns */
	KSTAT_A_SAMPLE_GENERATION,	/* u32: changes with the IRQ set or
					 * the online CPUs
					 */
	KSTAT_A_SAMPLE_KEYFRAME,	/* flag: a full sample, not a delta */
	KSTAT_A_SAMPLE_CONFIG,		/* nest: kstat_config_attr, in
					 * keyframes and after a change
					 */
	KSTAT_A_SAMPLE_CPU,		/* unused: was a nest per CPU */
	KSTAT_A_SAMPLE_IRQ,		/* nest: kstat_irq_attr, repeated */
	KSTAT_A_SAMPLE_SOFTIRQ,		/* nest: kstat_softirq_attr, repeated */
	KSTAT_A_SAMPLE_ARCH,		/* nest: kstat_arch_attr, repeated */
	KSTAT_A_SAMPLE_INTR_SUM,	/* u64: as KSTAT_A_INTR_SUM */
	KSTAT_A_SAMPLE_CPUTIME,		/* nest: kstat_cputime_attr, repeated */
	KSTAT_A_SAMPLE_IRQS,		/* nest: kstat_irqs_attr, repeated */

	__KSTAT_A_SAMPLE_MAX,
	KSTAT_A_SAMPLE_MAX = __KSTAT_A_SAMPLE_MAX - 1
};

#endif /* _UAPI_LINUX_KSTAT_H */
