# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

batch = TypeVar("batch")
@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def add(lv: T.Buffer((batch, T.int64(32)), "float32"), B: T.Buffer((T.int64(32),), "float32"), T_add: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"op_pattern": 0, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(batch, T.int64(32)):
            with T.sblock("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(lv[v_ax0, v_ax1], B[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = lv[v_ax0, v_ax1] + B[v_ax1]

    @T.prim_func(private=True, s_tir=True)
    def add1(lv4: T.Buffer((batch, T.int64(10)), "float32"), B: T.Buffer((T.int64(10),), "float32"), T_add: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 0, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(batch, T.int64(10)):
            with T.sblock("T_add"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(lv4[v_ax0, v_ax1], B[v_ax1])
                T.writes(T_add[v_ax0, v_ax1])
                T_add[v_ax0, v_ax1] = lv4[v_ax0, v_ax1] + B[v_ax1]

    @T.prim_func(private=True, s_tir=True)
    def matmul(x: T.Buffer((batch, T.int64(16)), "float32"), B: T.Buffer((T.int64(16), T.int64(32)), "float32"), matmul: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"op_pattern": 4, "tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, k in T.grid(batch, T.int64(32), T.int64(16)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(x[v_i0, v_k], B[v_k, v_i1])
                T.writes(matmul[v_i0, v_i1])
                with T.init():
                    matmul[v_i0, v_i1] = T.float32(0.0)
                matmul[v_i0, v_i1] = matmul[v_i0, v_i1] + x[v_i0, v_k] * B[v_k, v_i1]

    @T.prim_func(private=True, s_tir=True)
    def matmul1(lv2: T.Buffer((batch, T.int64(32)), "float32"), lv3: T.Buffer((T.int64(32), T.int64(10)), "float32"), matmul: T.Buffer((batch, T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 4, "tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1, k in T.grid(batch, T.int64(10), T.int64(32)):
            with T.sblock("matmul"):
                v_i0, v_i1, v_k = T.axis.remap("SSR", [i0, i1, k])
                T.reads(lv2[v_i0, v_k], lv3[v_k, v_i1])
                T.writes(matmul[v_i0, v_i1])
                with T.init():
                    matmul[v_i0, v_i1] = T.float32(0.0)
                matmul[v_i0, v_i1] = matmul[v_i0, v_i1] + lv2[v_i0, v_k] * lv3[v_k, v_i1]

    @T.prim_func(private=True, s_tir=True)
    def relu(lv1: T.Buffer((batch, T.int64(32)), "float32"), compute: T.Buffer((batch, T.int64(32)), "float32")):
        T.func_attr({"op_pattern": 0, "tirx.noalias": True})
        # with T.sblock("root"):
        for i0, i1 in T.grid(batch, T.int64(32)):
            with T.sblock("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv1[v_i0, v_i1])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.max(lv1[v_i0, v_i1], T.float32(0.0))

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

    @T.prim_func(private=True, s_tir=True)
    def transpose(A: T.Buffer((T.int64(10), T.int64(32)), "float32"), T_transpose: T.Buffer((T.int64(32), T.int64(10)), "float32")):
        T.func_attr({"op_pattern": 2, "tirx.noalias": True})
        # with T.sblock("root"):
        for ax0, ax1 in T.grid(T.int64(32), T.int64(10)):
            with T.sblock("T_transpose"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(A[v_ax1, v_ax0])
                T.writes(T_transpose[v_ax0, v_ax1])
                T_transpose[v_ax0, v_ax1] = A[v_ax1, v_ax0]

    @R.function(private=True)
    def fused_matmul1_add1(lv2: R.Tensor((batch, 32), dtype="float32"), param_0: R.Tensor((32, 10), dtype="float32"), param_1: R.Tensor((10,), dtype="float32")) -> R.Tensor((batch, 10), dtype="float32"):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv4 = R.call_tir(cls.matmul1, (lv2, param_0), out_ty=R.Tensor((batch, 10), dtype="float32"))
            gv = R.call_tir(cls.add1, (lv4, param_1), out_ty=R.Tensor((batch, 10), dtype="float32"))
            R.output(gv)
        return gv

    @R.function(private=True)
    def fused_matmul_add_relu(x: R.Tensor((batch, 16), dtype="float32"), param_0: R.Tensor((16, 32), dtype="float32"), param_1: R.Tensor((32,), dtype="float32")) -> R.Tensor((batch, 32), dtype="float32"):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.matmul, (x, param_0), out_ty=R.Tensor((batch, 32), dtype="float32"))
            lv1 = R.call_tir(cls.add, (lv, param_1), out_ty=R.Tensor((batch, 32), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv1,), out_ty=R.Tensor((batch, 32), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((batch, 16), dtype="float32")) -> R.Tensor((batch, 10), dtype="float32"):
        R.func_attr({"num_input": 1})
        cls = Module
        with R.dataflow():
            lv: R.Tensor((batch, 32), dtype="float32") = cls.fused_matmul_add_relu(x, metadata["ir.GenericConst"][0], metadata["ir.GenericConst"][1])
            lv1: R.Tensor((batch, 10), dtype="float32") = cls.fused_matmul1_add1(lv, metadata["ir.GenericConst"][2], metadata["ir.GenericConst"][3])
            gv = R.call_tir(cls.softmax, (lv1,), out_ty=R.Tensor((batch, 10), dtype="float32"))
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.