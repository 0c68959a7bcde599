"""Writes tests/data/mlir/jax_while_argmax.mlir: jax's StableHLO for a while loop, an argmax
(a variadic reduce) and a reduce with a multi-op body, in the pretty form jax prints.
Run with a Python that has jax: .venv/bin/python scripts/gen_jax_control_flow_mlir.py"""
import pathlib

import jax
import jax.numpy as jnp


def f(x):
    def body(c):
        return (c[0] + 1, c[1] * 2.0)

    y = jax.lax.while_loop(lambda c: c[0] < 3, body, (0, x))[1]
    return jnp.argmax(y, axis=1), jax.lax.reduce(y, 0.0, lambda a, b: a * b + 1.0, (1,))


out = pathlib.Path(__file__).resolve().parent.parent / "tests/data/mlir/jax_while_argmax.mlir"
out.write_text(jax.jit(f).lower(jnp.ones((4, 8))).as_text())
print(out)
