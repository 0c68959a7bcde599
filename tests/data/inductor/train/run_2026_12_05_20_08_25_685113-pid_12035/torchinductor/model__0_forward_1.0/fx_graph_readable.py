class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8, 3, 3, 3]", primals_2: "f32[8]", primals_3: "f32[4, 3, 16, 16]", primals_4: "i64[]", primals_5: "f32[8]", primals_6: "f32[8]", primals_7: "f32[8]", primals_8: "f32[8]", primals_9: "f32[10, 512]", primals_10: "f32[10]"):
        # No stacktrace found for following nodes
        convolution: "f32[4, 8, 16, 16]" = torch.ops.aten.convolution.default(primals_3, primals_1, primals_2, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  primals_2 = None
        add: "i64[]" = torch.ops.aten.add.Tensor(primals_4, 1)
        var_mean = torch.ops.aten.var_mean.correction(convolution, [0, 2, 3], correction = 0, keepdim = True)
        getitem: "f32[1, 8, 1, 1]" = var_mean[0]
        getitem_1: "f32[1, 8, 1, 1]" = var_mean[1];  var_mean = None
        add_1: "f32[1, 8, 1, 1]" = torch.ops.aten.add.Tensor(getitem, 1e-05)
        rsqrt: "f32[1, 8, 1, 1]" = torch.ops.aten.rsqrt.default(add_1);  add_1 = None
        sub: "f32[4, 8, 16, 16]" = torch.ops.aten.sub.Tensor(convolution, getitem_1)
        mul: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(sub, rsqrt);  sub = None
        squeeze: "f32[8]" = torch.ops.aten.squeeze.dims(getitem_1, [0, 2, 3])
        mul_1: "f32[8]" = torch.ops.aten.mul.Tensor(squeeze, 0.1);  squeeze = None
        mul_2: "f32[8]" = torch.ops.aten.mul.Tensor(primals_5, 0.9)
        add_2: "f32[8]" = torch.ops.aten.add.Tensor(mul_1, mul_2);  mul_1 = mul_2 = None
        squeeze_2: "f32[8]" = torch.ops.aten.squeeze.dims(getitem, [0, 2, 3]);  getitem = None
        mul_3: "f32[8]" = torch.ops.aten.mul.Tensor(squeeze_2, 1.0009775171065494);  squeeze_2 = None
        mul_4: "f32[8]" = torch.ops.aten.mul.Tensor(mul_3, 0.1);  mul_3 = None
        mul_5: "f32[8]" = torch.ops.aten.mul.Tensor(primals_6, 0.9)
        add_3: "f32[8]" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None
        unsqueeze: "f32[8, 1]" = torch.ops.aten.unsqueeze.default(primals_7, -1)
        unsqueeze_1: "f32[8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze, -1);  unsqueeze = None
        mul_6: "f32[4, 8, 16, 16]" = torch.ops.aten.mul.Tensor(mul, unsqueeze_1);  mul = unsqueeze_1 = None
        unsqueeze_2: "f32[8, 1]" = torch.ops.aten.unsqueeze.default(primals_8, -1)
        unsqueeze_3: "f32[8, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, -1);  unsqueeze_2 = None
        add_4: "f32[4, 8, 16, 16]" = torch.ops.aten.add.Tensor(mul_6, unsqueeze_3);  mul_6 = unsqueeze_3 = None
        relu: "f32[4, 8, 16, 16]" = torch.ops.aten.relu.default(add_4);  add_4 = None
        _low_memory_max_pool_with_offsets = torch.ops.prims._low_memory_max_pool_with_offsets.default(relu, [2, 2], [2, 2], [0, 0], [1, 1], False);  relu = None
        getitem_2: "f32[4, 8, 8, 8]" = _low_memory_max_pool_with_offsets[0]
        getitem_3: "i8[4, 8, 8, 8]" = _low_memory_max_pool_with_offsets[1];  _low_memory_max_pool_with_offsets = None
        view: "f32[4, 512]" = torch.ops.aten.view.default(getitem_2, [4, 512]);  getitem_2 = None
        permute: "f32[512, 10]" = torch.ops.aten.permute.default(primals_9, [1, 0])
        addmm: "f32[4, 10]" = torch.ops.aten.addmm.default(primals_10, view, permute);  primals_10 = permute = None
        amax: "f32[4, 1]" = torch.ops.aten.amax.default(addmm, [-1], True)
        sub_1: "f32[4, 10]" = torch.ops.aten.sub.Tensor(addmm, amax);  addmm = amax = None
        exp: "f32[4, 10]" = torch.ops.aten.exp.default(sub_1)
        sum_1: "f32[4, 1]" = torch.ops.aten.sum.dim_IntList(exp, [-1], True);  exp = None
        log: "f32[4, 1]" = torch.ops.aten.log.default(sum_1);  sum_1 = None
        sub_2: "f32[4, 10]" = torch.ops.aten.sub.Tensor(sub_1, log);  sub_1 = log = None
        copy_: "i64[]" = torch.ops.aten.copy_.default(primals_4, add);  primals_4 = add = copy_ = None
        copy__1: "f32[8]" = torch.ops.aten.copy_.default(primals_5, add_2);  primals_5 = add_2 = copy__1 = None
        copy__2: "f32[8]" = torch.ops.aten.copy_.default(primals_6, add_3);  primals_6 = add_3 = copy__2 = None
        return (sub_2, primals_1, primals_3, primals_7, primals_8, primals_9, convolution, getitem_1, rsqrt, getitem_3, view, sub_2)
