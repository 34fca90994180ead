#!/usr/bin/env python3
"""Generate Gleam's API code from uapi/api.tbl.

    gen-api.py TABLE DRIVER_SYMBOLS OUTDIR [CUDA_H]

Writes into OUTDIR:
  gleam_api_gen.h   function numbers, argument and reply blocks, helpers
  api_gen.c         name and class tables shared by every part
  shim_gen.c        libcuda.so.1's exported entry points and cuGetProcAddress's map
  libcuda.map       the linker version script: the driver API and nothing else
  worker_gen.c      the replay worker's dispatch
  backend_gen.h     the list of functions a replay backend provides
  sim_stubs_gen.c   the sim's answer to what it does not implement (weak)
  errors_gen.c      CUresult names (from CUDA_H)

Only the Python standard library is used.  The table is checked strictly:
a malformed line stops the build with its line number.
"""
import os
import re
import sys

HANDLES = {
    "CUcontext": "CTX", "CUstream": "STREAM", "CUevent": "EVENT",
    "CUmodule": "MODULE", "CUfunction": "FUNC", "CUlibrary": "LIBRARY",
    "CUkernel": "KERNEL", "CUgraph": "GRAPH", "CUgraphExec": "GRAPHEXEC",
    "CUmemoryPool": "MEMPOOL", "CUarray": "ARRAY", "CUmipmappedArray": "MIPMAP",
    "CUgraphNode": "GRAPHNODE", "CUlinkState": "LINK",
    # cuMemCreate's handles: integers to the program, the shim's objects all the same.
    "CUmemGenericAllocationHandle": "MEMHANDLE",
}
CLASSES = ("local", "async", "sync")
# What a function is beyond its class (uapi/api.tbl's header says each).
TRAITS = {
    "noctx": "GL_T_NOCTX", "work": "GL_T_WORK", "fill": "GL_T_FILL", "order": "GL_T_ORDER",
    "tohost": "GL_T_TOHOST", "wait:stream": "GL_T_WAIT_STREAM", "wait:ctx": "GL_T_WAIT_CTX",
    "wait:event": "GL_T_WAIT_EVENT", "query:stream": "GL_T_QUERY_STREAM",
    "query:event": "GL_T_QUERY_EVENT", "gpu": "GL_T_GPU", "legacy": "GL_T_LEGACY",
    "aside": "GL_T_ASIDE", "ordered": "GL_T_ORDERED", "once": "GL_T_ONCE",
}
UNSIGNED = {"unsigned int", "unsigned char", "unsigned short", "size_t",
            "CUdeviceptr", "cuuint64_t", "unsigned long long", "cuuint32_t"}
SIGNED = {"int", "short", "char", "long long", "CUdevice"}
FLOATS = {"float", "double"}


class Arg:
    def __init__(self, text, where):
        self.text = text.strip()
        words = self.text.split()
        self.ann = None
        self.len = None
        if words and words[0].startswith("dev[") and words[0].endswith("]"):
            # A device range the shim checks against what it allocated.
            self.range = words.pop(0)[4:-1]
        else:
            self.range = None
        if words and words[0].startswith("arr[") and words[0].endswith("]"):
            # arr[OFF;LEN]: bytes [OFF, OFF + LEN) of an array (its rows
            # one after another), which the shim checks against its extent.
            parts = words.pop(0)[4:-1].split(";")
            if len(parts) != 2:
                raise SystemExit(f"{where}: arr[] takes an offset and a length")
            self.arange = parts
        else:
            self.arange = None
        self.renew = bool(words) and words[0] == "renew"
        if self.renew:
            words[0] = "new"
        if words and (words[0] in ("out", "new", "del", "str")
                      or words[0].startswith("in:") or words[0].startswith("out:")):
            a = words.pop(0)
            if ":" in a:
                self.ann, self.len = a.split(":", 1)
                self.ann += "buf"
            else:
                self.ann = a
        decl = " ".join(words)
        m = re.match(r"^(.*?)([A-Za-z_][A-Za-z0-9_]*)$", decl)
        if not m:
            raise SystemExit(f"{where}: cannot parse argument '{text}'")
        self.ctype = m.group(1).strip()
        self.name = m.group(2)
        self.decl = decl
        base = self.ctype.replace("const", "").strip()
        self.ptr = base.endswith("*")
        self.base = base.rstrip("*").strip()
        self.handle = HANDLES.get(self.base)
        if self.arange and (self.handle != "ARRAY" or self.ptr):
            raise SystemExit(f"{where}: arr[] annotates a CUarray")

    def scalar_kind(self):
        if self.ptr:
            return None
        t = self.base
        if t in FLOATS:
            return "double"
        if t in UNSIGNED:
            return "__u64"
        if t in SIGNED or (t.startswith("CU") and t not in HANDLES):
            return "__s64"
        return None


class Func:
    pass


def parse(path):
    funcs = []
    seen_nr, seen_name, seen_sym = set(), set(), set()
    for ln, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        where = f"{path}:{ln}"
        m = re.match(r"^\s*(\d+)\s+(\w+)\s+(\w+)\s+([-SWR]+)\s+(.*?)\s*\((.*)\)\s*$", line)
        if not m:
            raise SystemExit(f"{where}: malformed line")
        f = Func()
        f.nr, f.name, f.cls, f.impl = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if f.cls not in CLASSES:
            raise SystemExit(f"{where}: unknown class {f.cls}")
        if f.nr < 1 or f.nr > 65535 or f.nr in seen_nr:
            raise SystemExit(f"{where}: number {f.nr} reused or out of range")
        if f.name in seen_name:
            raise SystemExit(f"{where}: {f.name} listed twice")
        seen_nr.add(f.nr)
        seen_name.add(f.name)
        f.S = "S" in f.impl
        f.W = "W" in f.impl
        # R: the shim sends another function's record; none of its own
        f.R = "R" in f.impl
        if f.R:
            f.S = True
        f.remote = f.cls != "local" and not f.R
        if f.cls == "local" and not f.S:
            raise SystemExit(f"{where}: a local function needs a hand-written shim side (S)")
        f.syms = []
        f.traits = []
        words = m.group(5).split()
        # Traits come before the symbols: words without an '@'.
        while words and "@" not in words[0] and words[0] != "-":
            for t in words.pop(0).split(","):
                if t not in TRAITS:
                    raise SystemExit(f"{where}: unknown trait '{t}'")
                f.traits.append(t)
        check_traits(f, where)
        # "-" for the symbols: a message of Gleam's own between the shim and
        # the worker, which no program calls and no driver implements.
        f.internal = words == ["-"]
        if f.internal:
            words = []
            if f.cls == "local" or not f.W:
                raise SystemExit(f"{where}: a message of Gleam's own is async or sync, "
                                 "with a hand-written worker side (W)")
        for s in words:
            sm = re.match(r"^(\w+)@(\d+)(?::(ptds|ptsz))?$", s)
            if not sm:
                raise SystemExit(f"{where}: bad symbol {s}")
            if sm.group(1) in seen_sym:
                raise SystemExit(f"{where}: symbol {sm.group(1)} listed twice")
            seen_sym.add(sm.group(1))
            f.syms.append((sm.group(1), int(sm.group(2)), sm.group(3)))
        if not f.syms and not f.internal:
            raise SystemExit(f"{where}: no symbol")
        f.variants = any(s[2] for s in f.syms)
        proto = m.group(6).strip()
        f.args = [Arg(a, where) for a in proto.split(",")] if proto else []
        f.where = where
        if f.remote:
            check_generable(f)
        check_once(f)
        funcs.append(f)
    return funcs


def check_traits(f, where):
    """Traits that contradict the class or each other are a table error."""
    t = set(f.traits)
    kinds = t & {"work", "fill", "order"}
    if len(kinds) > 1 and kinds != {"work", "order"}:
        raise SystemExit(f"{where}: at most one of work, fill and order")
    waits = [x for x in t if x.startswith(("wait:", "query:")) or x == "gpu"]
    if len(waits) > 1:
        raise SystemExit(f"{where}: at most one kind of wait")
    if waits and f.cls != "sync":
        raise SystemExit(f"{where}: {waits[0]} on a function that does not wait")
    if f.cls == "local" and (kinds or waits or "tohost" in t):
        raise SystemExit(f"{where}: a local function does no work on the GPU")


def check_once(f):
    """once: the generated shim side keeps the reply block, keyed by the argument block."""
    if "once" not in f.traits:
        return
    where = f.where
    if f.cls != "sync":
        raise SystemExit(f"{where}: once on a function that does not wait")
    if f.S or f.internal:
        raise SystemExit(f"{where}: once on a hand-written shim side or a message of "
                         "Gleam's own: the generated side is what keeps the answer")
    other = [t for t in f.traits if t not in ("once", "noctx")]
    if other:
        raise SystemExit(f"{where}: once with {other[0]}: a kept answer depends on nothing "
                         "but the arguments")
    if "noctx" not in f.traits:
        raise SystemExit(f"{where}: once without noctx: a kept answer is given with or "
                         "without a current context")
    for a in f.args:
        if a.ann == "out":
            continue
        if a.ann or a.range or a.arange or a.handle or a.ptr or not a.scalar_kind():
            raise SystemExit(f"{where}: once with '{a.text}': the key is the argument "
                             "block, of plain values only (no new, del, str, in:, out:, "
                             "dev[], arr[] or handle)")
    if not any(a.ann == "out" for a in f.args):
        raise SystemExit(f"{where}: once with no out argument: nothing to keep")


def check_generable(f):
    """A side that is generated must be fully described by annotations."""
    for a in f.args:
        ok = (a.ann in ("out", "new", "del", "str", "inbuf", "outbuf")
              or (a.handle and not a.ptr) or (not a.ptr and a.scalar_kind()))
        if a.ann == "out" and not a.scalar_kind() and not a.ptr:
            ok = False
        if not ok and not (f.S and f.W):
            if not f.S or not f.W:
                raise SystemExit(f"{f.where}: argument '{a.text}' needs an annotation "
                                 "or a hand-written side (S and W)")


def base_name(sym):
    s = re.sub(r"_(ptds|ptsz)$", "", sym)
    return re.sub(r"_v\d+$", "", s)


def params(f):
    return ", ".join(a.decl for a in f.args) or "void"


def argnames(f):
    return ", ".join(a.name for a in f.args)


def args_struct(f):
    out = [f"struct gl_a_{f.name} {{"]
    n = 0
    for a in f.args:
        if a.ann in ("out", "outbuf"):
            continue
        if a.ann in ("new", "del") or (a.handle and not a.ptr):
            out.append(f"\t__u64 {a.name};\t/* id */")
        elif a.ann == "str":
            out.append(f"\t__u64 {a.name}_len;\t/* bytes incl. NUL, data follows */")
        elif a.ann == "inbuf":
            continue
        else:
            k = a.scalar_kind()
            if not k:
                continue
            out.append(f"\t{k} {a.name};")
        n += 1
    if n == 0:
        out.append("\t__u64 unused;")
    out.append("};")
    return "\n".join(out)


def reply_struct(f):
    outs = [a for a in f.args if a.ann == "out"]
    lines = [f"struct gl_r_{f.name} {{"]
    for a in outs:
        k = "double" if a.base in FLOATS else ("__u64" if a.base in UNSIGNED else "__s64")
        lines.append(f"\t{k} {a.name};")
    if not outs:
        lines.append("\t__u64 unused;")
    lines.append("};")
    return "\n".join(lines)


def generated(out):
    """out's write, after the line that says the file is generated."""
    out.write("/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */\n")
    return out.write


def remote(funcs):
    """The functions whose calls travel to the worker (not answered locally)."""
    return [f for f in funcs if f.remote]


def backend(funcs):
    """Those a replay backend implements: the driver's, not Gleam's own messages."""
    return [f for f in remote(funcs) if not f.internal]


def gen_header(funcs, out):
    w = generated(out)
    w("#ifndef GLEAM_API_GEN_H\n#define GLEAM_API_GEN_H\n\n#include <linux/types.h>\n\n")
    w("enum gl_fn {\n")
    for f in funcs:
        w(f"\tGL_FN_{f.name} = {f.nr},\n")
    w("};\n\n")
    w(f"#define GL_FN_LIMIT {max(f.nr for f in funcs) + 1}\n\n")
    w("enum gl_class { GL_LOCAL = 0, GL_ASYNC = 1, GL_SYNC = 2 };\n\n")
    w("enum gl_hkind {\n\tGL_H_NONE = 0,\n")
    for k in sorted(set(HANDLES.values())):
        w(f"\tGL_H_{k},\n")
    w("\tGL_H_LIMIT\n};\n\n")
    if len(TRAITS) > 16:
        raise SystemExit("more traits than struct gl_fn_desc's 16 bits hold")
    w("/* Traits (uapi/api.tbl's header). */\n")
    for i, (t, macro) in enumerate(TRAITS.items()):
        w(f"#define {macro}\t(1U << {i})\t/* {t} */\n")
    w("\n")
    w("struct gl_fn_desc {\n\tconst char *name;\n\tunsigned char cls;\n"
      "\t/* It makes something the caller holds: a handle, or device memory. */\n"
      "\tunsigned char creates;\n\tunsigned short traits;\t/* GL_T_* */\n};\n\n")

    w("/* Indexed by function number; name is NULL for unused numbers. */\n")
    w("extern const struct gl_fn_desc gl_fn_table[GL_FN_LIMIT];\n")
    w("extern const unsigned short gl_fn_args_size[GL_FN_LIMIT];\n\n")
    w("static inline unsigned int gl_fn_traits(unsigned int fn)\n{\n")
    w("\treturn fn < GL_FN_LIMIT ? gl_fn_table[fn].traits : 0;\n}\n\n")

    w("static inline const char *gl_fn_name(unsigned int fn)\n{\n")
    w("\treturn fn < GL_FN_LIMIT && gl_fn_table[fn].name ? gl_fn_table[fn].name : \"?\";\n}\n\n")
    for f in remote(funcs):
        w(args_struct(f) + "\n")
        w(reply_struct(f) + "\n\n")
    w("#endif\n")


def gen_tables(funcs, out):
    w = generated(out)
    w('#include "gleam_api_gen.h"\n\n')
    w("const struct gl_fn_desc gl_fn_table[GL_FN_LIMIT] = {\n")
    for f in funcs:
        # Texture and surface objects are values the server makes, not handles.
        # So are address reservations, and the answers of Gleam's own that
        # the shim takes in beside another call's (a deferred error is that
        # call's to report).
        creates = (any(a.ann == "new" for a in f.args) or f.name.startswith("cuMemAlloc") or
                   (f.remote and f.name.endswith("ObjectCreate")) or
                   f.name == "cuMemAddressReserve" or (f.internal and f.cls == "sync"))
        tr = " | ".join(TRAITS[t] for t in f.traits) or "0"
        w(f'\t[{f.nr}] = {{ "{f.name}", GL_{f.cls.upper()}, {int(creates)}, {tr} }},\n')
    w("};\n\n")
    w("/* Bytes of each function's argument block (0: none travels). */\n")
    w("const unsigned short gl_fn_args_size[GL_FN_LIMIT] = {\n")
    for f in remote(funcs):
        w(f"\t[{f.nr}] = sizeof(struct gl_a_{f.name}),\n")
    w("};\n")


def copy_outs(w, outs, line, then=None):
    """A successful call's out arguments, each written by line(a), then the line then."""
    if outs:
        w("\tif (!r) {\n")
        for a in outs:
            w(f"\t\t{line(a)}\n")
        if then:
            w(f"\t\t{then}\n")
        w("\t}\n")


def shim_generated_body(f, w):
    """Marshal the arguments, send, and unmarshal the reply."""
    w(f"\tstruct gl_a_{f.name} a;\n")
    outs = [a for a in f.args if a.ann == "out"]
    w(f"\tstruct gl_r_{f.name} o;\n")
    ins = [a for a in f.args if a.ann in ("str", "inbuf")]
    outbufs = [a for a in f.args if a.ann == "outbuf"]
    news = [a for a in f.args if a.ann == "new"]
    dels = [a for a in f.args if a.ann == "del"]
    w(f"\tstruct iovec iov[{max(len(ins), 1)}];\n")
    w("\tstruct shim_call c;\n\tCUresult r;\n")
    for a in news:
        w(f"\tstruct shim_obj *n_{a.name};\n")
    for a in dels:
        w(f"\tstruct shim_obj *d_{a.name};\n")
    w("\n\tmemset(&a, 0, sizeof(a));\n\tmemset(&o, 0, sizeof(o));\n")
    once = "once" in f.traits
    if once:
        # The argument block is the key: filled first, then the kept reply
        # block, if any, answers as the server did.
        w(f"\t_Static_assert(sizeof(a) <= SHIM_MEMO_ARGS_MAX && sizeof(o) <= SHIM_MEMO_OUT_MAX,\n"
          f"\t\t       \"{f.name}: blocks too large to keep\");\n")
        for a in f.args:
            if a.ann != "out":
                w(f"\ta.{a.name} = ({a.scalar_kind()}){a.name};\n")
        w(f"\tif ({' && '.join(a.name for a in outs)} &&\n"
          f"\t    shim_memo_get(GL_FN_{f.name}, &a, sizeof(a), &o, sizeof(o))) {{\n")
        for a in outs:
            w(f"\t\t*{a.name} = ({a.base})o.{a.name};\n")
        w("\t\treturn CUDA_SUCCESS;\n\t}\n")
    w(f"\tr = shim_begin(&c, GL_FN_{f.name});\n\tif (r)\n\t\treturn r;\n")
    for a in f.args:
        if a.ann in ("out", "new") and True:
            w(f"\tif (!{a.name})\n\t\treturn shim_end(&c, CUDA_ERROR_INVALID_VALUE);\n")
    for a in f.args:
        if a.ann == "del":
            w(f"\tr = shim_obj_get(GL_H_{a.handle}, {a.name}, &d_{a.name});\n")
            w("\tif (r)\n\t\treturn shim_end(&c, r);\n")
            w(f"\ta.{a.name} = d_{a.name}->id;\n")
        elif a.ann == "new" or a.ann == "out" or a.ann == "outbuf" or once:
            continue
        elif a.handle:
            if a.handle == "STREAM":
                w(f"\tr = shim_stream_id({a.name}, {'per_thread' if f.variants else '0'}, &a.{a.name});\n")
            else:
                w(f"\tr = shim_handle_id(GL_H_{a.handle}, {a.name}, &a.{a.name});\n")
            w("\tif (r)\n\t\treturn shim_end(&c, r);\n")
            if a.arange:
                w(f"\tr = shim_check_array({a.name}, (size_t)({a.arange[0]}), "
                  f"(size_t)({a.arange[1]}));\n")
                w("\tif (r)\n\t\treturn shim_end(&c, r);\n")
        elif a.ann == "str":
            w(f"\tif (!{a.name})\n\t\treturn shim_end(&c, CUDA_ERROR_INVALID_VALUE);\n")
            w(f"\ta.{a.name}_len = strnlen({a.name}, GLEAM_NAME_MAX) + 1;\n")
            w(f"\tif (a.{a.name}_len > GLEAM_NAME_MAX)\n\t\treturn shim_end(&c, CUDA_ERROR_INVALID_VALUE);\n")
        elif a.ann == "inbuf":
            continue
        else:
            k = a.scalar_kind()
            w(f"\ta.{a.name} = ({k}){a.name};\n")
            if a.range:
                w(f"\tr = shim_check_range({a.name}, (size_t)({a.range}));\n")
                w("\tif (r)\n\t\treturn shim_end(&c, r);\n")
    n = 0
    for a in ins:
        if a.ann == "str":
            w(f"\tiov[{n}].iov_base = (void *){a.name};\n\tiov[{n}].iov_len = a.{a.name}_len;\n")
        else:
            w(f"\tif (!{a.name} && {a.len})\n\t\treturn shim_end(&c, CUDA_ERROR_INVALID_VALUE);\n")
            w(f"\tiov[{n}].iov_base = (void *){a.name};\n\tiov[{n}].iov_len = {a.len};\n")
        n += 1
    for a in news:
        w(f"\tn_{a.name} = shim_obj_new(GL_H_{a.handle});\n")
        w(f"\tif (!n_{a.name})\n\t\treturn shim_end(&c, CUDA_ERROR_OUT_OF_MEMORY);\n")
        w(f"\ta.{a.name} = n_{a.name}->id;\n")
    ob = outbufs[0] if outbufs else None
    if len(outbufs) > 1:
        raise SystemExit(f"{f.where}: one out buffer at most")
    w(f"\tc.args = &a;\n\tc.args_len = sizeof(a);\n\tc.iov = iov;\n\tc.niov = {n};\n")
    w(f"\tc.out = &o;\n\tc.out_len = sizeof(o);\n")
    if ob:
        w(f"\tc.outbuf = {ob.name};\n\tc.outbuf_len = {ob.len};\n")
    w("\tr = shim_call(&c);\n")
    for a in news:
        w(f"\tif (r && c.waited) {{\n\t\tshim_obj_put(n_{a.name});\n\t}} else {{\n")
        w(f"\t\tshim_obj_created(n_{a.name});\n\t\t*{a.name} = ({a.base})n_{a.name};\n\t}}\n")
    for a in dels:
        w(f"\tif (!r || !c.waited)\n\t\tshim_obj_put(d_{a.name});\n")
    copy_outs(w, outs, lambda a: f"*{a.name} = ({a.base})o.{a.name};",
              f"shim_memo_put(GL_FN_{f.name}, &a, sizeof(a), &o, sizeof(o));" if once else None)
    w("\treturn shim_end(&c, r);\n")


def gen_shim(funcs, allsyms, out):
    w = generated(out)
    w('#include "shim.h"\n\n')
    w("#define GL_EXPORT __attribute__((visibility(\"default\")))\n\n")
    mine = set()
    for f in funcs:
        if f.internal:
            continue
        pt = ", int per_thread" if f.variants else ""
        if f.S:
            w(f"CUresult shim_{f.name}({params(f)}{pt});\n")
        else:
            w(f"static CUresult gl_impl_{f.name}({params(f)}{pt})\n{{\n")
            shim_generated_body(f, w)
            w("}\n")
        impl = f"shim_{f.name}" if f.S else f"gl_impl_{f.name}"
        for sym, ver, kind in f.syms:
            mine.add(sym)
            w(f"GL_EXPORT CUresult gl_x_{sym}({params(f)}) __asm__(\"{sym}\");\n")
            w(f"CUresult gl_x_{sym}({params(f)})\n{{\n")
            call = argnames(f)
            if f.variants:
                call = (call + ", " if call else "") + ("1" if kind else "0")
            w(f"\tCUresult r = {impl}({call});\n\n")
            w(f"\tif (__builtin_expect(r != CUDA_SUCCESS, 0) && shim_trace)\n")
            w(f"\t\tshim_trace_error(\"{sym}\", r);\n\treturn r;\n}}\n\n")
    w("/* Exported so that programs link and load; each says once that it is missing. */\n")
    unsupported = [s for s in allsyms if s not in mine]
    for i, s in enumerate(unsupported):
        w(f"GL_EXPORT CUresult gl_x_{s}(void) __asm__(\"{s}\");\n")
        w(f"CUresult gl_x_{s}(void)\n{{\n\treturn shim_unsupported({i}, \"{s}\");\n}}\n")
    w(f"\nconst unsigned int shim_unsupported_count = {len(unsupported)};\n")
    w(f"unsigned char shim_unsupported_said[{max(len(unsupported), 1)}];\n\n")
    # cuGetProcAddress map, sorted by base name then version.
    rows = []
    for f in funcs:
        for sym, ver, kind in f.syms:
            flag = "SHIM_PA_PT" if kind else "0"
            rows.append((base_name(sym), ver, flag, sym))
    # What Gleam lacks is still found, as the driver finds every symbol it
    # exports: a library that asks for it at start then loads, and a call
    # says which function it was and fails.  Implemented entries win at
    # every version they cover (version 0 loses to any of them).
    for s in unsupported:
        pt = re.search(r"_(ptds|ptsz)$", s)
        rows.append((base_name(s), 0, "SHIM_PA_PT" if pt else "0", s))
    rows.sort()
    w("const struct shim_procaddr shim_procaddr_table[] = {\n")
    for b, ver, flag, sym in rows:
        w(f'\t{{ "{b}", {ver}, {flag}, (void *)gl_x_{sym} }},\n')
    w("};\n")
    w(f"const unsigned int shim_procaddr_count = {len(rows)};\n")
    return mine


def gen_map(allsyms, funcs, out):
    syms = set(allsyms)
    for f in funcs:
        for sym, _, _ in f.syms:
            syms.add(sym)
    out.write("/* Generated from uapi/api.tbl: libcuda.so.1 exports the driver API only. */\n{\n\tglobal:\n")
    for s in sorted(syms):
        out.write(f"\t\t{s};\n")
    out.write("\tlocal:\n\t\t*;\n};\n")


# A buffer argument in the worker: its variable's type, and how it is
# taken from the record (a string must not be empty; a buffer may).
WORKER_BUFS = {
    "str": ("const char *", "wk_str(k, a->{})"),
    "inbuf": ("const void *", "wk_data(k, a->{})"),
    "outbuf": ("void *", "wk_reply_data(k, a->{})"),
}


def is_device(a):
    """A device ordinal the record carries (not one the reply returns)."""
    return a.base == "CUdevice" and not a.ptr and a.ann is None


def worker_body(f, w):
    w(f"static CUresult wk_gen_{f.name}(struct wk_call *k)\n{{\n")
    w(f"\tconst struct gl_a_{f.name} *a;\n")
    outs = [a for a in f.args if a.ann == "out"]
    if outs:
        w(f"\tstruct gl_r_{f.name} *o;\n")
    for a in f.args:
        if a.ann in ("out",):
            w(f"\t{a.base} v_{a.name} = 0;\n")
        elif a.ann == "new":
            w(f"\t{a.base} v_{a.name} = NULL;\n")
        elif a.handle:
            w(f"\t{a.base} v_{a.name};\n")
        elif a.ann in WORKER_BUFS:
            w(f"\t{WORKER_BUFS[a.ann][0]}v_{a.name};\n")
        elif is_device(a):
            w(f"\tint v_{a.name};\n")
    w("\tCUresult r;\n\n")
    w(f"\ta = wk_args(k, sizeof(*a));\n\tif (!a)\n\t\treturn CUDA_ERROR_INVALID_VALUE;\n")
    for a in f.args:
        if a.ann == "new" and not a.renew:
            # An id already in use would leak what it names: refused.
            w(f"\tif (wk_handle_taken(k->w, a->{a.name}))\n\t\treturn CUDA_ERROR_INVALID_VALUE;\n")
        elif a.ann == "new":
            # Mapped again only over what an earlier renewal mapped.
            w(f"\tif (!wk_handle_renew_ok(k->w, GL_H_{a.handle}, a->{a.name}))\n"
              "\t\treturn CUDA_ERROR_INVALID_VALUE;\n")
    if outs:
        w(f"\to = wk_reply_struct(k, sizeof(*o));\n\tif (!o)\n\t\treturn CUDA_ERROR_OUT_OF_MEMORY;\n")
    for a in f.args:
        if a.ann in ("out", "new"):
            continue
        if a.ann == "del" or a.handle:
            if a.handle == "STREAM":
                w(f"\tr = wk_stream(k->w, a->{a.name}, &v_{a.name});\n")
            else:
                w(f"\tr = wk_handle(k->w, GL_H_{a.handle}, a->{a.name}, (void **)&v_{a.name});\n")
            w("\tif (r)\n\t\treturn r;\n")
        elif a.ann in WORKER_BUFS:
            _, get = WORKER_BUFS[a.ann]
            if a.ann == "str":
                get, empty = get.format(f"{a.name}_len"), ""
            else:
                get, empty = get.format(a.len), f" && a->{a.len}"
            w(f"\tv_{a.name} = {get};\n\tif (!v_{a.name}{empty})\n\t\treturn CUDA_ERROR_INVALID_VALUE;\n")
        elif is_device(a):
            # The session's numbering, over all its servers, to the backend's.
            w(f"\tv_{a.name} = wk_dev_local(a->{a.name});\n\tif (v_{a.name} < 0)\n"
              "\t\treturn CUDA_ERROR_INVALID_DEVICE;\n")
    call = []
    for a in f.args:
        if a.ann in ("out", "new"):
            call.append(f"&v_{a.name}")
        elif a.ann in ("del", "str", "inbuf", "outbuf") or a.handle or is_device(a):
            call.append(f"v_{a.name}")
        else:
            call.append(f"({a.ctype})a->{a.name}")
    w(f"\tr = k->w->be->op.f_{f.name}({', '.join(call)});\n")
    for a in f.args:
        if a.ann == "new":
            w(f"\twk_handle_{'renewed' if a.renew else 'new'}(k->w, GL_H_{a.handle}, a->{a.name}, "
              f"v_{a.name}, r);\n")
        if a.ann == "del":
            w(f"\tif (!r)\n\t\twk_handle_del(k->w, GL_H_{a.handle}, a->{a.name});\n")
    copy_outs(w, outs, lambda a: f"o->{a.name} = v_{a.name};")
    w("\treturn r;\n}\n\n")


def gen_worker(funcs, out):
    w = generated(out)
    w('#include "worker.h"\n\n')
    for f in remote(funcs):
        if f.W:
            w(f"CUresult wk_{f.name}(struct wk_call *k);\n")
        else:
            worker_body(f, w)
    w("const wk_handler_fn wk_handlers[GL_FN_LIMIT] = {\n")
    for f in remote(funcs):
        w(f"\t[GL_FN_{f.name}] = {'wk_' if f.W else 'wk_gen_'}{f.name},\n")
    w("};\n")


def gen_backend(funcs, out):
    w = generated(out)
    w("#ifndef GLEAM_BACKEND_GEN_H\n#define GLEAM_BACKEND_GEN_H\n\n")
    w("/* Every function a replay backend provides, with the table's prototype. */\n")
    w("struct gl_backend_ops {\n")
    for f in backend(funcs):
        w(f"\tCUresult (*f_{f.name})({params(f)});\n")
    w("};\n\n")
    w("/* GL_BACKEND_FUNCS(X): X(name, driver symbol) for each of them. */\n")
    w("#define GL_BACKEND_FUNCS(X) \\\n")
    for f in backend(funcs):
        w(f"\tX({f.name}, \"{f.syms[0][0]}\") \\\n")
    w("\t/* end */\n\n")
    for f in backend(funcs):
        w(f"CUresult sim_{f.name}({params(f)});\n")
    w("\n#endif\n")


def gen_sim_stubs(funcs, out):
    """Weak sim_ functions: the sim's own definitions (broker/sim_*.c) replace them."""
    w = out.write
    w("/* Generated from uapi/api.tbl by tools/gen-api.py: do not edit. */\n")
    w("/*\n * Each remote function the sim backend does not implement answers\n"
      " * CUDA_ERROR_NOT_SUPPORTED and names itself once on stderr.\n */\n")
    w('#include <cuda.h>\n#include "gleam_api_gen.h"\n#include "backend_gen.h"\n\n')
    w("CUresult sim_unsupported(unsigned int fn);\n\n")
    for f in backend(funcs):
        w(f"__attribute__((weak)) CUresult sim_{f.name}({params(f)})\n")
        w(f"{{\n\treturn sim_unsupported(GL_FN_{f.name});\n}}\n\n")


def gen_errors(cuda_h, out):
    """CUresult names, read from the toolkit's cuda.h."""
    text = open(cuda_h).read()
    m = re.search(r"typedef enum cudaError_enum \{(.*?)\} CUresult;", text, re.S)
    if not m:
        raise SystemExit(f"{cuda_h}: no CUresult enum")
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    out.write("/* Generated from cuda.h by tools/gen-api.py: do not edit. */\n")
    out.write('#include "shim.h"\n\nconst struct shim_errname shim_errnames[] = {\n')
    n = 0
    for name, val in re.findall(r"(CUDA_\w+)\s*=\s*(\d+)", body):
        out.write(f'\t{{ {val}, "{name}" }},\n')
        n += 1
    out.write(f"}};\nconst unsigned int shim_nerrnames = {n};\n")


def main():
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__)
    table, symfile, outdir = sys.argv[1:4]
    funcs = parse(table)
    allsyms = [s.strip() for s in open(symfile) if s.strip()]
    known = set(allsyms)
    for f in funcs:
        for sym, _, _ in f.syms:
            if sym not in known:
                raise SystemExit(f"{f.where}: {sym} is not a driver symbol ({symfile})")
    os.makedirs(outdir, exist_ok=True)

    def emit(name, fn, *a):
        tmp = os.path.join(outdir, name + ".tmp")
        with open(tmp, "w") as o:
            fn(*a, o)
        os.replace(tmp, os.path.join(outdir, name))

    emit("gleam_api_gen.h", gen_header, funcs)
    emit("api_gen.c", gen_tables, funcs)
    emit("shim_gen.c", gen_shim, funcs, allsyms)
    emit("libcuda.map", gen_map, allsyms, funcs)
    emit("worker_gen.c", gen_worker, funcs)
    emit("backend_gen.h", gen_backend, funcs)
    emit("sim_stubs_gen.c", gen_sim_stubs, funcs)
    if len(sys.argv) == 5:
        emit("errors_gen.c", gen_errors, sys.argv[4])


if __name__ == "__main__":
    main()
