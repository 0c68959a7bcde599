class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[256, 512]", arg1_1: "f32[8, 256]", arg2_1: "f32[512]", arg3_1: "f32[512, 128]", arg4_1: "f32[128]"):
        # File: /work/main/.venv-peers/inductor/lib/python3.11/site-packages/onnx2torch/node_converters/matmul.py:18 in forward, code: return torch.matmul(x, y)
        mm: "f32[8, 512]" = torch.ops.aten.mm.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None

        # File: /work/main/.venv-peers/inductor/lib/python3.11/site-packages/onnx2torch/node_converters/binary_math_operations.py:50 in forward, code: return self.math_op_function(first, second)
        add: "f32[8, 512]" = torch.ops.aten.add.Tensor(mm, arg2_1);  mm = arg2_1 = None

        # File: <eval_with_key>.0:9 in forward, code: relu = self.relu(fc1_bias);  fc1_bias = None
        relu: "f32[8, 512]" = torch.ops.aten.relu.default(add);  add = None

        # File: /work/main/.venv-peers/inductor/lib/python3.11/site-packages/onnx2torch/node_converters/matmul.py:18 in forward, code: return torch.matmul(x, y)
        mm_1: "f32[8, 128]" = torch.ops.aten.mm.default(relu, arg3_1);  relu = arg3_1 = None

        # File: /work/main/.venv-peers/inductor/lib/python3.11/site-packages/onnx2torch/node_converters/binary_math_operations.py:50 in forward, code: return self.math_op_function(first, second)
        add_1: "f32[8, 128]" = torch.ops.aten.add.Tensor(mm_1, arg4_1);  mm_1 = arg4_1 = None
        return (add_1,)
