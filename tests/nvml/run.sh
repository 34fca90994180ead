#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Gleam's libnvidia-ml.so.1 against the sim: a server (two sim GPUs) and a
# client gleamd on loopback, and tests/nvml/nvml-query loading the library
# as monitoring tools do (dlopen of libnvidia-ml.so.1 through
# LD_LIBRARY_PATH).  What NVML says must be what gleamctl says: the GPUs a
# program would see (as many as its cuDeviceGetCount), their names, UUIDs
# and memory, the memory a running program holds, the program itself among
# the processes; what cannot be known says Not Supported, once; without a
# gleamd, nvmlInit fails with a line that says why.  Ends with
# "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + ($$ + 211) % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/programs
Q=$BUILD/tests/nvml/nvml-query

nvml() {
	LD_LIBRARY_PATH=$BUILD/lib timeout 30 "$Q" "$@"
}
val() {
	sed -n "s/^$1 //p" "$2" | head -n 1
}
info() {
	"$BIN/gleamctl" server-info "127.0.0.1:$PORT" --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
g = d['gpus'][int(sys.argv[1])]
print(g[sys.argv[2]] if sys.argv[2] in g else d[sys.argv[2]])" "$@"
}

# Without a client gleamd: nvmlInit fails, and says where it looked.
if nvml >"$TMP/none.out" 2>"$TMP/none.err"; then
	bad "nvmlInit with no gleamd succeeded"
elif grep -q '^init 9$' "$TMP/none.out" && grep -q "no client gleamd answers at $GLEAM_SOCKET" "$TMP/none.err"; then
	ok "no gleamd: nvmlInit says NVML_ERROR_DRIVER_NOT_LOADED and where it looked"
else
	bad "no gleamd: $(cat "$TMP/none.out" "$TMP/none.err" | tr '\n' ' ')"
fi

export GLEAM_SIM_GPUS=2
start || { bad "daemons start"; echo "$passed passed, $failed failed"; exit 1; }
ok "daemons start (server $PORT, two sim GPUs)"
# The sim measures utilisation from its second tick on: wait until the client has it.
for _ in $(seq 100); do
	"$BIN/gleamctl" stats --json 2>/dev/null | grep -q '"util_measured":true' && break
	sleep 0.1
done

nvml >"$TMP/q.out" 2>"$TMP/q.err"
if [ "$(val init "$TMP/q.out")" != 0 ]; then
	bad "nvmlInit: $(cat "$TMP/q.out" "$TMP/q.err" | tr '\n' ' ')"
else
	ok "nvmlInit through the client gleamd"
fi
# As many GPUs as a program's libcuda.so.1 counts (a two-GPU server: one, the one chosen).
LD_LIBRARY_PATH=$BUILD/lib "$PROGS/devinfo" >"$TMP/devinfo.out" 2>&1
cuda_n=$(grep -c '^device [0-9]*:' "$TMP/devinfo.out")
if [ "$(val count "$TMP/q.out")" = 1 ] && [ "$cuda_n" = 1 ]; then
	ok "nvmlDeviceGetCount_v2: 1, as many as cuDeviceGetCount through Gleam"
else
	bad "device count: NVML $(val count "$TMP/q.out"), CUDA $cuda_n"
fi
name=$(val gpu0.name "$TMP/q.out")
idx=0
[ "$name" = "$(info 1 name)" ] && idx=1
if [ "$name" = "$(info $idx name)" ] && [ "$(val gpu0.mem_total "$TMP/q.out")" = "$(info $idx total_mem)" ] &&
	[ "$(val gpu0.mem2_total "$TMP/q.out")" = "$(info $idx total_mem)" ]; then
	ok "name and total memory are gleamctl's: $name, $(val gpu0.mem_total "$TMP/q.out") bytes"
else
	bad "name/memory: NVML '$name' $(val gpu0.mem_total "$TMP/q.out"), gleamctl '$(info $idx name)' $(info $idx total_mem)"
fi
if [ "$(val gpu0.mem_used "$TMP/q.out")" = "$(info $idx mem_used)" ] &&
	[ $(($(val gpu0.mem_used "$TMP/q.out") + $(val gpu0.mem_free "$TMP/q.out"))) = "$(info $idx total_mem)" ]; then
	ok "memory in use is gleamctl's ($(val gpu0.mem_used "$TMP/q.out")), used + free = total"
else
	bad "memory in use: NVML $(val gpu0.mem_used "$TMP/q.out"), gleamctl $(info $idx mem_used)"
fi
if val gpu0.uuid "$TMP/q.out" | grep -Eq '^GPU-[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$' &&
	[ "$(val gpu0.by_uuid "$TMP/q.out")" = same ] && [ "$(val gpu0.index "$TMP/q.out")" = 0 ]; then
	ok "UUID $(val gpu0.uuid "$TMP/q.out") finds the same device"
else
	bad "UUID: $(val gpu0.uuid "$TMP/q.out") $(val gpu0.by_uuid "$TMP/q.out")"
fi
if [ "$(val gpu0.util "$TMP/q.out")" = 0 ] && [ "$(val cuda_driver "$TMP/q.out")" = "$(info 0 driver_version)" ]; then
	ok "an idle GPU is 0% busy; CUDA driver version $(val cuda_driver "$TMP/q.out") is the server's"
else
	bad "utilisation $(val gpu0.util "$TMP/q.out"), CUDA version $(val cuda_driver "$TMP/q.out")"
fi
if [ "$(val gpu0.temperature "$TMP/q.out")" = "Not Supported" ] && [ "$(val gpu0.bar1 "$TMP/q.out")" = "Not Supported" ] &&
	[ "$(grep -c 'nvmlDeviceGetBAR1MemoryInfo: not supported' "$TMP/q.err")" = 1 ]; then
	ok "what the sim cannot know says Not Supported, and the library says so once"
else
	bad "not supported: $(tr '\n' ' ' <"$TMP/q.err")"
fi
if [ "$(val shutdown "$TMP/q.out")" = 0 ] && [ "$(val after_shutdown "$TMP/q.out")" = Uninitialized ]; then
	ok "nvmlShutdown, then calls say Uninitialized"
else
	bad "shutdown: $(val shutdown "$TMP/q.out") $(val after_shutdown "$TMP/q.out")"
fi

# A program holding 256 MiB: NVML lists it and counts its memory, as gleamctl does.
# Pinned to the GPU NVML shows: a program of another name could be placed
# on the other one (NVML shows where a program of its own name would go).
"$BIN/gleamctl" assign socket "127.0.0.1:$PORT:$idx" >/dev/null 2>&1
LD_LIBRARY_PATH=$BUILD/lib "$PROGS/steady" copy 30 256 >"$TMP/steady.out" 2>&1 &
prog=$!
seen=""
for _ in $(seq 200); do
	kill -0 $prog 2>/dev/null || break
	nvml >"$TMP/busy.out" 2>/dev/null
	grep -q "^gpu0.processes 1 $prog\$" "$TMP/busy.out" &&
		[ "$(val gpu0.mem_used "$TMP/busy.out")" -ge $((256 << 20)) ] && seen=1 && break
	sleep 0.1
done
used=$(info $idx mem_used)
nvml --export >"$TMP/export.out" 2>&1
kill $prog 2>/dev/null
wait $prog 2>/dev/null
if [ -n "$seen" ] && [ "$used" -ge $((256 << 20)) ]; then
	ok "a running program is among the processes, its $(($(val gpu0.mem_used "$TMP/busy.out") >> 20)) MiB in use (gleamctl: $((used >> 20)) MiB)"
else
	bad "running program: $(grep -E 'processes|mem_used' "$TMP/busy.out" | tr '\n' ' '), gleamctl $used; steady: $(tr '\n' ' ' <"$TMP/steady.out" | head -c 300)"
fi
if [ "$(val export.device "$TMP/export.out")" = same ] && [ "$(val export.size "$TMP/export.out")" -gt 648 ] &&
	grep -q "^export.processes 1 $prog:" "$TMP/export.out" && [ "$(val export.other "$TMP/export.out")" = "0 0" ]; then
	ok "nvidia-smi's export table: device 0 by index, the program among its processes"
else
	bad "export table: $(tr '\n' ' ' <"$TMP/export.out")"
fi

# A pin to the other GPU: NVML shows that one, as CUDA will.
other=$((1 - idx))
"$BIN/gleamctl" assign socket "127.0.0.1:$PORT:$other" >/dev/null 2>&1
nvml >"$TMP/pin.out" 2>/dev/null
if [ "$(val gpu0.name "$TMP/pin.out")" = "$(info $other name)" ] && [ "$(val count "$TMP/pin.out")" = 1 ]; then
	ok "pinned to GPU $other: NVML shows $(val gpu0.name "$TMP/pin.out")"
else
	bad "pinned: $(val gpu0.name "$TMP/pin.out")"
fi
"$BIN/gleamctl" assign --clear socket >/dev/null 2>&1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
