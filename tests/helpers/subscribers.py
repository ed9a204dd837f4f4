#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""N summary subscribers in one process, on raw generic netlink sockets.

usage: subscribers.py N READYFILE

Opens N sockets, joins each to kstat's "summary" group, sends
KSTAT_CMD_SUBSCRIBE, and reads every notification.  Once every socket
has received one, creates READYFILE.  On SIGINT or SIGTERM prints one
line per socket:

    INDEX MESSAGES SAMPLES MAX_TIMESTAMP_NS MAX_RECEIVED_NS MEMBER

(SAMPLES: messages with a new seq, a sample in parts counting once;
timestamps CLOCK_BOOTTIME;
MEMBER: 1 if the socket is still in a multicast group at that time,
from NETLINK_LIST_MEMBERSHIPS) and exits 0.  One process instead of N `kstat monitor`: under TCG, starting
16 processes per unload cycle costs more than the cycle itself.  The
attribute numbers come from include/uapi/linux/kstat.h.
"""
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
NETLINK_LIST_MEMBERSHIPS = 9
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

UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "../../include/uapi/linux/kstat.h")


def enum(text, name):
    """The values of `enum NAME { A, B, ... }` (no explicit values)."""
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    names = [w.strip() for w in body.split(",")]
    return {n: i for i, n in enumerate(n for n in names if n and "=" not in n)}


with open(UAPI) as f:
    _H = f.read()
CMD = enum(_H, "kstat_cmd")
A = enum(_H, "kstat_attr")


def attrs(data):
    """(type, payload) of each attribute in DATA."""
    off = 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4:
            break
        yield atype & 0x3fff, data[off + 4:off + alen]
        off += (alen + 3) & ~3


def genl_msg(ftype, cmd, flags, payload=b"", seq=1):
    body = struct.pack("=BBH", cmd, 1, 0) + payload
    return struct.pack("=IHHII", 16 + len(body), ftype, flags, seq, 0) + body


def nla(atype, payload):
    pad = (4 - len(payload) % 4) % 4
    return struct.pack("=HH", 4 + len(payload), atype) + payload + b"\0" * pad


def messages(buf):
    off = 0
    while off + 16 <= len(buf):
        mlen, mtype, flags, seq, pid = struct.unpack_from("=IHHII", buf, off)
        if mlen < 16:
            break
        yield mtype, buf[off + 16:off + mlen]
        off += (mlen + 3) & ~3


def resolve():
    """kstat's family id and summary group id."""
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    s.bind((0, 0))
    s.send(genl_msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_REQUEST,
                    nla(CTRL_ATTR_FAMILY_NAME, b"kstat\0")))
    fam = grp = None
    for mtype, body in messages(s.recv(65536)):
        if mtype == NLMSG_ERROR:
            sys.exit("subscribers.py: no kstat family")
        for t, v in attrs(body[4:]):
            if t == CTRL_ATTR_FAMILY_ID:
                fam = struct.unpack("=H", v[:2])[0]
            elif t == CTRL_ATTR_MCAST_GROUPS:
                for _, g in attrs(v):
                    d = dict(attrs(g))
                    if d.get(CTRL_ATTR_MCAST_GRP_NAME, b"").rstrip(b"\0") == b"summary":
                        grp = struct.unpack("=I", d[CTRL_ATTR_MCAST_GRP_ID][:4])[0]
    s.close()
    if fam is None or grp is None:
        sys.exit("subscribers.py: kstat family or summary group not found")
    return fam, grp


def boottime_ns():
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME)


class Sub:
    def __init__(self, fam, grp):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.sk.bind((0, 0))
        self.sk.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp)
        self.sk.send(genl_msg(fam, CMD["KSTAT_CMD_SUBSCRIBE"],
                              NLM_F_REQUEST | NLM_F_ACK))
        self.sk.setblocking(False)
        self.msgs = self.samples = self.max_ts = self.max_rx = 0
        self.last_seq = -1

    def read(self):
        try:
            buf = self.sk.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError:		# ENOBUFS: an overrun, counted by Drops
            return
        now = boottime_ns()
        for mtype, body in messages(buf):
            if mtype == NLMSG_ERROR:
                err = struct.unpack_from("=i", body)[0]
                if err:
                    sys.exit(f"subscribers.py: SUBSCRIBE failed: {os.strerror(-err)}")
                continue
            self.msgs += 1
            self.max_rx = now
            d = dict(attrs(body[4:]))
            if A["KSTAT_A_SEQ"] not in d:
                continue
            seq = struct.unpack("=Q", d[A["KSTAT_A_SEQ"]][:8])[0]
            ts = struct.unpack("=Q", d[A["KSTAT_A_TIMESTAMP"]][:8])[0]
            if seq != self.last_seq:
                self.samples += 1
                self.last_seq = seq
            self.max_ts = max(self.max_ts, ts)


def main():
    n, ready = int(sys.argv[1]), sys.argv[2]
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    fam, grp = resolve()
    subs = [Sub(fam, grp) for _ in range(n)]
    by_fd = {s.sk.fileno(): s for s in subs}
    poll = select.poll()
    for fd in by_fd:
        poll.register(fd, select.POLLIN)
    said_ready = False
    while not stop:
        try:
            events = poll.poll(200)
        except InterruptedError:
            continue
        for fd, _ in events:
            by_fd[fd].read()
        if not said_ready and all(s.msgs for s in subs):
            open(ready, "w").close()
            said_ready = True
    for i, s in enumerate(subs):
        groups = s.sk.getsockopt(SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, 64)
        print(i, s.msgs, s.samples, s.max_ts, s.max_rx, int(any(groups)))


if __name__ == "__main__":
    main()
