#!/usr/bin/env python3
"""Trust check on real jax models that no test uses: are `fusescope run`'s verdicts right?

Five programs written here (a GPT block with RoPE, RMSNorm and SwiGLU; a U-Net block; a scan
RNN, 50 steps 128 wide; a top-2 mixture of experts; the gradient of a cross-entropy loss) are
lowered by jax to HLO, compiled by `fusescope compile`, and run compiled for the CPU
(`fusescope run --device cpu`) three ways:
  1. on XLA's own inputs (the arrays the jax program ran with, `jax.random.normal * 0.02`,
     passed as one .npz with numpy's names): the verdicts, and the max abs error of our
     compiled outputs against XLA's outputs;
  2. on the default seeded inputs (runtime/seeded_inputs.h): the verdicts, none of which may
     be MISMATCH;
  3. on inputs uniform in [-1, 1) (what seeded inputs were before they took their range from
     the graph), passed as an .npz: the verdicts, where a chaotic model must be called
     ill-conditioned, never MISMATCH.
Prints one table; exit status 1 when a verdict is MISMATCH or an error exceeds --atol.

Usage: scripts/check_jax_models.py FUSESCOPE [--work DIR] [--atol 1e-4] [--models a,b]
(run it with the Python of .venv: scripts/setup_python.sh)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def import_jax():
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import jax

    jax.config.update("jax_platforms", "cpu")
    return jax


def normal(jax, key, shape):
    return jax.random.normal(key, shape, dtype="float32") * 0.02


def rms_norm(jnp, x, g):
    return x * jax_rsqrt(jnp, jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6) * g


def jax_rsqrt(jnp, x):
    return 1.0 / jnp.sqrt(x)


def gpt_block(jax):
    """Pre-norm decoder block: RMSNorm, 4-head causal attention with rotary embeddings,
    residual, RMSNorm, SwiGLU feed-forward 256 -> 512 -> 256, residual. 64 tokens."""
    jnp = jax.numpy
    t, d, heads, ff = 64, 256, 4, 512
    hd = d // heads

    def rope(x):
        half = hd // 2
        freq = 1.0 / (10000 ** (jnp.arange(half, dtype=jnp.float32) / half))
        angle = jnp.arange(t, dtype=jnp.float32)[:, None] * freq[None, :]
        cos, sin = jnp.cos(angle)[:, None, :], jnp.sin(angle)[:, None, :]
        x1, x2 = x[..., :half], x[..., half:]
        return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)

    def block(x, g1, wq, wk, wv, wo, g2, w1, w3, w2):
        h = rms_norm(jnp, x, g1)
        q = rope((h @ wq).reshape(t, heads, hd))
        k = rope((h @ wk).reshape(t, heads, hd))
        v = (h @ wv).reshape(t, heads, hd)
        scores = jnp.einsum("qhd,khd->hqk", q, k) / jnp.sqrt(float(hd))
        mask = jnp.tril(jnp.ones((t, t), dtype=bool))
        scores = jnp.where(mask[None], scores, -1e9)
        attn = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(scores, axis=-1), v).reshape(t, d)
        x = x + attn @ wo
        h = rms_norm(jnp, x, g2)
        return x + (jax.nn.silu(h @ w1) * (h @ w3)) @ w2

    keys = jax.random.split(jax.random.PRNGKey(1), 10)
    shapes = [(t, d), (d,), (d, d), (d, d), (d, d), (d, d), (d,), (d, ff), (d, ff), (ff, d)]
    args = [normal(jax, k, s) for k, s in zip(keys, shapes)]
    args[1] = args[1] + 1.0
    args[6] = args[6] + 1.0
    return block, args


def unet_block(jax):
    """NHWC U-Net block: conv 3x3 + group norm + SiLU twice with a residual, a stride-2
    down-sampling conv, nearest up-sampling and a skip concatenation, conv 1x1 out."""
    jnp = jax.numpy
    lax = jax.lax
    n, hw, c = 2, 16, 32

    def conv(x, w, stride=1):
        return lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def group_norm(x, groups=8):
        b, h, w, ch = x.shape
        g = x.reshape(b, h, w, groups, ch // groups)
        mean = g.mean(axis=(1, 2, 4), keepdims=True)
        var = ((g - mean) ** 2).mean(axis=(1, 2, 4), keepdims=True)
        return ((g - mean) * lax.rsqrt(var + 1e-5)).reshape(b, h, w, ch)

    def block(x, w1, w2, wd, w3):
        h = jax.nn.silu(group_norm(conv(x, w1)))
        h = x + jax.nn.silu(group_norm(conv(h, w2)))
        down = jax.nn.silu(conv(h, wd, stride=2))
        up = jnp.repeat(jnp.repeat(down, 2, axis=1), 2, axis=2)
        return conv(jnp.concatenate([h, up], axis=-1), w3)

    keys = jax.random.split(jax.random.PRNGKey(2), 5)
    shapes = [(n, hw, hw, c), (3, 3, c, c), (3, 3, c, c), (3, 3, c, c), (1, 1, 2 * c, c)]
    return block, [normal(jax, k, s) for k, s in zip(keys, shapes)]


def scan_rnn(jax):
    """h <- tanh(x_t @ U + h @ W + b) over 50 steps, 128 wide (lax.scan: a while loop)."""
    jnp = jax.numpy
    steps, batch, inp, hidden = 50, 4, 64, 128

    def rnn(xs, h0, u, w, b):
        def step(h, x):
            h = jnp.tanh(x @ u + h @ w + b)
            return h, h

        return jax.lax.scan(step, h0, xs)[1]

    keys = jax.random.split(jax.random.PRNGKey(3), 5)
    shapes = [(steps, batch, inp), (batch, hidden), (inp, hidden), (hidden, hidden), (hidden,)]
    return rnn, [normal(jax, k, s) for k, s in zip(keys, shapes)]


def moe_top2(jax):
    """A top-2 mixture of 4 expert MLPs over 32 tokens: router softmax over the top two
    logits, every expert applied and combined by the gates (dense dispatch)."""
    jnp = jax.numpy
    tokens, d, ff, experts = 32, 128, 256, 4

    def moe(x, router, w1, w2):
        logits = x @ router
        top, index = jax.lax.top_k(logits, 2)
        gates = jax.nn.softmax(top, axis=-1)
        weights = jnp.sum(jax.nn.one_hot(index, experts) * gates[..., None], axis=1)
        hidden = jax.nn.gelu(jnp.einsum("td,edf->etf", x, w1))
        out = jnp.einsum("etf,efd->etd", hidden, w2)
        return jnp.einsum("te,etd->td", weights, out)

    keys = jax.random.split(jax.random.PRNGKey(4), 4)
    shapes = [(tokens, d), (d, experts), (experts, d, ff), (experts, ff, d)]
    return moe, [normal(jax, k, s) for k, s in zip(keys, shapes)]


def xent_grad(jax):
    """The gradient of a mean cross-entropy loss of a 2-layer MLP (128 -> 256 -> 10) with
    respect to its weights, biases and inputs, over a batch of 16."""
    jnp = jax.numpy

    def loss(params, x, labels):
        w1, b1, w2, b2 = params
        logits = jax.nn.relu(x @ w1 + b1) @ w2 + b2
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))

    def grads(w1, b1, w2, b2, x, labels):
        return jax.grad(loss, argnums=(0, 1))((w1, b1, w2, b2), x, labels)

    keys = jax.random.split(jax.random.PRNGKey(5), 5)
    shapes = [(128, 256), (256,), (256, 10), (10,), (16, 128)]
    args = [normal(jax, k, s) for k, s in zip(keys, shapes)]
    args.append(jax.random.randint(keys[4], (16,), 0, 10, dtype="int32"))
    return grads, args


MODELS = {"gpt_block": gpt_block, "unet_block": unet_block, "scan_rnn": scan_rnn,
          "moe_top2": moe_top2, "xent_grad": xent_grad}


def fusescope(binary, *args):
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr.strip()


def flat_outputs(jax, np, outputs):
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(outputs)]


def verdicts(report):
    return ", ".join(sorted({o.get("verdict", "?") for o in report["outputs"]}))


def check(jax, np, binary, name, work, atol):
    fn, args = MODELS[name](jax)
    folder = work / name
    folder.mkdir(parents=True, exist_ok=True)
    jitted = jax.jit(fn)
    (folder / "model.hlo").write_text(jitted.lower(*args).as_text("hlo"))
    want = flat_outputs(jax, np, jitted(*args))
    np.savez(folder / "xla_inputs.npz", *[np.asarray(a) for a in args])
    rng = np.random.default_rng(0)
    uniform = [rng.uniform(-1, 1, np.shape(a)).astype(np.asarray(a).dtype)
               if np.asarray(a).dtype.kind == "f" else np.asarray(a) for a in args]
    np.savez(folder / "uniform_inputs.npz", *uniform)
    recording = str(folder / "model.fsdb")
    rc, _, err = fusescope(binary, "compile", str(folder / "model.hlo"), "-o", recording)
    if rc != 0:
        return {"model": name, "failure": "compile: " + err}
    row = {"model": name, "params": sum(int(np.size(a)) for a in args)}
    runs = {"xla_inputs": ["--inputs", str(folder / "xla_inputs.npz"), "--save-outputs",
                           str(folder / "ours")],
            "seeded": [], "uniform": ["--inputs", str(folder / "uniform_inputs.npz")]}
    for label, extra in runs.items():
        rc, out, err = fusescope(binary, "run", recording, "--device", "cpu", "--json", *extra)
        if rc not in (0, 1) or not out:
            row[label] = "failed: " + err
            continue
        report = json.loads(out)
        row[label] = verdicts(report)
        row[label + "_to_exact"] = max(o.get("to_exact", 0) for o in report["outputs"])
        row[label + "_original_to_exact"] = max(o.get("original_to_exact", 0)
                                                for o in report["outputs"])
    ours = [np.load(folder / "ours" / f"out_{i:03d}.npy") for i in range(len(want))]
    row["max_abs_err_vs_xla"] = max(float(np.max(np.abs(a.astype(np.float64) -
                                                        b.astype(np.float64))))
                                    for a, b in zip(ours, want))
    row["ok"] = (all("MISMATCH" not in str(row.get(k, "")) and "failed" not in str(row.get(k, ""))
                     for k in runs) and row["max_abs_err_vs_xla"] <= atol)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fusescope")
    parser.add_argument("--work", type=Path)
    parser.add_argument("--atol", type=float, default=1e-4)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    try:
        jax = import_jax()
        import numpy as np
    except ImportError as error:
        print(f"SKIP: jax not importable by {sys.executable} ({error})")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        rows = [check(jax, np, args.fusescope, name, work, args.atol)
                for name in args.models.split(",")]
    print(f"{'model':11} {'params':>8} {'vs XLA (abs)':>12}  {'XLA inputs':22} {'seeded':22} "
          f"{'uniform [-1,1)':28}")
    for row in rows:
        if "failure" in row:
            print(f"{row['model']:11} FAILED {row['failure']}")
            continue
        print(f"{row['model']:11} {row['params']:8} {row['max_abs_err_vs_xla']:12.2e}  "
              f"{row['xla_inputs']:22} {row['seeded']:22} {row['uniform']:28}")
        for label in ("xla_inputs", "seeded", "uniform"):
            if label + "_to_exact" in row:
                print(f"    {label:10} to exact: compiled {row[label + '_to_exact']:.2e}, "
                      f"interpreter {row[label + '_original_to_exact']:.2e}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(row.get("ok") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
