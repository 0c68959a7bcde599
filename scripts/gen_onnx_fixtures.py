#!/usr/bin/env python3
"""Writes the small ONNX models under tests/data/onnx that the importer tests load.

Needs the `onnx` and `numpy` Python packages (only to regenerate; the C++ build and the
tests read the committed files):

    python3 -m venv .venv-onnx && .venv-onnx/bin/pip install onnx numpy
    .venv-onnx/bin/python scripts/gen_onnx_fixtures.py

Weights come from a fixed seed, so the output is the same on every run with one onnx
version. Every model passes onnx.checker.
"""

import os

import numpy as np
import onnx
import onnx.external_data_helper
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "onnx")
rng = np.random.default_rng(7)


def weights(name, *shape):
    return numpy_helper.from_array((rng.standard_normal(shape) * 0.1).astype(np.float32), name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def save(graph, name, opset=17, **kwargs):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="fusescope-fixtures", **kwargs)
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name))


def mlp():
    """x[batch,16] -> Gemm 16->32 + Relu -> Gemm (transB) 32->10 -> Softmax; batch symbolic."""
    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h1"], name="fc1"),
        helper.make_node("Relu", ["h1"], ["a1"], name="relu1"),
        helper.make_node("Gemm", ["a1", "w2", "b2"], ["logits"], name="fc2", transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 16])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 10])],
        [weights("w1", 16, 32), weights("b1", 32), weights("w2", 10, 32), weights("b2", 10)])
    save(graph, "mlp.onnx")


def cnn():
    """Conv+BatchNorm+Relu, MaxPool, grouped Conv, GlobalAveragePool, Flatten, Gemm."""
    nodes = [
        helper.make_node("Conv", ["x", "c1_w", "c1_b"], ["c1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bn_s", "bn_b", "bn_m", "bn_v"], ["bn"],
                         name="bn1", epsilon=1e-5),
        helper.make_node("Relu", ["bn"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "c2_w"], ["c2"], name="conv2_dw", kernel_shape=[3, 3],
                         strides=[2, 2], auto_pad="SAME_UPPER", group=8),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten", axis=1),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], name="fc"),
    ]
    c = 8
    graph = helper.make_graph(
        nodes, "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
        [weights("c1_w", c, 3, 3, 3), weights("c1_b", c),
         numpy_helper.from_array(np.ones(c, np.float32), "bn_s"), weights("bn_b", c),
         weights("bn_m", c),
         numpy_helper.from_array(np.full(c, 0.5, np.float32), "bn_v"),
         weights("c2_w", c, 1, 3, 3), weights("fc_w", c, 5), weights("fc_b", 5)])
    save(graph, "cnn.onnx")


def transformer():
    """One pre-norm attention block: LayerNormalization, QKV MatMul, Reshape/Transpose to
    heads, masked (Where) softmax attention, output projection, residual, Gelu MLP."""
    b, s, d, h = 2, 8, 16, 2
    hd = d // h
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "ln_s", "ln_b"], ["ln"], name="ln1", axis=-1, epsilon=1e-5),
        n("MatMul", ["ln", "wq"], ["q"], name="q_proj"),
        n("MatMul", ["ln", "wk"], ["k"], name="k_proj"),
        n("MatMul", ["ln", "wv"], ["v"], name="v_proj"),
        n("Reshape", ["q", "heads_shape"], ["q4"], name="q_split"),
        n("Reshape", ["k", "heads_shape"], ["k4"], name="k_split"),
        n("Reshape", ["v", "heads_shape"], ["v4"], name="v_split"),
        n("Transpose", ["q4"], ["qt"], name="q_heads", perm=[0, 2, 1, 3]),
        n("Transpose", ["k4"], ["kt"], name="k_heads", perm=[0, 2, 3, 1]),
        n("Transpose", ["v4"], ["vt"], name="v_heads", perm=[0, 2, 1, 3]),
        n("MatMul", ["qt", "kt"], ["scores"], name="qk"),
        n("Mul", ["scores", "scale"], ["scaled"], name="scale"),
        n("Where", ["mask", "scaled", "neg_inf"], ["masked"], name="causal_mask"),
        n("Softmax", ["masked"], ["attn"], name="attn_softmax", axis=-1),
        n("MatMul", ["attn", "vt"], ["ctx"], name="attn_v"),
        n("Transpose", ["ctx"], ["ctx_t"], name="merge_heads", perm=[0, 2, 1, 3]),
        n("Shape", ["x"], ["x_shape"], name="x_shape"),
        n("Reshape", ["ctx_t", "x_shape"], ["ctx_m"], name="merge"),
        n("MatMul", ["ctx_m", "wo"], ["o"], name="o_proj"),
        n("Add", ["x", "o"], ["res1"], name="residual1"),
        n("MatMul", ["res1", "w_up"], ["up"], name="mlp_up"),
        n("Add", ["up", "b_up"], ["up_b"], name="mlp_up_bias"),
        n("Gelu", ["up_b"], ["act"], name="mlp_gelu"),
        n("MatMul", ["act", "w_down"], ["down"], name="mlp_down"),
        n("Add", ["res1", "down"], ["y"], name="residual2"),
    ]
    mask = np.tril(np.ones((s, s), dtype=bool))
    graph = helper.make_graph(
        nodes, "transformer_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b, s, d])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [b, s, d])],
        [numpy_helper.from_array(np.ones(d, np.float32), "ln_s"), weights("ln_b", d),
         weights("wq", d, d), weights("wk", d, d), weights("wv", d, d), weights("wo", d, d),
         ints("heads_shape", [b, s, h, hd]),
         numpy_helper.from_array(np.array(1.0 / np.sqrt(hd), np.float32), "scale"),
         numpy_helper.from_array(mask, "mask"),
         numpy_helper.from_array(np.array(-1e9, np.float32), "neg_inf"),
         weights("w_up", d, 2 * d), weights("b_up", 2 * d), weights("w_down", 2 * d, d)])
    save(graph, "transformer.onnx", opset=20)


def external_and_opaque():
    """A weight in an external data file beside the model, and an op without a lowering
    (TopK) that must load as an opaque custom-call."""
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h"], name="proj"),
        helper.make_node("TopK", ["h", "k"], ["values", "indices"], name="top2", axis=-1),
        helper.make_node("Relu", ["values"], ["y"], name="relu"),
    ]
    w = weights("w", 4, 6)
    graph = helper.make_graph(
        nodes, "external_topk",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2]),
         helper.make_tensor_value_info("indices", TensorProto.INT64, [3, 2])],
        [w, ints("k", [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="fusescope-fixtures")
    model.ir_version = 8
    onnx.checker.check_model(model)
    weights_path = os.path.join(OUT, "external_topk.weights")
    if os.path.exists(weights_path):
        os.remove(weights_path)  # onnx appends to an existing data file
    onnx.external_data_helper.convert_model_to_external_data(
        model, all_tensors_to_one_file=True, location="external_topk.weights",
        size_threshold=64)
    onnx.save(model, os.path.join(OUT, "external_topk.onnx"))


def absurd_shape():
    """Bad input: an initializer claiming 2^40 x 2^40 elements with no data behind them. The
    importer must refuse it before allocating anything (onnx.checker is not run on it)."""
    huge = TensorProto()
    huge.name = "huge"
    huge.data_type = TensorProto.FLOAT
    huge.dims.extend([1 << 40, 1 << 40])
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "huge"], ["y"], name="add_huge")], "absurd",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [huge])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, os.path.join(OUT, "absurd_shape.onnx"))


def main():
    os.makedirs(OUT, exist_ok=True)
    mlp()
    cnn()
    transformer()
    external_and_opaque()
    absurd_shape()
    for name in sorted(os.listdir(OUT)):
        print(f"{name}: {os.path.getsize(os.path.join(OUT, name))} bytes")


if __name__ == "__main__":
    main()
