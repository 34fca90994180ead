#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""models.py WORKLOAD OUTFILE [--iters N] [--budget SECONDS]

PyTorch workloads for running unmodified through Gleam and directly, with
results that must agree bit for bit (compare.py).  No downloads: every model
is built from its configuration with random weights from a fixed seed.

Workloads:
  resnet50       torchvision ResNet-50, eval, batch of 4 images of 224x224
  resnet50-b1    ResNet-50, batch of 1 image already on the GPU: each inference
                 runs the model and brings back its 1000 scores (one wait)
  bert           BERT-base (BertModel(BertConfig())), forward of 128 tokens
  gpt2           GPT-2 small (GPT2LMHeadModel(GPT2Config())), forward of 128
                 tokens
  gpt2-generate  GPT-2 small, greedy generation of 32 tokens after a
                 16-token prompt (token ids and the scores of each step)
  mlp-train      one SGD step (momentum) of a 3-layer MLP with MSE loss
                 (the loss and every updated weight)
  cuda-graph     a 3-layer MLP captured once with torch.cuda.graph (after a
                 warm-up on a side stream) and replayed for 8 batches, each
                 copied into the graph's static input first (the 8 outputs)
  mallocasync    cuda-graph under PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync
                 (the stream-ordered allocator and its pool, allocations made
                 inside the graph), with the allocator's statistics read and
                 its cache emptied after every inference

Phases, each timed with the GPU synchronised at its end: importing the
libraries, CUDA's initialisation, building the model on the host,
model.to("cuda"), the first inference (or training step), then the steady
state: up to N more (--iters; --budget stops earlier once that many seconds
have passed, after at least one).  Each inference takes its inputs from the
host and brings its outputs back, as a serving process would.  For the
stateless workloads every steady-state result must equal the first bit for
bit (otherwise comparing runs would mean nothing).

OUTFILE (numpy .npz, written whatever its name) holds the first
inference's outputs.  The last line printed is a JSON object with the
phase times ("seconds" is the steady state's mean per inference).  Where
GLEAM_PHASE_GLEAMCTL names a gleamctl, the object also has "phase_gleam":
what this process's Gleam session counted during the steady state (waits,
records, bytes each way), read with `gleamctl status --json` just before and
after it; tools/bench.py uses it for the floor.

Determinism: fixed seeds, torch.use_deterministic_algorithms(True),
cudnn.deterministic, no cuDNN autotuning, CUBLAS_WORKSPACE_CONFIG=:4096:8
(a fixed cuBLAS workspace per stream, as cuBLAS requires for reproducible
results), TF32 off.  The same GPU, libraries and inputs then run the same
kernels on the same data, directly or through Gleam.

Exit status: 0 done, 1 failure, 2 usage, 77 a needed Python module is
missing (the message names it).
"""
import time

T_START = time.perf_counter()

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

# Before cuBLAS is loaded: a fixed workspace configuration, which
# use_deterministic_algorithms requires of cuBLAS.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

WORKLOADS = ("resnet50", "resnet50-b1", "bert", "gpt2", "gpt2-generate", "mlp-train", "cuda-graph",
             "mallocasync")
DEFAULT_ITERS = {"resnet50": 20, "resnet50-b1": 30, "bert": 20, "gpt2": 20, "gpt2-generate": 3, "mlp-train": 20,
                 "cuda-graph": 10, "mallocasync": 10}
EXIT_MISSING = 77


def missing(module, err):
    print("models.py: Python module %r is needed and could not be imported (%s); "
          "install it for %s" % (module, err, sys.executable), file=sys.stderr)
    sys.exit(EXIT_MISSING)


def need(module):
    try:
        return __import__(module)
    except Exception as e:  # ImportError, or a broken install
        missing(module, "%s: %s" % (type(e).__name__, e))


class Ctx:
    """The imported modules and the device, shared by the workloads."""

    def __init__(self):
        self.np = need("numpy")
        self.torch = need("torch")
        self.dev = None


def deterministic(torch):
    torch.use_deterministic_algorithms(True)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    # No TF32: float32 matrix products and convolutions in float32.  PyTorch
    # 2.9 and later have fp32_precision settings and refuse a mix of those
    # with the older allow_tf32 flags, so only one kind is set.
    if hasattr(torch.backends.cuda.matmul, "fp32_precision"):
        torch.backends.fp32_precision = "ieee"
        torch.backends.cuda.matmul.fp32_precision = "ieee"
        torch.backends.cudnn.fp32_precision = "ieee"
        torch.backends.cudnn.conv.fp32_precision = "ieee"
        torch.backends.cudnn.rnn.fp32_precision = "ieee"
    else:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False


def gen(torch, seed):
    return torch.Generator().manual_seed(seed)


# Each workload: build(ctx) -> (model, run_once, stateless).  model is on the
# host; run_once(first) runs one inference (or step) on the device and
# returns a dict of numpy arrays; with first False it may return less (what
# a steady-state iteration brings back), but every key it returns must also
# be in the first result with the same value when stateless.

def resnet50(ctx, batch):
    """ResNet-50 with weights from seed 0, and a batch of images from seed 1."""
    torch = ctx.torch
    tv = need("torchvision")
    torch.manual_seed(0)
    model = tv.models.resnet50(weights=None).eval()
    return model, torch.randn(batch, 3, 224, 224, generator=gen(torch, 1))


def transformer(ctx, config, model_class, tokens, seed, mask=True):
    """A transformers model (weights from seed 0), and a function that
    brings token ids from seed (and an attention mask of ones) to the
    device, as keyword arguments for the model: each inference calls it."""
    torch = ctx.torch
    tf = need("transformers")
    torch.manual_seed(0)
    cfg = getattr(tf, config)()
    model = getattr(tf, model_class)(cfg).eval()
    inputs = {"input_ids": torch.randint(0, cfg.vocab_size, (1, tokens), generator=gen(torch, seed))}
    if mask:
        inputs["attention_mask"] = torch.ones_like(inputs["input_ids"])
    return cfg, model, lambda: {k: v.to(ctx.dev) for k, v in inputs.items()}


def inference(ctx, model, infer):
    """The entry of a model that only infers: infer(first), whose results
    it returns, runs in inference mode."""
    def run_once(first):
        with ctx.torch.inference_mode():
            return infer(first)

    return model, run_once, True


def build_resnet50(ctx):
    model, x = resnet50(ctx, 4)
    return inference(ctx, model, lambda first: {"logits": model(x.to(ctx.dev)).cpu().numpy()})


def build_resnet50_b1(ctx):
    torch = ctx.torch
    model, x = resnet50(ctx, 1)
    state = {}

    def run_once(first):
        if "x" not in state:
            # Once, before the first inference: the input stays on the GPU.
            state["x"] = x.to(ctx.dev)
        with torch.inference_mode():
            y = model(state["x"])
        return {"logits": y.cpu().numpy()}

    return model, run_once, True


def build_bert(ctx):
    cfg, model, inputs = transformer(ctx, "BertConfig", "BertModel", 128, 2)

    def infer(first):
        out = model(**inputs())
        return {"last_hidden_state": out.last_hidden_state.cpu().numpy(),
                "pooler_output": out.pooler_output.cpu().numpy()}

    return inference(ctx, model, infer)


def build_gpt2(ctx):
    cfg, model, inputs = transformer(ctx, "GPT2Config", "GPT2LMHeadModel", 128, 3, mask=False)

    def infer(first):
        logits = model(**inputs()).logits
        # The next token's scores, what generation needs; the whole
        # 128 x 50257 logits (26 MB) only the first time.
        res = {"last_logits": logits[:, -1, :].cpu().numpy()}
        if first:
            res["logits"] = logits.cpu().numpy()
        return res

    return inference(ctx, model, infer)


def build_gpt2_generate(ctx):
    torch = ctx.torch
    cfg, model, prompt = transformer(ctx, "GPT2Config", "GPT2LMHeadModel", 16, 4)

    def infer(first):
        # min_new_tokens: exactly 32 new tokens even if random weights
        # make the end-of-text token the likeliest.
        out = model.generate(**prompt(), max_new_tokens=32, min_new_tokens=32, do_sample=False,
                             num_beams=1, pad_token_id=cfg.eos_token_id,
                             return_dict_in_generate=True, output_scores=True)
        return {"tokens": out.sequences.cpu().numpy(),
                "scores": torch.stack(out.scores).cpu().numpy()}

    return inference(ctx, model, infer)


def build_mlp_train(ctx):
    torch = ctx.torch
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1024, 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(),
                          nn.Linear(2048, 16))
    g = gen(torch, 5)
    x = torch.randn(256, 1024, generator=g)
    target = torch.randn(256, 16, generator=g)
    state = {}

    def run_once(first):
        if "opt" not in state:
            # After model.to(): the optimiser holds the device's parameters.
            state["opt"] = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        opt = state["opt"]
        opt.zero_grad(set_to_none=True)
        # MSE rather than cross-entropy: its CUDA kernels are deterministic
        # (nll_loss's reduction may use atomics).
        loss = torch.nn.functional.mse_loss(model(x.to(ctx.dev)), target.to(ctx.dev))
        loss.backward()
        opt.step()
        res = {"loss": loss.detach().reshape(1).cpu().numpy()}
        if first:
            with torch.no_grad():
                res["params"] = torch.cat([p.detach().reshape(-1) for p in model.parameters()]
                                          ).cpu().numpy()
        return res

    return model, run_once, False


def build_cuda_graph(ctx, stats=False):
    torch = ctx.torch
    nn = torch.nn
    replays = 8
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.GELU(),
                          nn.Linear(1024, 64)).eval()
    inputs = torch.randn(replays, 64, 512, generator=gen(torch, 6))
    state = {}

    def capture():
        # As torch.cuda.graph's documentation does it: a few iterations on
        # a side stream first (lazy initialisation, the allocator's pools),
        # then one capture whose input and output tensors stay put.
        static_in = torch.zeros(64, 512, device=ctx.dev)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.no_grad(), torch.cuda.stream(side):
            for _ in range(3):
                model(static_in)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.no_grad(), torch.cuda.graph(graph):
            static_out = model(static_in)
        state.update(graph=graph, static_in=static_in, static_out=static_out)

    def run_once(first):
        if "graph" not in state:
            capture()
        outs = []
        for i in range(replays):
            state["static_in"].copy_(inputs[i])
            state["graph"].replay()
            outs.append(state["static_out"].cpu())
        if stats:
            # The pool's figures (cudaMemPoolGetAttribute) and a trim; what
            # they say depends on the GPU, so it is read, not kept.
            torch.cuda.memory_stats()
            torch.cuda.empty_cache()
        return {"outputs": torch.stack(outs).numpy()}

    return model, run_once, True


def build_mallocasync(ctx):
    backend = ctx.torch.cuda.get_allocator_backend()
    if backend != "cudaMallocAsync":
        raise RuntimeError("PyTorch's allocator backend is %r, not cudaMallocAsync" % backend)
    return build_cuda_graph(ctx, stats=True)


BUILDERS = {"resnet50": build_resnet50, "resnet50-b1": build_resnet50_b1, "bert": build_bert, "gpt2": build_gpt2,
            "gpt2-generate": build_gpt2_generate, "mlp-train": build_mlp_train,
            "cuda-graph": build_cuda_graph, "mallocasync": build_mallocasync}


def gleam_counts(gleamctl):
    """This process's Gleam session counters, summed over its sessions."""
    r = subprocess.run([gleamctl, "status", "--json"], capture_output=True, timeout=30)
    if r.returncode:
        raise RuntimeError("gleamctl status --json failed: %s" % r.stderr.decode()[-200:])
    sessions = [s for s in json.loads(r.stdout)["client"]["sessions"] if s.get("pid") == os.getpid()]
    if not sessions:
        raise RuntimeError("gleamctl status shows no session of pid %d" % os.getpid())
    counts = {k: sum(s.get(k, 0) for s in sessions)
              for k in ("waits", "waits_made", "waits_required", "records", "bytes_out",
                        "bytes_in")}
    # What the records and replies carried without framing, where gleamd
    # shows it for live sessions.
    if all("payload" in s for s in sessions):
        counts["payload"] = sum(s["payload"] for s in sessions)
    return counts


def same(np, a, b):
    """Bitwise equality of two arrays (NaNs with the same bits are equal)."""
    return (a.dtype == b.dtype and a.shape == b.shape and
            np.ascontiguousarray(a).view(np.uint8).tobytes() ==
            np.ascontiguousarray(b).view(np.uint8).tobytes())


def main():
    ap = argparse.ArgumentParser(description="PyTorch workloads for Gleam's GPU tests and bench")
    ap.add_argument("workload", choices=WORKLOADS)
    ap.add_argument("outfile", help="where the first result goes (numpy .npz)")
    ap.add_argument("--iters", type=int, default=None,
                    help="steady-state iterations (default: per workload)")
    ap.add_argument("--budget", type=float, default=None,
                    help="stop the steady state after this many seconds (at least one iteration)")
    ap.add_argument("--load-only", action="store_true",
                    help="time model.to(device) alone, print its report and stop")
    ap.add_argument("--weights-seed", type=int, default=None,
                    help="weights drawn from this seed instead of the workload's own "
                         "(bytes no earlier run uploaded: a cold model load)")
    args = ap.parse_args()
    iters = args.iters if args.iters is not None else DEFAULT_ITERS[args.workload]
    if iters < 1:
        ap.error("--iters must be at least 1")
    if args.workload == "mallocasync":
        # PyTorch chooses its allocator's backend once, when it is loaded.
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"

    ctx = Ctx()
    torch, np = ctx.torch, ctx.np
    t_import = time.perf_counter() - T_START
    if not torch.cuda.is_available():
        print("models.py: torch.cuda.is_available() is false: no GPU, or no CUDA driver "
              "(libcuda.so.1) that torch could use", file=sys.stderr)
        return 1
    # A model load computes nothing, so it runs as PyTorch runs by default.
    # Deterministic mode would fill every new CUDA tensor with NaN first
    # (torch.utils.deterministic.fill_uninitialized_memory): a kernel per
    # tensor, after which each synchronisation of the load has to wait.
    if not args.load_only:
        deterministic(torch)
    gleamctl = os.environ.get("GLEAM_PHASE_GLEAMCTL")

    t = time.perf_counter()
    ctx.dev = torch.device("cuda", 0)
    torch.zeros(1, device=ctx.dev)
    torch.cuda.synchronize()
    t_cuda = time.perf_counter() - t
    print("device: %s, torch %s, CUDA %s" % (torch.cuda.get_device_name(0), torch.__version__,
                                            torch.version.cuda), file=sys.stderr)

    t = time.perf_counter()
    model, run_once, stateless = BUILDERS[args.workload](ctx)
    nparams = sum(p.numel() for p in model.parameters())
    if args.weights_seed is not None:
        g = gen(torch, args.weights_seed)
        with torch.no_grad():
            for p in list(model.parameters()) + list(model.buffers()):
                if p.is_floating_point():
                    p.copy_(torch.randn(p.shape, generator=g, dtype=p.dtype) * 0.02)
    nbytes = sum(p.numel() * p.element_size()
                 for p in list(model.parameters()) + list(model.buffers()))
    t_build = time.perf_counter() - t

    t = time.perf_counter()
    model.to(ctx.dev)
    torch.cuda.synchronize()
    # A value read back: proof that the weights are on the device (Gleam's
    # client answers a synchronisation after uploads alone at once).
    float(list(model.parameters())[-1].reshape(-1)[-1])
    t_load = time.perf_counter() - t
    if args.load_only:
        rep = dict(workload=args.workload, device=torch.cuda.get_device_name(0), pid=os.getpid(),
                   torch=torch.__version__, load_s=t_load, seconds=t_load, bytes=nbytes,
                   tensors=len(list(model.parameters())) + len(list(model.buffers())),
                   cuda_init_s=t_cuda, build_s=t_build)
        print("%s: model.to(device) of %d bytes in %.4f s" % (args.workload, nbytes, t_load))
        print(json.dumps(rep, sort_keys=True))
        return 0

    t = time.perf_counter()
    first = run_once(True)
    torch.cuda.synchronize()
    t_first = time.perf_counter() - t

    before = gleam_counts(gleamctl) if gleamctl else None
    # Markers for whoever reads this process's stderr (GLEAM_TRACE_WAITS
    # names each wait there): what lies between them is the steady state.
    print("models.py: steady state begins", file=sys.stderr, flush=True)
    times = []
    mismatch = []
    t_steady = time.perf_counter()
    for i in range(iters):
        t = time.perf_counter()
        res = run_once(False)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
        if stateless:
            mismatch += ["%s (iteration %d)" % (k, i + 1) for k, v in res.items()
                         if not same(np, v, first[k])]
        if args.budget is not None and time.perf_counter() - t_steady >= args.budget:
            break
    print("models.py: steady state ends", file=sys.stderr, flush=True)
    after = gleam_counts(gleamctl) if gleamctl else None

    with open(args.outfile, "wb") as f:
        np.savez(f, **first)
    digest = hashlib.sha256()
    for k in sorted(first):
        digest.update(k.encode())
        digest.update(np.ascontiguousarray(first[k]).view(np.uint8).tobytes())
    summary = ", ".join("%s %s %s" % (k, first[k].dtype, "x".join(map(str, first[k].shape)) or "scalar")
                        for k in sorted(first))
    print("%s: %d parameters; saved %s; sha256 %s" % (args.workload, nparams, summary,
                                                     digest.hexdigest()[:16]))
    if args.workload == "mlp-train":
        print("mlp-train: loss %.9g, sum of updated weights %.17g" %
              (float(first["loss"][0]), float(first["params"].astype(np.float64).sum())))
    elif args.workload == "gpt2-generate":
        print("gpt2-generate: tokens %s" % " ".join(map(str, first["tokens"].reshape(-1))))

    n = len(times)
    mean = sum(times) / n
    srt = sorted(times)
    rep = dict(workload=args.workload, device=torch.cuda.get_device_name(0), pid=os.getpid(),
               torch=torch.__version__, import_s=t_import, cuda_init_s=t_cuda, build_s=t_build,
               load_s=t_load, first_s=t_first, steady_n=n, steady_mean_s=mean,
               steady_median_s=srt[n // 2], steady_min_s=srt[0], seconds=mean,
               total_s=time.perf_counter() - T_START, deterministic_in_process=not mismatch)
    if before is not None:
        rep["phase_gleam"] = {k: after[k] - before[k] for k in after}
        rep["phase_gleam"]["iters"] = n
    print("%s: import %.2f s, CUDA init %.3f s, build %.2f s, load %.3f s, first %.4f s, "
          "steady %.5f s mean of %d (min %.5f)" % (args.workload, t_import, t_cuda, t_build,
                                                   t_load, t_first, mean, n, srt[0]))
    if mismatch:
        print("models.py: %s: a steady-state result differs from the first: %s" %
              (args.workload, ", ".join(mismatch[:5])), file=sys.stderr)
    print(json.dumps(rep, sort_keys=True))
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
