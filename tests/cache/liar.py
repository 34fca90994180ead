#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""liar.py HOST PORT: peers that lie about uploads by content, each on a
session of its own; every one must be cut off (the connection closed, an
ERROR frame first where the server says why).  Prints one line per liar;
exits 0 when all were cut off.  Standard library only."""
import hashlib
import socket
import struct
import sys

MAGIC, VERSION = 0x4D41454C, 1
HELLO, HELLO_ACK, RECORDS, ERROR = 1, 2, 3, 9
CACHE_INFO, CACHE_QUERY, CACHE_DATA = 11, 12, 14
F_ASYNC, F_CACHE = 1, 2
SESSION = 1
FN_HTOD = 70            # cuMemcpyHtoD in uapi/api.tbl
REC_F_CACHED = 1 << 2


def frame(t, payload):
    return struct.pack("<IHHII", MAGIC, t, 0, len(payload), 0) + payload


def hello():
    h = struct.pack("<IIQIIII", VERSION, VERSION, F_ASYNC | F_CACHE, SESSION, 1, 0, 0)
    h += b"liar".ljust(64, b"\0") + b"liar".ljust(64, b"\0") + b"\0" * 32
    return frame(HELLO, h)


def read_frames(s, timeout=5.0):
    """Frames until the peer closes; (types, closed)."""
    s.settimeout(timeout)
    buf, types = b"", []
    while True:
        try:
            d = s.recv(65536)
        except socket.timeout:
            return types, False
        except ConnectionResetError:
            return types, True
        if not d:
            return types, True
        buf += d
        while len(buf) >= 16:
            magic, t, _, n, _ = struct.unpack("<IHHII", buf[:16])
            if len(buf) < 16 + n:
                break
            types.append(t)
            buf = buf[16 + n:]


def session(host, port):
    s = socket.create_connection((host, port))
    s.sendall(hello())
    s.settimeout(5.0)
    got = b""
    while len(got) < 16 + 56 + 16 + 72:
        d = s.recv(65536)
        if not d:
            raise SystemExit("server closed the session at hello")
        got += d
    t1 = struct.unpack("<IHHII", got[:16])[1]
    ack = got[16:16 + 56]
    features = struct.unpack("<IIQQ", ack[:24])[2]
    if t1 != HELLO_ACK or not features & F_CACHE:
        raise SystemExit("no uploads by content on this server (features %#x)" % features)
    return s


def liar_bytes(host, port):
    """Bytes sent under a name they do not hash to."""
    s = session(host, port)
    name = hashlib.sha256(b"the truth" * 10000).digest()
    data = b"a lie" * 20000
    ref = name + struct.pack("<II", len(data), 0)
    pad = b"\0" * (-len(data) % 8)
    s.sendall(frame(CACHE_DATA, ref + struct.pack("<Q", 0) + data + pad))
    types, closed = read_frames(s)
    s.close()
    return closed, "bytes under a false name: %s" % ("closed" + (" after ERROR" if ERROR in types else "") if closed else "NOT closed")


def liar_names(host, port):
    """A record that names a chunk the session never pinned."""
    s = session(host, port)
    name = hashlib.sha256(b"never sent").digest()
    n = 1 << 16
    rec_len = 32 + 16 + 16 + 40
    rec = struct.pack("<IHHIIQQ", rec_len, FN_HTOD, REC_F_CACHED, 0, 0, 0, 1)
    rec += struct.pack("<QQ", 0x10000, n)
    rec += struct.pack("<IIQ", 1, 0, n) + name + struct.pack("<II", n, 0)
    s.sendall(frame(RECORDS, rec))
    types, closed = read_frames(s)
    s.close()
    return closed, "a name never pinned: %s" % ("closed" if closed else "NOT closed")


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    ok = True
    for liar in (liar_bytes, liar_names):
        closed, what = liar(host, port)
        print(what)
        ok &= closed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
