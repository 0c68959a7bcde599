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
        lv2_1 = lv2.view(batch * T.int64(32))
        param_0_1 = param_0.view(T.int64(320))
        param_1_1 = T.decl_buffer((T.int64(10),), data=param_1.data)
        T_add_intermediate_1 = T_add_intermediate.view(batch * T.int64(10))
        matmul_intermediate = T.alloc_buffer((batch * T.int64(10),), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, i1, k in T.grid(batch, T.int64(10), T.int64(32)):
            if k == T.int64(0):
                matmul_intermediate[i0 * T.int64(10) + i1] = T.float32(0.0)
            matmul_intermediate[i0 * T.int64(10) + i1] = matmul_intermediate[i0 * T.int64(10) + i1] + lv2_1[i0 * T.int64(32) + k] * param_0_1[k * T.int64(10) + i1]
        for ax0, ax1 in T.grid(batch, T.int64(10)):
            T_add_intermediate_1[ax0 * T.int64(10) + ax1] = matmul_intermediate[ax0 * T.int64(10) + ax1] + param_1_1[ax1]

    @T.prim_func(s_tir=True)
    def fused_matmul_add_relu(x: T.Buffer((batch, T.int64(16)), "float32"), param_0: T.Buffer((T.int64(16), T.int64(32)), "float32"), param_1: T.Buffer((T.int64(32),), "float32"), compute_intermediate: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        x_1 = x.view(batch * T.int64(16))
        param_0_1 = param_0.view(T.int64(512))
        param_1_1 = T.decl_buffer((T.int64(32),), data=param_1.data)
        compute_intermediate_1 = compute_intermediate.view(batch * T.int64(32))
        matmul_intermediate = T.alloc_buffer((batch * T.int64(32),), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_add_intermediate = T.alloc_buffer((batch * T.int64(32),), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, i1, k in T.grid(batch, T.int64(32), T.int64(16)):
            if k == T.int64(0):
                matmul_intermediate[i0 * T.int64(32) + i1] = T.float32(0.0)
            matmul_intermediate[i0 * T.int64(32) + i1] = matmul_intermediate[i0 * T.int64(32) + i1] + x_1[i0 * T.int64(16) + k] * param_0_1[k * T.int64(32) + i1]
        for ax0, ax1 in T.grid(batch, T.int64(32)):
            T_add_intermediate[ax0 * T.int64(32) + ax1] = matmul_intermediate[ax0 * T.int64(32) + ax1] + param_1_1[ax1]
        for i0, i1 in T.grid(batch, T.int64(32)):
            compute_intermediate_1[i0 * T.int64(32) + i1] = T.max(T_add_intermediate[i0 * T.int64(32) + i1], T.float32(0.0))

    @T.prim_func(s_tir=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""})})
        H_1 = T.decl_buffer((T.int64(4),), "int64", data=H.data)
        H_1[T.int64(3)] = H_1[T.int64(0)] * T.int64(40)
        H_1[T.int64(2)] = H_1[T.int64(0)] * T.int64(40)
        H_1[T.int64(1)] = H_1[T.int64(0)] * T.int64(128)

    @T.prim_func(s_tir=True)
    def softmax(lv5: T.Buffer((batch, T.int64(10)), "float32"), T_softmax_norm: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 4, "target": T.target({"host": {"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}, "keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-conda-linux-gnu", "tag": ""}), "tirx.noalias": True})
        lv5_1 = lv5.view(batch * T.int64(10))
        T_softmax_norm_1 = T_softmax_norm.view(batch * T.int64(10))
        T_softmax_maxelem = T.alloc_buffer((batch,), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_softmax_exp = T.alloc_buffer((batch * T.int64(10),), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        T_softmax_expsum = T.alloc_buffer((batch,), annotations={"buffer_allocated_addr": [], "buffer_data_alignment": 64})
        for i0, k in T.grid(batch, T.int64(10)):
            if k == T.int64(0):
                T_softmax_maxelem[i0] = T.float32(-340282346638528859811704183484516925440.0)
            T_softmax_maxelem[i0] = T.max(T_softmax_maxelem[i0], lv5_1[i0 * T.int64(10) + k])
        for i0, i1 in T.grid(batch, T.int64(10)):
            T_softmax_exp[i0 * T.int64(10) + i1] = T.exp(lv5_1[i0 * T.int64(10) + i1] - T_softmax_maxelem[i0])
        for i0, k in T.grid(batch, T.int64(10)):
            if k == T.int64(0):
                T_softmax_expsum[i0] = T.float32(0.0)
            T_softmax_expsum[i0] = T_softmax_expsum[i0] + T_softmax_exp[i0 * T.int64(10) + k]
        for i0, i1 in T.grid(batch, T.int64(10)):
            T_softmax_norm_1[i0 * T.int64(10) + i1] = T_softmax_exp[i0 * T.int64(10) + i1] / T_softmax_expsum[i0]