#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs of fuzz_wire and fuzz_control: a few small, well-formed
exchanges in each harness's input format (see the head of fuzz_wire.c and
fuzz_control.c), written to tests/fuzz/seeds/{wire,control}/; and records
of arrays, copies and texture objects, of graphs built node by node, of
JIT linking, and of virtual memory, peer copies and twins (mapped and
managed memory), for fuzz_records, in seeds/records/.

    tests/fuzz/mkseeds.py [SEEDS_DIR]
"""
import hashlib
import os
import struct
import sys

# uapi/gleam_wire.h, gleam_local.h, gleam_record.h; function numbers from api.tbl.
WIRE_MAGIC = 0x4D41454C
HELLO, HELLO_ACK, RECORDS, REPLIES, PING, PONG, INFO_REQ, INFO, ERROR, BYE = range(1, 11)
ACK = 18
HELLO_SESSION, HELLO_CONTROL, HELLO_RESUME = 1, 2, 3
F_RESUME = 8
FZ_TOKEN = 0x6E656B6F547A6646  # fz.h: the token the harness's server gives every session
LOCAL_MAGIC = 0x434C4C47
LOCAL_SESSION, LOCAL_CONTROL = 1, 2
CTL_STATUS, CTL_STATUS_JSON = 1, 2
REC_F_REPLY, REC_F_CACHED = 1, 4
REP_F_DATA = 1
FN_cuInit, FN_cuCtxSynchronize, FN_cuMemcpyHtoD, FN_cuMemcpyDtoH = 1, 49, 70, 71
# gleam_cache.h
F_ASYNC, F_CACHE = 1, 2
CACHE_INFO, CACHE_QUERY, CACHE_HAVE, CACHE_DATA, CACHE_RELEASE, CACHE_CTL = range(11, 17)
Q_PIN = 1
CTL_STATS, CTL_LIST, CTL_CLEAR = 1, 2, 3

# fuzz_wire.c's flags
F_CLIENT, F_SMALL, F_LAZY, F_HOSTILE = 0x01, 0x02, 0x04, 0x08
F_RESET, F_PARTIAL, F_TRAFFIC, F_LATE = 0x10, 0x20, 0x40, 0x80
DROP = 255  # a read size: the connection drops there


def frame(ftype, payload=b""):
    return struct.pack("<IHHII", WIRE_MAGIC, ftype, 0, len(payload), 0) + payload


def hello(kind, program=b"seed", features=F_ASYNC, token=0, count=0):
    return struct.pack("<IIQIIII64s64s4Q", 1, 1, features, kind, 1234, 1000, 0,
                       b"client", program, token, count, 0, 0)


def cache_ref(data):
    return hashlib.sha256(data).digest() + struct.pack("<II", len(data), 0)


def hello_ack(features=1, session=7, status=0, token=0, count=0):
    return struct.pack("<IIQQ4Q", 1, status, features, session, token, count, 0, 0)


def rec(fn, body=b"", flags=REC_F_REPLY, tag=1, seq=1, ctx=100):
    body += b"\0" * (-len(body) % 8)
    return struct.pack("<IHHIIQQ", 32 + len(body), fn, flags, tag, 0, ctx, seq) + body


def reply(fn, body=b"", flags=0, tag=1, seq=1, result=0):
    body += b"\0" * (-len(body) % 8)
    return struct.pack("<IHHIiQQ", 32 + len(body), fn, flags, tag, result, seq, 0) + body


def reads(n):
    sizes = []
    while n:
        sizes.append(min(n, 127))
        n -= sizes[-1]
    return sizes


def split_at(n, then=0):
    """Read sizes that deliver n bytes, drop the connection, deliver then bytes
    on the new one (0: all), then the rest."""
    sizes = reads(n) + [DROP] + reads(then) + [0]
    assert len(sizes) <= 8, "too many reads for the eight read sizes"
    return tuple(sizes) + (0,) * (8 - len(sizes))


def wire_input(flags, stream, split=(0,) * 8, hostile=0):
    return bytes([flags]) + bytes(split) + struct.pack("<I", hostile) + stream


def wire_seeds():
    recs = rec(FN_cuInit, struct.pack("<Q", 0), tag=1, seq=1) + \
        rec(FN_cuCtxSynchronize, tag=2, seq=2) + \
        rec(FN_cuCtxSynchronize, flags=0, tag=0, seq=3)
    session = frame(HELLO, hello(HELLO_SESSION)) + frame(RECORDS, recs) + \
        frame(PING, struct.pack("<Q", 42)) + frame(RECORDS, recs)
    yield "server-session", wire_input(0, session + frame(BYE))
    yield "server-split", wire_input(F_SMALL | F_TRAFFIC | F_PARTIAL, session,
                                     (1, 7, 16, 3, 100, 0, 5, 9))
    yield "server-control", wire_input(F_RESET, frame(HELLO, hello(HELLO_CONTROL)) +
                                       frame(INFO_REQ) + frame(PING, struct.pack("<Q", 1)))
    reps = reply(FN_cuInit, b"\0" * 64, tag=1, seq=1) + reply(FN_cuCtxSynchronize, tag=2, seq=2)
    client = frame(HELLO_ACK, hello_ack()) + frame(REPLIES, reps) + \
        frame(PING, struct.pack("<Q", 9)) + frame(PONG, struct.pack("<Q", 9)) + \
        frame(REPLIES, reps)
    yield "client-session", wire_input(F_CLIENT | F_TRAFFIC, client)
    yield "client-split", wire_input(F_CLIENT | F_PARTIAL | F_LATE, client,
                                     (3, 0, 1, 130, 2, 33, 8, 1))
    # Copies back in 20 KiB pieces: more than a 64 KiB ring holds at once.
    data = b"".join(reply(FN_cuMemcpyDtoH, struct.pack("<QQ", i * 20480, 20480) +
                          bytes([i]) * 20480, flags=REP_F_DATA, tag=3, seq=3)
                    for i in range(5)) + reply(FN_cuMemcpyDtoH, tag=3, seq=3)
    yield "client-full-ring", wire_input(F_CLIENT | F_SMALL | F_LAZY,
                                         frame(HELLO_ACK, hello_ack()) + frame(REPLIES, data),
                                         (0, 100, 7, 0, 254, 1, 0, 64))
    yield "client-refused", wire_input(F_CLIENT, frame(HELLO_ACK, hello_ack(status=111)))
    # Sessions that survive: the connection drops after the first batch, and the
    # session is taken up again on a new one.
    first = frame(HELLO, hello(HELLO_SESSION, features=F_ASYNC | F_RESUME)) + frame(RECORDS, recs)
    again = frame(HELLO, hello(HELLO_RESUME, features=F_ASYNC | F_RESUME, token=FZ_TOKEN)) + \
        frame(RECORDS, recs) + frame(ACK, struct.pack("<Q", 1))
    yield "server-resume", wire_input(F_TRAFFIC, first + again, split_at(len(first), 208))
    first = frame(HELLO_ACK, hello_ack(features=F_ASYNC | F_RESUME, token=77)) + frame(REPLIES, reps)
    again = frame(HELLO_ACK, hello_ack(features=F_ASYNC | F_RESUME, token=77, count=0)) + \
        frame(REPLIES, reps) + frame(ACK, struct.pack("<Q", 0))
    yield "client-resume", wire_input(F_CLIENT | F_TRAFFIC, first + again, split_at(len(first)))
    # Uploads by content: a chunk, a question, a record that names the chunk.
    chunk = bytes(range(256)) * 16
    named = rec(FN_cuMemcpyHtoD, struct.pack("<QQ", 0x10000, len(chunk)) +
                struct.pack("<IIQ", 1, 0, len(chunk)) + cache_ref(chunk),
                flags=REC_F_REPLY | REC_F_CACHED, tag=3, seq=3)
    cached = frame(HELLO, hello(HELLO_SESSION, features=F_ASYNC | F_CACHE)) + \
        frame(CACHE_DATA, cache_ref(chunk) + struct.pack("<Q", 0) + chunk) + \
        frame(CACHE_QUERY, struct.pack("<QIIQ", 1, 1, Q_PIN, 0) + cache_ref(chunk)) + \
        frame(RECORDS, recs[:40] + named) + frame(CACHE_RELEASE, struct.pack("<II", 0, 0))
    yield "server-cache", wire_input(F_TRAFFIC, cached, (100, 0, 200, 0, 0, 0, 0, 0))
    # A chunk whose bytes are not its name's, and a record that names it.
    lie = cache_ref(chunk[1:] + b"x")
    liar = frame(HELLO, hello(HELLO_SESSION, features=F_ASYNC | F_CACHE)) + \
        frame(CACHE_DATA, lie + struct.pack("<Q", 0) + chunk) + \
        frame(PING, struct.pack("<Q", 5)) + \
        frame(RECORDS, named[:-40] + lie)
    yield "server-cache-liar", wire_input(F_TRAFFIC, liar, (208, 16, 16, 0, 0, 0, 0, 0))
    ctl = frame(HELLO, hello(HELLO_CONTROL, features=F_ASYNC | F_CACHE))
    for op_ in (CTL_STATS, CTL_LIST, CTL_CLEAR, CTL_STATS):
        ctl += frame(CACHE_CTL, struct.pack("<IIQ", op_, 0, 0))
    yield "server-cache-ctl", wire_input(0, ctl + frame(INFO_REQ))
    info = struct.pack("<IIQIIQQ4Q", 1 << 20, 64 << 10, 256 << 20, 8192, 0, 1 << 30, 0,
                       0, 0, 0, 0)
    yield "client-cache", wire_input(F_CLIENT | F_TRAFFIC,
                                     frame(HELLO_ACK, hello_ack(features=F_ASYNC | F_CACHE)) +
                                     frame(CACHE_INFO, info) + frame(REPLIES, reps) +
                                     frame(CACHE_HAVE, struct.pack("<QIIQ", 1, 1, 1, 0) +
                                           struct.pack("<Q", 1)))


# fuzz_control.c's operations: what | connection << 3; message templates
C_CONNECT, C_MESSAGE, C_REPLY, C_REFUSED, C_CLOSE, C_SERVER = range(6)
M_CTL_HELLO, M_SESSION_HELLO, M_STATUS, M_STATUS_JSON = 0xF0, 0xF1, 0xF2, 0xF3


def op(what, conn=0):
    return bytes([what | conn << 3])


def local_hello(kind, sq_shift=0, program=b"prog"):
    return struct.pack("<IIIIII64s2Q", LOCAL_MAGIC, 1, kind, sq_shift, 0, 0, program, 0, 0)


def ctl_req(o):
    return struct.pack("<II120s", o, 0, b"")


def msg(m):
    return op(C_MESSAGE) + (bytes([m]) if isinstance(m, int) else bytes([len(m)]) + m)


def control_seeds():
    yield "status", bytes([0]) + op(C_CONNECT) + msg(M_CTL_HELLO) + msg(M_STATUS) + \
        op(C_REPLY) + msg(M_STATUS_JSON) + op(C_REPLY) + op(C_CLOSE)
    # Sessions that show in the status, one of them connected to its server.
    yield "sessions", bytes([1]) + op(C_CONNECT) + msg(local_hello(LOCAL_SESSION, 0, b"app-one")) + \
        op(C_CONNECT, 1) + op(C_MESSAGE, 1) + bytes([M_SESSION_HELLO]) + op(C_SERVER, 1) + \
        op(C_CONNECT, 2) + op(C_MESSAGE, 2) + bytes([M_CTL_HELLO]) + \
        op(C_MESSAGE, 2) + bytes([M_STATUS_JSON]) + op(C_REPLY, 2) + \
        op(C_REFUSED, 0) + op(C_MESSAGE, 2) + bytes([M_STATUS]) + op(C_REPLY, 2)
    raw = local_hello(LOCAL_CONTROL, program=b"raw") + ctl_req(CTL_STATUS_JSON)
    yield "raw", bytes([0]) + op(C_CONNECT) + msg(raw[:104]) + msg(raw[104:]) + op(C_REPLY) + \
        msg(ctl_req(7)) + op(C_REPLY) + msg(b"\1\2\3")
    gpu = struct.pack("<64s16sQQII", b"Gleam sim device 0", bytes(16), 1 << 30, 1 << 29, 0, 0)
    info = struct.pack("<16s64siIIIQQQ", b"sim", b"gpu-host", 12040, 1, 0, 0, 0, 0, 0) + gpu
    yield "server-info", bytes([2]) + frame(HELLO_ACK, hello_ack(features=0)) + frame(INFO, info)
    yield "status-text", bytes([3]) + b"server: 10.0.0.1:7381\nsessions: 3 since start\n"


# Arrays, copies, texture objects (uapi/gleam_record.h; numbers from api.tbl).
FN_cuArray3DCreate, FN_cuArrayDestroy = 351, 352
FN_cuMipmappedArrayCreate, FN_cuMipmappedArrayDestroy, FN_cuMipmappedArrayGetLevel = 356, 357, 358
FN_cuMemcpyHtoA, FN_cuMemcpyAtoH, FN_cuMemcpy2D, FN_cuMemcpy3D = 360, 362, 367, 370
FN_cuTexObjectCreate, FN_cuTexObjectDestroy, FN_cuSurfObjectCreate = 380, 381, 385
MT_HOST, MT_DEVICE, MT_ARRAY = 1, 2, 3
COPY_LINEAR, COPY_2D, COPY_3D = 1, 2, 4


def array_desc(w, h, d, fmt=0x20, ch=1, flags=0, levels=0):
    return struct.pack("<QQQIIII", w, h, d, fmt, ch, flags, levels)


def copy_end(mtype, x=0, y=0, z=0, ptr=0, pitch=0, height=0):
    return struct.pack("<IIQQQQQQQ", mtype, 0, x, y, z, ptr, pitch, height, 0)


def copy(api, w, h, d, src, dst):
    return struct.pack("<IIQQQ", api, 0, w, h, d) + src + dst


def records_seeds():
    q = lambda *v: struct.pack("<%dQ" % len(v), *v)
    a = rec(FN_cuArray3DCreate, q(200) + array_desc(8, 4, 2), flags=0)
    up = rec(FN_cuMemcpy3D, q(0) + copy(COPY_3D, 32, 4, 2, copy_end(MT_HOST),
                                        copy_end(MT_ARRAY, ptr=200)) + bytes(range(256)), flags=0)
    down = rec(FN_cuMemcpyAtoH, q(0, 0, 0) + copy(COPY_2D, 16, 3, 1, copy_end(MT_ARRAY, 4, 1, 0, 200),
                                                  copy_end(MT_HOST)), seq=3)
    lin = rec(FN_cuMemcpyHtoA, q(0, 0, 0) + copy(COPY_LINEAR, 24, 1, 1, copy_end(MT_HOST),
                                                 copy_end(MT_ARRAY, 8, ptr=200)) + bytes(24), flags=0)
    tex = rec(FN_cuTexObjectCreate, q(0) + struct.pack("<IIQQIIQQQQ", 0, 0, 200, 0, 0, 0, 0, 0, 0, 0) +
              struct.pack("<14I", *([1, 1, 1, 0] + [0] * 10)) + struct.pack("<II", 0, 0) +
              bytes(48), seq=5)
    mm = rec(FN_cuMipmappedArrayCreate, q(300, 3) + array_desc(16, 16, 0, levels=3), flags=0)
    lvl = rec(FN_cuMipmappedArrayGetLevel, q(301, 300, 1), flags=0)
    lup = rec(FN_cuMemcpy2D, q(0) + copy(COPY_2D, 32, 8, 1, copy_end(MT_HOST),
                                         copy_end(MT_ARRAY, ptr=301)) + bytes(256), flags=0)
    gone = rec(FN_cuMipmappedArrayDestroy, q(300), flags=0) + rec(FN_cuArrayDestroy, q(200), flags=0)
    yield "arrays-copies-textures", a + up + down + lin + tex + mm + lvl + lup + gone
    yield "vmm-peers-twins", vmm_records()


# Virtual memory, peers and twins (uapi/gleam_vmm.h): a reservation at an
# address the sim can give in the harness's process, an allocation mapped
# there with access, a twin over part of it pushed and pulled, a peer copy
# within it, and everything undone.
FN_GRAN, FN_RESERVE, FN_ADDR_FREE, FN_CREATE, FN_RELEASE, FN_MAP, FN_UNMAP = 450, 451, 452, 453, 454, 455, 456
FN_SET_ACCESS, FN_RETAIN, FN_PEER, FN_PEER_ASYNC = 457, 460, 470, 471
FN_TWIN_SET, FN_TWIN_PUSH, FN_TWIN_PULL = 500, 501, 502
GRAN = 2 << 20
VMM_AT = 0x500000000000


def mem_prop(dev=0):
    return struct.pack("<IIIiBBHI", 1, 0, 1, dev, 0, 0, 0, 0)


def vmm_records():
    q = lambda *v: struct.pack("<%dQ" % len(v), *v)
    out = rec(FN_GRAN, q(0) + mem_prop(), seq=1)
    out += rec(FN_RESERVE, q(2 * GRAN, 0, VMM_AT, 0), seq=2)
    out += rec(FN_CREATE, q(500, GRAN, 0) + mem_prop(), seq=3)
    out += rec(FN_MAP, q(VMM_AT, GRAN, 0, 500, 0), flags=0)
    out += rec(FN_SET_ACCESS, q(VMM_AT, GRAN, 1) + struct.pack("<IiII", 1, 0, 3, 0), flags=0)
    out += rec(FN_TWIN_SET, q(VMM_AT, GRAN // 2 + 100, 1), flags=0)
    out += rec(FN_TWIN_PUSH, q(VMM_AT, 4096, 8192, 0, 1) + bytes(range(256)) * 32, flags=0)
    out += rec(FN_PEER, q(VMM_AT + GRAN // 2 + 4096, 100, VMM_AT, 100, 65536), flags=0)
    out += rec(FN_TWIN_PULL, q(VMM_AT, GRAN // 2 + 100), seq=4)
    out += rec(FN_RETAIN, q(501, VMM_AT + 100), flags=0)
    out += rec(FN_RELEASE, q(500), flags=0) + rec(FN_RELEASE, q(501), flags=0)
    out += rec(FN_TWIN_SET, q(VMM_AT, 0, 0), flags=0)
    out += rec(FN_UNMAP, q(VMM_AT, GRAN), flags=0)
    out += rec(FN_ADDR_FREE, q(VMM_AT, 2 * GRAN), seq=5)
    return out


# Graphs built node by node and JIT linking (uapi/gleam_graph.h).
FN_cuModuleLoadData, FN_cuModuleGetFunction, FN_cuEventCreate = 91, 94, 130
FN_cuGraphInstantiateWithFlags, FN_cuGraphLaunch, FN_cuGraphDestroy = 240, 243, 246
FN_cuGraphExecDestroy = 245
FN_cuGraphCreate, FN_cuGraphAddNode, FN_cuGraphNodeSetParams = 530, 531, 533
FN_cuGraphExecNodeSetParams, FN_cuGraphConditionalHandleCreate = 534, 570
FN_cuGraphAddDependencies, FN_cuGraphRemoveDependencies, FN_cuGraphDestroyNode = 579, 581, 583
FN_cuGraphClone, FN_cuGraphExecUpdate, FN_cuGraphNodeSetEnabled = 584, 586, 588
FN_cuLinkCreate, FN_cuLinkAddData, FN_cuLinkComplete, FN_cuLinkDestroy = 600, 601, 603, 604
T_KERNEL, T_MEMCPY, T_MEMSET, T_HOST, T_GRAPH, T_EMPTY = 0, 1, 2, 3, 4, 5
T_WAIT, T_RECORD, T_ALLOC, T_FREE, T_COND = 6, 7, 10, 11, 13


def gnode(ntype, body=b"", ctx=100):
    """struct gleam_gnode: type, reserved, ctx, a union of 160 bytes."""
    return struct.pack("<IIQ", ntype, 0, ctx) + body + bytes(160 - len(body))


def graph_seeds():
    q = lambda *v: struct.pack("<%dQ" % len(v), *v)
    ptx = (b".version 7.0\n.target sm_75\n.address_size 64\n"
           b".visible .entry cond_set(.param .u64 h, .param .u32 v)\n{\nret;\n}\n\0")
    setup = rec(FN_cuModuleLoadData, q(500) + ptx, flags=0) + \
        rec(FN_cuModuleGetFunction, q(501, 500, 9) + b"cond_set\0", seq=2) + \
        rec(FN_cuEventCreate, q(502, 0), flags=0) + rec(FN_cuGraphCreate, q(400, 0), flags=0)
    nodes = rec(FN_cuGraphAddNode, q(401, 400, 0) + gnode(T_EMPTY), flags=0) + \
        rec(FN_cuGraphAddNode, q(402, 400, 1, 401) + gnode(T_RECORD, q(502)), flags=0) + \
        rec(FN_cuGraphAddNode, q(403, 400, 1, 402) +
            gnode(T_MEMSET, q(0x10000, 0) + struct.pack("<II", 7, 4) + q(16, 1)), flags=0) + \
        rec(FN_cuGraphAddNode, q(404, 400, 1, 403) + gnode(T_HOST, q(77)), flags=0) + \
        rec(FN_cuGraphAddDependencies, q(400, 1, 401, 403), flags=0) + \
        rec(FN_cuGraphRemoveDependencies, q(400, 1, 401, 403), flags=0) + \
        rec(FN_cuGraphClone, q(410, 400, 2, 401, 411, 402, 412), flags=0) + \
        rec(FN_cuGraphInstantiateWithFlags, q(420, 400, 0), seq=3) + \
        rec(FN_cuGraphExecUpdate, q(420, 410), seq=4) + \
        rec(FN_cuGraphNodeSetParams, q(402) + gnode(T_RECORD, q(502)), flags=0) + \
        rec(FN_cuGraphExecNodeSetParams, q(420, 402) + gnode(T_RECORD, q(502)), flags=0) + \
        rec(FN_cuGraphNodeSetEnabled, q(420, 403, 0), flags=0) + \
        rec(FN_cuGraphLaunch, q(420, 0), flags=0)
    alloc = struct.pack("<QIiII", 4096, 1, 0, 1, 0)
    cond = rec(FN_cuGraphCreate, q(430, 0), flags=0) + \
        rec(FN_cuGraphConditionalHandleCreate, q(430, 100, 1, 1), seq=5) + \
        rec(FN_cuGraphAddNode, q(431, 430, 0) +
            gnode(T_KERNEL, q(501) + struct.pack("<8I", 1, 1, 1, 32, 1, 1, 0, 0) + q(12)) +
            q(0x5c0d000000000001) + bytes(8), flags=0) + \
        rec(FN_cuGraphAddNode, q(432, 430, 1, 431) +
            gnode(T_COND, q(0x5c0d000000000001) + struct.pack("<II", 0, 2)) + q(433, 434),
            flags=0) + \
        rec(FN_cuGraphAddNode, q(435, 433, 0) + gnode(T_EMPTY), flags=0) + \
        rec(FN_cuGraphAddNode, q(436, 430, 0) + gnode(T_ALLOC, alloc), seq=6) + \
        rec(FN_cuGraphAddNode, q(437, 430, 1, 436) + gnode(T_FREE, q(0x10000)), flags=0) + \
        rec(FN_cuGraphInstantiateWithFlags, q(440, 430, 0), seq=7) + \
        rec(FN_cuGraphLaunch, q(440, 0), flags=0) + \
        rec(FN_cuGraphDestroyNode, q(435), flags=0) + \
        rec(FN_cuGraphExecDestroy, q(440), flags=0) + rec(FN_cuGraphDestroy, q(430), flags=0) + \
        rec(FN_cuGraphAddNode, q(438, 433, 0) + gnode(T_EMPTY), flags=0) + \
        rec(FN_cuGraphDestroy, q(400), flags=0) + rec(FN_cuGraphDestroy, q(410), flags=0)
    yield "graph-nodes", setup + nodes + cond
    lptx = (b".version 7.0\n.target sm_75\n.address_size 64\n"
            b".extern .func (.param .b32 r) link_op(.param .b32 x);\n"
            b".visible .entry link_apply(.param .u64 v, .param .u32 n)\n{\nret;\n}\n\0")
    bptx = (b".version 7.0\n.target sm_75\n.address_size 64\n"
            b".visible .func (.param .b32 r) link_op(.param .b32 x)\n{\nret;\n}\n\0")
    opts = struct.pack("<IIQ", 5, 0, 0) + struct.pack("<IIQ", 6, 0, 256) + \
        struct.pack("<IIQ", 2, 0, 0)
    link = rec(FN_cuLinkCreate, q(3, 450) + opts, flags=0) + \
        rec(FN_cuLinkAddData, q(450, 1, len(lptx), 0) + q(2, 0) + b"a\0" + lptx, seq=8) + \
        rec(FN_cuLinkComplete, q(450, 1 << 20, 0), seq=9) + \
        rec(FN_cuLinkAddData, q(450, 1, len(bptx), 0) + q(0, 0) + bptx, seq=10) + \
        rec(FN_cuLinkComplete, q(450, 1 << 30, 0), seq=11) + rec(FN_cuLinkDestroy, q(450), flags=0)
    yield "jit-link", link


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "seeds")
    for target, seeds in (("wire", wire_seeds()), ("control", control_seeds()),
                          ("records", records_seeds()), ("records", graph_seeds())):
        d = os.path.join(top, target)
        os.makedirs(d, exist_ok=True)
        for name, data in seeds:
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
