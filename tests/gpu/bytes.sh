#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# On the GPU machine: large copies through Gleam arrive byte for byte, run
# after run.  gleam-bwtest (256 MiB, four copies each way, pinned and
# pageable, every byte checked) again and again through a server and a
# client gleamd on loopback with the cuda backend (BACKEND=sim: the sim)
# and plain TCP, so that
# the client's stripes, its copy threads and the worker's DMA from the
# record ring all run.  Prints "ok" or "FAIL" per run, with where the bytes
# went wrong and what took their place; exits 1 if any run was wrong.
#
# GLEAM_BYTES_RUNS: runs per variant (default 8).  GLEAM_BYTES_VARIANTS:
# variants separated by spaces, each NAME|PROGRAM_ENV|CLIENT_ENV|SERVER_ENV
# (default "defaults|||"), for instance
#   "no-dma|||GLEAM_WORKER_DMA=0 no-stripes||GLEAM_STRIPES=0|
#    one-copy-thread|GLEAM_COPY_THREADS=1||"
# to tell which part is at fault.  A variant whose name begins with "tls"
# runs the two gleamd over mutual TLS, as gleam-run's do (credentials made
# for it).  Logs go to $OUT (default build/gpu/bytes).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-build}
BIN=$BUILD/bin
OUT=${OUT:-$BUILD/gpu/bytes}
RUNS=${GLEAM_BYTES_RUNS:-8}
mkdir -p "$OUT"

# BACKEND=sim runs the same on the sim, where no GPU is (the plumbing only).
BACKEND=${BACKEND:-cuda}
[ "$BACKEND" = sim ] || nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no NVIDIA GPU"; exit 77; }
[ -x "$BIN/gleam-bwtest" ] || { echo "FAIL: no $BIN/gleam-bwtest (make all)"; exit 1; }

port=$((24000 + $$ % 2000))
wrong=0
for v in ${GLEAM_BYTES_VARIANTS:-"defaults|||"}; do
	IFS='|' read -r name penv cenv senv <<<"$v"
	tmp=$(mktemp -d)
	port=$((port + 1))
	stls=() ctls=()
	if [ "${name#tls}" != "$name" ]; then
		"$BIN/gleamctl" tls init "$tmp/ca" 127.0.0.1 client >/dev/null ||
			{ echo "FAIL: $name: no credentials"; exit 1; }
		stls=(--tls-cert "$tmp/ca/127.0.0.1.pem") ctls=(--tls-cert "$tmp/ca/client.pem")
	fi
	env $senv "$BIN/gleamd" server --listen 127.0.0.1:$port --backend "$BACKEND" "${stls[@]}" \
		>"$OUT/$name.server.log" 2>&1 &
	spid=$!
	env $cenv "$BIN/gleamd" client --server 127.0.0.1:$port --socket "$tmp/g.sock" "${ctls[@]}" \
		>"$OUT/$name.client.log" 2>&1 &
	cpid=$!
	for _ in $(seq 50); do
		GLEAM_SOCKET=$tmp/g.sock "$BIN/gleamctl" status >/dev/null 2>&1 && break
		sleep 0.1
	done
	bad=0
	for i in $(seq "$RUNS"); do
		log=$OUT/$name.$i.out
		env $penv GLEAM_SOCKET="$tmp/g.sock" LD_LIBRARY_PATH="$BUILD/lib" \
			timeout 120 "$BIN/gleam-bwtest" 256 4 >"$log" 2>&1
		if grep -q '"ok":true}$' "$log"; then
			echo "ok: $name run $i: every byte arrived"
		else
			bad=$((bad + 1))
			echo "FAIL: $name run $i:"
			grep -v 'GB/s\|^{' "$log" | sed 's/^/    /'
		fi
	done
	echo "$name: $bad of $RUNS runs with wrong bytes"
	wrong=$((wrong + bad))
	kill "$cpid" "$spid" 2>/dev/null
	wait "$cpid" "$spid" 2>/dev/null
	rm -rf "$tmp"
done
[ $wrong -eq 0 ]
