# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

batch = TypeVar("batch")
@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def fused_matmul1_add1(lv2: T.Buffer((batch, T.int64(32)), "float32"), param_0: T.Buffer((T.int64(32), T.int64(10)), "float32"), param_1: T.Buffer((T.int64(10),), "float32"), T_add_intermediate: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        matmul_intermediate = T.sblock_alloc_buffer((batch, T.int64(10)))
        for i0, i1, k in T.grid(batch, T.int64(10), T.int64(32)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(lv2[v_i0, v_k], param_0[v_k, v_i1])
                T.writes(matmul_intermediate[v_i0, v_i1])
                with T.init():
                    matmul_intermediate[v_i0, v_i1] = T.float32(0.0)
                matmul_intermediate[v_i0, v_i1] = matmul_intermediate[v_i0, v_i1] + lv2[v_i0, v_k] * param_0[v_k, v_i1]
        for ax0, ax1 in T.grid(batch, T.int64(10)):
            with T.sblock("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(matmul_intermediate[v_ax0, v_ax1], param_1[v_ax1])
                T.writes(T_add_intermediate[v_ax0, v_ax1])
                T_add_intermediate[v_ax0, v_ax1] = matmul_intermediate[v_ax0, v_ax1] + param_1[v_ax1]

    @T.prim_func(private=True, s_tir=True)
    def fused_matmul_add_relu(x: T.Buffer((batch, T.int64(16)), "float32"), param_0: T.Buffer((T.int64(16), T.int64(32)), "float32"), param_1: T.Buffer((T.int64(32),), "float32"), compute_intermediate: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"tirx.noalias": True})
        # with T.sblock("root"):
        matmul_intermediate = T.sblock_alloc_buffer((batch, T.int64(32)))
        T_add_intermediate = T.sblock_alloc_buffer((batch, T.int64(32)))
        for i0, i1, k in T.grid(batch, T.int64(32), T.int64(16)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], param_0[v_k, v_i1])
                T.writes(matmul_intermediate[v_i0, v_i1])
                with T.init():
                    matmul_intermediate[v_i0, v_i1] = T.float32(0.0)
                matmul_intermediate[v_i0, v_i1] = matmul_intermediate[v_i0, v_i1] + x[v_i0, v_k] * param_0[v_k, v_i1]
        for ax0, ax1 in T.grid(batch, T.int64(32)):
            with T.sblock("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(matmul_intermediate[v_ax0, v_ax1], param_1[v_ax1])
                T.writes(T_add_intermediate[v_ax0, v_ax1])
                T_add_intermediate[v_ax0, v_ax1] = matmul_intermediate[v_ax0, v_ax1] + param_1[v_ax1]
        for i0, i1 in T.grid(batch, T.int64(32)):
            with T.sblock("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(T_add_intermediate[v_i0, v_i1])
                T.writes(compute_intermediate[v_i0, v_i1])
                compute_intermediate[v_i0, v_i1] = T.max(T_add_intermediate[v_i0, v_i1], T.float32(0.0))

    @T.prim_func(private=True, s_tir=True)
    def softmax(lv5: T.Buffer((batch, T.int64(10)), "float32"), T_softmax_norm: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 4, "tirx.noalias": True})
        # with T.sblock("root"):
        T_softmax_maxelem = T.sblock_alloc_buffer((batch,))
        T_softmax_exp = T.sblock_alloc_buffer((batch, T.int64(10)))
        T_softmax_expsum = T.sblock_alloc_buffer((batch,))
        for i0, k in T.grid(batch, T.int64(10)):
            with T.sblock("T_softmax_maxelem"):
                v_i0, v_k = T.axis.remap("SR", [i0, k])
                T.reads(lv5[v_i0, v_k])
                T.writes(T_softmax_maxelem[v_i0])
                with T.init():
                    T_softmax_maxelem[v_i0] = T.float32(-340282346638528859811704183484516925440.0)
                T_softmax_maxelem[v_i0] = T.max(T_softmax_maxelem[v_i0], lv5[v_i0, v_k])
        for i0, i1 in T.grid(batch, T.int64(10)):
            with T.sblock("T_softmax_exp"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv5[v_i0, v_i1], T_softmax_maxelem[v_i0])
                T.writes(T_softmax_exp[v_i0, v_i1])
                T_softmax_exp[v_i0, v_i1] = T.exp(lv5[v_i0, v_i1] - T_softmax_maxelem[v_i0])
        for i0, k in T.grid(batch, T.int64(10)):
            with T.sblock("T_softmax_expsum"):
                v_i0, v_k = T.axis.remap("SR", [i0, k])
                T.reads(T_softmax_exp[v_i0, v_k])
                T.writes(T_softmax_expsum[v_i0])
                with T.init():
                    T_softmax_expsum[v_i0] = T.float32(0.0)
                T_softmax_expsum[v_i0] = T_softmax_expsum[v_i0] + T_softmax_exp[v_i0, v_k]
        for i0, i1 in T.grid(batch, T.int64(10)):
            with T.sblock("T_softmax_norm"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(T_softmax_exp[v_i0, v_i1], T_softmax_expsum[v_i0])
                T.writes(T_softmax_norm[v_i0, v_i1])
                T.sblock_attr({"axis": 1})
                T_softmax_norm[v_i0, v_i1] = T_softmax_exp[v_i0, v_i1] / T_softmax_expsum[v_i0]

    @R.function
    def main(x: R.Tensor((batch, 16), dtype="float32")) -> R.Tensor((batch, 10), dtype="float32"):
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        cls = Module
        storage: R.Any = R.memory.alloc_storage(R.shape([128 * batch]), 0, R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((batch, 32), dtype="float32") = R.memory.alloc_tensor(storage, 0, R.shape([batch, 32]), R.dtype("float32"), 0)
        R.memory.kill_storage(storage)
        cls.fused_matmul_add_relu(x, metadata["ir.GenericConst"][0], metadata["ir.GenericConst"][1], alloc)
        storage1: R.Any = R.memory.alloc_storage(R.shape([40 * batch]), 0, R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((batch, 10), dtype="float32") = R.memory.alloc_tensor(storage1, 0, R.shape([batch, 10]), R.dtype("float32"), 0)
        R.memory.kill_storage(storage1)
        cls.fused_matmul1_add1(alloc, metadata["ir.GenericConst"][2], metadata["ir.GenericConst"][3], alloc1)
        R.memory.kill_tensor(alloc)
        storage_1: R.Any = R.memory.alloc_storage(R.shape([4 * batch * 10]), 0, R.str("global"), R.dtype("uint8"))
        alloc2: R.Tensor((batch, 10), dtype="float32") = R.memory.alloc_tensor(storage_1, 0, R.shape([batch, 10]), R.dtype("float32"), 0)
        R.memory.kill_storage(storage_1)
        cls.softmax(alloc1, alloc2)
        R.memory.kill_tensor(alloc1)
        return alloc2

# Metadata omitted. Use show_meta=True in script() method to show it.