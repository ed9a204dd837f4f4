#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Subscriptions and the default stream, on raw generic netlink sockets.

usage:
  streams.py watch SECONDS SPEC...   one socket per SPEC, each SUBSCRIBEs
        and reads for SECONDS; prints one JSON object per socket: {"spec",
        "err", "extack", "enobufs", "samples": [[seq, ts_ns, sections,
        parts, irqs], ...]} (sections: the KSTAT_SECTION_* bits of the
        objects the sample carries; parts: its PARTS; irqs: how many IRQ
        counts it carries), in the order they came; a sample whose parts
        did not all come is left out (counted in "partial")
  streams.py drain SECONDS SPEC...   as watch, but the sockets only
        receive, parsing nothing after the SUBSCRIBE's answer (the cost
        benchmark's readers); prints {"spec", "err", "extack", "enobufs",
        "messages"} per socket
  streams.py overrun SPEC SLEEP      SUBSCRIBEs with a 4 KiB receive
        buffer, reads nothing for SLEEP seconds, then reads for 3 s; prints
        the watch object
  streams.py subscribe SPEC          one SUBSCRIBE; prints "ERRNO EXTACK"
  streams.py hold READY SPEC...      a socket per SPEC SUBSCRIBEs; prints
        each's "ERRNO EXTACK" line, creates READY, waits for SIGTERM
  streams.py cycles N SPEC...        N times: a socket SUBSCRIBEs with each
        SPEC in turn (each replaces the one before), then closes; prints
        the number of SUBSCRIBEs refused
  streams.py storm N SPEC            N SUBSCRIBEs from one socket; prints
        {"subscribes", "failed", "us_each"}
  streams.py churn SECONDS SPEC...   one socket SUBSCRIBEs with each SPEC
        in turn, as fast as it can, for SECONDS; prints {"subscribes",
        "errnos": {errno: n}, "ticks", "tick_ms"} (what STATS_GET's ticks
        and their time in ms grew by meanwhile)
  streams.py unsubscribe [SPEC]      UNSUBSCRIBE (after SUBSCRIBE with SPEC,
        if given); prints "ERRNO EXTACK"
  streams.py stats                   STATS_GET as one JSON object (ticks,
        tick_ns_total, tick_ns_max, samples, messages, bytes,
        delivery_failures, alloc_failures, running, listening,
        subscriptions, interval_ms, generation)
  streams.py config                  CONFIG_GET's config and limits as one
        JSON object (interval_ms, batch, sections, percpu, netns,
        min_interval_ms, max_subscriptions)
  streams.py limits [K=V...]         CONFIG_SET of the limits given
        (min_interval_ms, max_subscriptions), then CONFIG_GET's limits as
        JSON

SPEC is "interval=MS,sections=BITS,percpu=0|1" (any left out; batch=N and
netns=0|1 too, which the kernel refuses in a SUBSCRIBE), a subscription
of the socket's own, or "default" (no config: the default stream,
joining "summary" first).  The attribute numbers come from the UAPI
header.  (Protocol 5 has no per-reader stream objects: a subscription is
the socket's own view of the one producer.)
"""
import errno
import json
import os
import re
import select
import signal
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
NLM_F_REQUEST = 1
NLM_F_ACK = 4
NLMSG_ERROR = 2
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 0x8000
SO_RCVBUFFORCE = 33
ANSWER_S = 10		# an answer lost to a full buffer: not waited for longer

UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../include/uapi/linux/kstat.h")


def enum(text, name):
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [w.strip() for w in body.split(",")]
    return {n: i for i, n in enumerate(n for n in names if n and "=" not in n)}


with open(UAPI) as f:
    _H = f.read()
CMD = enum(_H, "kstat_cmd")
A = enum(_H, "kstat_attr")
IRQS = enum(_H, "kstat_irqs_attr")
C = enum(_H, "kstat_config_attr")
L = enum(_H, "kstat_limits_attr")
STS = enum(_H, "kstat_stats_attr")

SECTION_OF = {
    A["KSTAT_A_CPU"]: 1,
    A["KSTAT_A_IRQS"]: 2, A["KSTAT_A_ARCH"]: 2, A["KSTAT_A_INTR_SUM"]: 2,
    A["KSTAT_A_NR_IRQS"]: 2, A["KSTAT_A_ARCH_UNREAD"]: 2,
    A["KSTAT_A_SOFTIRQ"]: 4,
}
CFG_FIELDS = {"interval": ("KSTAT_A_CONFIG_INTERVAL_MS", "=I"),
              "sections": ("KSTAT_A_CONFIG_SECTIONS", "=I"),
              "percpu": ("KSTAT_A_CONFIG_PERCPU", "=B"),
              "batch": ("KSTAT_A_CONFIG_BATCH", "=I"),
              "netns": ("KSTAT_A_CONFIG_NETNS", "=B")}
LIMIT_FIELDS = {"min_interval_ms": "KSTAT_A_LIMITS_MIN_INTERVAL_MS",
                "max_subscriptions": "KSTAT_A_LIMITS_MAX_SUBSCRIPTIONS"}


def attrs(data):
    off = 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4:
            break
        yield atype & 0x3fff, data[off + 4:off + alen]
        off += (alen + 3) & ~3


def num(v):
    return struct.unpack({1: "=B", 2: "=H", 4: "=I", 8: "=Q"}[len(v)], v)[0]


def nla(atype, payload):
    pad = (4 - len(payload) % 4) % 4
    return struct.pack("=HH", 4 + len(payload), atype) + payload + b"\0" * pad


def genl_msg(ftype, cmd, flags, payload=b"", seq=1):
    body = struct.pack("=BBH", cmd, 1, 0) + payload
    return struct.pack("=IHHII", 16 + len(body), ftype, flags, seq, 0) + body


def messages(buf):
    off = 0
    while off + 16 <= len(buf):
        mlen, mtype, flags, seq, pid = struct.unpack_from("=IHHII", buf, off)
        if mlen < 16:
            break
        yield mtype, seq, buf[off + 16:off + mlen]
        off += (mlen + 3) & ~3


def resolve():
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    s.bind((0, 0))
    s.send(genl_msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_REQUEST,
                    nla(CTRL_ATTR_FAMILY_NAME, b"kstat\0")))
    fam = grp = None
    for mtype, _, body in messages(s.recv(65536)):
        if mtype == NLMSG_ERROR:
            sys.exit("streams.py: no kstat family")
        for t, v in attrs(body[4:]):
            if t == CTRL_ATTR_FAMILY_ID:
                fam = num(v[:2])
            elif t == CTRL_ATTR_MCAST_GROUPS:
                for _, g in attrs(v):
                    d = dict(attrs(g))
                    if d.get(CTRL_ATTR_MCAST_GRP_NAME, b"").rstrip(b"\0") == b"summary":
                        grp = num(d[CTRL_ATTR_MCAST_GRP_ID][:4])
    s.close()
    return fam, grp


FAM, GRP = resolve()


def config_nest(spec):
    payload = b""
    for kv in spec.split(","):
        k, v = kv.split("=")
        name, fmt = CFG_FIELDS[k]
        payload += nla(C[name], struct.pack(fmt, int(v)))
    return nla(A["KSTAT_A_CONFIG"] | NLA_F_NESTED, payload)


def ack_of(body):
    """(errno, extack text) of an NLMSG_ERROR body."""
    err = -struct.unpack_from("=i", body)[0]
    text = ""
    for t, v in attrs(body[4 + 16:]):	# NETLINK_CAP_ACK: the header only
        if t == NLMSGERR_ATTR_MSG:
            text = v.rstrip(b"\0").decode()
    return err, text


def sock(rcvbuf=1 << 20):
    """A socket with a receive buffer of @rcvbuf (beyond rmem_max as root)."""
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    try:
        sk.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, rcvbuf)
    except PermissionError:
        sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    sk.bind((0, 0))
    return sk


def request(sk, cmd, payload=b"", seq=1, on_ntf=None):
    """Send a do; (errno, extack, replies), notifications to on_ntf.
    The samples of a subscription may overrun the socket meanwhile
    (ENOBUFS: skipped); an answer lost so gives (ETIMEDOUT, "no answer")."""
    sk.send(genl_msg(FAM, CMD[cmd], NLM_F_REQUEST | NLM_F_ACK, payload, seq))
    replies = []
    end = time.monotonic() + ANSWER_S
    while True:
        sk.settimeout(max(end - time.monotonic(), 0.01))
        try:
            buf = sk.recv(1 << 20)
        except socket.timeout:
            return errno.ETIMEDOUT, "no answer", replies
        except OSError as e:
            if e.errno != errno.ENOBUFS:
                raise
            continue
        finally:
            sk.settimeout(None)
        for mtype, mseq, body in messages(buf):
            if mtype == NLMSG_ERROR and mseq == seq:
                err, text = ack_of(body)
                return err, text, replies
            if mtype == NLMSG_ERROR:
                continue
            if body[0] == CMD["KSTAT_CMD_SUMMARY_NTF"]:
                if on_ntf:
                    on_ntf(body)
            else:
                replies.append(body)


def subscribe(sk, spec, on_ntf=None):
    if spec == "default":
        sk.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, GRP)
        return request(sk, "KSTAT_CMD_SUBSCRIBE", on_ntf=on_ntf)[:2]
    return request(sk, "KSTAT_CMD_SUBSCRIBE", config_nest(spec),
                   on_ntf=on_ntf)[:2]


class Reader:
    def __init__(self, spec, rcvbuf=1 << 20):
        self.spec = spec
        self.sk = sock(rcvbuf)
        self.samples, self.pieces, self.enobufs = [], {}, 0
        self.err, self.extack = subscribe(self.sk, spec, self.ntf)
        self.sk.setblocking(False)

    def ntf(self, body):
        """A message of a sample: whole once all its parts came."""
        seq = ts = None
        parts, secs, irqs = 1, 0, 0
        for t, v in attrs(body[4:]):
            secs |= SECTION_OF.get(t, 0)
            if t == A["KSTAT_A_SEQ"]:
                seq = num(v)
            elif t == A["KSTAT_A_TIMESTAMP"]:
                ts = num(v)
            elif t == A["KSTAT_A_PARTS"]:
                parts = num(v)
            elif t == A["KSTAT_A_IRQS"]:
                ids = dict(attrs(v)).get(IRQS["KSTAT_A_IRQS_IDS"], b"")
                irqs += len(ids) // 4
        got = self.pieces.setdefault(seq, [seq, ts, 0, parts, 0, 0])
        got[2] |= secs
        got[4] += irqs
        got[5] += 1
        if got[5] == parts:
            self.samples.append(got[:5])
            del self.pieces[seq]

    def read(self):
        while True:
            try:
                buf = self.sk.recv(1 << 20)
            except BlockingIOError:
                return
            except OSError:
                self.enobufs += 1
                continue
            self.take(buf)

    def take(self, buf):
        for mtype, _, body in messages(buf):
            if mtype != NLMSG_ERROR:
                self.ntf(body)

    def result(self):
        return {"spec": self.spec, "err": self.err, "extack": self.extack,
                "enobufs": self.enobufs, "partial": len(self.pieces),
                "samples": self.samples}


class Drain(Reader):
    """A reader that only receives: what a subscriber costs the kernel,
    with as little of the reader's own CPU as a reader can take."""

    def __init__(self, spec, rcvbuf=1 << 20):
        self.msgs = 0
        super().__init__(spec, rcvbuf)

    def take(self, buf):
        self.msgs += bool(buf)

    def result(self):
        return {"spec": self.spec, "err": self.err, "extack": self.extack,
                "enobufs": self.enobufs, "messages": self.msgs}


def run(readers, seconds):
    poll = select.poll()
    by_fd = {r.sk.fileno(): r for r in readers}
    for fd in by_fd:
        poll.register(fd, select.POLLIN)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for fd, _ in poll.poll(100):
            by_fd[fd].read()


def read_all(kind, args):
    """SECONDS SPEC...: a reader of @kind per SPEC; their results."""
    seconds = float(args[0])
    readers = [kind(spec) for spec in args[1:]]
    run(readers, seconds)
    for r in readers:
        print(json.dumps(r.result()))


def cmd_watch(args):
    read_all(Reader, args)


def cmd_drain(args):
    read_all(Drain, args)


def cmd_overrun(args):
    r = Reader(args[0], rcvbuf=4096)
    time.sleep(float(args[1]))
    run([r], 3)
    print(json.dumps(r.result()))


def cmd_subscribe(args):
    sk = sock()
    err, text = subscribe(sk, args[0])
    print(err, text)


def cmd_hold(args):
    ready, specs = args[0], args[1:]
    socks = []
    for spec in specs:
        sk = sock(1 << 16)
        err, text = subscribe(sk, spec)
        print(err, text, flush=True)
        socks.append(sk)
    open(ready, "w").close()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        time.sleep(1)


def cmd_cycles(args):
    n, specs = int(args[0]), args[1:]
    bad = 0
    for _ in range(n):
        sk = sock(1 << 16)
        for spec in specs:	# the second and later replace the first
            err, _ = subscribe(sk, spec, on_ntf=lambda b: None)
            bad += err != 0
        sk.close()
    print(bad)


def cmd_storm(args):
    """N SUBSCRIBEs from one socket."""
    n, spec = int(args[0]), args[1]
    sk = sock(8 << 20)
    subscribe(sk, spec, on_ntf=lambda b: None)
    payload = b"" if spec == "default" else config_nest(spec)
    t0 = time.monotonic_ns()
    bad = 0
    for i in range(n):
        err = request(sk, "KSTAT_CMD_SUBSCRIBE", payload, seq=i + 2,
                      on_ntf=lambda b: None)[0]
        bad += err != 0
    us = (time.monotonic_ns() - t0) / n / 1000
    print(json.dumps({"subscribes": n, "failed": bad, "us_each": round(us)}))


def nested(replies, top, names):
    """The attributes of nest @top in @replies, by lower-case name."""
    out = {}
    for body in replies:
        for t, v in attrs(body[4:]):
            if t != A[top]:
                continue
            for st, sv in attrs(v):
                for name, val in names.items():
                    if val == st:
                        out[name] = num(sv)
    return out


def stats():
    sk = sock()
    err, text, replies = request(sk, "KSTAT_CMD_STATS_GET")
    sk.close()
    if err:
        sys.exit(f"streams.py: STATS_GET: {os.strerror(err)} {text}")
    names = {k[len("KSTAT_A_STATS_"):].lower(): v for k, v in STS.items()
             if k not in ("KSTAT_A_STATS_UNSPEC", "KSTAT_A_STATS_PAD",
                          "KSTAT_A_STATS_MAX", "__KSTAT_A_STATS_MAX")}
    return nested(replies, "KSTAT_A_STATS", names)


def cmd_churn(args):
    seconds, specs = float(args[0]), args[1:]
    sk = sock(8 << 20)
    errnos, n = {}, 0
    before = stats()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        err = request(sk, "KSTAT_CMD_SUBSCRIBE", config_nest(specs[n % len(specs)]),
                      seq=n + 2, on_ntf=lambda b: None)[0]
        errnos[err] = errnos.get(err, 0) + 1
        n += 1
    after = stats()
    print(json.dumps({"subscribes": n, "errnos": errnos,
                      "ticks": after["ticks"] - before["ticks"],
                      "tick_ms": round((after["tick_ns_total"] -
                                        before["tick_ns_total"]) / 1e6, 1)}))


def cmd_unsubscribe(args):
    sk = sock()
    if args:
        err, text = subscribe(sk, args[0])
        if err:
            print(err, text)
            return
    err, text, _ = request(sk, "KSTAT_CMD_UNSUBSCRIBE", on_ntf=lambda b: None)
    print(err, text)


def cmd_stats(args):
    print(json.dumps(stats()))


def config_get(sk):
    err, text, replies = request(sk, "KSTAT_CMD_CONFIG_GET")
    if err:
        sys.exit(f"streams.py: CONFIG_GET: {os.strerror(err)} {text}")
    cfg = nested(replies, "KSTAT_A_CONFIG",
                 {k[len("KSTAT_A_CONFIG_"):].lower(): v for k, v in C.items()
                  if k in ("KSTAT_A_CONFIG_INTERVAL_MS", "KSTAT_A_CONFIG_BATCH",
                           "KSTAT_A_CONFIG_SECTIONS", "KSTAT_A_CONFIG_PERCPU",
                           "KSTAT_A_CONFIG_NETNS")})
    limits = nested(replies, "KSTAT_A_LIMITS",
                    {k: L[v] for k, v in LIMIT_FIELDS.items()})
    return cfg, limits


def cmd_config(args):
    cfg, limits = config_get(sock())
    print(json.dumps({**cfg, **limits}))


def cmd_limits(args):
    sk = sock()
    if args:
        payload = b""
        for kv in args:
            k, v = kv.split("=")
            payload += nla(L[LIMIT_FIELDS[k]], struct.pack("=I", int(v)))
        err, text, _ = request(sk, "KSTAT_CMD_CONFIG_SET",
                               nla(A["KSTAT_A_LIMITS"] | NLA_F_NESTED, payload))
        if err:
            sys.exit(f"streams.py: CONFIG_SET: {os.strerror(err)} {text}")
    print(json.dumps(config_get(sk)[1]))


def main():
    cmds = {"watch": cmd_watch, "drain": cmd_drain, "overrun": cmd_overrun,
            "subscribe": cmd_subscribe, "hold": cmd_hold,
            "cycles": cmd_cycles, "storm": cmd_storm, "churn": cmd_churn,
            "unsubscribe": cmd_unsubscribe, "stats": cmd_stats,
            "config": cmd_config, "limits": cmd_limits}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
