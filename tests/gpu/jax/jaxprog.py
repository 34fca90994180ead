#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""jaxprog.py OUT.npz: a small JAX program on the GPU, for jax-check.sh.

jit-compiled matrix products (float32, bfloat16 in float32 accumulation)
and reductions over inputs from a fixed key, each compiled once and run a
few times; the results go to OUT.npz, and a line per result to stdout with
its shape and dtype (nothing that depends on the run).  JAX finds its
devices through cuInit, cuDeviceGet*, cuMemGetAllocationGranularity and
the virtual memory functions its allocator uses; "platform: gpu" says it
found a GPU.  Exit status: 0 done, 77 when jax (or a GPU for it) is not
there, 1 otherwise.
"""
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jax
        import jax.numpy as jnp
        import numpy as np
    except ImportError as e:
        print("jaxprog.py: cannot import jax: %s" % e, file=sys.stderr)
        return 77
    try:
        devs = jax.devices("gpu")
    except RuntimeError as e:
        print("jaxprog.py: no GPU for JAX: %s" % e, file=sys.stderr)
        return 77
    print("platform: %s, devices: %s" % (devs[0].platform, "at least one" if devs else "none"))

    key = jax.random.PRNGKey(20)
    ka, kb, kc = jax.random.split(key, 3)
    a = jax.random.normal(ka, (512, 384), dtype=jnp.float32)
    b = jax.random.normal(kb, (384, 256), dtype=jnp.float32)
    c = jax.random.uniform(kc, (1 << 20,), dtype=jnp.float32)

    @jax.jit
    def matmul(x, y):
        return jnp.dot(x, y, precision=jax.lax.Precision.HIGHEST)

    @jax.jit
    def matmul_bf16(x, y):
        return jnp.dot(x.astype(jnp.bfloat16), y.astype(jnp.bfloat16),
                       preferred_element_type=jnp.float32)

    @jax.jit
    def reductions(v, m):
        return jnp.sum(v), jnp.max(v), jnp.mean(m, axis=0), jnp.sum(m * m, axis=1)

    out = {}
    for i in range(3):
        p = matmul(a, b)
        q = matmul_bf16(a, b)
        s, mx, mean, rows = reductions(c, p)
        a = a + 0.001 * jnp.tanh(p[:, :384] if p.shape[1] >= 384 else
                                 jnp.pad(p, ((0, 0), (0, 384 - p.shape[1]))))
        out.update({"matmul%d" % i: p, "matmul_bf16_%d" % i: q, "sum%d" % i: s,
                    "max%d" % i: mx, "mean%d" % i: mean, "rows%d" % i: rows})
    out = {k: np.asarray(jax.device_get(v)) for k, v in out.items()}
    for k in sorted(out):
        print("%s: shape %s, %s" % (k, out[k].shape, out[k].dtype))
    np.savez(sys.argv[1], **out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
