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


def shape_chain():
    """What torch's exporters write around a transformer's embeddings: shapes computed at run
    time (Shape -> Gather -> Unsqueeze -> Concat -> Expand, Range up to the sequence length,
    Where over a shape, ConstantOfShape, Reshape to a computed shape), a weight past the
    literal limit (8x200) and GatherND with and without batch_dims; batch and seq symbolic.
    With batch=2, seq=5 (the sizes the test imports it with) ONNX's inputs and the outputs
    numpy computes from them, checked against ONNX Runtime when it is installed, are stored
    beside it as test_data_set_0 (the backend tests' layout)."""
    folder = os.path.join(OUT, "shape_chain")
    os.makedirs(os.path.join(folder, "test_data_set_0"), exist_ok=True)
    vocab, width, hidden = 40, 8, 200
    table = (rng.standard_normal((vocab, width)) * 0.1).astype(np.float32)
    w = (rng.standard_normal((width, hidden)) * 0.1).astype(np.float32)
    node = helper.make_node
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Gather", ["shape", "zero"], ["b"], name="batch_size", axis=0),
        node("Gather", ["shape", "one"], ["s"], name="seq_len", axis=0),
        node("Unsqueeze", ["b", "axes0"], ["b1"], name="b_unsqueeze"),
        node("Unsqueeze", ["s", "axes0"], ["s1"], name="s_unsqueeze"),
        node("Concat", ["b1", "s1"], ["bs"], name="bs_concat", axis=0),
        node("Equal", ["bs", "minus_ones"], ["is_unknown"], name="is_unknown"),
        node("Where", ["is_unknown", "ones2", "bs"], ["bs_known"], name="bs_where"),
        node("Range", ["zero", "s", "one"], ["positions"], name="positions"),
        node("Unsqueeze", ["positions", "axes0"], ["positions1"], name="positions_unsqueeze"),
        node("Expand", ["positions1", "bs_known"], ["position_ids"], name="positions_expand"),
        node("ConstantOfShape", ["bs_known"], ["ones"], name="ones",
             value=numpy_helper.from_array(np.array([1], np.int64))),
        node("Mul", ["ids", "ones"], ["ids1"], name="ids_times_one"),
        node("Add", ["ids1", "position_ids"], ["rows"], name="rows"),
        node("Gather", ["table", "rows"], ["embedded"], name="embed", axis=0),
        node("Add", ["x", "embedded"], ["h0"], name="residual"),
        node("MatMul", ["h0", "w"], ["h1"], name="project"),
        node("Concat", ["b1", "minus_one"], ["flat_shape"], name="flat_shape", axis=0),
        node("Reshape", ["h1", "flat_shape"], ["y"], name="flatten"),
        node("Range", ["zero_f", "limit_f", "half_f"], ["long_range"], name="long_range"),
        node("ReduceSum", ["long_range"], ["range_sum"], name="range_sum", keepdims=0),
        node("GatherND", ["x", "pairs"], ["picked"], name="gather_pairs"),
        node("GatherND", ["x", "per_batch"], ["picked_per_batch"], name="gather_per_batch",
             batch_dims=1),
    ]
    scalar = lambda name, v, t=np.int64: numpy_helper.from_array(np.array(v, t), name)
    initializers = [
        scalar("zero", 0), scalar("one", 1), ints("axes0", [0]), ints("minus_ones", [-1, -1]),
        ints("ones2", [1, 1]), ints("minus_one", [-1]),
        numpy_helper.from_array(table, "table"), numpy_helper.from_array(w, "w"),
        scalar("zero_f", 0.0, np.float32), scalar("limit_f", 2500.0, np.float32),
        scalar("half_f", 0.5, np.float32),
        ints("pairs", [[0, 1], [1, -2]]), ints("per_batch", [[1], [-1]]),
    ]
    graph = helper.make_graph(
        nodes, "shape_chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", width]),
         helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "flat"]),
         helper.make_tensor_value_info("range_sum", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("picked", TensorProto.FLOAT, [2, width]),
         helper.make_tensor_value_info("picked_per_batch", TensorProto.FLOAT, [2, width])],
        initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="fusescope-fixtures")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(folder, "model.onnx"))

    batch, seq = 2, 5
    x = rng.standard_normal((batch, seq, width)).astype(np.float32)
    ids = rng.integers(0, vocab - seq, (batch, seq)).astype(np.int64)
    rows = ids + np.arange(seq)[None, :]
    h1 = (x + table[rows]) @ w
    outputs = [h1.reshape(batch, -1),
               np.array(np.arange(0, 2500, 0.5, dtype=np.float32).sum(dtype=np.float32)),
               np.stack([x[0, 1], x[1, -2]]), np.stack([x[0, 1], x[1, -1]])]
    try:
        import onnxruntime

        session = onnxruntime.InferenceSession(os.path.join(folder, "model.onnx"))
        for want, got in zip(outputs, session.run(None, {"x": x, "ids": ids})):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    except ImportError:
        pass
    data = os.path.join(folder, "test_data_set_0")
    for i, value in enumerate([x, ids]):
        tensor = numpy_helper.from_array(value)
        open(os.path.join(data, f"input_{i}.pb"), "wb").write(tensor.SerializeToString())
    for i, value in enumerate(outputs):
        tensor = numpy_helper.from_array(np.asarray(value, np.float32))
        open(os.path.join(data, f"output_{i}.pb"), "wb").write(tensor.SerializeToString())


def main():
    os.makedirs(OUT, exist_ok=True)
    mlp()
    cnn()
    transformer()
    external_and_opaque()
    absurd_shape()
    shape_chain()
    for name in sorted(os.listdir(OUT)):
        print(f"{name}: {os.path.getsize(os.path.join(OUT, name))} bytes")


if __name__ == "__main__":
    main()
