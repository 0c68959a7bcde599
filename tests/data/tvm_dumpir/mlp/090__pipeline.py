# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis
# from tvm.script import relax as R

batch = TypeVar("batch")
@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
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

    @T.prim_func(s_tir=True)
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

    @T.prim_func(s_tir=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"tirx.is_host_func": True})
        H[T.int64(3)] = T.int64(4) * H[T.int64(0)] * T.int64(10)
        H[T.int64(2)] = T.int64(40) * H[T.int64(0)]
        H[T.int64(1)] = T.int64(128) * H[T.int64(0)]

    @T.prim_func(s_tir=True)
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
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (4,), ty_args=(R.Tensor(dtype="int64", ndim=1),))
        R.call_packed("vm.builtin.check_tensor_info", x, 2, R.dtype("float32"), R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((batch, 16), dtype=\"float32\")) "), ty_args=(R.Tuple,))
        R.call_packed("vm.builtin.match_shape", x, shape_heap, 2, 1, 0, 0, 16, R.str("ErrorContext(fn=main, loc=param[0], param=x, annotation=R.Tensor((batch, 16), dtype=\"float32\")) "), ty_args=(R.Tuple,))
        cls.shape_func(shape_heap)
        gv: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, 1, 1, 1, ty_args=(R.Shape(ndim=1),))
        storage: R.Any = R.vm.alloc_storage(gv, 0, R.dtype("uint8"), R.str("global"))
        gv1: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, 2, 1, 0, 0, 32, ty_args=(R.Shape(ndim=2),))
        alloc: R.Tensor(dtype="float32", ndim=2) = R.vm.alloc_tensor(storage, 0, gv1, R.dtype("float32"), 0)
        R.vm.kill_object(storage)
        cls.fused_matmul_add_relu(x, metadata["ir.GenericConst"][0], metadata["ir.GenericConst"][1], alloc)
        gv2: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, 1, 1, 2, ty_args=(R.Shape(ndim=1),))
        storage1: R.Any = R.vm.alloc_storage(gv2, 0, R.dtype("uint8"), R.str("global"))
        gv3: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, 2, 1, 0, 0, 10, ty_args=(R.Shape(ndim=2),))
        alloc1: R.Tensor(dtype="float32", ndim=2) = R.vm.alloc_tensor(storage1, 0, gv3, R.dtype("float32"), 0)
        R.vm.kill_object(storage1)
        cls.fused_matmul1_add1(alloc, metadata["ir.GenericConst"][2], metadata["ir.GenericConst"][3], alloc1)
        R.vm.kill_object(alloc)
        gv4: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, 1, 1, 3, ty_args=(R.Shape(ndim=1),))
        storage_1: R.Any = R.vm.alloc_storage(gv4, 0, R.dtype("uint8"), R.str("global"))
        gv5: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, 2, 1, 0, 0, 10, ty_args=(R.Shape(ndim=2),))
        alloc2: R.Tensor(dtype="float32", ndim=2) = R.vm.alloc_tensor(storage_1, 0, gv5, R.dtype("float32"), 0)
        R.vm.kill_object(storage_1)
        cls.softmax(alloc1, alloc2)
        R.vm.kill_object(alloc1)
        R.call_packed("vm.builtin.match_shape", alloc2, shape_heap, 2, 3, 0, 0, 10, R.str("ErrorContext(fn=main, loc=return, annotation=R.Tensor((batch, 10), dtype=\"float32\")) "), ty_args=(R.Tuple,))
        return alloc2

# Metadata omitted. Use show_meta=True in script() method to show it.