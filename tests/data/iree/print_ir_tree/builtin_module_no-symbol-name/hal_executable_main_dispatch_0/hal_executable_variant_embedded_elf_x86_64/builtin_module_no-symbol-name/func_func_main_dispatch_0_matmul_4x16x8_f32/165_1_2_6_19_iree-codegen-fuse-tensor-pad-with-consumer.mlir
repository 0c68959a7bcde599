// -----// IR Dump After FuseTensorPadWithConsumerPass: iree-codegen-fuse-tensor-pad-with-consumer //----- //
func.func @main_dispatch_0_matmul_4x16x8_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16xf32>
  %5 = tensor.empty() : tensor<4x16xf32>
  %6 = scf.forall (%arg0) = (0) to (4) step (4) shared_outs(%arg1 = %5) -> (tensor<4x16xf32>) {
    %7 = linalg.fill {lowering_config = #iree_cpu.lowering_config<cache_parallel = [4, 16], vector_common_parallel = [4, 4]>} ins(%cst : f32) outs(%5 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %8 = linalg.matmul {lowering_config = #iree_cpu.lowering_config<cache_parallel = [4, 16, 0], distribution = [4, 16, 0], vector_common_parallel = [4, 4, 0], vector_reduction = [0, 0, 4]>} ins(%3, %4 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%7 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<4x16xf32>) outs(%arg1 : tensor<4x16xf32>) attrs =  {lowering_config = #iree_cpu.lowering_config<cache_parallel = [4, 16], vector_common_parallel = [4, 4]>} {
    ^bb0(%in: f32, %out: f32):
      %10 = math.tanh %in : f32
      %11 = arith.addf %10, %in : f32
      linalg.yield %11 : f32
    } -> tensor<4x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %9 into %arg1[0, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<4x16xf32>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  iree_codegen.store_to_buffer %6, %2 : tensor<4x16xf32> into memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

