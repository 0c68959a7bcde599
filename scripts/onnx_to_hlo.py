#!/usr/bin/env python3
"""HLO text of a small ONNX model at static sizes, made with jax, for trying the XLA adapter
without the harness (which hands XLA the HLO its own importer made). Two steps, because the
jax environment has no onnx package and the ONNX one has no jax:

  python scripts/onnx_to_hlo.py export MODEL.onnx GRAPH.npz      (a Python with onnx)
  python scripts/onnx_to_hlo.py lower GRAPH.npz INPUTS.npz OUT.hlo|OUT.mlir  (one with jax)

`export` writes the graph (nodes, attributes) as JSON and the weights as arrays; `lower`
evaluates it with jax.numpy at the shapes of INPUTS.npz and writes the unoptimized module with
its weights as constants: HLO text, or StableHLO text for an OUT ending in .mlir. Only the
ops of tests/data/compare/*.onnx are known: MatMul, Add, Mul, Relu, Identity, Reshape,
Transpose, Softmax, Erf, LayerNormalization.
"""

import json
import sys


def export(model_path, out_path):
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    graph = onnx.load(model_path).graph
    nodes = [{"op": node.op_type, "inputs": list(node.input), "outputs": list(node.output),
              "attrs": {a.name: helper.get_attribute_value(a) for a in node.attribute}}
             for node in graph.node]
    description = {"inputs": [i.name for i in graph.input],
                   "outputs": [o.name for o in graph.output], "nodes": nodes}
    weights = {f"w:{t.name}": numpy_helper.to_array(t) for t in graph.initializer}
    np.savez(out_path, graph=np.array(json.dumps(description)), **weights)


def lower(graph_path, inputs_path, out_path):
    import jax
    import jax.numpy as jnp
    import numpy as np

    jax.config.update("jax_platforms", "cpu")
    with np.load(graph_path) as npz:
        graph = json.loads(str(npz["graph"]))
        weights = {key[2:]: npz[key] for key in npz.files if key.startswith("w:")}
    with np.load(inputs_path) as npz:
        inputs = [npz[name] for name in graph["inputs"]]

    def layer_norm(x, gamma, beta, axis=-1, epsilon=1e-5):
        mean = jnp.mean(x, axis=axis, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=axis, keepdims=True)
        return (x - mean) / jnp.sqrt(var + epsilon) * gamma + beta

    def reshape(x, shape):
        shape = [x.shape[i] if int(d) == 0 else int(d) for i, d in enumerate(shape)]
        return jnp.reshape(x, shape)

    ops = {
        "MatMul": lambda a, b: jnp.matmul(a, b), "Add": jnp.add, "Mul": jnp.multiply,
        "Relu": lambda x: jnp.maximum(x, 0), "Identity": lambda x: x,
        "Erf": jax.scipy.special.erf,
        "Reshape": reshape,
        "Transpose": lambda x, perm: jnp.transpose(x, perm),
        "Softmax": lambda x, axis=-1: jax.nn.softmax(x, axis=axis),
        "LayerNormalization": layer_norm,
    }
    static = {"Reshape": 1}  # index of an input that is a shape, used as a Python value

    def model(*args):
        values = dict(zip(graph["inputs"], args))
        for node in graph["nodes"]:
            operands = []
            for index, name in enumerate(node["inputs"]):
                if static.get(node["op"]) == index:
                    operands.append([int(v) for v in weights[name]])
                else:
                    operands.append(values[name] if name in values else jnp.asarray(weights[name]))
            values[node["outputs"][0]] = ops[node["op"]](*operands, **node["attrs"])
        return tuple(values[name] for name in graph["outputs"])

    lowered = jax.jit(model).lower(*inputs)
    with open(out_path, "w") as out:
        if out_path.endswith(".mlir"):
            out.write(lowered.as_text(dialect="stablehlo", debug_info=False))
        else:
            out.write(lowered.compiler_ir("hlo").as_hlo_text(print_large_constants=True))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "export":
        export(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "lower":
        lower(*sys.argv[2:])
    else:
        sys.exit(__doc__)
