# from typing import TypeVar
# from tvm.script import ir as I
# from tvm.script import relax as R

batch = TypeVar("batch")
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((batch, 16), dtype="float32")) -> R.Tensor((batch, 10), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            lv: R.Tensor((batch, 32), dtype="float32") = R.matmul(x, metadata["ir.GenericConst"][0], out_dtype=None)
            lv1: R.Tensor((batch, 32), dtype="float32") = R.add(lv, metadata["ir.GenericConst"][1])
            lv2: R.Tensor((batch, 32), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((32, 10), dtype="float32") = R.permute_dims(metadata["ir.GenericConst"][2], axes=[1, 0])
            lv4: R.Tensor((batch, 10), dtype="float32") = R.matmul(lv2, lv3, out_dtype=None)
            lv5: R.Tensor((batch, 10), dtype="float32") = R.add(lv4, metadata["ir.GenericConst"][3])
            gv: R.Tensor((batch, 10), dtype="float32") = R.nn.softmax(lv5, axis=-1)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.