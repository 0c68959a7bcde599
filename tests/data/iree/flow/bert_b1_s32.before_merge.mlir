// -----// IR Dump Before DeduplicateExecutablesPass: iree-flow-deduplicate-executables //----- //
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "emeraldrapids", cpu_features = "+adx,+aes,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+f16c,+fma,+fsgsbase,+fxsr,+gfni,+invpcid,+lzcnt,+mmx,+movbe,+movdir64b,+movdiri,+pclmul,+pconfig,+pku,+popcnt,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sgx,+sha,+shstk,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+uintr,+vaes,+vpclmulqdq,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves,+64bit,+adx,+aes,-amx-avx512,-amx-bf16,-amx-complex,-amx-fp16,-amx-fp8,-amx-int8,-amx-movrs,-amx-tile,+avx,-avx10.1,-avx10.2,-avx10v2aux,+avx2,+avx512bf16,+avx512bitalg,-avx512bmm,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,-avx512vp2intersect,+avx512vpopcntdq,-avxifma,-avxneconvert,+avxvnni,-avxvnniint16,-avxvnniint8,+bmi,+bmi2,-ccmp,-cf,+cldemote,+clflushopt,+clwb,-clzero,+cmov,-cmpccxadd,+crc32,+cx16,+cx8,-egpr,-enqcmd,+f16c,+fma,-fma4,+fsgsbase,+fxsr,+gfni,-hreset,+invpcid,-jmpabs,-kl,-lwp,+lzcnt,+mmx,+movbe,+movdir64b,+movdiri,-movrs,-mwaitx,-ndd,-nf,+pclmul,-pconfig,-pku,+popcnt,-ppx,-prefetchi,+prfchw,-ptwrite,-push2pop2,-raoint,+rdpid,-rdpru,+rdrnd,+rdseed,+rtm,+sahf,+serialize,-sgx,+sha,-sha512,-shstk,-sm3,-sm4,+sse,+sse2,+sse3,+sse4.1,+sse4.2,-sse4a,+ssse3,-tbm,+tsxldtrk,-uintr,-usermsr,+vaes,+vpclmulqdq,-waitpkg,-wbnoinvd,-widekl,-xop,+xsave,+xsavec,+xsaveopt,+xsaves,-zu", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 64 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#loc1 = loc("q_matmul")
#loc2 = loc("x")
#loc3 = loc("q_bias")
#loc5 = loc("k_matmul")
#loc6 = loc("k_bias")
#loc7 = loc("v_matmul")
#loc8 = loc("v_bias")
#loc9 = loc("attn_scores")
#loc10 = loc("attn_scale_mul")
#loc11 = loc("attn_softmax")
#loc12 = loc("attn_context")
#loc13 = loc("attn_context_t")
#loc14 = loc("attn_out_matmul")
#loc15 = loc("attn_merge")
#loc16 = loc("attn_out_bias")
#loc17 = loc("attn_residual")
#loc18 = loc("attn_norm")
#loc19 = loc("ffn_up_matmul")
#loc20 = loc("ffn_up_bias")
#loc26 = loc("ffn_down_matmul")
#loc27 = loc("ffn_down_bias")
#loc28 = loc("ffn_residual")
#loc29 = loc("ffn_norm")
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1) -> (d1, d0)>
#map6 = affine_map<(d0, d1, d2) -> (d2)>
#map7 = affine_map<(d0, d1) -> (d0)>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local loc(#loc)
  flow.executable private @bert_layer$async_dispatch_0 {
    flow.executable.export public @bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc1)
      flow.return %x, %y, %z : index, index, index loc(#loc1)
    } loc(#loc1)
    builtin.module {
      func.func @bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("x"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("q_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("q_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc1)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc(#loc1)
        %2 = tensor.empty() : tensor<1x32x192xf32> loc(#loc1)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%3 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        iree_tensor_ext.dispatch.tensor.store %4, %arg2, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc(#loc1)
        return loc(#loc1)
      } loc(#loc1)
    } loc(#loc1)
  } loc(#loc1)
  flow.executable private @bert_layer$async_dispatch_1 {
    flow.executable.export public @bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc3)
      flow.return %x, %y, %z : index, index, index loc(#loc3)
    } loc(#loc3)
    builtin.module {
      func.func @bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> loc("q_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> loc("q_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc("q_bias")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [32, 4, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> -> tensor<32x4x48xf32> loc(#loc3)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0], sizes = [4, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> -> tensor<4x48xf32> loc(#loc3)
        %2 = tensor.empty() : tensor<4x32x48xf32> loc(#loc4)
        %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %1 : tensor<32x4x48xf32>, tensor<4x48xf32>) outs(%2 : tensor<4x32x48xf32>) {
        ^bb0(%in: f32 loc("q_matmul"), %in_0: f32 loc("q_bias"), %out: f32 loc("q_bias")):
          %4 = arith.addf %in, %in_0 : f32 loc(#loc3)
          linalg.yield %4 : f32 loc(#loc3)
        } -> tensor<4x32x48xf32> loc(#loc3)
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : tensor<4x32x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc(#loc3)
        return loc(#loc3)
      } loc(#loc3)
    } loc(#loc3)
  } loc(#loc3)
  flow.executable private @bert_layer$async_dispatch_2 {
    flow.executable.export public @bert_layer$async_dispatch_2_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc5)
      flow.return %x, %y, %z : index, index, index loc(#loc5)
    } loc(#loc5)
    builtin.module {
      func.func @bert_layer$async_dispatch_2_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("x"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("k_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("k_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc5)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc(#loc5)
        %2 = tensor.empty() : tensor<1x32x192xf32> loc(#loc1)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%3 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc5)
        iree_tensor_ext.dispatch.tensor.store %4, %arg2, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc(#loc5)
        return loc(#loc5)
      } loc(#loc5)
    } loc(#loc5)
  } loc(#loc5)
  flow.executable private @bert_layer$async_dispatch_3 {
    flow.executable.export public @bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc6)
      flow.return %x, %y, %z : index, index, index loc(#loc6)
    } loc(#loc6)
    builtin.module {
      func.func @bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("k_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("k_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<192x32xf32>> loc("k_bias")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc(#loc6)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc6)
        %2 = tensor.empty() : tensor<192x32xf32> loc(#loc6)
        %3 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%0, %1 : tensor<32x192xf32>, tensor<192xf32>) outs(%2 : tensor<192x32xf32>) {
        ^bb0(%in: f32 loc("k_bias"), %in_0: f32 loc("k_bias"), %out: f32 loc("k_bias")):
          %4 = arith.addf %in, %in_0 : f32 loc(#loc6)
          linalg.yield %4 : f32 loc(#loc6)
        } -> tensor<192x32xf32> loc(#loc6)
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0], sizes = [192, 32], strides = [1, 1] : tensor<192x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<192x32xf32>> loc(#loc6)
        return loc(#loc6)
      } loc(#loc6)
    } loc(#loc6)
  } loc(#loc6)
  flow.executable private @bert_layer$async_dispatch_4 {
    flow.executable.export public @bert_layer$async_dispatch_4_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc7)
      flow.return %x, %y, %z : index, index, index loc(#loc7)
    } loc(#loc7)
    builtin.module {
      func.func @bert_layer$async_dispatch_4_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("x"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("v_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("v_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc7)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc(#loc7)
        %2 = tensor.empty() : tensor<1x32x192xf32> loc(#loc1)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%3 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc7)
        iree_tensor_ext.dispatch.tensor.store %4, %arg2, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc(#loc7)
        return loc(#loc7)
      } loc(#loc7)
    } loc(#loc7)
  } loc(#loc7)
  flow.executable private @bert_layer$async_dispatch_5 {
    flow.executable.export public @bert_layer$async_dispatch_5_elementwise_transpose_32x4x48_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc8)
      flow.return %x, %y, %z : index, index, index loc(#loc8)
    } loc(#loc8)
    builtin.module {
      func.func @bert_layer$async_dispatch_5_elementwise_transpose_32x4x48_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> loc("v_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> loc("v_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc("v_bias")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [32, 4, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x4x48xf32>> -> tensor<32x4x48xf32> loc(#loc8)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0], sizes = [4, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48xf32>> -> tensor<4x48xf32> loc(#loc8)
        %2 = tensor.empty() : tensor<4x32x48xf32> loc(#loc4)
        %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %1 : tensor<32x4x48xf32>, tensor<4x48xf32>) outs(%2 : tensor<4x32x48xf32>) {
        ^bb0(%in: f32 loc("v_matmul"), %in_0: f32 loc("v_bias"), %out: f32 loc("v_bias")):
          %4 = arith.addf %in, %in_0 : f32 loc(#loc8)
          linalg.yield %4 : f32 loc(#loc8)
        } -> tensor<4x32x48xf32> loc(#loc8)
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : tensor<4x32x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x48xf32>> loc(#loc8)
        return loc(#loc8)
      } loc(#loc8)
    } loc(#loc8)
  } loc(#loc8)
  flow.executable private @bert_layer$async_dispatch_6 {
    flow.executable.export public @bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc9)
      flow.return %x, %y, %z : index, index, index loc(#loc9)
    } loc(#loc9)
    builtin.module {
      func.func @bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> loc("q_bias"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48x32xf32>> loc("k_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_scores")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 0.144337565 : f32 loc(#loc10)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> -> tensor<4x32x48xf32> loc(#loc9)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [4, 48, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x48x32xf32>> -> tensor<4x48x32xf32> loc(#loc9)
        %2 = tensor.empty() : tensor<4x32x32xf32> loc(#loc9)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc(#loc9)
        %4 = linalg.batch_matmul ins(%0, %1 : tensor<4x32x48xf32>, tensor<4x48x32xf32>) outs(%3 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc(#loc9)
        %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<4x32x32xf32>) outs(%2 : tensor<4x32x32xf32>) {
        ^bb0(%in: f32 loc("attn_scores"), %out: f32 loc("attn_scale_mul")):
          %6 = arith.mulf %in, %cst_0 : f32 loc(#loc10)
          linalg.yield %6 : f32 loc(#loc10)
        } -> tensor<4x32x32xf32> loc(#loc31)
        iree_tensor_ext.dispatch.tensor.store %5, %arg2, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : tensor<4x32x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc(#loc9)
        return loc(#loc9)
      } loc(#loc9)
    } loc(#loc9)
  } loc(#loc9)
  flow.executable private @bert_layer$async_dispatch_7 {
    flow.executable.export public @bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc11)
      flow.return %x, %y, %z : index, index, index loc(#loc11)
    } loc(#loc11)
    builtin.module {
      func.func @bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> loc("attn_scores"), %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc("attn_softmax")) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> -> tensor<4x32x32xf32> loc(#loc11)
        %1 = tensor.empty() : tensor<4x32x32xf32> loc(#loc9)
        %2 = linalg.softmax dimension(2) ins(%0 : tensor<4x32x32xf32>) outs(%1 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc(#loc11)
        iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : tensor<4x32x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4x32x32xf32>> loc(#loc11)
        return loc(#loc11)
      } loc(#loc11)
    } loc(#loc11)
  } loc(#loc11)
  flow.executable private @bert_layer$async_dispatch_8 {
    flow.executable.export public @bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc12)
      flow.return %x, %y, %z : index, index, index loc(#loc12)
    } loc(#loc12)
    builtin.module {
      func.func @bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> loc("attn_softmax"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> loc("v_bias"), %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x4x48xf32>> loc("attn_context")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [4, 32, 32], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x32xf32>> -> tensor<4x32x32xf32> loc(#loc12)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [4, 32, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x32x48xf32>> -> tensor<4x32x48xf32> loc(#loc12)
        %2 = tensor.empty() : tensor<32x4x48xf32> loc(#loc13)
        %3 = tensor.empty() : tensor<4x32x48xf32> loc(#loc4)
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32> loc(#loc12)
        %5 = linalg.batch_matmul ins(%0, %1 : tensor<4x32x32xf32>, tensor<4x32x48xf32>) outs(%4 : tensor<4x32x48xf32>) -> tensor<4x32x48xf32> loc(#loc12)
        %6 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<4x32x48xf32>) outs(%2 : tensor<32x4x48xf32>) {
        ^bb0(%in: f32 loc("attn_context_t"), %out: f32 loc("attn_context_t")):
          linalg.yield %in : f32 loc(#loc13)
        } -> tensor<32x4x48xf32> loc(#loc13)
        iree_tensor_ext.dispatch.tensor.store %6, %arg2, offsets = [0, 0, 0], sizes = [32, 4, 48], strides = [1, 1, 1] : tensor<32x4x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x4x48xf32>> loc(#loc12)
        return loc(#loc12)
      } loc(#loc12)
    } loc(#loc12)
  } loc(#loc12)
  flow.executable private @bert_layer$async_dispatch_9 {
    flow.executable.export public @bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc14)
      flow.return %x, %y, %z : index, index, index loc(#loc14)
    } loc(#loc14)
    builtin.module {
      func.func @bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_merge"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> loc("attn_out_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_out_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_residual"), %arg4: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("attn_out_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc14)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x192xf32>> -> tensor<1x192x192xf32> loc(#loc14)
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc14)
        %3 = iree_tensor_ext.dispatch.tensor.load %arg3, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc14)
        %4 = tensor.empty() : tensor<1x32x192xf32> loc(#loc1)
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        %6 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x192xf32>) outs(%5 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc14)
        %7 = linalg.generic {indexing_maps = [#map, #map6, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %2, %3 : tensor<1x32x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) outs(%4 : tensor<1x32x192xf32>) {
        ^bb0(%in: f32 loc("attn_out_matmul"), %in_0: f32 loc("attn_out_bias"), %in_1: f32 loc("q_matmul"), %out: f32 loc("attn_residual")):
          %8 = arith.addf %in, %in_0 : f32 loc(#loc16)
          %9 = arith.addf %8, %in_1 : f32 loc(#loc17)
          linalg.yield %9 : f32 loc(#loc17)
        } -> tensor<1x32x192xf32> loc(#loc17)
        iree_tensor_ext.dispatch.tensor.store %7, %arg4, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc(#loc14)
        return loc(#loc14)
      } loc(#loc14)
    } loc(#loc14)
  } loc(#loc14)
  flow.executable private @bert_layer$async_dispatch_10 {
    flow.executable.export public @bert_layer$async_dispatch_10_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc18)
      flow.return %x, %y, %z : index, index, index loc(#loc18)
    } loc(#loc18)
    builtin.module {
      func.func @bert_layer$async_dispatch_10_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("attn_residual"), %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(#loc)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc(#loc18)
        %1 = tensor.empty() : tensor<32x192xf32> loc(#loc18)
        %2 = tensor.empty() : tensor<32xf32> loc(#loc18)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<32xf32>) -> tensor<32xf32> loc(#loc18)
        %4 = linalg.generic {indexing_maps = [#map3, #map7], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%3 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("attn_residual"), %out: f32 loc("attn_norm")):
          %6 = arith.addf %in, %out : f32 loc(#loc18)
          linalg.yield %6 : f32 loc(#loc18)
        } -> tensor<32xf32> loc(#loc18)
        %5 = linalg.generic {indexing_maps = [#map3, #map7, #map3], iterator_types = ["parallel", "parallel"]} ins(%0, %4 : tensor<32x192xf32>, tensor<32xf32>) outs(%1 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %in_1: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %6 = arith.divf %in_1, %cst_0 : f32 loc(#loc18)
          %7 = arith.subf %in, %6 : f32 loc(#loc18)
          linalg.yield %7 : f32 loc(#loc18)
        } -> tensor<32x192xf32> loc(#loc18)
        iree_tensor_ext.dispatch.tensor.store %5, %arg1, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc(#loc18)
        return loc(#loc18)
      } loc(#loc18)
    } loc(#loc18)
  } loc(#loc18)
  flow.executable private @bert_layer$async_dispatch_11 {
    flow.executable.export public @bert_layer$async_dispatch_11_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc18)
      flow.return %x, %y, %z : index, index, index loc(#loc18)
    } loc(#loc18)
    builtin.module {
      func.func @bert_layer$async_dispatch_11_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("attn_norm"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_norm"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("attn_norm"), %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("attn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(#loc)
        %cst_1 = arith.constant 9.99999974E-6 : f32 loc(#loc)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc(#loc18)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc18)
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc18)
        %3 = tensor.empty() : tensor<32x192xf32> loc(#loc18)
        %4 = tensor.empty() : tensor<32xf32> loc(#loc18)
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<32xf32>) -> tensor<32xf32> loc(#loc18)
        %6 = linalg.generic {indexing_maps = [#map3, #map7], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%5 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %8 = arith.mulf %in, %in : f32 loc(#loc18)
          %9 = arith.addf %8, %out : f32 loc(#loc18)
          linalg.yield %9 : f32 loc(#loc18)
        } -> tensor<32xf32> loc(#loc18)
        %7 = linalg.generic {indexing_maps = [#map3, #map7, #map4, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%0, %6, %1, %2 : tensor<32x192xf32>, tensor<32xf32>, tensor<192xf32>, tensor<192xf32>) outs(%3 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("attn_norm"), %in_2: f32 loc("attn_norm"), %in_3: f32 loc("attn_norm"), %in_4: f32 loc("attn_norm"), %out: f32 loc("attn_norm")):
          %8 = arith.divf %in_2, %cst_0 : f32 loc(#loc18)
          %9 = arith.addf %8, %cst_1 : f32 loc(#loc18)
          %10 = math.rsqrt %9 : f32 loc(#loc18)
          %11 = arith.mulf %in, %10 : f32 loc(#loc18)
          %12 = arith.mulf %11, %in_3 : f32 loc(#loc18)
          %13 = arith.addf %12, %in_4 : f32 loc(#loc18)
          linalg.yield %13 : f32 loc(#loc18)
        } -> tensor<32x192xf32> loc(#loc18)
        iree_tensor_ext.dispatch.tensor.store %7, %arg3, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc(#loc18)
        return loc(#loc18)
      } loc(#loc18)
    } loc(#loc18)
  } loc(#loc18)
  flow.executable private @bert_layer$async_dispatch_12 {
    flow.executable.export public @bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc19)
      flow.return %x, %y, %z : index, index, index loc(#loc19)
    } loc(#loc19)
    builtin.module {
      func.func @bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_norm"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x768xf32>> loc("ffn_up_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<768xf32>> loc("ffn_up_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x768xf32>> loc("ffn_up_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 0.707106769 : f32 loc(#loc21)
        %cst_1 = arith.constant 1.000000e+00 : f32 loc(#loc22)
        %cst_2 = arith.constant 5.000000e-01 : f32 loc(#loc23)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc19)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 192, 768], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x192x768xf32>> -> tensor<1x192x768xf32> loc(#loc19)
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [768], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<768xf32>> -> tensor<768xf32> loc(#loc19)
        %3 = tensor.empty() : tensor<1x32x768xf32> loc(#loc19)
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<1x32x768xf32>) -> tensor<1x32x768xf32> loc(#loc19)
        %5 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x192xf32>, tensor<1x192x768xf32>) outs(%4 : tensor<1x32x768xf32>) -> tensor<1x32x768xf32> loc(#loc19)
        %6 = linalg.generic {indexing_maps = [#map, #map6, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %2 : tensor<1x32x768xf32>, tensor<768xf32>) outs(%3 : tensor<1x32x768xf32>) {
        ^bb0(%in: f32 loc("ffn_up_matmul"), %in_3: f32 loc("ffn_up_bias"), %out: f32 loc("ffn_up_bias")):
          %7 = arith.addf %in, %in_3 : f32 loc(#loc20)
          %8 = arith.mulf %7, %cst_0 : f32 loc(#loc21)
          %9 = math.erf %8 : f32 loc(#loc24)
          %10 = arith.addf %9, %cst_1 : f32 loc(#loc22)
          %11 = arith.mulf %7, %10 : f32 loc(#loc25)
          %12 = arith.mulf %11, %cst_2 : f32 loc(#loc23)
          linalg.yield %12 : f32 loc(#loc32)
        } -> tensor<1x32x768xf32> loc(#loc32)
        iree_tensor_ext.dispatch.tensor.store %6, %arg3, offsets = [0, 0, 0], sizes = [1, 32, 768], strides = [1, 1, 1] : tensor<1x32x768xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x768xf32>> loc(#loc19)
        return loc(#loc19)
      } loc(#loc19)
    } loc(#loc19)
  } loc(#loc19)
  flow.executable private @bert_layer$async_dispatch_13 {
    flow.executable.export public @bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc26)
      flow.return %x, %y, %z : index, index, index loc(#loc26)
    } loc(#loc26)
    builtin.module {
      func.func @bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x768xf32>> loc("ffn_up_matmul"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x768x192xf32>> loc("ffn_down_matmul"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("ffn_down_bias"), %arg3: !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> loc("attn_norm"), %arg4: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc("ffn_down_matmul")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0, 0], sizes = [1, 32, 768], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x768xf32>> -> tensor<1x32x768xf32> loc(#loc26)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0, 0], sizes = [1, 768, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x768x192xf32>> -> tensor<1x768x192xf32> loc(#loc26)
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc26)
        %3 = iree_tensor_ext.dispatch.tensor.load %arg3, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32x192xf32>> -> tensor<1x32x192xf32> loc(#loc26)
        %4 = tensor.empty() : tensor<1x32x192xf32> loc(#loc1)
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
        %6 = linalg.batch_matmul ins(%0, %1 : tensor<1x32x768xf32>, tensor<1x768x192xf32>) outs(%5 : tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc26)
        %7 = linalg.generic {indexing_maps = [#map, #map6, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %2, %3 : tensor<1x32x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) outs(%4 : tensor<1x32x192xf32>) {
        ^bb0(%in: f32 loc("ffn_down_matmul"), %in_0: f32 loc("ffn_down_bias"), %in_1: f32 loc("attn_norm"), %out: f32 loc("ffn_residual")):
          %8 = arith.addf %in, %in_0 : f32 loc(#loc27)
          %9 = arith.addf %8, %in_1 : f32 loc(#loc28)
          linalg.yield %9 : f32 loc(#loc28)
        } -> tensor<1x32x192xf32> loc(#loc28)
        iree_tensor_ext.dispatch.tensor.store %7, %arg4, offsets = [0, 0, 0], sizes = [1, 32, 192], strides = [1, 1, 1] : tensor<1x32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x32x192xf32>> loc(#loc26)
        return loc(#loc26)
      } loc(#loc26)
    } loc(#loc26)
  } loc(#loc26)
  flow.executable private @bert_layer$async_dispatch_14 {
    flow.executable.export public @bert_layer$async_dispatch_14_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc29)
      flow.return %x, %y, %z : index, index, index loc(#loc29)
    } loc(#loc29)
    builtin.module {
      func.func @bert_layer$async_dispatch_14_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("ffn_residual"), %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("ffn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(#loc)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc(#loc29)
        %1 = tensor.empty() : tensor<32x192xf32> loc(#loc18)
        %2 = tensor.empty() : tensor<32xf32> loc(#loc18)
        %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<32xf32>) -> tensor<32xf32> loc(#loc18)
        %4 = linalg.generic {indexing_maps = [#map3, #map7], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%3 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("ffn_residual"), %out: f32 loc("ffn_norm")):
          %6 = arith.addf %in, %out : f32 loc(#loc29)
          linalg.yield %6 : f32 loc(#loc29)
        } -> tensor<32xf32> loc(#loc29)
        %5 = linalg.generic {indexing_maps = [#map3, #map7, #map3], iterator_types = ["parallel", "parallel"]} ins(%0, %4 : tensor<32x192xf32>, tensor<32xf32>) outs(%1 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("ffn_norm"), %in_1: f32 loc("ffn_norm"), %out: f32 loc("ffn_norm")):
          %6 = arith.divf %in_1, %cst_0 : f32 loc(#loc29)
          %7 = arith.subf %in, %6 : f32 loc(#loc29)
          linalg.yield %7 : f32 loc(#loc29)
        } -> tensor<32x192xf32> loc(#loc29)
        iree_tensor_ext.dispatch.tensor.store %5, %arg1, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc(#loc29)
        return loc(#loc29)
      } loc(#loc29)
    } loc(#loc29)
  } loc(#loc29)
  flow.executable private @bert_layer$async_dispatch_15 {
    flow.executable.export public @bert_layer$async_dispatch_15_reduction_32x192_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice() loc(#loc29)
      flow.return %x, %y, %z : index, index, index loc(#loc29)
    } loc(#loc29)
    builtin.module {
      func.func @bert_layer$async_dispatch_15_reduction_32x192_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> loc("ffn_norm"), %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("ffn_norm"), %arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> loc("ffn_norm"), %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc("ffn_norm")) {
        %cst = arith.constant 0.000000e+00 : f32 loc(#loc1)
        %cst_0 = arith.constant 1.920000e+02 : f32 loc(#loc)
        %cst_1 = arith.constant 9.99999974E-6 : f32 loc(#loc)
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x192xf32>> -> tensor<32x192xf32> loc(#loc29)
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc29)
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0], sizes = [192], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<192xf32>> -> tensor<192xf32> loc(#loc29)
        %3 = tensor.empty() : tensor<32x192xf32> loc(#loc18)
        %4 = tensor.empty() : tensor<32xf32> loc(#loc18)
        %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<32xf32>) -> tensor<32xf32> loc(#loc18)
        %6 = linalg.generic {indexing_maps = [#map3, #map7], iterator_types = ["parallel", "reduction"]} ins(%0 : tensor<32x192xf32>) outs(%5 : tensor<32xf32>) {
        ^bb0(%in: f32 loc("ffn_norm"), %out: f32 loc("ffn_norm")):
          %8 = arith.mulf %in, %in : f32 loc(#loc29)
          %9 = arith.addf %8, %out : f32 loc(#loc29)
          linalg.yield %9 : f32 loc(#loc29)
        } -> tensor<32xf32> loc(#loc29)
        %7 = linalg.generic {indexing_maps = [#map3, #map7, #map4, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%0, %6, %1, %2 : tensor<32x192xf32>, tensor<32xf32>, tensor<192xf32>, tensor<192xf32>) outs(%3 : tensor<32x192xf32>) {
        ^bb0(%in: f32 loc("ffn_norm"), %in_2: f32 loc("ffn_norm"), %in_3: f32 loc("ffn_norm"), %in_4: f32 loc("ffn_norm"), %out: f32 loc("ffn_norm")):
          %8 = arith.divf %in_2, %cst_0 : f32 loc(#loc29)
          %9 = arith.addf %8, %cst_1 : f32 loc(#loc29)
          %10 = math.rsqrt %9 : f32 loc(#loc29)
          %11 = arith.mulf %in, %10 : f32 loc(#loc29)
          %12 = arith.mulf %11, %in_3 : f32 loc(#loc29)
          %13 = arith.addf %12, %in_4 : f32 loc(#loc29)
          linalg.yield %13 : f32 loc(#loc29)
        } -> tensor<32x192xf32> loc(#loc29)
        iree_tensor_ext.dispatch.tensor.store %7, %arg3, offsets = [0, 0], sizes = [32, 192], strides = [1, 1] : tensor<32x192xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x192xf32>> loc(#loc29)
        return loc(#loc29)
      } loc(#loc29)
    } loc(#loc29)
  } loc(#loc29)
  util.func public @bert_layer$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
    %cst = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc6)
    %cst_0 = arith.constant dense_resource<__elided__> : tensor<4x48xf32> loc(#loc8)
    %cst_1 = arith.constant dense_resource<__elided__> : tensor<4x48xf32> loc(#loc3)
    %cst_2 = arith.constant dense_resource<__elided__> : tensor<1x768x192xf32> loc(#loc26)
    %cst_3 = arith.constant dense_resource<__elided__> : tensor<1x192x768xf32> loc(#loc19)
    %cst_4 = arith.constant dense_resource<__elided__> : tensor<1x192x192xf32> loc(#loc14)
    %cst_5 = arith.constant dense_resource<__elided__> : tensor<1x192x192xf32> loc(#loc7)
    %cst_6 = arith.constant dense_resource<__elided__> : tensor<1x192x192xf32> loc(#loc5)
    %cst_7 = arith.constant dense_resource<__elided__> : tensor<1x192x192xf32> loc(#loc1)
    %cst_8 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc16)
    %cst_9 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc18)
    %cst_10 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc18)
    %cst_11 = arith.constant dense_resource<__elided__> : tensor<768xf32> loc(#loc20)
    %cst_12 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc27)
    %cst_13 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc29)
    %cst_14 = arith.constant dense_resource<__elided__> : tensor<192xf32> loc(#loc29)
    %0 = hal.tensor.import wait(%arg1) => %arg0 : !hal.buffer_view -> tensor<1x32x192xf32> loc(#loc2)
    %1 = flow.dispatch @bert_layer$async_dispatch_0::@bert_layer$async_dispatch_0_batch_matmul_1x32x192x192_f32(%0, %cst_7) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc(#loc1)
    %2 = flow.tensor.reshape %1 : tensor<1x32x192xf32> -> tensor<32x4x48xf32> loc(#loc3)
    %3 = flow.dispatch @bert_layer$async_dispatch_1::@bert_layer$async_dispatch_1_elementwise_transpose_32x4x48_f32(%2, %cst_1) : (tensor<32x4x48xf32>, tensor<4x48xf32>) -> tensor<4x32x48xf32> loc(#loc3)
    %4 = flow.dispatch @bert_layer$async_dispatch_2::@bert_layer$async_dispatch_2_batch_matmul_1x32x192x192_f32(%0, %cst_6) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc(#loc5)
    %5 = flow.tensor.reshape %4 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc(#loc6)
    %6 = flow.dispatch @bert_layer$async_dispatch_3::@bert_layer$async_dispatch_3_elementwise_transpose_32x192_f32(%5, %cst) : (tensor<32x192xf32>, tensor<192xf32>) -> tensor<192x32xf32> loc(#loc6)
    %7 = flow.tensor.reshape %6 : tensor<192x32xf32> -> tensor<4x48x32xf32> loc(#loc6)
    %8 = flow.dispatch @bert_layer$async_dispatch_4::@bert_layer$async_dispatch_4_batch_matmul_1x32x192x192_f32(%0, %cst_5) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>) -> tensor<1x32x192xf32> loc(#loc7)
    %9 = flow.tensor.reshape %8 : tensor<1x32x192xf32> -> tensor<32x4x48xf32> loc(#loc8)
    %10 = flow.dispatch @bert_layer$async_dispatch_5::@bert_layer$async_dispatch_5_elementwise_transpose_32x4x48_f32(%9, %cst_0) : (tensor<32x4x48xf32>, tensor<4x48xf32>) -> tensor<4x32x48xf32> loc(#loc8)
    %11 = flow.dispatch @bert_layer$async_dispatch_6::@bert_layer$async_dispatch_6_batch_matmul_4x32x32x48_f32(%3, %7) : (tensor<4x32x48xf32>, tensor<4x48x32xf32>) -> tensor<4x32x32xf32> loc(#loc9)
    %12 = flow.dispatch @bert_layer$async_dispatch_7::@bert_layer$async_dispatch_7_softmax_4x32x32xf32_dispatch_tensor_store(%11) : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32> loc(#loc11)
    %13 = flow.dispatch @bert_layer$async_dispatch_8::@bert_layer$async_dispatch_8_batch_matmul_4x32x48x32_f32(%12, %10) : (tensor<4x32x32xf32>, tensor<4x32x48xf32>) -> tensor<32x4x48xf32> loc(#loc12)
    %14 = flow.tensor.reshape %13 : tensor<32x4x48xf32> -> tensor<1x32x192xf32> loc(#loc15)
    %15 = flow.dispatch @bert_layer$async_dispatch_9::@bert_layer$async_dispatch_9_batch_matmul_1x32x192x192_f32(%14, %cst_4, %cst_8, %0) : (tensor<1x32x192xf32>, tensor<1x192x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc14)
    %16 = flow.tensor.reshape %15 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc(#loc17)
    %17 = flow.dispatch @bert_layer$async_dispatch_10::@bert_layer$async_dispatch_10_reduction_32x192_f32(%16) : (tensor<32x192xf32>) -> tensor<32x192xf32> loc(#loc18)
    %18 = flow.dispatch @bert_layer$async_dispatch_11::@bert_layer$async_dispatch_11_reduction_32x192_f32(%17, %cst_9, %cst_10) : (tensor<32x192xf32>, tensor<192xf32>, tensor<192xf32>) -> tensor<32x192xf32> loc(#loc18)
    %19 = flow.tensor.reshape %18 : tensor<32x192xf32> -> tensor<1x32x192xf32> loc(#loc18)
    %20 = flow.dispatch @bert_layer$async_dispatch_12::@bert_layer$async_dispatch_12_batch_matmul_1x32x768x192_f32(%19, %cst_3, %cst_11) : (tensor<1x32x192xf32>, tensor<1x192x768xf32>, tensor<768xf32>) -> tensor<1x32x768xf32> loc(#loc19)
    %21 = flow.dispatch @bert_layer$async_dispatch_13::@bert_layer$async_dispatch_13_batch_matmul_1x32x192x768_f32(%20, %cst_2, %cst_12, %19) : (tensor<1x32x768xf32>, tensor<1x768x192xf32>, tensor<192xf32>, tensor<1x32x192xf32>) -> tensor<1x32x192xf32> loc(#loc26)
    %22 = flow.tensor.reshape %21 : tensor<1x32x192xf32> -> tensor<32x192xf32> loc(#loc28)
    %23 = flow.dispatch @bert_layer$async_dispatch_14::@bert_layer$async_dispatch_14_reduction_32x192_f32(%22) : (tensor<32x192xf32>) -> tensor<32x192xf32> loc(#loc29)
    %24 = flow.dispatch @bert_layer$async_dispatch_15::@bert_layer$async_dispatch_15_reduction_32x192_f32(%23, %cst_13, %cst_14) : (tensor<32x192xf32>, tensor<192xf32>, tensor<192xf32>) -> tensor<32x192xf32> loc(#loc29)
    %25 = flow.tensor.reshape %24 : tensor<32x192xf32> -> tensor<1x32x192xf32> loc(#loc29)
    %26 = hal.tensor.barrier join(%25 : tensor<1x32x192xf32>) => %arg2 : !hal.fence loc(#loc30)
    %27 = hal.tensor.export %26 : tensor<1x32x192xf32> -> !hal.buffer_view loc(#loc30)
    util.return %27 : !hal.buffer_view loc(#loc)
  } loc(#loc30)
  util.func public @bert_layer(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence loc(#loc30)
    %c-1_i32 = arith.constant -1 : i32 loc(#loc30)
    %c0 = arith.constant 0 : index loc(#loc30)
    %device_0 = hal.devices.get %c0 : !hal.device loc(#loc30)
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence loc(#loc30)
    %1 = util.call @bert_layer$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view loc(#loc30)
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32 loc(#loc30)
    util.return %1 : !hal.buffer_view loc(#loc30)
  } loc(#loc30)
} loc(#loc)
#loc = loc(unknown)
#loc4 = loc("q_heads")
#loc21 = loc("gelu_scale")
#loc22 = loc("gelu_one_plus")
#loc23 = loc("gelu_half")
#loc24 = loc("gelu_erf")
#loc25 = loc("gelu_mul")
#loc30 = loc("graph:bert_layer")
#loc31 = loc(fused[#loc10, #loc9])
#loc32 = loc(fused[#loc23, #loc20, #loc22, #loc21])


