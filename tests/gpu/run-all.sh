#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# On the GPU machine, from a build made elsewhere: the whole GPU test suite
# (gpu-check: every test program directly and through Gleam, in both modes;
# torch-check: cuBLAS programs and PyTorch workloads the same way),
# a check that the driver printed what tests/programs/expected/ says (what
# CI's sim runs are compared with), and the benchmarks.  Ends with a short
# table.  Logs and results go to $OUT (default build/gpu).
#
# GLEAM_GPU_DEADLINE (seconds) leaves out the parts that would begin
# later.  GLEAM_GPU_PARTS chooses parts (default all): gpu-check bytes occupancy torch
# jax twogpu cudart visible nvml cache resume silent outage kill probe tls bench.  GLEAM_SKIP_BENCH=1
# leaves the benchmarks out.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-build}
OUT=${OUT:-$BUILD/gpu}
mkdir -p "$OUT"
export BUILD

nvidia-smi -L || { echo "SKIP: no NVIDIA GPU"; exit 77; }
PARTS=${GLEAM_GPU_PARTS:-gpu-check bytes occupancy torch jax twogpu cudart visible nvml cache resume silent outage kill probe tls bench}
[ "${GLEAM_SKIP_BENCH:-0}" = 1 ] && PARTS=${PARTS/bench/}
# GLEAM_GPU_DEADLINE: seconds this script may take; a part not begun by
# then is left out, and the table says so.
DEADLINE=${GLEAM_GPU_DEADLINE:-0}
late=""
begun=""
part() {
	case " $begun " in *" $1 "*) return 0 ;; esac
	case " $PARTS " in *" $1 "*) ;; *) return 1 ;; esac
	if [ "$DEADLINE" -eq 0 ] || [ $SECONDS -lt "$DEADLINE" ]; then
		begun="$begun $1"
		return 0
	fi
	late="$late $1"
	PARTS=${PARTS/$1/}
	return 1
}
# A part not run: its verdict says so, and does not fail the run.
check_rc=0 bytes_rc=0 occ_rc=0 torch_rc=0 jax_rc=0 split_rc=0 vis_fail=0 nvml_rc=0 tls_rc=0 cache_rc=0 resume_rc=0 silent_rc=0 outage_rc=0 kill_rc=0 bench_rc=0 cudart_fail=0 expect_fail=0
torch_res=skipped
mem_before=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1)

# torch-check.sh runs below, in a section of its own.
if part gpu-check; then
	GLEAM_SKIP_TORCH=1 OUT=$OUT/gpu-check tests/gpu/gpu-check.sh "$@" >"$OUT/gpu-check.log" 2>&1
	check_rc=$?
fi

# Large copies through plain TCP, stripes, copy threads and DMA from the
# record ring, and over TLS, run after run: every byte checked
# (tests/gpu/bytes.sh).
if part bytes; then
	OUT=$OUT/bytes GLEAM_BYTES_VARIANTS=${GLEAM_BYTES_VARIANTS:-"defaults||| tls|||"} \
		tests/gpu/bytes.sh >"$OUT/bytes.log" 2>&1
	bytes_rc=$?
fi

# Gleam's reading of module images and its occupancy rules against the
# driver's answers, over the test kernels and the libraries' kernels.
if part occupancy; then
	OUT=$OUT/occupancy tests/gpu/occupancy.sh >"$OUT/occupancy.log" 2>&1
	occ_rc=$?
fi

# cuBLAS programs and PyTorch workloads, directly and through Gleam, with
# bitwise identical results (before LD_LIBRARY_PATH gets the toolkit's
# libraries below: PyTorch loads its own).  PyTorch's rows are skipped
# where python3 cannot import torch.
part torch && { OUT=$OUT/torch-check tests/gpu/torch-check.sh >"$OUT/torch-check.log" 2>&1
torch_rc=$?; }
if ! part torch; then
	:
elif [ $torch_rc -eq 0 ] && grep -q '^SKIP: .*cannot import torch' "$OUT/torch-check.log"; then
	torch_res="PASS (cuBLAS; PyTorch skipped: python3 has no torch)"
elif [ $torch_rc -eq 0 ]; then
	torch_res=PASS
elif [ $torch_rc -eq 77 ]; then
	torch_res="SKIP ($(grep -m1 '^SKIP' "$OUT/torch-check.log"))"
else
	torch_res="FAIL ($(grep -c '^FAIL' "$OUT/torch-check.log"))"
fi

for exp in tests/programs/expected/*.out; do
	name=$(basename "$exp" .out)
	got=$OUT/gpu-check/direct/$name.out
	[ -f "$got" ] || continue
	# memops runs with a larger size there than its default.
	[ "$name" = memops ] && continue
	# A program that needs more GPUs than the machine has says SKIP (twogpus
	# on one GPU): nothing of the driver's to compare.
	if head -n 1 "$got" | grep -q '^SKIP:'; then
		echo "expected/$name.out not compared: $(head -n 1 "$got")" >>"$OUT/expected.log"
		continue
	fi
	# occupancy adds what depends on the GPU's size there.
	if [ "$name" = occupancy ]; then
		sed '/^-- device-specific$/,$d' "$got" >"$got.portable"
		got=$got.portable
	fi
	if ! cmp -s "$exp" "$got"; then
		echo "expected/$name.out differs from what NVIDIA's driver printed:" >>"$OUT/expected.log"
		diff "$exp" "$got" >>"$OUT/expected.log"
		expect_fail=$((expect_fail + 1))
	fi
done

# Unmodified CUDA runtime programs (static and shared cudart): directly,
# and through Gleam in both modes, with the same output.
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}${CUDA:-/usr/local/cuda}/lib64
cudart_rows=""
mkdir -p "$OUT/cudart"
part cudart || cudart_rows="(skipped)
"
for bin in "$BUILD"/tests/cudart/*; do
	part cudart || break
	prog=$(basename "$bin")
	[ -f "$bin" ] && [ -x "$bin" ] || continue
	timeout 300 "$bin" >"$OUT/cudart/$prog.direct" 2>&1
	d=$?
	timeout 300 "$BUILD/bin/gleam-run" "$bin" >"$OUT/cudart/$prog.gleam" 2>&1
	g=$?
	GLEAM_ASYNC=0 timeout 300 "$BUILD/bin/gleam-run" "$bin" >"$OUT/cudart/$prog.sync" 2>&1
	y=$?
	res=PASS
	if [ $d -ne 0 ] || [ $g -ne $d ] || [ $y -ne $d ] ||
		! cmp -s "$OUT/cudart/$prog.direct" "$OUT/cudart/$prog.gleam" ||
		! cmp -s "$OUT/cudart/$prog.direct" "$OUT/cudart/$prog.sync"; then
		res=FAIL
		cudart_fail=$((cudart_fail + 1))
	fi
	cudart_rows="$cudart_rows$(printf '%-16s %6s %6s %10s  %s' "$prog" $d $g $y $res)
"
done

cp /run/gleam/*.log "$OUT/" 2>/dev/null

# CUDA_VISIBLE_DEVICES: devinfo directly and through Gleam with each value
# (an index, the GPU's UUID, one past the GPUs, an empty list), the same
# exit status and the same devices.
vis_rows=""
if part visible; then
	uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -n 1)
	mkdir -p "$OUT/visible"
	n=0
	for v in 0 "$uuid" "0,0" 9 ""; do
		n=$((n + 1))
		CUDA_VISIBLE_DEVICES=$v timeout 120 "$BUILD/tests/programs/devinfo" \
			>"$OUT/visible/$n.direct" 2>/dev/null
		d=$?
		CUDA_VISIBLE_DEVICES=$v timeout 120 "$BUILD/bin/gleam-run" "$BUILD/tests/programs/devinfo" \
			>"$OUT/visible/$n.gleam" 2>"$OUT/visible/$n.err"
		g=$?
		res=PASS
		if [ $d -ne $g ] || ! cmp -s <(grep -E '^(devices|device )' "$OUT/visible/$n.direct") \
			<(grep -E '^(devices|device )' "$OUT/visible/$n.gleam"); then
			res=FAIL
			vis_fail=$((vis_fail + 1))
		fi
		vis_rows="$vis_rows$(printf '%-44s %6s %6s  %s' "\"$v\"" $d $g $res)
"
	done
fi

# NVIDIA's nvidia-smi through Gleam's libnvidia-ml.so.1 (tests/gpu/nvml-check.sh).
if part nvml; then
	OUT=$OUT/nvml-check timeout 200 tests/gpu/nvml-check.sh >"$OUT/nvml-check.log" 2>&1
	nvml_rc=$?
fi

# Uploads by content with the chunk store in front of the GPU
# (tests/cache/run.sh): every size around the chunk boundaries intact, warm
# runs sending names, the disk tier across a restart, damaged chunks, liars.
if part cache; then
	BACKEND=cuda GLEAM_TEST_LOGS=$OUT/cache timeout 300 tests/cache/run.sh >"$OUT/cache.log" 2>&1
	cache_rc=$?
fi

# Links cut and stalled under programs on the GPU (tests/integration/resume.sh),
# PyTorch's ResNet-50 through a cut link and through a closed one among
# them, with the GPU's memory in use before and after.
resume_mem0=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1)
if part resume; then
	BACKEND=cuda GLEAM_TEST_LOGS=$OUT/resume timeout 420 tests/integration/resume.sh \
		>"$OUT/resume.log" 2>&1
	resume_rc=$?
	sleep 2
fi
# A link gone silent under a program waiting on the GPU
# (tests/integration/silent.sh): keepalive ends it, nothing hangs.
if part silent; then
	BACKEND=cuda GLEAM_TEST_LOGS=$OUT/silent timeout 200 tests/integration/silent.sh \
		>"$OUT/silent.log" 2>&1
	silent_rc=$?
	sleep 2
fi
# Every way a link dies (closed, reset, refusing, a black hole) for 1 s
# and 10 s under streams of copies and launches on the GPU, and past the
# grace period (tests/integration/outage.sh).
if part outage; then
	BACKEND=cuda GLEAM_TEST_LOGS=$OUT/outage timeout 300 tests/integration/outage.sh \
		>"$OUT/outage.log" 2>&1
	outage_rc=$?
	sleep 2
fi
resume_mem1=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1)

# The program, its worker, the client or the server gleamd killed at seeded
# points (tests/integration/kill.sh): the daemons come back to where they
# started, and so does the GPU's memory in use.
if part kill; then
	KILL_SEEDS=${KILL_SEEDS:-$(seq 1 12)} BACKEND=cuda GLEAM_TEST_LOGS=$OUT/kill timeout 400 \
		tests/integration/kill.sh >"$OUT/kill.log" 2>&1
	kill_rc=$?
	sleep 2
fi
kill_mem1=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1)

# A JAX program (jit of matrix products and reductions), directly and
# through Gleam, with the same results; skipped where python3 has no jax.
jax_res=skipped
if part jax; then
	OUT=$OUT/jax-check tests/gpu/jax-check.sh >"$OUT/jax-check.log" 2>&1
	jax_rc=$?
	case $jax_rc in
	0) jax_res=PASS ;;
	77) jax_res="SKIP ($(grep -m1 '^SKIP' "$OUT/jax-check.log"))" ;;
	*) jax_res=FAIL ;;
	esac
fi

# PyTorch on two GPUs (tests/gpu/torch/split.py): device_count, a tensor
# between cuda:0 and cuda:1, a model split across them; directly and
# through Gleam with CUDA_VISIBLE_DEVICES=0,1, outputs bit for bit the
# same.  Skipped with fewer than two GPUs or no torch.
split_res=skipped
if part twogpu; then
	mkdir -p "$OUT/twogpu"
	CUDA_VISIBLE_DEVICES=0,1 timeout 300 python3 tests/gpu/torch/split.py "$OUT/twogpu/direct.npz" \
		>"$OUT/twogpu/direct.out" 2>&1
	d=$?
	if [ $d -eq 77 ]; then
		split_res="SKIP ($(grep -m1 '^SKIP' "$OUT/twogpu/direct.out"))"
	else
		CUDA_VISIBLE_DEVICES=0,1 timeout 300 "$BUILD/bin/gleam-run" python3 tests/gpu/torch/split.py \
			"$OUT/twogpu/gleam.npz" >"$OUT/twogpu/gleam.out" 2>&1
		g=$?
		if [ $d -eq 0 ] && [ $g -eq 0 ] && python3 tests/gpu/torch/compare.py \
			"$OUT/twogpu/direct.npz" "$OUT/twogpu/gleam.npz" >"$OUT/twogpu/compare.out" 2>&1; then
			split_res=PASS
		else
			split_res="FAIL (direct $d, gleam $g)"
			split_rc=1
		fi
	fi
fi

# What the driver answers in the export-table slots still being learned.
part probe && "$BUILD/bin/gleam-export-probe" >"$OUT/export-probe.log" 2>&1

# What mutual TLS costs against plain TCP, side by side (tools/tls-bench.py).
if part tls; then
	GLEAM_BENCH_TLS_RUNS=${GLEAM_BENCH_TLS_RUNS:-3} timeout 300 python3 tools/tls-bench.py \
		>"$OUT/tls-bench.log" 2>&1
	tls_rc=$?
	cp "$BUILD/bench/tls.json" "$OUT/" 2>/dev/null
fi

if part bench; then
	python3 tools/bench.py >"$OUT/bench.log" 2>&1
	bench_rc=$?
	cp "$BUILD/bench/results.json" "$OUT/" 2>/dev/null
	# Each step's ceiling on this machine (Documentation/design.md), then
	# copies of 16 to 256 MiB each way against one TCP stream beside them.
	"$BUILD/bin/gleam-membench" --cuda >"$OUT/membench.log" 2>&1 || bench_rc=1
	GLEAM_BACKEND=cuda GLEAM_COPY_RUNS=2 GLEAM_COPY_CLIENT_ARGS="--cache off" \
		timeout 300 python3 tools/copy-bench.py >"$OUT/copy-bench.log" 2>&1 || bench_rc=1
	cp "$BUILD/bench/copy.json" "$OUT/" 2>/dev/null
	# The same over mutual TLS (gleam-run's way), against the same plain stream.
	echo "## over TLS (GLEAM_COPY_TLS=1)" >>"$OUT/copy-bench.log"
	GLEAM_BACKEND=cuda GLEAM_COPY_RUNS=2 GLEAM_COPY_TLS=1 GLEAM_COPY_CLIENT_ARGS="--cache off" \
		timeout 300 python3 tools/copy-bench.py >>"$OUT/copy-bench.log" 2>&1 || bench_rc=1
fi
sleep 2
mem_after=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -n 1)

echo "== gpu-check"
sed -n '/^program/,$p' "$OUT/gpu-check.log" 2>/dev/null
grep '^FAIL' "$OUT/gpu-check.log" 2>/dev/null
echo "== large copies byte for byte (bytes.sh, exit $bytes_rc)"
grep -E '^(FAIL|    |[a-z-]+: [0-9]+ of)' "$OUT/bytes.log" 2>/dev/null
echo "== image reading and occupancy against the driver (exit $occ_rc)"
sed -n '/^== kernels/,$p' "$OUT/occupancy.log" 2>/dev/null | grep -E '^(==|names|attributes|parameters|occupancy|dynamic|best|active|cluster|loads)'
echo "== cuBLAS and PyTorch (torch-check, exit $torch_rc)"
sed -n '/^workload/,$p' "$OUT/torch-check.log" 2>/dev/null
grep -E '^(FAIL|SKIP)' "$OUT/torch-check.log" 2>/dev/null
echo "== JAX (jax-check, exit $jax_rc)"
grep -E '^(JAX|PASS|FAIL|SKIP)' "$OUT/jax-check.log" 2>/dev/null
echo "== cudart programs"
printf '%-16s %6s %6s %10s  %s\n' program direct gleam gleam-sync result
printf '%s' "$cudart_rows"
echo "== CUDA_VISIBLE_DEVICES, directly and through Gleam"
printf '%-44s %6s %6s  %s\n' value direct gleam result
printf '%s' "$vis_rows"
echo "== nvidia-smi through Gleam (nvml-check, exit $nvml_rc)"
grep -E '^(ok|FAIL|SKIP|PASS)' "$OUT/nvml-check.log" 2>/dev/null
echo "== TLS against plain (tls-bench, exit $tls_rc)"
sed -n '/^TLS against plain/,$p' "$OUT/tls-bench.log" 2>/dev/null
echo "== expected outputs: $expect_fail differ"
[ -f "$OUT/expected.log" ] && cat "$OUT/expected.log"
echo "== uploads by content on the GPU (exit $cache_rc)"
grep -E '^(ok|FAIL)' "$OUT/cache.log" 2>/dev/null
echo "== links cut under programs on the GPU (exit $resume_rc; GPU memory $resume_mem0 -> $resume_mem1 MiB)"
grep -E '^(ok|FAIL)' "$OUT/resume.log" 2>/dev/null
echo "== a silent link on the GPU (exit $silent_rc)"
grep -E '^(ok|FAIL)' "$OUT/silent.log" 2>/dev/null
echo "== links that die, on the GPU (exit $outage_rc)"
grep -E '^(ok|FAIL)' "$OUT/outage.log" 2>/dev/null
echo "== kills on the GPU (exit $kill_rc; GPU memory $resume_mem1 -> $kill_mem1 MiB)"
grep -E '^(ok|FAIL)' "$OUT/kill.log" 2>/dev/null
echo "== export-table probe"
cat "$OUT/export-probe.log" 2>/dev/null
echo "== bench (exit $bench_rc)"
sed -n '/^workload/,$p' "$OUT/bench.log" 2>/dev/null
cat "$OUT/membench.log" "$OUT/copy-bench.log" 2>/dev/null
[ $bench_rc -ne 0 ] && tail -n 20 "$OUT/bench.log"
echo "== GPU memory used: $mem_before MiB before, $mem_after MiB after"
echo
[ -n "$late" ] && echo "not run, out of time (GLEAM_GPU_DEADLINE=$DEADLINE s):$late"
# part name verdict: the summary line, "skipped" for a part not run.
verdict() { if part "$1"; then echo "$2"; else echo skipped; fi; }
printf '%-22s %s\n' "gpu-check" "$(verdict gpu-check "$([ $check_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "large copies' bytes" "$(verdict bytes "$([ $bytes_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "occupancy, lookups" "$(verdict occupancy "$([ $occ_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "cuBLAS, PyTorch" "$torch_res"
printf '%-22s %s\n' "JAX" "$jax_res"
printf '%-22s %s\n' "PyTorch on two GPUs" "$split_res"
printf '%-22s %s\n' "cudart programs" "$(verdict cudart "$([ $cudart_fail -eq 0 ] && echo PASS || echo "FAIL ($cudart_fail)")")"
printf '%-22s %s\n' "expected outputs" "$(verdict gpu-check "$([ $expect_fail -eq 0 ] && echo PASS || echo "FAIL ($expect_fail)")")"
printf '%-22s %s\n' "CUDA_VISIBLE_DEVICES" "$(verdict visible "$([ $vis_fail -eq 0 ] && echo PASS || echo "FAIL ($vis_fail)")")"
printf '%-22s %s\n' "nvidia-smi (NVML)" "$(verdict nvml "$([ $nvml_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "TLS cost" "$(verdict tls "$([ $tls_rc -eq 0 ] && echo ran || echo FAIL)")"
printf '%-22s %s\n' "uploads by content" "$(verdict cache "$([ $cache_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "cut links" "$(verdict resume "$([ $resume_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "silent link" "$(verdict silent "$([ $silent_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "links that die" "$(verdict outage "$([ $outage_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "kills" "$(verdict kill "$([ $kill_rc -eq 0 ] && echo PASS || echo FAIL)")"
printf '%-22s %s\n' "bench" "$(verdict bench "$([ $bench_rc -eq 0 ] && echo ran || echo FAIL)")"
[ $check_rc -eq 0 ] && [ $bytes_rc -eq 0 ] && [ $occ_rc -eq 0 ] && { [ $torch_rc -eq 0 ] || [ $torch_rc -eq 77 ]; } &&
	{ [ $jax_rc -eq 0 ] || [ $jax_rc -eq 77 ]; } && [ $split_rc -eq 0 ] && [ $vis_fail -eq 0 ] && [ $nvml_rc -eq 0 ] &&
	[ $tls_rc -eq 0 ] && [ $expect_fail -eq 0 ] && [ $cudart_fail -eq 0 ] && [ $bench_rc -eq 0 ] && [ $resume_rc -eq 0 ] && [ $cache_rc -eq 0 ] && [ $silent_rc -eq 0 ] && [ $outage_rc -eq 0 ] && [ $kill_rc -eq 0 ]
