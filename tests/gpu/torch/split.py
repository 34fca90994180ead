#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""split.py OUT.npz: PyTorch on two GPUs, for the run through Gleam.

torch.cuda.device_count() must be at least 2 (else it prints a SKIP line
and exits 77).  It moves a tensor from cuda:0 to cuda:1 and back and checks
it bit for bit, then runs a model split across the two devices (the first
half of its layers on cuda:0, the rest on cuda:1, the activations copied
between them) on a fixed input, deterministically, and writes the device
count, the round-tripped tensor and the model's outputs to OUT.npz, which
tests/gpu/torch/compare.py compares with a direct run's.
"""
import os
import sys

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")


def main():
    if len(sys.argv) != 2:
        print("usage: split.py OUT.npz", file=sys.stderr)
        return 2
    try:
        import numpy as np
        import torch
    except ImportError as e:
        print("SKIP: split.py cannot import %s" % e.name)
        return 77

    n = torch.cuda.device_count()
    if n < 2:
        print("SKIP: split.py needs two devices, torch sees %d" % n)
        return 77
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False

    # A tensor there and back.
    x = torch.randn(1 << 20, generator=torch.Generator().manual_seed(1))
    a = x.to("cuda:0")
    b = a.to("cuda:1")
    back = b.to("cuda:0").cpu()
    if not torch.equal(back, x):
        print("FAIL: a tensor moved cuda:0 -> cuda:1 -> cuda:0 came back changed")
        return 1
    print("devices: %d; a tensor moved between cuda:0 and cuda:1: same bits" % n)

    # A model split in two, half its layers on each device.
    width = 1024
    first = torch.nn.Sequential(*[m for _ in range(4) for m in
                                  (torch.nn.Linear(width, width), torch.nn.GELU())])
    second = torch.nn.Sequential(*[m for _ in range(4) for m in
                                   (torch.nn.Linear(width, width), torch.nn.GELU())],
                                 torch.nn.Linear(width, 10))
    first = first.to("cuda:0").eval()
    second = second.to("cuda:1").eval()
    inp = torch.randn(64, width, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        mid = first(inp.to("cuda:0"))
        out = second(mid.to("cuda:1"))
        torch.cuda.synchronize("cuda:0")
        torch.cuda.synchronize("cuda:1")
    print("a model split across cuda:0 and cuda:1: output %s" % (tuple(out.shape),))
    np.savez(sys.argv[1], devices=np.array([n]), moved=back.numpy(),
             mid=mid.cpu().numpy(), logits=out.cpu().numpy())
    return 0


if __name__ == "__main__":
    sys.exit(main())
