module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "emeraldrapids", cpu_features = "+adx,+aes,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+f16c,+fma,+fsgsbase,+fxsr,+gfni,+invpcid,+lzcnt,+mmx,+movbe,+movdir64b,+movdiri,+pclmul,+pconfig,+pku,+popcnt,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sgx,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+uintr,+vaes,+vpclmulqdq,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves,+64bit,+adx,+aes,-amx-avx512,-amx-bf16,-amx-complex,-amx-fp16,-amx-fp8,-amx-int8,-amx-movrs,-amx-tile,+avx,-avx10.1,-avx10.2,-avx10v2aux,+avx2,+avx512bf16,+avx512bitalg,-avx512bmm,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,-avx512vp2intersect,+avx512vpopcntdq,-avxifma,-avxneconvert,+avxvnni,-avxvnniint16,-avxvnniint8,+bmi,+bmi2,-ccmp,-cf,+cldemote,+clflushopt,+clwb,-clzero,+cmov,-cmpccxadd,+crc32,+cx16,+cx8,-egpr,-enqcmd,+f16c,+fma,-fma4,+fsgsbase,+fxsr,+gfni,-hreset,+invpcid,-jmpabs,-kl,-lwp,+lzcnt,+mmx,+movbe,+movdir64b,+movdiri,-movrs,-mwaitx,-ndd,-nf,+pclmul,-pconfig,-pku,+popcnt,-ppx,-prefetchi,+prfchw,-ptwrite,-push2pop2,-raoint,+rdpid,-rdpru,+rdrnd,+rdseed,+rtm,+sahf,+serialize,-sgx,+sha,-sha512,-shstk,-sm3,-sm4,+sse,+sse2,+sse3,+sse4.1,+sse4.2,-sse4a,+ssse3,-tbm,+tsxldtrk,-uintr,-usermsr,+vaes,+vpclmulqdq,-waitpkg,-wbnoinvd,-widekl,-xop,+xsave,+xsavec,+xsaveopt,+xsaves,-zu", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 64 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device loc(unknown)
  flow.executable private @bert_layer$async_dispatch_0 {
    flow.executable.export public @bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("q_matmul")
      flow.return %x, %y, %z : index, index, index loc("q_matmul")
    } loc("q_matmul")
    builtin.module {
      func.func @bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("x"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("q_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("q_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc("q_matmul")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc("q_matmul")
        %2 = tensor.empty() : tensor<1x32x192xf32> loc("q_matmul")
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("q_matmul")
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%3 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("q_matmul")
        iree_tensor_ext.dispatch.tensor.store %4, %arg2, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("q_matmul")
        return loc("q_matmul")
      } loc("q_matmul")
    } loc("q_matmul")
  } loc("q_matmul")
  flow.executable private @bert_layer$async_dispatch_1 {
    flow.executable.export public @bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("q_bias")
      flow.return %x, %y, %z : index, index, index loc("q_bias")
    } loc("q_bias")
    builtin.module {
      func.func @bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> loc("q_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> loc("q_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc("q_bias")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [32, 4, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> -> tensor<32x4x48xf32> loc("q_bias")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0], sizes = [4, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> -> tensor<4x48xf32> loc("q_bias")
        %2 = tensor.empty() : tensor<4x32x48xf32> loc("q_heads")
        %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %1 : tensor<32x4x48xf32>, tensor<4x48xf32>) outs(%2 : tensor<4x32x48xf32>) {
        ^bb0(%in: f32 loc("q_matmul"), %in_0: f32 loc("q_bias"), %out: f32 loc("q_bias")):
          %4 = arith.addf %in, %in_0 : f32 loc("q_bias")
          linalg.yield %4 : f32 loc("q_bias")
        } -> tensor<4x32x48xf32> loc("q_bias")
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : tensor<4x32x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc("q_bias")
        return loc("q_bias")
      } loc("q_bias")
    } loc("q_bias")
  } loc("q_bias")
  flow.executable private @bert_layer$async_dispatch_3 {
    flow.executable.export public @bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("k_bias")
      flow.return %x, %y, %z : index, index, index loc("k_bias")
    } loc("k_bias")
    builtin.module {
      func.func @bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("k_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("k_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<192x32xf32>> loc("k_bias")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc("k_bias")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc("k_bias")
        %2 = tensor.empty() : tensor<192x32xf32> loc("k_bias")
        %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<32x192xf32>, tensor<192xf32>) outs(%2 : tensor<192x32xf32>) {
        ^bb0(%in: f32 loc("k_bias"), %in_0: f32 loc("k_bias"), %out: f32 loc("k_bias")):
          %4 = arith.addf %in, %in_0 : f32 loc("k_bias")
          linalg.yield %4 : f32 loc("k_bias")
        } -> tensor<192x32xf32> loc("k_bias")
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0], sizes = [192, 32], strides = [1, 1] : tensor<192x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<192x32xf32>> loc("k_bias")
        return loc("k_bias")
      } loc("k_bias")
    } loc("k_bias")
  } loc("k_bias")
  flow.executable private @bert_layer$async_dispatch_6 {
    flow.executable.export public @bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_scores")
      flow.return %x, %y, %z : index, index, index loc("attn_scores")
    } loc("attn_scores")
    builtin.module {
      func.func @bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> loc("q_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48x32xf32>> loc("k_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_scores")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %cst_0 = arith.constant 0.144337565 : f32 loc("attn_scale_mul")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> -> tensor<4x32x48xf32> loc("attn_scores")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [4, 48, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48x32xf32>> -> tensor<4x48x32xf32> loc("attn_scores")
        %2 = tensor.empty() : tensor<4x32x32xf32> loc("attn_scores")
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc("attn_scores")
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<4x32x48xf32>, tensor<4x48x32xf32>) outs(%3 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc("attn_scores")
        %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<4x32x32xf32>) outs(%2 : tensor<4x32x32xf32>) {
        ^bb0(%in: f32 loc("attn_scores"), %out: f32 loc("attn_scale_mul")):
          %6 = arith.mulf %in, %cst_0 : f32 loc("attn_scale_mul")
          linalg.yield %6 : f32 loc("attn_scale_mul")
        } -> tensor<4x32x32xf32> loc(fused["attn_scale_mul", "attn_scores"])
        iree_tensor_ext.dispatch.tensor.store %5, %arg2, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : tensor<4x32x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_scores")
        return loc("attn_scores")
      } loc("attn_scores")
    } loc("attn_scores")
  } loc("attn_scores")
  flow.executable private @bert_layer$async_dispatch_7 {
    flow.executable.export public @bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_softmax")
      flow.return %x, %y, %z : index, index, index loc("attn_softmax")
    } loc("attn_softmax")
    builtin.module {
      func.func @bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> loc("attn_scores"), %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_softmax")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> -> tensor<4x32x32xf32> loc("attn_softmax")
        %1 = tensor.empty() : tensor<4x32x32xf32> loc("attn_scores")
        %2 = linalg.softmax dimension(2) ins(%0 : tensor<4x32x32xf32>) outs(%1 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc("attn_softmax")
        iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : tensor<4x32x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_softmax")
        return loc("attn_softmax")
      } loc("attn_softmax")
    } loc("attn_softmax")
  } loc("attn_softmax")
  flow.executable private @bert_layer$async_dispatch_8 {
    flow.executable.export public @bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_context")
      flow.return %x, %y, %z : index, index, index loc("attn_context")
    } loc("attn_context")
    builtin.module {
      func.func @bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> loc("attn_softmax"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> loc("v_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x4x48xf32>> loc("attn_context")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> -> tensor<4x32x32xf32> loc("attn_context")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> -> tensor<4x32x48xf32> loc("attn_context")
        %2 = tensor.empty() : tensor<32x4x48xf32> loc("attn_context_t")
        %3 = tensor.empty() : tensor<4x32x48xf32> loc("q_heads")
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32> loc("attn_context")
        %5 = linalg.batch_matmul ins(%0, %1 : tensor<4x32x32xf32>, tensor<4x32x48xf32>) outs(%4 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32> loc("attn_context")
        %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<4x32x48xf32>) outs(%2 : tensor<32x4x48xf32>) {
        ^bb0(%in: f32 loc("attn_context_t"), %out: f32 loc("attn_context_t")):
          linalg.yield %in : f32 loc("attn_context_t")
        } -> tensor<32x4x48xf32> loc("attn_context_t")
        iree_tensor_ext.dispatch.tensor.store %6, %arg2, offsets = [0, 0, 0], sizes = [32, 4, 48], strides = [1, 1, 1] : tensor<32x4x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x4x48xf32>> loc("attn_context")
        return loc("attn_context")
      } loc("attn_context")
    } loc("attn_context")
  } loc("attn_context")
  flow.executable private @bert_layer$async_dispatch_9 {
    flow.executable.export public @bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_out_matmul")
      flow.return %x, %y, %z : index, index, index loc("attn_out_matmul")
    } loc("attn_out_matmul")
    builtin.module {
      func.func @bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_merge"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("attn_out_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_out_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_residual"), %arg4: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("attn_out_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc("attn_out_matmul")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc("attn_out_matmul")
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc("attn_out_matmul")
        %3 = iree_tensor_ext.dispatch.tensor.load %arg3, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc("attn_out_matmul")
        %4 = tensor.empty() : tensor<1x32x192xf32> loc("q_matmul")
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("q_matmul")
        %6 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%5 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("attn_out_matmul")
        %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %2, %3 : tensor<1x32x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) outs(%4 : tensor<1x32x192xf32>) {
        ^bb0(%in: f32 loc("attn_out_matmul"), %in_0: f32 loc("attn_out_bias"), %in_1: f32 loc("q_matmul"), %out: f32 loc("attn_residual")):
          %8 = arith.addf %in, %in_0 : f32 loc("attn_out_bias")
          %9 = arith.addf %8, %in_1 : f32 loc("attn_residual")
          linalg.yield %9 : f32 loc("attn_residual")
        } -> tensor<1x32x192xf32> loc("attn_residual")
        iree_tensor_ext.dispatch.tensor.store %7, %arg4, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("attn_out_matmul")
        return loc("attn_out_matmul")
      } loc("attn_out_matmul")
    } loc("attn_out_matmul")
  } loc("attn_out_matmul")
  flow.executable private @bert_layer$async_dispatch_10 {
    flow.executable.export public @bert_layer$async_dispatch_10_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_norm")
      flow.return %x, %y, %z : index, index, index loc("attn_norm")
    } loc("attn_norm")
    builtin.module {
      func.func @bert_layer$async_dispatch_10_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("attn_residual"), %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(unknown)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc("attn_norm")
        %1 = tensor.empty() : tensor<32x192xf32> loc("attn_norm")
        %2 = tensor.empty() : tensor<32xf32> loc("attn_norm")
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<32xf32>) -> tensor<32xf32> loc("attn_norm")
        %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%3 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("attn_residual"), %out: f32 loc("attn_norm")):
          %6 = arith.addf %in, %out : f32 loc("attn_norm")
          linalg.yield %6 : f32 loc("attn_norm")
        } -> tensor<32xf32> loc("attn_norm")
        %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %4 : tensor<32x192xf32>, tensor<32xf32>) outs(%1 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %in_1: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %6 = arith.divf %in_1, %cst_0 : f32 loc("attn_norm")
          %7 = arith.subf %in, %6 : f32 loc("attn_norm")
          linalg.yield %7 : f32 loc("attn_norm")
        } -> tensor<32x192xf32> loc("attn_norm")
        iree_tensor_ext.dispatch.tensor.store %5, %arg1, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")
        return loc("attn_norm")
      } loc("attn_norm")
    } loc("attn_norm")
  } loc("attn_norm")
  flow.executable private @bert_layer$async_dispatch_11 {
    flow.executable.export public @bert_layer$async_dispatch_11_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("attn_norm")
      flow.return %x, %y, %z : index, index, index loc("attn_norm")
    } loc("attn_norm")
    builtin.module {
      func.func @bert_layer$async_dispatch_11_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("attn_norm"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_norm"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_norm"), %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(unknown)
        %cst_1 = arith.constant 9.99999974E-6 : f32 loc(unknown)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc("attn_norm")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc("attn_norm")
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc("attn_norm")
        %3 = tensor.empty() : tensor<32x192xf32> loc("attn_norm")
        %4 = tensor.empty() : tensor<32xf32> loc("attn_norm")
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<32xf32>) -> tensor<32xf32> loc("attn_norm")
        %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%5 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %8 = arith.mulf %in, %in : f32 loc("attn_norm")
          %9 = arith.addf %8, %out : f32 loc("attn_norm")
          linalg.yield %9 : f32 loc("attn_norm")
        } -> tensor<32xf32> loc("attn_norm")
        %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %6, %1, %2 : tensor<32x192xf32>, tensor<32xf32>, tensor<192xf32>, tensor<192xf32>) outs(%3 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %in_2: f32 loc("attn_norm"), %in_3: f32 loc("attn_norm"), %in_4: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %8 = arith.divf %in_2, %cst_0 : f32 loc("attn_norm")
          %9 = arith.addf %8, %cst_1 : f32 loc("attn_norm")
          %10 = math.rsqrt %9 : f32 loc("attn_norm")
          %11 = arith.mulf %in, %10 : f32 loc("attn_norm")
          %12 = arith.mulf %11, %in_3 : f32 loc("attn_norm")
          %13 = arith.addf %12, %in_4 : f32 loc("attn_norm")
          linalg.yield %13 : f32 loc("attn_norm")
        } -> tensor<32x192xf32> loc("attn_norm")
        iree_tensor_ext.dispatch.tensor.store %7, %arg3, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")
        return loc("attn_norm")
      } loc("attn_norm")
    } loc("attn_norm")
  } loc("attn_norm")
  flow.executable private @bert_layer$async_dispatch_12 {
    flow.executable.export public @bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("ffn_up_matmul")
      flow.return %x, %y, %z : index, index, index loc("ffn_up_matmul")
    } loc("ffn_up_matmul")
    builtin.module {
      func.func @bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_norm"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x768xf32>> loc("ffn_up_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<768xf32>> loc("ffn_up_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x768xf32>> loc("ffn_up_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %cst_0 = arith.constant 0.707106769 : f32 loc("gelu_scale")
        %cst_1 = arith.constant 1.000000e+00 : f32 loc("gelu_one_plus")
        %cst_2 = arith.constant 5.000000e-01 : f32 loc("gelu_half")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc("ffn_up_matmul")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 768], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x768xf32>> -> tensor<1x192x768xf32> loc("ffn_up_matmul")
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [768], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<768xf32>> -> tensor<768xf32> loc("ffn_up_matmul")
        %3 = tensor.empty() : tensor<1x32x768xf32> loc("ffn_up_matmul")
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<1x32x768xf32>) -> tensor<1x32x768xf32> loc("ffn_up_matmul")
        %5 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x768xf32>) outs(%4 : tensor<1x32x768xf32>) -> tensor<1x32x768xf32> loc("ffn_up_matmul")
        %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %2 : tensor<1x32x768xf32>, tensor<768xf32>) outs(%3 : tensor<1x32x768xf32>) {
        ^bb0(%in: f32 loc("ffn_up_matmul"), %in_3: f32 loc("ffn_up_bias"), %out: f32 loc("ffn_up_bias")):
          %7 = arith.addf %in, %in_3 : f32 loc("ffn_up_bias")
          %8 = arith.mulf %7, %cst_0 : f32 loc("gelu_scale")
          %9 = math.erf %8 : f32 loc("gelu_erf")
          %10 = arith.addf %9, %cst_1 : f32 loc("gelu_one_plus")
          %11 = arith.mulf %7, %10 : f32 loc("gelu_mul")
          %12 = arith.mulf %11, %cst_2 : f32 loc("gelu_half")
          linalg.yield %12 : f32 loc(fused["gelu_half", "ffn_up_bias", "gelu_one_plus", "gelu_scale"])
        } -> tensor<1x32x768xf32> loc(fused["gelu_half", "ffn_up_bias", "gelu_one_plus", "gelu_scale"])
        iree_tensor_ext.dispatch.tensor.store %6, %arg3, offsets = [0, 0, 0], sizes = [1, 32, 768], strides = [1, 1, 1] : tensor<1x32x768xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x768xf32>> loc("ffn_up_matmul")
        return loc("ffn_up_matmul")
      } loc("ffn_up_matmul")
    } loc("ffn_up_matmul")
  } loc("ffn_up_matmul")
  flow.executable private @bert_layer$async_dispatch_13 {
    flow.executable.export public @bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc("ffn_down_matmul")
      flow.return %x, %y, %z : index, index, index loc("ffn_down_matmul")
    } loc("ffn_down_matmul")
    builtin.module {
      func.func @bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x768xf32>> loc("ffn_up_matmul"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x768x192xf32>> loc("ffn_down_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("ffn_down_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_norm"), %arg4: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("ffn_down_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc("q_matmul")
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 768], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x768xf32>> -> tensor<1x32x768xf32> loc("ffn_down_matmul")
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 768, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x768x192xf32>> -> tensor<1x768x192xf32> loc("ffn_down_matmul")
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc("ffn_down_matmul")
        %3 = iree_tensor_ext.dispatch.tensor.load %arg3, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc("ffn_down_matmul")
        %4 = tensor.empty() : tensor<1x32x192xf32> loc("q_matmul")
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("q_matmul")
        %6 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x768xf32>, tensor<1x768x192xf32>) outs(%5 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("ffn_down_matmul")
        %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %2, %3 : tensor<1x32x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) outs(%4 : tensor<1x32x192xf32>) {
        ^bb0(%in: f32 loc("ffn_down_matmul"), %in_0: f32 loc("ffn_down_bias"), %in_1: f32 loc("attn_norm"), %out: f32 loc("ffn_residual")):
          %8 = arith.addf %in, %in_0 : f32 loc("ffn_down_bias")
          %9 = arith.addf %8, %in_1 : f32 loc("ffn_residual")
          linalg.yield %9 : f32 loc("ffn_residual")
        } -> tensor<1x32x192xf32> loc("ffn_residual")
        iree_tensor_ext.dispatch.tensor.store %7, %arg4, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("ffn_down_matmul")
        return loc("ffn_down_matmul")
      } loc("ffn_down_matmul")
    } loc("ffn_down_matmul")
  } loc("ffn_down_matmul")
  util.global private @__constant_tensor_192xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("k_bias")
  util.global private @__constant_tensor_4x48xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<4x48xf32> loc("v_bias")
  util.global private @__constant_tensor_4x48xf32_0 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<4x48xf32> loc("q_bias")
  util.global private @__constant_tensor_1x768x192xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x768x192xf32> loc("ffn_down_matmul")
  util.global private @__constant_tensor_1x192x768xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x192x768xf32> loc("ffn_up_matmul")
  util.global private @__constant_tensor_1x192x192xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x192x192xf32> loc("attn_out_matmul")
  util.global private @__constant_tensor_1x192x192xf32_1 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x192x192xf32> loc("v_matmul")
  util.global private @__constant_tensor_1x192x192xf32_2 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x192x192xf32> loc("k_matmul")
  util.global private @__constant_tensor_1x192x192xf32_3 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<1x192x192xf32> loc("q_matmul")
  util.global private @__constant_tensor_192xf32_4 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("attn_out_bias")
  util.global private @__constant_tensor_192xf32_5 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("attn_norm")
  util.global private @__constant_tensor_192xf32_6 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("attn_norm")
  util.global private @__constant_tensor_768xf32 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<768xf32> loc("ffn_up_bias")
  util.global private @__constant_tensor_192xf32_7 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("ffn_down_bias")
  util.global private @__constant_tensor_192xf32_8 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("ffn_norm")
  util.global private @__constant_tensor_192xf32_9 <inlining_policy = #util.inline.never> {stream.affinity.default = #hal.device.affinity<@__device_0>} = dense_resource<__elided__> : tensor<192xf32> loc("ffn_norm")
  util.func public @bert_layer$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
    %__constant_tensor_192xf32 = util.global.load immutable @__constant_tensor_192xf32 : tensor<192xf32> loc("k_bias")
    %__constant_tensor_4x48xf32 = util.global.load immutable @__constant_tensor_4x48xf32 : tensor<4x48xf32> loc("v_bias")
    %__constant_tensor_4x48xf32_0 = util.global.load immutable @__constant_tensor_4x48xf32_0 : tensor<4x48xf32> loc("q_bias")
    %__constant_tensor_1x768x192xf32 = util.global.load immutable @__constant_tensor_1x768x192xf32 : tensor<1x768x192xf32> loc("ffn_down_matmul")
    %__constant_tensor_1x192x768xf32 = util.global.load immutable @__constant_tensor_1x192x768xf32 : tensor<1x192x768xf32> loc("ffn_up_matmul")
    %__constant_tensor_1x192x192xf32 = util.global.load immutable @__constant_tensor_1x192x192xf32 : tensor<1x192x192xf32> loc("attn_out_matmul")
    %__constant_tensor_1x192x192xf32_1 = util.global.load immutable @__constant_tensor_1x192x192xf32_1 : tensor<1x192x192xf32> loc("v_matmul")
    %__constant_tensor_1x192x192xf32_2 = util.global.load immutable @__constant_tensor_1x192x192xf32_2 : tensor<1x192x192xf32> loc("k_matmul")
    %__constant_tensor_1x192x192xf32_3 = util.global.load immutable @__constant_tensor_1x192x192xf32_3 : tensor<1x192x192xf32> loc("q_matmul")
    %__constant_tensor_192xf32_4 = util.global.load immutable @__constant_tensor_192xf32_4 : tensor<192xf32> loc("attn_out_bias")
    %__constant_tensor_192xf32_5 = util.global.load immutable @__constant_tensor_192xf32_5 : tensor<192xf32> loc("attn_norm")
    %__constant_tensor_192xf32_6 = util.global.load immutable @__constant_tensor_192xf32_6 : tensor<192xf32> loc("attn_norm")
    %__constant_tensor_768xf32 = util.global.load immutable @__constant_tensor_768xf32 : tensor<768xf32> loc("ffn_up_bias")
    %__constant_tensor_192xf32_7 = util.global.load immutable @__constant_tensor_192xf32_7 : tensor<192xf32> loc("ffn_down_bias")
    %__constant_tensor_192xf32_8 = util.global.load immutable @__constant_tensor_192xf32_8 : tensor<192xf32> loc("ffn_norm")
    %__constant_tensor_192xf32_9 = util.global.load immutable @__constant_tensor_192xf32_9 : tensor<192xf32> loc("ffn_norm")
    %0 = hal.tensor.import wait(%arg1) => %arg0 : !hal.buffer_view -> tensor<1x32x192xf32> loc("x")
    %1 = flow.dispatch @bert_layer$async_dispatch_0::@bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%0, %__constant_tensor_1x192x192xf32_3) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc("q_matmul")
    %2 = flow.tensor.reshape %1 : tensor<1x32x192xf32> -> tensor<32x4x48xf32> loc("q_bias")
    %3 = flow.dispatch @bert_layer$async_dispatch_1::@bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32(%2, %__constant_tensor_4x48xf32_0) : (tensor<32x4x48xf32>, tensor<4x48xf32>) -> tensor<4x32x48xf32> loc("q_bias")
    %4 = flow.dispatch @bert_layer$async_dispatch_0::@bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%0, %__constant_tensor_1x192x192xf32_2) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc("k_matmul")
    %5 = flow.tensor.reshape %4 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc("k_bias")
    %6 = flow.dispatch @bert_layer$async_dispatch_3::@bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32(%5, %__constant_tensor_192xf32) : (tensor<32x192xf32>, tensor<192xf32>) -> tensor<192x32xf32> loc("k_bias")
    %7 = flow.tensor.reshape %6 : tensor<192x32xf32> -> tensor<4x48x32xf32> loc("k_bias")
    %8 = flow.dispatch @bert_layer$async_dispatch_0::@bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%0, %__constant_tensor_1x192x192xf32_1) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc("v_matmul")
    %9 = flow.tensor.reshape %8 : tensor<1x32x192xf32> -> tensor<32x4x48xf32> loc("v_bias")
    %10 = flow.dispatch @bert_layer$async_dispatch_1::@bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32(%9, %__constant_tensor_4x48xf32) : (tensor<32x4x48xf32>, tensor<4x48xf32>) -> tensor<4x32x48xf32> loc("v_bias")
    %11 = flow.dispatch @bert_layer$async_dispatch_6::@bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32(%3, %7) : (tensor<4x32x48xf32>, tensor<4x48x32xf32>) -> tensor<4x32x32xf32> loc("attn_scores")
    %12 = flow.dispatch @bert_layer$async_dispatch_7::@bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store(%11) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc("attn_softmax")
    %13 = flow.dispatch @bert_layer$async_dispatch_8::@bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32(%12, %10) : (tensor<4x32x32xf32>, tensor<4x32x48xf32>) -> tensor<32x4x48xf32> loc("attn_context")
    %14 = flow.tensor.reshape %13 : tensor<32x4x48xf32> -> tensor<1x32x192xf32> loc("attn_merge")
    %15 = flow.dispatch @bert_layer$async_dispatch_9::@bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32(%14, %__constant_tensor_1x192x192xf32, %__constant_tensor_192xf32_4, %0) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("attn_out_matmul")
    %16 = flow.tensor.reshape %15 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc("attn_residual")
    %17 = flow.dispatch @bert_layer$async_dispatch_10::@bert_layer$async_dispatch_10_reduction_32x192_f32(%16) : (tensor<32x192xf32>) -> tensor<32x192xf32> loc("attn_norm")
    %18 = flow.dispatch @bert_layer$async_dispatch_11::@bert_layer$async_dispatch_11_reduction_32x192_f32(%17, %__constant_tensor_192xf32_5, %__constant_tensor_192xf32_6) : (tensor<32x192xf32>, tensor<192xf32>, tensor<192xf32>) -> tensor<32x192xf32> loc("attn_norm")
    %19 = flow.tensor.reshape %18 : tensor<32x192xf32> -> tensor<1x32x192xf32> loc("attn_norm")
    %20 = flow.dispatch @bert_layer$async_dispatch_12::@bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32(%19, %__constant_tensor_1x192x768xf32, %__constant_tensor_768xf32) : (tensor<1x32x192xf32>, tensor<1x192x768xf32>, tensor<768xf32>) -> tensor<1x32x768xf32> loc("ffn_up_matmul")
    %21 = flow.dispatch @bert_layer$async_dispatch_13::@bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32(%20, %__constant_tensor_1x768x192xf32, %__constant_tensor_192xf32_7, %19) : (tensor<1x32x768xf32>, tensor<1x768x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc("ffn_down_matmul")
    %22 = flow.tensor.reshape %21 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc("ffn_residual")
    %23 = flow.dispatch @bert_layer$async_dispatch_10::@bert_layer$async_dispatch_10_reduction_32x192_f32(%22) : (tensor<32x192xf32>) -> tensor<32x192xf32> loc("ffn_norm")
    %24 = flow.dispatch @bert_layer$async_dispatch_11::@bert_layer$async_dispatch_11_reduction_32x192_f32(%23, %__constant_tensor_192xf32_8, %__constant_tensor_192xf32_9) : (tensor<32x192xf32>, tensor<192xf32>, tensor<192xf32>) -> tensor<32x192xf32> loc("ffn_norm")
    %25 = flow.tensor.reshape %24 : tensor<32x192xf32> -> tensor<1x32x192xf32> loc("ffn_norm")
    %26 = hal.tensor.barrier join(%25 : tensor<1x32x192xf32>) => %arg2 : !hal.fence loc("graph:bert_layer")
    %27 = hal.tensor.export %26 : tensor<1x32x192xf32> -> !hal.buffer_view loc("graph:bert_layer")
    util.return %27 : !hal.buffer_view loc(unknown)
  } loc("graph:bert_layer")
  util.func public @bert_layer(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence loc("graph:bert_layer")
    %c-1_i32 = arith.constant -1 : i32 loc("graph:bert_layer")
    %c0 = arith.constant 0 : index loc("graph:bert_layer")
    %device_0 = hal.devices.get %c0 : !hal.device loc("graph:bert_layer")
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence loc("graph:bert_layer")
    %1 = util.call @bert_layer$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view loc("graph:bert_layer")
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32 loc("graph:bert_layer")
    util.return %1 : !hal.buffer_view loc("graph:bert_layer")
  } loc("graph:bert_layer")
} loc(unknown)