#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A raw kstat client, written apart from libkstat: samples as JSON.

usage: rawsample.py [-n COUNT] [SPEC]    subscribe, print COUNT samples (1)
       rawsample.py -f FILE              the samples of a recording

SPEC "interval=MS,sections=BITS,percpu=0|1" (any left out) subscribes
with a config of this socket's own; without it, the default stream
(joins "summary", sends SUBSCRIBE).  Each sample is printed alone, from
its own message(s) only (its parts, same seq), as one JSON line (a
sample whose messages the socket lost is left out, said on stderr: the
next one needs nothing of it):
{"seq", "timestamp", "generation", "parts", "intr_sum", "irqs": {IRQ:
count}, "irq_percpu": {IRQ: {CPU: count}}, "cpu": {"total"|CPU: [user ..
guest_nice]}, "softirqs": {NAME: count}, "arch": {NAME: count}} (keys of
the sections it carries).  The numbers are protocol 5's, from the spec.
"""
import errno, json, socket, struct, sys
from array import array

def attrs(b):
    off = 0
    while off + 4 <= len(b):
        n, t = struct.unpack_from("=HH", b, off)
        if n < 4: break
        yield t & 0x3fff, b[off + 4:off + n]
        off += (n + 3) & ~3

def nla(t, p): return struct.pack("=HH", 4 + len(p), t) + p + b"\0" * (-len(p) % 4)

def u(v): return struct.unpack("=Q" if len(v) == 8 else "=I" if len(v) == 4 else "=B", v)[0]

def records(w, n):
    """n per-CPU records: header h, then h >> 1 words, dense or pairs."""
    out, i = [], 0
    for _ in range(n):
        h = w[i]; body = w[i + 1:i + 1 + (h >> 1)]; i += 1 + (h >> 1)
        out.append({c: v for c, v in enumerate(body) if v} if h & 1 else
                   dict(zip(body[0::2], body[1::2])))
    return out

def decode(msgs):
    s = {"irqs": {}}
    for body in msgs:
        for t, v in attrs(body[4:]):
            if t in (9, 10, 11, 13, 19):
                s[{9: "timestamp", 10: "seq", 11: "generation", 13: "parts", 19: "intr_sum"}[t]] = u(v)
            elif t == 14:
                d = dict(attrs(v))
                s.setdefault("cpu", {})[u(d[2]) if 2 in d else "total"] = [u(d.get(k, b"\0" * 8)) for k in range(3, 13)]
            elif t == 15:
                d = dict(attrs(v)); ids = array("I", d[1])
                s["irqs"].update(zip(ids, array("Q", d[2])))
                if 3 in d: s.setdefault("irq_percpu", {}).update(zip(ids, records(array("I", d[3]), len(ids))))
            elif t in (17, 18):
                d = dict(attrs(v)); key = "softirqs" if t == 17 else "arch"
                s.setdefault(key, {})[d[3 if t == 17 else 2].rstrip(b"\0").decode()] = u(d[4])
    if not s["irqs"]: del s["irqs"]
    return s

def messages(b):
    off = 0
    while off + 16 <= len(b):
        n, t = struct.unpack_from("=IH", b, off)
        yield t, b[off + 16:off + n]
        off += (n + 3) & ~3

def samples(chunks, fam):
    parts = {}
    for b in chunks:
        for t, body in messages(b):
            if t == 2 and struct.unpack_from("=i", body)[0]:
                sys.exit(f"rawsample: refused: errno {-struct.unpack_from('=i', body)[0]}")
            if t != fam or body[0] != 6: continue
            d = dict(attrs(body[4:])); seq = u(d[10])
            parts.setdefault(seq, []).append(body)
            if len(parts[seq]) == u(d[13]):
                for old in [k for k in parts if k < seq]: del parts[old]   # lost parts
                yield decode(parts.pop(seq))

def recv_all(sk):
    while True:
        try: yield sk.recv(1 << 20)
        except OSError as e:
            if e.errno != errno.ENOBUFS: raise
            print("rawsample: socket overrun, samples lost", file=sys.stderr)

def main(a):
    if a[:1] == ["-f"]:
        data = open(a[1], "rb").read()
        for s in samples([data], struct.unpack_from("=H", data, 4)[0]): print(json.dumps(s))
        return
    count = int(a[1]) if a[:1] == ["-n"] else 1; a = a[2:] if a[:1] == ["-n"] else a
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
    try: sk.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)      # SO_RCVBUFFORCE (root)
    except PermissionError: sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sk.bind((0, 0))
    def send(fam, cmd, p=b""):
        sk.send(struct.pack("=IHHII", 20 + len(p), fam, 5, 1, 0) + bytes([cmd, 1, 0, 0]) + p)
    send(0x10, 3, nla(2, b"kstat\0"))          # CTRL_CMD_GETFAMILY
    d = dict(attrs(next(messages(sk.recv(65536)))[1][4:]))
    fam = u(d[1][:2] + b"\0\0")
    grp = [u(g[2]) for _, x in attrs(d[7]) for g in [dict(attrs(x))] if g[1] == b"summary\0"][0]
    if a:                                       # SUBSCRIBE with a config
        f = dict(kv.split("=") for kv in a[0].split(","))
        cfg = b"".join(nla(k, struct.pack(fmt, int(f[n]))) for n, k, fmt in
                       (("interval", 1, "=I"), ("sections", 3, "=I"), ("percpu", 4, "=B")) if n in f)
        send(fam, 5, nla(23 | 0x8000, cfg))
    else:                                       # the default stream
        sk.setsockopt(270, 1, grp); send(fam, 5)
    for i, s in enumerate(samples(recv_all(sk), fam)):
        print(json.dumps(s), flush=True)
        if i + 1 == count: return

if __name__ == "__main__":
    main(sys.argv[1:])
