#!/usr/bin/env python3
"""Writes the two models `fusescope compare` is tried on into tests/data/compare/:

  mlp.onnx   x[batch, 256] -> MatMul 256x512 + bias -> Relu -> MatMul 512x128 + bias
  bert.onnx  one BERT-style encoder layer on x[batch, seq, 192]: 4-head self-attention
             (Q/K/V/output projections, Softmax), residual + LayerNormalization, a 768-wide
             feed-forward with the exact Gelu (Erf form), residual + LayerNormalization

Both have symbolic dims (`batch`, `seq`), standard ops of ONNX opset 17, and random weights
from a fixed seed, so the files are the same on every run. The BERT layer is 192 wide, not
the usual 256 with a 1024 feed-forward, to keep the file under 2 MB (1.8 MB; 256/1024 would
be 3.1 MB of float32 weights).

Usage: python scripts/gen_compare_models.py [OUT_DIR]   (needs numpy and onnx, e.g. the
.venv-peers/ort made by scripts/setup_peers.sh)
"""

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


class Graph:
    """Collects nodes and initializers; every node gets a readable name, which is what the
    compilers' profilers and dumps report back."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.initializers = []

    def weight(self, name, shape, scale):
        array = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def constant(self, name, array):
        self.initializers.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, name, inputs, **attributes):
        self.nodes.append(helper.make_node(op_type, inputs, [name], name=name, **attributes))
        return name

    def linear(self, name, x, fan_in, fan_out):
        """x @ W + b with W scaled as 1/sqrt(fan_in), so activations stay near unit size."""
        w = self.weight(f"{name}.weight", (fan_in, fan_out), fan_in ** -0.5)
        b = self.weight(f"{name}.bias", (fan_out,), 0.1)
        return self.op("Add", f"{name}_bias", [self.op("MatMul", f"{name}_matmul", [x, w]), b])

    def model(self, name, inputs, outputs):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="fusescope gen_compare_models")
        # IR version 8 is what every peer's ONNX reader here takes (onnx 1.23 writes 10 by
        # default, which older readers refuse).
        model.ir_version = 8
        onnx.checker.check_model(model, full_check=True)
        return model


def mlp():
    g = Graph(seed=1)
    hidden = g.op("Relu", "relu", [g.linear("fc1", "x", 256, 512)])
    out = g.op("Identity", "y", [g.linear("fc2", hidden, 512, 128)])
    return g.model("mlp",
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 256])],
                   [helper.make_tensor_value_info(out, TensorProto.FLOAT, ["batch", 128])])


def bert_layer(hidden=192, heads=4, ffn=768):
    g = Graph(seed=2)
    head = hidden // heads
    split_shape = g.constant("split_heads_shape", np.array([0, 0, heads, head], np.int64))
    merge_shape = g.constant("merge_heads_shape", np.array([0, 0, hidden], np.int64))

    def heads_of(name, transpose):
        # [batch, seq, hidden] -> [batch, heads, seq, head] (or [batch, heads, head, seq] for K)
        split = g.op("Reshape", f"{name}_split", [g.linear(name, "x", hidden, hidden),
                                                   split_shape])
        return g.op("Transpose", f"{name}_heads", [split], perm=transpose)

    q = heads_of("q", [0, 2, 1, 3])
    k = heads_of("k", [0, 2, 3, 1])
    v = heads_of("v", [0, 2, 1, 3])
    scale = g.constant("attn_scale", np.array(head ** -0.5, np.float32))
    scores = g.op("Mul", "attn_scale_mul", [g.op("MatMul", "attn_scores", [q, k]), scale])
    probs = g.op("Softmax", "attn_softmax", [scores], axis=-1)
    context = g.op("Transpose", "attn_context_t",
                   [g.op("MatMul", "attn_context", [probs, v])], perm=[0, 2, 1, 3])
    merged = g.op("Reshape", "attn_merge", [context, merge_shape])
    attn = g.op("Add", "attn_residual", [g.linear("attn_out", merged, hidden, hidden), "x"])

    def layer_norm(name, x):
        gamma = g.weight(f"{name}.gamma", (hidden,), 0.1)
        beta = g.weight(f"{name}.beta", (hidden,), 0.1)
        return g.op("LayerNormalization", name, [x, gamma, beta], axis=-1, epsilon=1e-5)

    normed = layer_norm("attn_norm", attn)
    up = g.linear("ffn_up", normed, hidden, ffn)
    # Gelu(x) = 0.5 x (1 + erf(x / sqrt 2)): opset 17 has no Gelu op.
    erf = g.op("Erf", "gelu_erf",
               [g.op("Mul", "gelu_scale", [up, g.constant("inv_sqrt2",
                                                          np.array(2 ** -0.5, np.float32))])])
    one_plus = g.op("Add", "gelu_one_plus", [erf, g.constant("one", np.array(1, np.float32))])
    gelu = g.op("Mul", "gelu_half",
                [g.op("Mul", "gelu_mul", [up, one_plus]),
                 g.constant("half", np.array(0.5, np.float32))])
    ffn_out = g.op("Add", "ffn_residual", [g.linear("ffn_down", gelu, ffn, hidden), normed])
    out = layer_norm("ffn_norm", ffn_out)
    shape = ["batch", "seq", hidden]
    return g.model("bert_layer", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                   [helper.make_tensor_value_info(out, TensorProto.FLOAT, shape)])


def main():
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "tests" / "data" / "compare")
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, model in (("mlp", mlp()), ("bert", bert_layer())):
        path = out_dir / f"{name}.onnx"
        onnx.save(model, path)
        print(f"{path}: {len(model.graph.node)} nodes, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
