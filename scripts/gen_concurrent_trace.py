#!/usr/bin/env python3
"""XLA's own trace of a GPT block whose thunks XLA:CPU runs on several threads at once.

Writes tests/data/gpt_block/after_optimizations.hlo and xla_cpu_trace.json.gz (5 runs after
3 warm-up runs), and prints jax's wall time per call, measured around block_until_ready in
the same runs, to set beside `fusescope xla-trace`'s latencies.

Usage: scripts/gen_concurrent_trace.py [OUT_FOLDER]   (needs jax on CPU)
"""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEQ, WIDTH, HEADS, HIDDEN = 256, 512, 8, 1024
RUNS = 5


def import_jax():
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import jax

    # Repo-relative source paths, so the module text does not depend on the checkout.
    jax.config.update("jax_hlo_source_file_canonicalization_regex",
                      r"^.*/(?=scripts/gen_concurrent_trace\.py$)")
    return jax


def gpt_block(jax):
    jnp = jax.numpy

    def layer_norm(x, gamma, beta):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta

    def heads(t):
        return t.reshape(SEQ, HEADS, WIDTH // HEADS).transpose(1, 0, 2)

    def block(x, p):
        h = layer_norm(x, p["g1"], p["b1"])
        # Three independent projections: thunks the executor can run at once.
        q, k, v = heads(h @ p["wq"]), heads(h @ p["wk"]), heads(h @ p["wv"])
        scores = q @ k.transpose(0, 2, 1) / (WIDTH // HEADS) ** 0.5
        causal = jnp.tril(jnp.ones((SEQ, SEQ), bool))
        weights = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
        x = x + (weights @ v).transpose(1, 0, 2).reshape(SEQ, WIDTH) @ p["wo"]
        h = layer_norm(x, p["g2"], p["b2"])
        return x + jax.nn.gelu(h @ p["w1"]) @ p["w2"]

    return block


def arguments(jax):
    import numpy as np

    rng = np.random.default_rng(0)

    def weight(*shape):
        return jax.numpy.asarray(rng.standard_normal(shape, dtype=np.float32) * 0.02)

    ones, zeros = jax.numpy.ones(WIDTH), jax.numpy.zeros(WIDTH)
    params = dict(wq=weight(WIDTH, WIDTH), wk=weight(WIDTH, WIDTH), wv=weight(WIDTH, WIDTH),
                  wo=weight(WIDTH, WIDTH), w1=weight(WIDTH, HIDDEN), w2=weight(HIDDEN, WIDTH),
                  g1=ones, b1=zeros, g2=ones, b2=zeros)
    return weight(SEQ, WIDTH), params


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "tests" / "data" / "gpt_block"
    out.mkdir(parents=True, exist_ok=True)
    jax = import_jax()
    x, params = arguments(jax)
    block = jax.jit(gpt_block(jax))
    (out / "after_optimizations.hlo").write_text(block.lower(x, params).compile().as_text())
    for _ in range(3):
        block(x, params).block_until_ready()
    walls = []
    with tempfile.TemporaryDirectory() as folder:
        with jax.profiler.trace(folder, create_perfetto_trace=True):
            for _ in range(RUNS):
                start = time.perf_counter()
                block(x, params).block_until_ready()
                walls.append((time.perf_counter() - start) * 1e6)
        trace = next(Path(folder).rglob("perfetto_trace.json.gz"))
        shutil.copyfile(trace, out / "xla_cpu_trace.json.gz")
    print("jax wall time per call (us), in run order:", " ".join(f"{t:.0f}" for t in walls))
    print(f"median {sorted(walls)[len(walls) // 2]:.0f} us; wrote {out}")


if __name__ == "__main__":
    main()
