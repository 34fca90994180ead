#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""peer.py CASE ARGS...: a peer of a server gleamd that speaks the wire
protocol itself (Documentation/protocol.md), with or without a certificate,
to try what the review of 794e9d7 did.  One case per run; it prints what
happened in one or a few lines and exits 0 when the server refused the
attack (or, for the cases that only measure, when it could measure).
Standard library only.

Cases (ADDR is HOST:PORT; CERT a certificate whose key and CA lie beside
it, as gleamctl tls issue makes them; "-" for none):
  unauth ADDR CA FOREIGN_CERT   plain TCP, TLS without a certificate, TLS with
                                one of another CA: none gets a session
  steal-chunk ADDR CERT FILE    name the first MiB of FILE, uploaded by
                                another tenant, without holding it
  prove-chunk ADDR CERT FILE    the same, holding it: proves, reads it back
  steal-token ADDR VICTIM THIEF a session of VICTIM's, its token tried by THIEF
  pin-flood ADDR CERT MIB       CACHE_DATA without records, up to MIB MiB
  sessions ADDR CERT N HOLD_S   N sessions held open HOLD_S seconds: how many got in
  garbage ADDR N                N connections that send nonsense
  evil-names ADDR CERT          a hello whose names carry control characters
  scan-mem PID FILE             whether any 64-byte piece of FILE is in PID's memory
  capture-has FILE CAPTURE      whether any 64-byte piece of FILE is in CAPTURE
"""
import errno
import hashlib
import os
import random
import socket
import ssl
import struct
import sys
import time

MAGIC, VERSION = 0x4D41454C, 1
HELLO, HELLO_ACK, RECORDS, REPLIES, PING, PONG = 1, 2, 3, 4, 5, 6
ERROR, BYE = 9, 10
CACHE_INFO, CACHE_QUERY, CACHE_HAVE, CACHE_DATA = 11, 12, 13, 14
ACK, CACHE_PROVE = 18, 19
F_ASYNC, F_CACHE, F_RESUME, F_PROVE = 1, 2, 8, 32
SESSION, CONTROL, RESUME = 1, 2, 3
REC_REPLY, REC_CACHED = 1, 4
REP_DATA = 1
FN_INIT, FN_RETAIN, FN_ALLOC, FN_HTOD, FN_DTOH = 1, 30, 60, 70, 71
CTX = 100
Q_PIN = 1


def frame(t, payload=b""):
    return struct.pack("<IHHII", MAGIC, t, 0, len(payload), 0) + payload


def hello_msg(kind, features, token=0, count=0, program=b"peer", client=b"peer"):
    h = struct.pack("<IIQIIII", VERSION, VERSION, features, kind, os.getpid(), 0, 0)
    h += client[:63].ljust(64, b"\0") + program[:63].ljust(64, b"\0")
    h += struct.pack("<QQQQ", token, count, 0, 0)
    return frame(HELLO, h)


def tls_context(cert):
    """A client's context for cert (key and CA beside it), TLS 1.3 only."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    d = os.path.dirname(cert)
    ctx.load_cert_chain(cert, cert[:-4] + ".key" if cert.endswith(".pem") else cert + ".key")
    ctx.load_verify_locations(os.path.join(d, "ca.pem"))
    return ctx


class Closed(Exception):
    pass


class Peer:
    """One connection to the server, plain or TLS, speaking frames."""

    def __init__(self, addr, cert=None, ctx=None):
        host, port = addr.rsplit(":", 1)
        if cert == "-":
            cert = None
        self.host = host
        s = socket.create_connection((host, int(port)), timeout=10)
        if cert or ctx:
            if ctx is None:
                ctx = tls_context(cert)
            s = ctx.wrap_socket(s, server_hostname=host)
        self.s = s
        self.buf = b""
        self.tag = 0
        self.seq = 0
        self.info = None
        self.errors = []

    def send(self, data):
        self.s.sendall(data)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass

    def _fill(self, timeout):
        self.s.settimeout(timeout)
        try:
            d = self.s.recv(1 << 20)
        except socket.timeout:
            return False
        except (ConnectionResetError, ssl.SSLError, OSError):
            raise Closed()
        if not d:
            raise Closed()
        self.buf += d
        return True

    def frame(self, timeout=10.0):
        """The next frame, (type, payload); pings answered on the way."""
        end = time.time() + timeout
        while True:
            if len(self.buf) >= 16:
                _, t, _, n, _ = struct.unpack("<IHHII", self.buf[:16])
                if len(self.buf) >= 16 + n:
                    p = self.buf[16:16 + n]
                    self.buf = self.buf[16 + n:]
                    if t == PING:
                        self.send(frame(PONG, p))
                        continue
                    if t == ERROR:
                        self.errors.append(p[8:].split(b"\0")[0].decode(errors="replace"))
                        raise Closed()
                    if t in (ACK, PONG):
                        continue
                    return t, p
            left = end - time.time()
            if left <= 0 or not self._fill(left):
                raise TimeoutError()

    def hello(self, kind=SESSION, features=F_ASYNC, token=0, count=0, **kw):
        """The server's answer: dict of status, features, token, count."""
        self.send(hello_msg(kind, features, token, count, **kw))
        t, p = self.frame()
        if t != HELLO_ACK:
            raise Closed()
        _, status, feat, sid, tok, cnt = struct.unpack("<IIQQQQ", p[:40])
        if not status and feat & F_CACHE:
            t, p = self.frame()
            if t == CACHE_INFO:
                self.info = p
        return dict(status=status, features=feat, session=sid, token=tok, count=cnt)

    def call(self, fn, args, data=b"", flags=REC_REPLY, ctx=CTX):
        """A record; with REPLY, (result, reply body, data bytes)."""
        self.tag += 1
        self.seq += 1
        body = args + data + b"\0" * (-len(data) % 8)
        rec = struct.pack("<IHHIIQQ", 32 + len(body), fn, flags, self.tag, 0, ctx, self.seq)
        self.send(frame(RECORDS, rec + body))
        if not flags & REC_REPLY:
            return None
        return self.reply(self.tag)

    def reply(self, tag):
        got = b""
        while True:
            t, p = self.frame()
            if t != REPLIES:
                continue
            while p:
                ln, fn, fl, tg, res, sq, _ = struct.unpack("<IHHIiQQ", p[:32])
                body, p = p[32:ln], p[ln:]
                if tg != tag:
                    continue
                if fl & REP_DATA:
                    off, n = struct.unpack("<QQ", body[:16])
                    got += body[16:16 + n]
                    continue
                return res, body, got

    def setup(self):
        """cuInit, the primary context (id CTX), as the shim sends them."""
        self.call(FN_INIT, struct.pack("<Q", 0), ctx=0)
        self.call(FN_RETAIN, struct.pack("<Qq", CTX, 0), ctx=0)

    def alloc(self, n):
        res, body, _ = self.call(FN_ALLOC, struct.pack("<Q", n))
        return struct.unpack("<Q", body[:8])[0] if not res else None

    def read(self, dptr, n):
        res, _, data = self.call(FN_DTOH, struct.pack("<QQ", dptr, n))
        return data if not res else None

    def query(self, name, length):
        """CACHE_QUERY with PIN for one name: (held, prove)."""
        q = struct.pack("<QIIQ", 1, 1, Q_PIN, 0) + name + struct.pack("<II", length, 0)
        self.send(frame(CACHE_QUERY, q))
        t, p = self.frame()
        while t != CACHE_HAVE:
            t, p = self.frame()
        held = p[24] & 1
        prove = len(p) >= 40 and p[32] & 1
        return bool(held), bool(prove)

    def named_upload(self, dptr, name, length):
        """A CACHED cuMemcpyHtoD that names the chunk instead of carrying it."""
        refs = struct.pack("<IIQ", 1, 0, length) + name + struct.pack("<II", length, 0)
        self.tag += 1
        self.seq += 1
        body = struct.pack("<QQ", dptr, length) + refs
        rec = struct.pack("<IHHIIQQ", 32 + len(body), FN_HTOD, REC_CACHED, self.tag, 0, CTX,
                          self.seq)
        self.send(frame(RECORDS, rec + body))

    def prove(self, name, length, proof):
        p = struct.pack("<II", 1, 0) + name + struct.pack("<II", length, 0) + proof
        self.send(frame(CACHE_PROVE, p))


def refused(addr, **kw):
    """Whether a session hello over this connection is refused, and how."""
    try:
        p = Peer(addr, **kw)
    except (ssl.SSLError, OSError) as e:
        return True, "no connection (%s)" % type(e).__name__
    try:
        a = p.hello()
        if a["status"]:
            return True, "refused (%s)" % errno.errorcode.get(a["status"], a["status"])
        return False, "GOT A SESSION (%d)" % a["session"]
    except (Closed, TimeoutError, ssl.SSLError, OSError) as e:
        return True, "closed (%s)" % type(e).__name__
    finally:
        p.close()


def case_unauth(addr, ca, foreign):
    ok = True
    out = []
    r, how = refused(addr)
    ok &= r
    out.append("plain TCP: " + how)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.load_verify_locations(ca)
    r, how = refused(addr, ctx=ctx)
    ok &= r
    out.append("TLS without a certificate: " + how)
    fctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    fctx.load_cert_chain(foreign, foreign[:-4] + ".key")
    fctx.load_verify_locations(ca)
    r, how = refused(addr, ctx=fctx)
    ok &= r
    out.append("TLS with another CA's certificate: " + how)
    print("; ".join(out))
    return 0 if ok else 1


# The shim cuts a copy into pieces that fit a quarter of its ring, less a
# page (libcuda-shim/transport.c): with the default ring of 4 MiB, pieces,
# and so chunks, of 1 MiB - 4 KiB.
PIECE = int(os.environ.get("GLEAM_TEST_PIECE", (1 << 20) - 4096))


def chunk_of(path):
    """The first chunk of a file that a program uploaded in one copy."""
    with open(path, "rb") as f:
        data = f.read(PIECE)
    return data, hashlib.sha256(data).digest()


def steal_once(addr, cert, data, name, features, proof=None):
    """One try: (what the server answered, whether the bytes came back)."""
    p = Peer(addr, cert=cert)
    said = "no answer"
    try:
        a = p.hello(features=features)
        if a["status"] or not a["features"] & F_CACHE:
            return "no cache granted", False
        p.setup()
        d = p.alloc(len(data))
        held, prove = p.query(name, len(data))
        said = "held %d, prove %d" % (held, prove)
        if proof is not None:
            p.prove(name, len(data), proof)
        p.named_upload(d, name, len(data))
        back = p.read(d, len(data))
        if back == data:
            return said + ": THE BYTES CAME BACK", True
        return said + ": other bytes came back", False
    except (Closed, TimeoutError, OSError) as e:
        return "%s, then the session was ended (%s)" % (
            said, p.errors[-1] if p.errors else type(e).__name__), False
    finally:
        p.close()


def case_steal_chunk(addr, cert, path):
    """Another tenant's chunk by its name alone: no bytes may come back."""
    data, name = chunk_of(path)
    out, leaked = [], False
    for what, features, proof in (
            ("with proofs", F_ASYNC | F_CACHE | F_PROVE, None),
            ("without", F_ASYNC | F_CACHE, None),
            ("a false proof", F_ASYNC | F_CACHE | F_PROVE, hashlib.sha256(b"guess").digest())):
        said, got = steal_once(addr, cert, data, name, features, proof)
        out.append("%s: %s" % (what, said))
        leaked |= got
    print("; ".join(out))
    return 1 if leaked else 0


def case_prove_chunk(addr, cert, path):
    """A tenant that holds the bytes proves it, sends no bytes, and reads them back."""
    data, name = chunk_of(path)
    p = Peer(addr, cert=cert)
    try:
        a = p.hello(features=F_ASYNC | F_CACHE | F_PROVE)
        if not a["features"] & F_PROVE or not p.info:
            print("no proofs granted")
            return 1
        nonce = p.info[40:72]
        p.setup()
        d = p.alloc(len(data))
        held, prove = p.query(name, len(data))
        if not held:
            print("the server does not hold the chunk")
            return 1
        if prove:
            p.prove(name, len(data), hashlib.sha256(nonce + data).digest())
        p.named_upload(d, name, len(data))
        back = p.read(d, len(data))
        print("held %d, prove %d; proved and named: %s" %
              (held, prove, "the bytes came back" if back == data else "OTHER BYTES"))
        return 0 if back == data else 1
    except (Closed, TimeoutError) as e:
        print("the session was ended: %s" % (p.errors[-1] if p.errors else type(e).__name__))
        return 1
    finally:
        p.close()


def case_steal_token(addr, victim, thief):
    secret = os.urandom(4096)
    v = Peer(addr, cert=victim)
    a = v.hello(features=F_ASYNC | F_RESUME)
    if a["status"] or not a["features"] & F_RESUME:
        print("no resumable session for the victim")
        return 1
    v.setup()
    d = v.alloc(len(secret))
    v.call(FN_HTOD, struct.pack("<QQ", d, len(secret)), secret)
    out, adopted = [], False
    for i in range(2):
        try:
            t = Peer(addr, cert=thief)
            r = t.hello(kind=RESUME, features=F_ASYNC | F_RESUME, token=a["token"], count=1)
            if not r["status"]:
                adopted = True
                t.setup()
                got = t.read(d, len(secret))
                out.append("RESUME %d: ADOPTED%s" % (i + 1, ", READ THE VICTIM'S BYTES"
                                                      if got == secret else ""))
            else:
                out.append("RESUME %d: %s" % (i + 1, errno.errorcode.get(r["status"])))
            t.close()
        except (Closed, TimeoutError, OSError) as e:
            out.append("RESUME %d: closed (%s)" % (i + 1, type(e).__name__))
    # The victim's own identity, while its connection stands, is put off too.
    try:
        t = Peer(addr, cert=victim)
        r = t.hello(kind=RESUME, features=F_ASYNC | F_RESUME, token=a["token"], count=1)
        out.append("the victim's own RESUME on a live connection: %s" %
                   (errno.errorcode.get(r["status"]) if r["status"] else "ADOPTED"))
        adopted |= not r["status"]
        t.close()
    except (Closed, TimeoutError, OSError) as e:
        out.append("the victim's own RESUME: closed (%s)" % type(e).__name__)
    try:
        alive = v.read(d, len(secret)) == secret
    except (Closed, TimeoutError):
        alive = False
    out.append("the victim's session %s" % ("still works" if alive else "WAS TAKEN OR BROKEN"))
    v.close()
    print("; ".join(out))
    return 0 if alive and not adopted else 1


def case_pin_flood(addr, cert, mib):
    p = Peer(addr, cert=cert)
    a = p.hello(features=F_ASYNC | F_CACHE)
    if a["status"] or not a["features"] & F_CACHE:
        print("no cache granted")
        return 1
    sent = 0
    try:
        for i in range(int(mib)):
            data = os.urandom(1 << 20)
            ref = hashlib.sha256(data).digest() + struct.pack("<II", len(data), 0)
            p.send(frame(CACHE_DATA, ref + struct.pack("<Q", 0) + data))
            sent += 1
            if i % 8 == 7:
                try:
                    p.frame(timeout=0.05)
                except TimeoutError:
                    pass
        p.frame(timeout=3)
        print("%d MiB sent: NOT cut off" % sent)
        return 1
    except (Closed, BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
        why = p.errors[-1] if p.errors else "closed"
        print("cut off after %d MiB (%s)" % (sent, why))
        return 0
    except TimeoutError:
        print("%d MiB sent: NOT cut off" % sent)
        return 1
    finally:
        p.close()


def case_sessions(addr, cert, n, hold):
    peers, got, refusals = [], 0, {}
    for _ in range(int(n)):
        try:
            p = Peer(addr, cert=cert)
            a = p.hello()
            if a["status"]:
                k = errno.errorcode.get(a["status"], str(a["status"]))
                refusals[k] = refusals.get(k, 0) + 1
                p.close()
            else:
                got += 1
                peers.append(p)
        except (Closed, TimeoutError, OSError):
            refusals["closed"] = refusals.get("closed", 0) + 1
    print("sessions: %d of %s; refused: %s" % (got, n, ", ".join(
        "%d %s" % (v, k) for k, v in sorted(refusals.items())) or "none"))
    sys.stdout.flush()
    # Held while the caller looks at the server.
    time.sleep(float(hold))
    for p in peers:
        p.close()
    return 0


def case_garbage(addr, n):
    host, port = addr.rsplit(":", 1)
    for i in range(int(n)):
        try:
            s = socket.create_connection((host, int(port)), timeout=5)
            s.sendall(b"GET / HTTP/1.0\r\n\r\n" + bytes([i & 255]) * 48)
            s.close()
        except OSError:
            pass
    print("%s connections sent nonsense" % n)
    return 0


def case_evil_names(addr, cert):
    p = Peer(addr, cert=cert)
    a = p.hello(program=b"evil\nFAKE-LOG-LINE: all is well\x1b[2J",
                client=b"host\r\nFAKE-LOG-LINE\x07")
    print("hello answered %d" % a["status"])
    time.sleep(0.3)
    p.close()
    return 0


def pieces(path, n=32, size=64):
    with open(path, "rb") as f:
        data = f.read()
    rnd = random.Random(len(data))
    return [data[o:o + size] for o in (rnd.randrange(0, len(data) - size) for _ in range(n))]


def case_scan_mem(pid, path):
    want = pieces(path)
    found = 0
    with open("/proc/%s/maps" % pid) as maps, open("/proc/%s/mem" % pid, "rb", 0) as mem:
        for line in maps:
            f = line.split()
            a, b = (int(x, 16) for x in f[0].split("-"))
            if "r" not in f[1] or (len(f) > 5 and f[5] in ("[vvar]", "[vsyscall]")):
                continue
            try:
                mem.seek(a)
                chunk = mem.read(b - a)
            except OSError:
                continue
            found += sum(1 for w in want if w in chunk)
    print("%d of %d pieces found in the memory of %s" % (found, len(want), pid))
    return 1 if found else 0


def case_capture_has(path, capture):
    want = pieces(path)
    with open(capture, "rb") as f:
        data = f.read()
    found = sum(1 for w in want if w in data)
    print("%d of %d pieces of the upload in %d captured bytes" % (found, len(want), len(data)))
    return 1 if found else 0


CASES = {
    "unauth": (case_unauth, 3), "steal-chunk": (case_steal_chunk, 3),
    "prove-chunk": (case_prove_chunk, 3), "steal-token": (case_steal_token, 3),
    "pin-flood": (case_pin_flood, 3), "sessions": (case_sessions, 4),
    "garbage": (case_garbage, 2), "evil-names": (case_evil_names, 2),
    "scan-mem": (case_scan_mem, 2), "capture-has": (case_capture_has, 2),
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in CASES or \
            len(sys.argv) - 2 != CASES[sys.argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    fn, _ = CASES[sys.argv[1]]
    try:
        return fn(*sys.argv[2:])
    except (Closed, TimeoutError, OSError) as e:
        print("%s: %s (%s)" % (sys.argv[1], type(e).__name__, e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
