#!/usr/bin/env python3
"""Writes tests/data/mlir/jax/<name>.mlir and <name>.hlo: the StableHLO jax emits for small
real programs (control flow, gather/scatter, sort, random bits, a training step) in the pretty
form jax prints, and the HLO jax writes for the same program, so that the .mlir importer can be
checked against the HLO on the reference interpreter.

Usage: /work/main/.venv/bin/python scripts/gen_stablehlo_fixtures.py   (needs jax on CPU)
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_fixtures  # noqa: E402  (the training-step models are shared)

OUT = gen_fixtures.DATA / "mlir" / "jax"


def while_model(jax):
    """fori_loop carrying a tuple (counter, matrix, running sum) with a captured constant."""
    jnp, lax = jax.numpy, jax.lax

    def f(x, w):
        def body(i, carry):
            h, total = carry
            h = jnp.tanh(h @ w + i.astype(jnp.float32))
            return h, total + h.sum()

        return lax.fori_loop(0, 4, body, (x, jnp.float32(0)))

    spec = jax.ShapeDtypeStruct
    return f, (spec((4, 8), jnp.float32), spec((8, 8), jnp.float32))


def gather_scatter_model(jax):
    """x[idx] and x.at[idx].add (gather and scatter-add), a 2-d gather, dynamic slices, pad
    with interior and negative padding, a reshape, convert and bitcast_convert."""
    jnp, lax = jax.numpy, jax.lax

    def f(x, u, i):
        idx = jnp.array([3, 0, 2, 2, 7])
        rows = x[idx]
        added = x.at[idx].add(u)
        pairs = x[jnp.array([1, 4]), jnp.array([0, 5])]
        start = jnp.clip(i, 0, 4)
        window = lax.dynamic_slice(x, (start, jnp.int32(1)), (3, 4))
        updated = lax.dynamic_update_slice(x, window * 2.0, (jnp.int32(2), start))
        padded = lax.pad(x[:2], jnp.float32(-1), ((1, -1, 1), (-2, 3, 0)))
        bits = lax.bitcast_convert_type(x[0], jnp.int32) >> 3
        return rows, added, pairs, updated, padded, bits.astype(jnp.float32).reshape(2, 3)

    spec = jax.ShapeDtypeStruct
    return f, (spec((8, 6), jnp.float32), spec((5, 6), jnp.float32), spec((), jnp.int32))


def sort_reduce_model(jax):
    """sort, argsort (a variadic sort), top_k, argmax and argmin (variadic reduces), cumsum
    and cumulative max (reduce_window), erf."""
    jnp, lax = jax.numpy, jax.lax

    def f(x):
        values, indices = lax.top_k(x, 3)
        return (jnp.sort(x, axis=0), jnp.argsort(x, axis=1), values, indices,
                jnp.argmax(x, axis=1), jnp.argmin(x, axis=0), jnp.cumsum(x, axis=1),
                lax.cummax(x, axis=0), lax.erf(x))

    spec = jax.ShapeDtypeStruct
    return f, (spec((6, 10), jnp.float32),)


def dropout_model(jax):
    """Dropout with jax.random (threefry bits in plain integer ops) and max pooling's
    gradient (select_and_scatter)."""
    jnp, lax = jax.numpy, jax.lax

    def f(x, key_data):
        key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
        keep = jax.random.bernoulli(key, 0.8, x.shape)
        dropped = jnp.where(keep, x / 0.8, 0.0)

        def pool(t):
            return lax.reduce_window(t, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1),
                                     "VALID").sum()

        return dropped, jax.grad(pool)(dropped)

    spec = jax.ShapeDtypeStruct
    return f, (spec((2, 4, 4, 3), jnp.float32), spec((2,), jnp.uint32))


def chlo_math_model(jax):
    """chlo operations XLA decomposes: erf_inv (jax.random.normal), sinh, cosh, asin, acos,
    atanh, asinh."""
    jnp, lax = jax.numpy, jax.lax

    def f(x, key_data):
        key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
        unit = jnp.tanh(x) * 0.99
        return (jax.random.normal(key, x.shape) * x, lax.erf_inv(unit), jnp.sinh(x * 4),
                jnp.cosh(x * 4), jnp.arcsin(unit), jnp.arccos(unit), jnp.arctanh(unit),
                jnp.arcsinh(x * 100))

    spec = jax.ShapeDtypeStruct
    return f, (spec((4, 8), jnp.float32), spec((2,), jnp.uint32))


def sharded_model(jax):
    """A sharding constraint and shard_map's collectives (psum, all_gather, psum_scatter,
    ppermute) on a mesh of one device, as Shardy exports them."""
    jnp, lax = jax.numpy, jax.lax
    from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((1,), ("x",), axis_types=(AxisType.Auto,))

    def body(a):
        return (lax.psum(a, "x") + lax.all_gather(a, "x", axis=0, tiled=True)
                + lax.psum_scatter(a, "x", scatter_dimension=1, tiled=True)
                + lax.ppermute(a, "x", perm=[(0, 0)]))

    def f(x):
        y = lax.with_sharding_constraint(x * 2, NamedSharding(mesh, P("x")))
        return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(y)

    return f, (jax.ShapeDtypeStruct((4, 4), jnp.float32),)


def composite_barrier_model(jax):
    """lax.composite (a call of its decomposition) behind an optimization barrier."""
    jnp, lax = jax.numpy, jax.lax

    def f(x, y):
        scaled_add = lax.composite(lambda a, b: a * 2 + b, name="my.scaled_add")
        a, b = lax.optimization_barrier((x, y))
        return scaled_add(a, b), jnp.sin(b)

    spec = jax.ShapeDtypeStruct
    return f, (spec((4, 4), jnp.float32), spec((4, 4), jnp.float32))


def cholesky_model(jax):
    """Cholesky on CPU: a LAPACK custom_call, which maps but only XLA can run."""
    jnp = jax.numpy

    def f(x):
        return jax.lax.linalg.cholesky(x @ x.T + 4 * jnp.eye(4))

    return f, (jax.ShapeDtypeStruct((4, 4), jnp.float32),)


def rng_bit_generator_model(jax):
    """rng_bit_generator (the "rbg" key): maps, but the interpreter does not reproduce XLA's
    bits."""
    jnp = jax.numpy

    def f(x, key_data):
        key = jax.random.wrap_key_data(key_data, impl="rbg")
        return jnp.where(jax.random.bernoulli(key, 0.5, x.shape), x, 0.0)

    spec = jax.ShapeDtypeStruct
    return f, (spec((4, 4), jnp.float32), spec((4,), jnp.uint32))


# name -> (model, donated arguments). No HLO is written for programs the interpreter cannot
# run (random bits, LAPACK), nor for the training step: gen_fixtures.py writes its HLO as
# tests/data/training/bert_train_step.threefry.nometa.hlo.
MODELS = {
    "while_tuple": (while_model, ()),
    "cond_switch_sort": (gen_fixtures.cond_sort_model, ()),
    "scan_grad": (gen_fixtures.scan_grad_model, ()),
    "gather_scatter": (gather_scatter_model, ()),
    "sort_reduce": (sort_reduce_model, ()),
    "dropout_pool_grad": (dropout_model, ()),
    "decoder_grad": (gen_fixtures.decoder_grad_model, ()),
    "chlo_math": (chlo_math_model, ()),
    "composite_barrier": (composite_barrier_model, ()),
    "sharded": (sharded_model, ()),
    "rng_bit_generator": (rng_bit_generator_model, ()),
    "cholesky_custom_call": (cholesky_model, ()),
    "bert_train_step": (lambda jax: gen_fixtures.bert_train_step_model(jax, "threefry2x32"),
                        (0, 1)),
}


# Also written in MLIR's generic form (<name>.generic.mlir), which libMLIR reads without the
# StableHLO dialect.
GENERIC = ("while_tuple", "cond_switch_sort", "gather_scatter", "sort_reduce")


def main():
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    jax = gen_fixtures.import_jax()
    for name, (model, donate) in MODELS.items():
        fn, specs = model(jax)
        lowered = jax.jit(fn, donate_argnums=donate).lower(*specs)
        gen_fixtures.write(OUT / f"{name}.mlir", lowered.as_text())
        if name in GENERIC:
            module = lowered.compiler_ir("stablehlo")
            gen_fixtures.write(OUT / f"{name}.generic.mlir",
                               module.operation.get_asm(print_generic_op_form=True))
        if name not in ("bert_train_step", "rng_bit_generator", "cholesky_custom_call"):
            gen_fixtures.write(OUT / f"{name}.hlo", lowered.as_text("hlo"))
        print(OUT / f"{name}.mlir")


if __name__ == "__main__":
    main()
