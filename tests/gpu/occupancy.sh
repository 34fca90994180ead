#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# occupancy.sh: on a machine with an NVIDIA GPU, occdiff (tests/gpu/occdiff)
# over the test kernels in every form they ship in, and over the kernels
# of the libraries real programs load: the toolkit's cuBLAS and cuBLASLt,
# and PyTorch's own libraries (libtorch_cuda, its cuBLAS, cuDNN) where
# python3 has torch.  Every difference between the driver's answers and
# Gleam's is printed; the table at the end counts them.
#
# Environment: BUILD, OUT (default $BUILD/occupancy), CUDA, PYTHON,
# OCC_BUDGET (seconds per library; default 45).  Exit 1 on any difference.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/occupancy}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
CUDA=${CUDA:-/usr/local/cuda}
PYTHON=${PYTHON:-python3}
BUDGET=${OCC_BUDGET:-45}
OCC=$BUILD/tests/occdiff/occdiff
K=$BUILD/tests/occdiff
mkdir -p "$OUT"
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no NVIDIA GPU"; exit 77; }
rc=0
summary=""

# run NAME ARGS...: one occdiff run, its summary kept.
run() {
	local name=$1 r
	shift
	timeout $((BUDGET * 3 + 60)) "$OCC" --max-diff 200 "$@" >"$OUT/$name.txt" 2>&1
	r=$?
	[ $r -ne 0 ] && rc=1
	summary="$summary== $name (exit $r)
$(sed -n '/^check /,$p' "$OUT/$name.txt")
"
}

run kernels-occ --occ-every 1 --dump-occ --dump "$OUT/kernels-occ.dump" "$K/kernels-sm90.cubin"
run kernels --occ-every 1 --dump "$OUT/kernels.dump" "$K/kernels-sm90.cubin" \
	"$K/kernels-sm90a.cubin" "$K/kernels-maxreg32.cubin" "$K/kernels-dlcm.cubin" \
	"$K/kernels.fatbin" "$K/kernels.ptx"
run cublas --every 3 --occ-every 24 --budget "$BUDGET" --dump "$OUT/cublas.dump" \
	"$CUDA/lib64/libcublas.so.13"
run cublasLt --fatbin-every 6 --every 5 --occ-every 40 --budget "$BUDGET" \
	"$CUDA/lib64/libcublasLt.so.13"
site=$("$PYTHON" -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))' 2>/dev/null)
if [ -n "$site" ]; then
	run torch --fatbin-every 3 --every 4 --occ-every 40 --budget "$BUDGET" \
		"$site/torch/lib/libtorch_cuda.so"
	libs=$(find "$site/nvidia" -name 'libcublasLt.so*' -o -name 'libcudnn_engines_precompiled.so*' \
		2>/dev/null | sort | head -n 4)
	# shellcheck disable=SC2086
	[ -n "$libs" ] && run torch-libs --fatbin-every 12 --every 6 --occ-every 60 \
		--budget "$BUDGET" $libs
	sha256sum "$CUDA/lib64/libcublas.so.13" "$CUDA/lib64/libcublasLt.so.13" $libs \
		>"$OUT/libs.sha256" 2>/dev/null
else
	summary="${summary}PyTorch's libraries skipped: $PYTHON has no torch
"
fi
printf '%s' "$summary"
exit $rc
