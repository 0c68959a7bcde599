#!/usr/bin/env python3
"""Regenerates the real-compiler test data in tests/data from small JAX models.

Everything here is produced by XLA's CPU compiler through the installed jax/jaxlib, so the
files show exactly what the importers meet in the wild: stack-frame tables, `%` sigils or
not, scheduled modules, custom fusions, per-pass dump folders. Shapes are small so the whole
of tests/data stays around a megabyte.

Usage:
  scripts/gen_fixtures.py                 # regenerate tests/data (needs jax on CPU)
  scripts/gen_fixtures.py --check-samples # parse, compile and run resources/samples/*.hlo
                                          # through XLA and compare with JAX references

XLA reads XLA_FLAGS once per process, so the per-pass dump and the multi-device module are
made by re-running this script in a child process with the flags set.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
SAMPLES = REPO / "resources" / "samples"

# Source paths in stack-frame tables become repo-relative, so regenerating on another
# checkout does not change the files.
SOURCE_FILE_STRIP = r"^.*/(?=scripts/gen_fixtures\.py$)"


def import_jax():
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import jax

    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_hlo_source_file_canonicalization_regex", SOURCE_FILE_STRIP)
    return jax


# ----------------------------------------------------------------------------- models


def mlp_model(jax):
    """Batch 8, 64 -> 32 -> 16 -> 10, relu, softmax and mean cross-entropy."""
    jnp = jax.numpy
    sizes = [(64, 32), (32, 16), (16, 10)]

    def mlp(params, x, labels):
        with jax.named_scope("mlp"):
            h = x
            for i, (w, b) in enumerate(params[:-1], start=1):
                with jax.named_scope(f"dense_{i}"):
                    h = jax.nn.relu(h @ w + b)
            w, b = params[-1]
            with jax.named_scope("logits"):
                logits = h @ w + b
            with jax.named_scope("softmax"):
                probs = jax.nn.softmax(logits, axis=-1)
            with jax.named_scope("loss"):
                logp = jax.nn.log_softmax(logits, axis=-1)
                onehot = jax.nn.one_hot(labels, 10, dtype=jnp.float32)
                loss = -jnp.mean(jnp.sum(onehot * logp, axis=-1))
        return probs, loss

    spec = jax.ShapeDtypeStruct
    params = [(spec(s, jnp.float32), spec(s[1:], jnp.float32)) for s in sizes]
    return mlp, (params, spec((8, 64), jnp.float32), spec((8,), jnp.int32))


def attention_model(jax):
    """Post-LN self-attention block: batch 2, seq 16, hidden 32, 2 heads."""
    jnp = jax.numpy
    batch, seq, hidden, heads = 2, 16, 32, 2
    head_dim = hidden // heads

    def split_heads(t):
        return t.reshape(batch, seq, heads, head_dim).transpose(0, 2, 1, 3)

    def attention(x, wq, wk, wv, wo, gamma, beta):
        with jax.named_scope("attention"):
            with jax.named_scope("qkv"):
                q = split_heads(x @ wq)
                k = split_heads(x @ wk)
                v = split_heads(x @ wv)
            with jax.named_scope("scores"):
                s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(jnp.float32(head_dim))
                p = jax.nn.softmax(s, axis=-1)
            with jax.named_scope("context"):
                c = jnp.einsum("bhqk,bhkd->bhqd", p, v)
                c = c.transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
            with jax.named_scope("output"):
                y = c @ wo + x
            with jax.named_scope("layernorm"):
                mean = jnp.mean(y, axis=-1, keepdims=True)
                var = jnp.mean(jnp.square(y - mean), axis=-1, keepdims=True)
                y = (y - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta
        return y

    spec = jax.ShapeDtypeStruct
    w = spec((hidden, hidden), jnp.float32)
    vec = spec((hidden,), jnp.float32)
    return attention, (spec((batch, seq, hidden), jnp.float32), w, w, w, w, vec, vec)


def convnet_model(jax):
    """NHWC 2x16x16x3: conv3x3(8)+relu, maxpool 2x2, conv3x3(16)+relu, global mean, dense 10."""
    jnp = jax.numpy
    lax = jax.lax
    dn = ("NHWC", "HWIO", "NHWC")

    def conv_relu(x, w, b):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn)
        return jax.nn.relu(y + b)

    def convnet(x, w1, b1, w2, b2, wd, bd):
        with jax.named_scope("convnet"):
            with jax.named_scope("conv_1"):
                h = conv_relu(x, w1, b1)
            with jax.named_scope("pool"):
                h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
            with jax.named_scope("conv_2"):
                h = conv_relu(h, w2, b2)
            with jax.named_scope("global_pool"):
                h = jnp.mean(h, axis=(1, 2))
            with jax.named_scope("dense"):
                return h @ wd + bd

    spec = jax.ShapeDtypeStruct
    f32 = jnp.float32
    return convnet, (spec((2, 16, 16, 3), f32), spec((3, 3, 3, 8), f32), spec((8,), f32),
                     spec((3, 3, 8, 16), f32), spec((16,), f32), spec((16, 10), f32),
                     spec((10,), f32))


def control_flow_model(jax):
    """Opcodes the three models lack: while, conditional, sort, gather, scatter, top-k."""
    jnp = jax.numpy
    lax = jax.lax

    def control_flow(x, idx, flag):
        def body(i, acc):
            return acc * 0.5 + jnp.tanh(acc + i.astype(jnp.float32))

        y = lax.fori_loop(0, 3, body, x)
        y = lax.cond(flag > 0, lambda t: t + 1.0, lambda t: t * 2.0, y)
        picked = jnp.take(y, idx, axis=0)
        scattered = jnp.zeros_like(y).at[idx].add(picked)
        top, _ = lax.top_k(scattered, 3)
        return jnp.sort(y, axis=-1), top, lax.dynamic_slice(y, (idx[0], 0), (2, 8))

    spec = jax.ShapeDtypeStruct
    return control_flow, (spec((6, 8), jnp.float32), spec((4,), jnp.int32),
                          spec((), jnp.int32))


MODELS = {
    "mlp": mlp_model,
    "attention": attention_model,
    "convnet": convnet_model,
}

# Models whose per-pass XLA dump is kept in tests/data/xla_dump_<model>.
DUMPED_MODELS = ("mlp", "attention")

# ------------------------------------------------------------------- fusion counting

_COMPUTATION_HEADER = re.compile(r"^(?:ENTRY\s+)?%?([^\s(]+)\s*(?:\(.*\)\s*->\s*.*)?\{\s*$")
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([^\s=]+)\s*=\s*(.*?)\s+([a-z][a-z0-9-]*)\(")
_FUSION = re.compile(r"^\s*(?:ROOT\s+)?%?([^\s=]+)\s*=\s*(.*?)\s+fusion\(")


def split_computations(text):
    """Maps computation name -> list of instruction lines, in file order."""
    computations = {}
    current = None
    for line in text.splitlines():
        if current is None:
            if line.startswith(("HloModule", " ", "\t")) or not line.strip():
                continue
            header = _COMPUTATION_HEADER.match(line)
            if header:
                current = header.group(1)
                computations[current] = []
        elif line.startswith("}"):
            current = None
        elif line.strip():
            computations[current].append(line)
    return computations


def _attribute(line, key):
    match = re.search(r"\b" + key + r"=%?([^\s,}]+)", line)
    return match.group(1) if match else None


def fusion_summary(text):
    """Counts fusion instructions of an HLO module and sizes their fused computations."""
    computations = split_computations(text)
    fusions = []
    for owner, lines in computations.items():
        for line in lines:
            match = _FUSION.match(line)
            if not match:
                continue
            called = _attribute(line, "calls")
            body = computations.get(called, [])
            opcodes = [m.group(3) for m in map(_INSTRUCTION.match, body) if m]
            root = next((_INSTRUCTION.match(l) for l in body if l.lstrip().startswith("ROOT")),
                        None)
            entry = {
                "name": match.group(1),
                "kind": _attribute(line, "kind"),
                "in_computation": owner,
                "calls": called,
                "shape": match.group(2),
                "instructions": len(opcodes),
                "non_parameter_instructions": sum(op != "parameter" for op in opcodes),
                "root_opcode": root.group(3) if root else None,
                "fused_opcodes": sorted(set(opcodes) - {"parameter"}),
            }
            custom = re.search(r'"fusion_config":\{"kind":"([^"]+)"', line)
            if custom:
                entry["custom_fusion_kind"] = custom.group(1)
            entry["origin"] = _fusion_origin(entry)
            fusions.append(entry)
    return {"fusion_count": len(fusions), "by_kind": _tally(fusions, "kind"),
            "by_origin": _tally(fusions, "origin"), "fusions": fusions}


def _fusion_origin(entry):
    """Which XLA CPU pass made the fusion.

    The dot library rewriter makes kCustom fusions before instruction fusion runs, and the
    fusion wrapper later puts every unfused op into a one-op kLoop fusion named wrapped_*, so
    only the rest is what the instruction fusion pass decided.
    """
    if entry["kind"] == "kCustom":
        return "custom"
    if entry["name"].startswith("wrapped_") and entry["non_parameter_instructions"] == 1:
        return "wrapper"
    return "instruction_fusion"


def _tally(fusions, key):
    counts = {}
    for f in fusions:
        counts[f[key]] = counts.get(f[key], 0) + 1
    return dict(sorted(counts.items()))


# ------------------------------------------------------------------------- writers


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text.endswith("\n") else text + "\n")


def export_model(jax, name, out):
    fn, specs = MODELS[name](jax)
    lowered = jax.jit(fn).lower(*specs)
    after = lowered.compile().as_text()
    write(out / name / "before_optimizations.hlo", lowered.as_text("hlo", debug_info=True))
    write(out / name / "before_optimizations.nometa.hlo", lowered.as_text("hlo"))
    write(out / name / "stablehlo.mlir", lowered.as_text(debug_info=True))
    write(out / name / "after_optimizations.hlo", after)
    return after


def export_xla_traces(jax, out, runs=5):
    """XLA's own profile of each model: jax.profiler's Perfetto trace (one event per thunk,
    named after the HLO op of after_optimizations.hlo, args hlo_module/hlo_op/run_id) of
    `runs` runs after warm-up, as <model>/xla_cpu_trace.json.gz."""
    import numpy as np

    rng = np.random.default_rng(0)
    for name in MODELS:
        fn, specs = MODELS[name](jax)
        leaves, tree = jax.tree_util.tree_flatten(specs)
        args = [rng.standard_normal(s.shape).astype(s.dtype) if s.dtype.kind == "f"
                else np.zeros(s.shape, s.dtype) for s in leaves]
        args = jax.tree_util.tree_unflatten(tree, args)
        compiled = jax.jit(fn).lower(*specs).compile()
        for _ in range(3):
            jax.block_until_ready(compiled(*args))
        with tempfile.TemporaryDirectory() as folder:
            with jax.profiler.trace(folder, create_perfetto_trace=True):
                for _ in range(runs):
                    jax.block_until_ready(compiled(*args))
            trace = next(Path(folder).rglob("perfetto_trace.json.gz"))
            shutil.copyfile(trace, out / name / "xla_cpu_trace.json.gz")


def export_control_flow(jax, out):
    fn, specs = control_flow_model(jax)
    lowered = jax.jit(fn).lower(*specs)
    write(out / "variants" / "control_flow.before_optimizations.hlo",
          lowered.as_text("hlo", debug_info=True))
    write(out / "variants" / "control_flow.after_optimizations.hlo",
          lowered.compile().as_text())


# ------------------------------------------------------------------- training steps


def _layer_norm(jnp, lax, x, gamma, beta):
    mean = jnp.mean(x, -1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), -1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def bert_train_step_model(jax, prng_impl):
    """One training step of a small BERT layer: embedding lookup (gather; its gradient is a
    scatter-add), self-attention with dropout, GELU feed-forward with dropout, three layer
    norms, tied output projection, log-softmax loss, backward pass and a momentum update.
    Parameters and momenta are donated, so the module carries input_output_alias. With
    prng_impl="rbg" dropout draws its bits from rng-bit-generator."""
    jnp, lax = jax.numpy, jax.lax
    vocab, hidden, ffn, batch, seq, heads = 50, 32, 64, 2, 8, 2

    def loss_fn(p, tokens, labels, key):
        with jax.named_scope("embed"):
            h = _layer_norm(jnp, lax, p["emb"][tokens], p["g0"], p["b0"])
        with jax.named_scope("attention"):
            d = hidden // heads
            split = lambda t: t.reshape(batch, seq, heads, d)
            q, k, v = split(h @ p["wq"]), split(h @ p["wk"]), split(h @ p["wv"])
            probs = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(d), -1)
            k_attn, k_ffn = jax.random.split(key)
            keep = jax.random.bernoulli(k_attn, 0.9, probs.shape)
            probs = jnp.where(keep, probs / 0.9, 0)
            o = jnp.einsum("bhqk,bkhd->bqhd", probs, v).reshape(batch, seq, hidden) @ p["wo"]
            h = _layer_norm(jnp, lax, h + o, p["g1"], p["b1"])
        with jax.named_scope("ffn"):
            f = jax.nn.gelu(h @ p["w1"] + p["c1"])
            f = jnp.where(jax.random.bernoulli(k_ffn, 0.9, f.shape), f / 0.9, 0)
            h = _layer_norm(jnp, lax, h + f @ p["w2"] + p["c2"], p["g2"], p["b2"])
        with jax.named_scope("loss"):
            logp = jax.nn.log_softmax(h @ p["emb"].T, -1)
            return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], -1))

    def train_step(p, m, tokens, labels, key_data):
        key = jax.random.wrap_key_data(key_data, impl=prng_impl)
        loss, grads = jax.value_and_grad(loss_fn)(p, tokens, labels, key)
        with jax.named_scope("optimizer"):
            m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + g, m, grads)
            p = jax.tree_util.tree_map(lambda p, m: p - 0.01 * m, p, m)
        return p, m, loss

    spec = jax.ShapeDtypeStruct
    shapes = {"emb": (vocab, hidden), "g0": (hidden,), "b0": (hidden,), "wq": (hidden, hidden),
              "wk": (hidden, hidden), "wv": (hidden, hidden), "wo": (hidden, hidden),
              "g1": (hidden,), "b1": (hidden,), "w1": (hidden, ffn), "c1": (ffn,),
              "w2": (ffn, hidden), "c2": (hidden,), "g2": (hidden,), "b2": (hidden,)}
    params = {k: spec(s, jnp.float32) for k, s in shapes.items()}
    key_words = 4 if prng_impl == "rbg" else 2
    tokens = spec((batch, seq), jnp.int32)
    return train_step, (params, params, tokens, tokens, spec((key_words,), jnp.uint32))


def scan_grad_model(jax):
    """Gradient of an RNN unrolled by lax.scan: a while loop forward and one backward."""
    jnp = jax.numpy

    def rnn_loss(xs, w):
        def step(carry, x):
            carry = jnp.tanh(carry @ w + x)
            return carry, carry.sum()
        final, _ = jax.lax.scan(step, jnp.zeros((4, 16)), xs)
        return final.sum()

    spec = jax.ShapeDtypeStruct
    return (jax.value_and_grad(rnn_loss, argnums=1),
            (spec((5, 4, 16), jnp.float32), spec((16, 16), jnp.float32)))


def cond_sort_model(jax):
    """cond and switch (conditional), top_k, and the key/value sort TPU top-k graphs use
    (a variadic, tuple-shaped sort over values and an iota)."""
    jnp, lax = jax.numpy, jax.lax

    def cond_sort(x, flag, branch):
        y = lax.cond(flag, lambda t: jnp.sin(t) * 2, lambda t: jnp.cos(t) + 1, x)
        z = lax.switch(branch, [lambda t: t * 2, lambda t: t - 1, jnp.exp], y)
        iota = lax.broadcasted_iota(jnp.int32, z.shape, 1)
        keys, idx = lax.sort_key_val(-z, iota, dimension=1)
        return lax.top_k(z.reshape(-1), 3), -keys[:, :3], idx[:, :3]

    spec = jax.ShapeDtypeStruct
    return cond_sort, (spec((8, 8), jnp.float32), spec((), jnp.bool_), spec((), jnp.int32))


def decoder_grad_model(jax):
    """Gradient of a small image decoder: dense → two transposed convolutions (their gradients
    are convolutions with lhs dilation), per-channel batch statistics, SiLU, cumsum (a
    reduce-window), log-softmax, take_along_axis (gather) and argmax (a variadic reduce)."""
    jnp, lax = jax.numpy, jax.lax
    dims = ("NHWC", "HWIO", "NHWC")

    def decoder(p, z):
        h = (z @ p["w0"]).reshape(z.shape[0], 4, 4, 8)
        h = lax.conv_transpose(h, p["k1"], (2, 2), "SAME", dimension_numbers=dims)
        mu, var = h.mean(axis=(0, 1, 2)), h.var(axis=(0, 1, 2))
        h = (h - mu) / jnp.sqrt(var + 1e-5) * p["g1"] + p["b1"]
        h = h * jax.nn.sigmoid(h)
        h = lax.conv_transpose(h, p["k2"], (2, 2), "SAME", dimension_numbers=dims)
        logits = jnp.cumsum(h, axis=1).reshape(h.shape[0], -1, h.shape[-1])
        return jax.nn.log_softmax(logits, axis=-1), jnp.argmax(logits, axis=-1)

    def loss(p, z, y):
        log_probs, best = decoder(p, z)
        return -jnp.mean(jnp.take_along_axis(log_probs, y[..., None], axis=-1)), best

    spec, f32 = jax.ShapeDtypeStruct, jnp.float32
    params = {"w0": spec((16, 128), f32), "k1": spec((3, 3, 8, 8), f32), "g1": spec((8,), f32),
              "b1": spec((8,), f32), "k2": spec((3, 3, 8, 5), f32)}
    return (jax.grad(loss, has_aux=True),
            (params, spec((4, 16), f32), spec((4, 256), jnp.int32)))


def export_training(jax, out):
    """Real training-step graphs: what crashed pipelines that only ever saw inference."""
    folder = out / "training"
    cases = {
        "bert_train_step.rbg.hlo": (bert_train_step_model(jax, "rbg"), (0, 1), True),
        "bert_train_step.threefry.nometa.hlo": (bert_train_step_model(jax, "threefry2x32"),
                                                (0, 1), False),
        "scan_grad.hlo": (scan_grad_model(jax), (), True),
        "cond_sort.hlo": (cond_sort_model(jax), (), True),
        "decoder_grad.hlo": (decoder_grad_model(jax), (), True),
    }
    for name, ((fn, specs), donate, debug_info) in cases.items():
        lowered = jax.jit(fn, donate_argnums=donate).lower(*specs)
        write(folder / name, lowered.as_text("hlo", debug_info=debug_info))


def export_print_variants(jax, out):
    """The same compiled module through XLA's other printer settings."""
    from jax._src.lib import xla_client

    hlo = xla_client.hlo
    after = (out / "attention" / "after_optimizations.hlo").read_text()
    module = hlo.hlo_module_from_text(after)
    typed = hlo.HloPrintOptions()
    typed.print_operand_shape = True
    write(out / "variants" / "attention.after_optimizations.typed_operands.hlo",
          module.to_string(typed))
    write(out / "variants" / "attention.after_optimizations.short_parsable.hlo",
          module.to_string(hlo.HloPrintOptions.short_parsable()))
    write(out / "variants" / "attention.after_optimizations.canonical.hlo",
          module.to_string(hlo.HloPrintOptions.canonical()))


def _frame_lines(text):
    """stack_frame_id -> (file, line) from a module's FileNames/FileLocations/StackFrames."""
    tables = {}
    section = None
    for line in text.splitlines():
        if line in ("FileNames", "FunctionNames", "FileLocations", "StackFrames"):
            section = line
            tables[section] = {}
        elif section and re.match(r"^\d+ ", line):
            key, value = line.split(" ", 1)
            tables[section][int(key)] = value
        elif section and not line.strip():
            continue
        else:
            section = None
    files = {k: v.strip('"') for k, v in tables.get("FileNames", {}).items()}
    locations = {}
    for k, v in tables.get("FileLocations", {}).items():
        fields = dict(re.findall(r"(\w+)=(\d+)", v))
        locations[k] = (files[int(fields["file_name_id"])], int(fields["line"]))
    frames = {}
    for k, v in tables.get("StackFrames", {}).items():
        frames[k] = locations[int(re.search(r"file_location_id=(\d+)", v).group(1))]
    return frames


def export_old_metadata(jax, out):
    """The MLP's pre-optimization module in the older metadata style.

    Older JAX/TF emitted source_file/source_line (and TF op_type) in each instruction's
    metadata and no stack-frame tables. The same locations are moved into that form here and
    the module is round-tripped through XLA's parser and printer, so the text is exactly what
    XLA prints for such metadata.
    """
    from jax._src.lib import xla_client

    text = (out / "mlp" / "before_optimizations.hlo").read_text()
    frames = _frame_lines(text)

    def old_style(match):
        op_name = match.group(1)
        frame = match.group(2)
        fields = f'op_type="{op_name.rsplit("/", 1)[-1]}" op_name="{op_name}"'
        if frame:
            source_file, source_line = frames[int(frame)]
            fields += f' source_file="{source_file}" source_line={source_line}'
        return "metadata={" + fields + "}"

    body = text[text.index("\n\n", text.index("StackFrames")):]
    header = text.splitlines()[0]
    body = re.sub(r'metadata=\{op_name="([^"]*)"(?: stack_frame_id=(\d+))?\}', old_style, body)
    module = xla_client.hlo.hlo_module_from_text(header + "\n" + body)
    write(out / "variants" / "mlp.before_optimizations.old_metadata.hlo", module.to_string())


def run_child(mode, out, xla_flags, *extra):
    env = dict(os.environ, XLA_FLAGS=xla_flags, JAX_PLATFORMS="cpu")
    subprocess.run([sys.executable, str(Path(__file__).resolve()), mode, str(out), *extra],
                   env=env, check=True)


def child_dump(out, model):
    """Runs with --xla_dump_to set: compiles one model once, so the dump holds its module."""
    jax = import_jax()
    fn, specs = MODELS[model](jax)
    jax.jit(fn).lower(*specs).compile()


def child_sharded_mlp(out):
    """Runs with 4 forced host devices: the MLP data- and model-parallel over a 2x2 mesh."""
    jax = import_jax()
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    import numpy as np

    fn, (params, x, labels) = mlp_model(jax)
    mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("data", "model"))

    def sharded(spec, pspec):
        return jax.ShapeDtypeStruct(spec.shape, spec.dtype, sharding=NamedSharding(mesh, pspec))

    params = [(sharded(w, P(None, "model")), sharded(b, P("model"))) for w, b in params[:-1]] + [
        (sharded(params[-1][0], P("model", None)), sharded(params[-1][1], P()))]
    lowered = jax.jit(fn).lower(params, sharded(x, P("data", None)), sharded(labels, P("data")))
    write(Path(out) / "sharded_mlp.before_optimizations.hlo",
          lowered.as_text("hlo", debug_info=True))
    write(Path(out) / "sharded_mlp.after_optimizations.hlo", lowered.compile().as_text())


def export_dump(out, model):
    """Keeps only the HLO text files of the model's own module from a real per-pass dump,
    under XLA's own names (no LLVM IR, object files, reports or per-module folder)."""
    target = out / f"xla_dump_{model}"
    with tempfile.TemporaryDirectory() as tmp:
        run_child("_dump", tmp, f"--xla_dump_to={tmp} --xla_dump_hlo_pass_re=.*", model)
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        non_hlo = ("-buffer-assignment", "-buffer-assignment-values", "-live-range",
                   "-memory-usage-report")
        for f in sorted(Path(tmp).glob(f"module_*.jit_{model}.*.txt")):
            if not f.stem.endswith(non_hlo):
                shutil.copy(f, target / f.name)


def export_sharded(out):
    run_child("_sharded_mlp", out / "variants", "--xla_force_host_platform_device_count=4")


def generate(out):
    jax = import_jax()
    import jaxlib

    counts = {"generator": "scripts/gen_fixtures.py", "jax": jax.__version__,
              "jaxlib": jaxlib.__version__, "backend": "cpu", "models": {}}
    for name in MODELS:
        counts["models"][name] = fusion_summary(export_model(jax, name, out))
    export_xla_traces(jax, out)
    export_control_flow(jax, out)
    export_training(jax, out)
    export_print_variants(jax, out)
    export_old_metadata(jax, out)
    export_sharded(out)
    for model in DUMPED_MODELS:
        export_dump(out, model)
    counts["mlp_dump_after_fusion_pass"] = dump_fusion_pass_summary(out / "xla_dump_mlp")
    counts["samples"] = export_sample_compilations(jax, out)
    write(out / "xla_fusion_counts.json", json.dumps(counts, indent=2))
    for name, summary in counts["models"].items():
        print(f"{name}: {summary['fusion_count']} fusions {summary['by_kind']} "
              f"{summary['by_origin']}")


def export_sample_compilations(jax, out):
    """XLA CPU's optimized module for each built-in sample, and its fusion summary.

    The samples reach XLA through its HLO parser and the StableHLO import the CPU client
    compiles from, so instruction names in the output are XLA's own renumbering.
    """
    import jax.extend  # noqa: F401  (registers jax.extend.backend)

    summaries = {}
    for path in sorted(SAMPLES.glob("*.hlo")):
        executable, _ = compile_hlo_text(jax, path.read_text())
        text = executable.hlo_modules()[0].to_string()
        write(out / "samples_xla" / f"{path.stem}.after_optimizations.hlo", text)
        summaries[path.stem] = fusion_summary(text)
    return summaries


def dump_fusion_pass_summary(dump):
    """Fusions right after XLA's instruction fusion pass, with the files around it.

    The module before that pass is the natural input for our own fusion pass; the module
    after it is what to compare against.
    """
    files = sorted(dump.glob("*.txt"))
    after = next(f for f in files if ".after_fusion.before_" in f.name)
    before = files[files.index(after) - 1]
    summary = fusion_summary(after.read_text())
    return {"before_file": before.name, "after_file": after.name, **summary}


# ------------------------------------------------------------------ sample checking


def sample_references(jax):
    """Per sample: (argument shapes, reference function over numpy arrays)."""
    jnp = jax.numpy
    lax = jax.lax

    def mlp(x, w1, b1, w2, b2, w3, b3):
        h = jax.nn.relu(x @ w1 + b1)
        h = jax.nn.relu(h @ w2 + b2)
        return jax.nn.softmax(h @ w3 + b3, axis=-1)

    def layernorm(y, gamma, beta, eps):
        mean = jnp.mean(y, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(y - mean), axis=-1, keepdims=True)
        return (y - mean) * lax.rsqrt(var + eps) * gamma + beta

    def bert(x, wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, bi1, w2, bi2, g2, be2):
        seq, hidden, heads = 128, 256, 4
        hd = hidden // heads

        def heads_of(t):
            return t.reshape(seq, heads, hd).transpose(1, 0, 2)

        q, k, v = heads_of(x @ wq + bq), heads_of(x @ wk + bk), heads_of(x @ wv + bv)
        s = jnp.einsum("hqd,hkd->hqk", q, k) * (1.0 / jnp.sqrt(jnp.float32(hd)))
        p = jax.nn.softmax(s, axis=-1)
        c = jnp.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(seq, hidden)
        y = layernorm(c @ wo + bo + x, g1, be1, 1e-12)
        f = jax.nn.gelu(y @ w1 + bi1, approximate=True)
        return layernorm(f @ w2 + bi2 + y, g2, be2, 1e-12)

    def bn(y, scale, offset, mean, var):
        return (y - mean) * lax.rsqrt(var + 1e-5) * scale + offset

    def resnet(x, w1, s1, o1, m1, v1, w2, s2, o2, m2, v2):
        dn = ("NHWC", "HWIO", "NHWC")
        conv = lambda t, w: lax.conv_general_dilated(t, w, (1, 1), ((1, 1), (1, 1)),
                                                     dimension_numbers=dn)
        h = jax.nn.relu(bn(conv(x, w1), s1, o1, m1, v1))
        h = bn(conv(h, w2), s2, o2, m2, v2)
        return jax.nn.relu(h + x)

    vec = lambda n: (n,)
    bert_shapes = [(128, 256)] + [(256, 256), vec(256)] * 4 + [vec(256), vec(256),
                   (256, 1024), vec(1024), (1024, 256), vec(256), vec(256), vec(256)]
    bn_shapes = [vec(64)] * 4
    return {
        "mlp": ([(32, 784), (784, 256), vec(256), (256, 128), vec(128), (128, 10), vec(10)],
                mlp),
        "bert_encoder": (bert_shapes, bert),
        "resnet_block": ([(8, 16, 16, 64), (3, 3, 64, 64)] + bn_shapes + [(3, 3, 64, 64)]
                         + bn_shapes, resnet),
    }


def compile_hlo_text(jax, text):
    """Parses HLO text with XLA's parser and compiles it for the CPU client."""
    from jax._src.lib import _jax, xla_client

    module = xla_client.hlo.hlo_module_from_text(text)
    computation = xla_client.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    backend = jax.extend.backend.get_backend("cpu")
    devices = backend.local_devices()[:1]
    return backend.compile_and_load(mlir, _jax.DeviceList(tuple(devices)),
                                    _jax.CompileOptions()), devices[0]


def check_samples(samples):
    """Parses, compiles and runs each sample through XLA; compares with the JAX reference."""
    import numpy as np

    jax = import_jax()
    import jax.extend  # noqa: F401  (registers jax.extend.backend)
    from jax._src.lib import xla_client

    failures = 0
    rng = np.random.default_rng(0)
    for name, (shapes, reference) in sample_references(jax).items():
        path = samples / f"{name}.hlo"
        if not path.exists():
            print(f"{name}: MISSING {path}")
            failures += 1
            continue
        text = path.read_text()
        if text.splitlines()[0].split(",")[0] != f"HloModule {name}":
            print(f"{name}: first line must be 'HloModule {name}'")
            failures += 1
            continue
        rootless = [c for c, lines in split_computations(text).items()
                    if sum(l.lstrip().startswith("ROOT ") for l in lines) != 1]
        if rootless:
            print(f"{name}: computations without exactly one ROOT: {', '.join(rootless)}")
            failures += 1
            continue
        # XLA's text parser checks syntax only; shapes are checked when the module is
        # converted and compiled, so both steps count as validation.
        try:
            instructions = sum(len(c.instructions()) for c in
                               xla_client.hlo.hlo_module_from_text(text).computations())
            executable, device = compile_hlo_text(jax, text)
        except Exception as error:  # noqa: BLE001  (XLA raises several types)
            print(f"{name}: INVALID {str(error).strip().splitlines()[0]}")
            failures += 1
            continue
        args = [rng.standard_normal(s).astype(np.float32) * 0.1 for s in shapes]
        if name == "resnet_block":  # batch-norm variances must be positive
            args = [np.abs(a) + 0.5 if i in (5, 10) else a for i, a in enumerate(args)]
        got = np.asarray(executable.execute([jax.device_put(a, device) for a in args])[0])
        want = np.asarray(reference(*args))
        err = float(np.max(np.abs(got - want))) if got.shape == want.shape else float("inf")
        ok = err < 1e-4
        failures += not ok
        print(f"{name}: {'ok' if ok else 'MISMATCH'} output={got.shape} "
              f"max_abs_err={err:.2e} instructions={instructions}")
    return failures


def bert_layer_model(jax):
    """The built-in bert_encoder sample's computation written in jax (one post-LN encoder layer:
    seq 128, hidden 256, 4 heads, GELU feed-forward of 1024) with name scopes, so that its HLO
    carries op names and this file's source lines."""
    jnp, lax = jax.numpy, jax.lax
    seq, hidden, heads, ffn = 128, 256, 4, 1024
    head_dim = hidden // heads

    def heads_of(t):
        return t.reshape(seq, heads, head_dim).transpose(1, 0, 2)

    def layernorm(y, gamma, beta):
        mean = jnp.mean(y, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(y - mean), axis=-1, keepdims=True)
        return (y - mean) * lax.rsqrt(var + 1e-12) * gamma + beta

    def encoder(x, wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, bi1, w2, bi2, g2, be2):
        with jax.named_scope("attention"):
            with jax.named_scope("query"):
                q = heads_of(x @ wq + bq)
            with jax.named_scope("key"):
                k = heads_of(x @ wk + bk)
            with jax.named_scope("value"):
                v = heads_of(x @ wv + bv)
            with jax.named_scope("scores"):
                s = jnp.einsum("hqd,hkd->hqk", q, k) * (1.0 / jnp.sqrt(jnp.float32(head_dim)))
                p = jax.nn.softmax(s, axis=-1)
            with jax.named_scope("context"):
                c = jnp.einsum("hqk,hkd->hqd", p, v).transpose(1, 0, 2).reshape(seq, hidden)
            with jax.named_scope("output"):
                y = layernorm(c @ wo + bo + x, g1, be1)
        with jax.named_scope("ffn"):
            with jax.named_scope("intermediate"):
                f = jax.nn.gelu(y @ w1 + bi1, approximate=True)
            with jax.named_scope("output"):
                return layernorm(f @ w2 + bi2 + y, g2, be2)

    spec = jax.ShapeDtypeStruct
    f32 = jnp.float32
    square, vec = spec((hidden, hidden), f32), spec((hidden,), f32)
    args = [spec((seq, hidden), f32)] + [square, vec] * 4 + [vec, vec,
            spec((hidden, ffn), f32), spec((ffn,), f32), spec((ffn, hidden), f32), vec, vec, vec]
    return encoder, tuple(args)


# Defined last so that the source lines of the fixtures above stay where they were.
MODELS["bert_layer"] = bert_layer_model


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "_dump":
        return child_dump(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 3 and sys.argv[1] == "_sharded_mlp":
        return child_sharded_mlp(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help="test data folder")
    parser.add_argument("--check-samples", action="store_true",
                        help="verify resources/samples/*.hlo through XLA instead")
    parser.add_argument("--samples", type=Path, default=SAMPLES)
    parser.add_argument("--training-only", action="store_true",
                        help="regenerate only the training-step graphs in OUT/training")
    parser.add_argument("--traces-only", action="store_true",
                        help="regenerate only XLA's profiles of the models (xla_cpu_trace.json.gz)")
    parser.add_argument("--model", choices=sorted(MODELS),
                        help="regenerate only this model's folder OUT/<model>")
    parser.add_argument("--dumps-only", action="store_true",
                        help="regenerate only the per-pass dumps in OUT/xla_dump_<model>")
    args = parser.parse_args()
    if args.check_samples:
        return 1 if check_samples(args.samples) else 0
    if args.training_only:
        export_training(import_jax(), args.out)
        return 0
    if args.traces_only:
        export_xla_traces(import_jax(), args.out)
        return 0
    if args.model:
        export_model(import_jax(), args.model, args.out)
        return 0
    if args.dumps_only:
        for model in DUMPED_MODELS:
            export_dump(args.out, model)
        return 0
    generate(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
