class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 3, 3, 3]", primals_3: "f32[4, 3, 16, 16]", primals_7: "f32[8]", primals_8: "f32[8]", primals_9: "f32[10, 512]", convolution: "f32[4, 8, 16, 16]", getitem_1: "f32[1, 8, 1, 1]", rsqrt: "f32[1, 8, 1, 1]", getitem_3: "i8[4, 8, 8, 8]", view: "f32[4, 512]", sub_2: "f32[4, 10]", tangents_1: "f32[4, 10]"):
        # No stacktrace found for following nodes
        sum_2: "f32[4, 1]" = torch.ops.aten.sum.dim_IntList(tangents_1, [-1], True)
        exp_1: "f32[4, 10]" = torch.ops.aten.exp.default(sub_2);  sub_2 = None
        mul_7: "f32[4, 10]" = torch.ops.aten.mul.Tensor(exp_1, sum_2);  exp_1 = sum_2 = None
        sub_3: "f32[4, 10]" = torch.ops.aten.sub.Tensor(tangents_1, mul_7);  tangents_1 = mul_7 = None
        permute: "f32[512, 10]" = torch.ops.aten.permute.default(primals_9, [1, 0]);  primals_9 = None
        permute_1: "f32[10, 512]" = torch.ops.aten.permute.default(permute, [1, 0]);  permute = None
        mm: "f32[4, 512]" = torch.ops.aten.mm.default(sub_3, permute_1);  permute_1 = None
        permute_2: "f32[10, 4]" = torch.ops.aten.permute.default(sub_3, [1, 0])
        mm_1: "f32[10, 512]" = torch.ops.aten.mm.default(permute_2, view);  permute_2 = view = None
        sum_3: "f32[1, 10]" = torch.ops.aten.sum.dim_IntList(sub_3, [0], True);  sub_3 = None
        view_1: "f32[10]" = torch.ops.aten.reshape.default(sum_3, [10]);  sum_3 = None
        view_2: "f32[4, 8, 8, 8]" = torch.ops.aten.reshape.default(mm, [4, 8, 8, 8]);  mm = None
        full_default: "f32[32, 256]" = torch.ops.aten.full.default([32, 256], 0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        view_3: "f32[32, 64]" = torch.ops.aten.reshape.default(view_2, [32, 64]);  view_2 = None
        _low_memory_max_pool_offsets_to_indices: "i64[4, 8, 8, 8]" = torch.ops.prims._low_memory_max_pool_offsets_to_indices.default(getitem_3, [2, 2], [16, 16], [2, 2], [0, 0], [1, 1]);  getitem_3 = None
        view_4: "i64[32, 64]" = torch.ops.aten.reshape.default(_low_memory_max_pool_offsets_to_indices, [32, 64]);  _low_memory_max_pool_offsets_to_indices = None
        scatter_add: "f32[32, 256]" = torch.ops.aten.scatter_add.default(full_default, 1, view_4, view_3);  full_default = view_4 = view_3 = None
        view_5: "f32[4, 8, 16, 16]" = torch.ops.aten.reshape.default(scatter_add, [4, 8, 16, 16]);  scatter_add = None
        sub: "f32[4, 8, 16, 16]" = torch.ops.aten.sub.Tensor(convolution, getitem_1)
        mul: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        unsqueeze: "f32[8, 1]" = torch.ops.aten.unsqueeze.default(primals_7, -1)
        unsqueeze_1: "f32[8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze, -1);  unsqueeze = None
        mul_6: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(mul, unsqueeze_1);  mul = unsqueeze_1 = None
        unsqueeze_2: "f32[8, 1]" = torch.ops.aten.unsqueeze.default(primals_8, -1);  primals_8 = None
        unsqueeze_3: "f32[8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, -1);  unsqueeze_2 = None
        add_4: "f32[4, 8, 16, 16]" = torch.ops.aten.add.Tensor(mul_6, unsqueeze_3);  mul_6 = unsqueeze_3 = None
        relu: "f32[4, 8, 16, 16]" = torch.ops.aten.relu.default(add_4);  add_4 = None
        le: "b8[4, 8, 16, 16]" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        full_default_1: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        where: "f32[4, 8, 16, 16]" = torch.ops.aten.where.self(le, full_default_1, view_5);  le = full_default_1 = view_5 = None
        squeeze: "f32[8]" = torch.ops.aten.squeeze.dims(getitem_1, [0, 2, 3]);  getitem_1 = None
        unsqueeze_4: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(squeeze, 0);  squeeze = None
        unsqueeze_5: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 2);  unsqueeze_4 = None
        unsqueeze_6: "f32[1, 8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 3);  unsqueeze_5 = None
        sum_4: "f32[8]" = torch.ops.aten.sum.dim_IntList(where, [0, 2, 3])
        sub_4: "f32[4, 8, 16, 16]" = torch.ops.aten.sub.Tensor(convolution, unsqueeze_6);  convolution = unsqueeze_6 = None
        mul_8: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(where, sub_4)
        sum_5: "f32[8]" = torch.ops.aten.sum.dim_IntList(mul_8, [0, 2, 3]);  mul_8 = None
        mul_9: "f32[8]" = torch.ops.aten.mul.Tensor(sum_4, 0.0009765625)
        unsqueeze_7: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(mul_9, 0);  mul_9 = None
        unsqueeze_8: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 2);  unsqueeze_7 = None
        unsqueeze_9: "f32[1, 8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_8, 3);  unsqueeze_8 = None
        mul_10: "f32[8]" = torch.ops.aten.mul.Tensor(sum_5, 0.0009765625)
        squeeze_1: "f32[8]" = torch.ops.aten.squeeze.dims(rsqrt, [0, 2, 3]);  rsqrt = None
        mul_11: "f32[8]" = torch.ops.aten.mul.Tensor(squeeze_1, squeeze_1)
        mul_12: "f32[8]" = torch.ops.aten.mul.Tensor(mul_10, mul_11);  mul_10 = mul_11 = None
        unsqueeze_10: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(mul_12, 0);  mul_12 = None
        unsqueeze_11: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_10, 2);  unsqueeze_10 = None
        unsqueeze_12: "f32[1, 8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_11, 3);  unsqueeze_11 = None
        mul_13: "f32[8]" = torch.ops.aten.mul.Tensor(squeeze_1, primals_7);  primals_7 = None
        unsqueeze_13: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(mul_13, 0);  mul_13 = None
        unsqueeze_14: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_13, 2);  unsqueeze_13 = None
        unsqueeze_15: "f32[1, 8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_14, 3);  unsqueeze_14 = None
        mul_14: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(sub_4, unsqueeze_12);  sub_4 = unsqueeze_12 = None
        sub_6: "f32[4, 8, 16, 16]" = torch.ops.aten.sub.Tensor(where, mul_14);  where = mul_14 = None
        sub_7: "f32[4, 8, 16, 16]" = torch.ops.aten.sub.Tensor(sub_6, unsqueeze_9);  sub_6 = unsqueeze_9 = None
        mul_15: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(sub_7, unsqueeze_15);  sub_7 = unsqueeze_15 = None
        mul_16: "f32[8]" = torch.ops.aten.mul.Tensor(sum_5, squeeze_1);  sum_5 = squeeze_1 = None
        convolution_backward = torch.ops.aten.convolution_backward.default(mul_15, primals_3, primals_1, [8], [1, 1], [1, 1], [1, 1], False, [0, 0], 1, [False, True, True]);  mul_15 = primals_3 = primals_1 = None
        getitem_5: "f32[8, 3, 3, 3]" = convolution_backward[1]
        getitem_6: "f32[8]" = convolution_backward[2];  convolution_backward = None
        return (getitem_5, getitem_6, None, None, None, None, mul_16, sum_4, mm_1, view_1)
