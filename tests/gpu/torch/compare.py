#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare.py A B [--workload NAME]: the outputs of two runs of models.py.

Two runs of the same workload on the same GPU with the same libraries, one
directly and one through Gleam, run the same kernels on the same data and
must agree bit for bit: every array in A must be in B with the same dtype,
shape and bytes, and nothing more.  Prints one line per array with its
largest absolute difference, then IDENTICAL, WITHIN TOLERANCE or DIFFERENT.

A workload documented as non-deterministic below gets a tolerance instead.
Exit status: 0 identical (or within a documented tolerance), 1 different,
2 unreadable input, 77 numpy missing.
"""
import argparse
import sys

# Workloads whose results may legitimately differ between two correct runs,
# with the tolerance allowed and why: name -> (rtol, atol, why).
#
# None today.  models.py turns on torch.use_deterministic_algorithms(True)
# (which makes PyTorch refuse any operation without a deterministic
# implementation), cudnn.deterministic with no autotuning, a fixed cuBLAS
# workspace (CUBLAS_WORKSPACE_CONFIG=:4096:8) and no TF32; mlp-train uses
# MSE rather than cross-entropy so that its backward pass has no atomics.
# cuBLAS and cuDNN then give bitwise reproducible results on the same GPU
# model with the same library versions, so any difference between a direct
# run and a Gleam run is something Gleam changed: a kernel that saw other
# data, other launch parameters, or a device attribute or free-memory figure
# that led a library to another algorithm.  Should a workload be added that
# cannot be made deterministic (an op with only an atomic-add kernel, say),
# give it an entry here whose tolerance follows from that op's rounding.
TOLERANCES = {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--workload", default=None,
                    help="the workload both ran (for a documented tolerance)")
    args = ap.parse_args()
    try:
        import numpy as np
    except ImportError as e:
        print("compare.py: numpy is needed (%s)" % e, file=sys.stderr)
        return 77

    runs = []
    for path in (args.a, args.b):
        try:
            with np.load(path, allow_pickle=False) as z:
                runs.append({k: z[k] for k in z.files})
        except (OSError, ValueError) as e:
            print("compare.py: cannot read %s: %s" % (path, e), file=sys.stderr)
            return 2
    a, b = runs
    tol = TOLERANCES.get(args.workload)
    identical = True
    within = True
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b:
            print("%s: only in %s" % (k, args.a if k in a else args.b))
            identical = within = False
            continue
        x, y = a[k], b[k]
        if x.dtype != y.dtype or x.shape != y.shape:
            print("%s: %s %s against %s %s" % (k, x.dtype, x.shape, y.dtype, y.shape))
            identical = within = False
            continue
        bits = (np.ascontiguousarray(x).view(np.uint8).tobytes() ==
                np.ascontiguousarray(y).view(np.uint8).tobytes())
        xd, yd = x.astype(np.float64), y.astype(np.float64)
        # Equal values (infinities too: generation masks scores with -inf)
        # and NaN against NaN differ by nothing; NaN against a number, by NaN.
        equal = (xd == yd) | (np.isnan(xd) & np.isnan(yd))
        with np.errstate(invalid="ignore"):
            diff = np.where(equal, 0.0, np.abs(xd - yd))
        maxdiff = float(diff.max()) if diff.size else 0.0
        if np.isnan(diff).any():
            maxdiff = float("nan")
        ndiff = int(np.count_nonzero(~equal))
        print("%s: %s %s: %s, max abs diff %.6g, %d of %d elements differ" % (
            k, x.dtype, "x".join(map(str, x.shape)) or "scalar",
            "identical bits" if bits else "bits differ", maxdiff, ndiff, x.size))
        if not bits:
            identical = False
            if tol is None or not np.allclose(xd, yd, rtol=tol[0], atol=tol[1], equal_nan=True):
                within = False
    if identical:
        print("IDENTICAL")
        return 0
    if within:
        print("WITHIN TOLERANCE (rtol %g, atol %g: %s)" % (tol[0], tol[1], tol[2]))
        return 0
    print("DIFFERENT")
    return 1


if __name__ == "__main__":
    sys.exit(main())
