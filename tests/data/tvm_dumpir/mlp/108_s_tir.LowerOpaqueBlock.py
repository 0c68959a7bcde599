# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

batch = TypeVar("batch")
@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def fused_matmul1_add1(lv2: T.Buffer((batch, T.int64(32)), "float32"), param_0: T.Buffer((T.int64(32), T.int64(10)), "float32"), param_1: T.Buffer((T.int64(10),), "float32"), T_add_intermediate: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        matmul_intermediate = T.alloc_buffer((batch, T.int64(10)), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, i1, k in T.grid(batch, T.int64(10), T.int64(32)):
            if k == T.int64(0):
                matmul_intermediate[i0, i1] = T.float32(0.0)
            matmul_intermediate[i0, i1] = matmul_intermediate[i0, i1] + lv2[i0, k] * param_0[k, i1]
        for ax0, ax1 in T.grid(batch, T.int64(10)):
            T_add_intermediate[ax0, ax1] = matmul_intermediate[ax0, ax1] + param_1[ax1]

    @T.prim_func(s_tir=True)
    def fused_matmul_add_relu(x: T.Buffer((batch, T.int64(16)), "float32"), param_0: T.Buffer((T.int64(16), T.int64(32)), "float32"), param_1: T.Buffer((T.int64(32),), "float32"), compute_intermediate: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        matmul_intermediate = T.alloc_buffer((batch, T.int64(32)), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_add_intermediate = T.alloc_buffer((batch, T.int64(32)), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, i1, k in T.grid(batch, T.int64(32), T.int64(16)):
            if k == T.int64(0):
                matmul_intermediate[i0, i1] = T.float32(0.0)
            matmul_intermediate[i0, i1] = matmul_intermediate[i0, i1] + x[i0, k] * param_0[k, i1]
        for ax0, ax1 in T.grid(batch, T.int64(32)):
            T_add_intermediate[ax0, ax1] = matmul_intermediate[ax0, ax1] + param_1[ax1]
        for i0, i1 in T.grid(batch, T.int64(32)):
            compute_intermediate[i0, i1] = T.max(T_add_intermediate[i0, i1], T.float32(0.0))

    @T.prim_func(s_tir=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""})})
        H[T.int64(3)] = H[T.int64(0)] * T.int64(40)
        H[T.int64(2)] = H[T.int64(0)] * T.int64(40)
        H[T.int64(1)] = H[T.int64(0)] * T.int64(128)

    @T.prim_func(s_tir=True)
    def softmax(lv5: T.Buffer((batch, T.int64(10)), "float32"), T_softmax_norm: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 4, "target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        T_softmax_maxelem = T.alloc_buffer((batch,), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_softmax_exp = T.alloc_buffer((batch, T.int64(10)), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_softmax_expsum = T.alloc_buffer((batch,), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, k in T.grid(batch, T.int64(10)):
            if k == T.int64(0):
                T_softmax_maxelem[i0] = T.float32(-340282346638528859811704183484516925440.0)
            T_softmax_maxelem[i0] = T.max(T_softmax_maxelem[i0], lv5[i0, k])
        for i0, i1 in T.grid(batch, T.int64(10)):
            T_softmax_exp[i0, i1] = T.exp(lv5[i0, i1] - T_softmax_maxelem[i0])
        for i0, k in T.grid(batch, T.int64(10)):
            if k == T.int64(0):
                T_softmax_expsum[i0] = T.float32(0.0)
            T_softmax_expsum[i0] = T_softmax_expsum[i0] + T_softmax_exp[i0, k]
        for i0, i1 in T.grid(batch, T.int64(10)):
            T_softmax_norm[i0, i1] = T_softmax_exp[i0, i1] / T_softmax_expsum[i0]