// -----// IR Dump After GenericVectorizationPass: iree-codegen-generic-vectorization{enable-cleanup=true enable-vector-masking=true fold-cast-into-contract=false generate-contract=true max-vector-size=2147483647 use-configured-vector-sizes=false vectorize-copies=true vectorize-map-store=false vectorize-to-transfer-gather=false} //----- //
func.func @main_dispatch_0_matmul_4x16x8_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling}>} {
  %cst = arith.constant dense<0.000000e+00> : vector<4x4xf32>
  %0 = ub.poison : f32
  %c16 = arith.constant 16 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %1 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xf32>
  %5 = iree_codegen.load_from_buffer %2 : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16xf32>
  %6 = tensor.empty() : tensor<4x16xf32>
  %7 = scf.forall (%arg0) = (0) to (4) step (4) shared_outs(%arg1 = %6) -> (tensor<4x16xf32>) {
    %8 = scf.for %arg2 = %c0 to %c16 step %c4 iter_args(%arg3 = %arg1) -> (tensor<4x16xf32>) {
      %9 = tensor.empty() : tensor<4x4xf32>
      %10 = vector.transfer_write %cst, %9[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<4x4xf32>
      %11 = scf.for %arg4 = %c0 to %c8 step %c4 iter_args(%arg5 = %10) -> (tensor<4x4xf32>) {
        %extracted_slice_0 = tensor.extract_slice %4[0, %arg4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
        %extracted_slice_1 = tensor.extract_slice %5[%arg4, %arg2] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf32>
        %16 = vector.transfer_read %extracted_slice_0[%c0, %c0], %0 {in_bounds = [true, true]} : tensor<4x4xf32>, vector<4x4xf32>
        %17 = vector.transfer_read %extracted_slice_1[%c0, %c0], %0 {in_bounds = [true, true]} : tensor<4x4xf32>, vector<4x4xf32>
        %18 = vector.transfer_read %arg5[%c0, %c0], %0 {in_bounds = [true, true]} : tensor<4x4xf32>, vector<4x4xf32>
        %19 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %16, %17, %18 : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
        %20 = vector.transfer_write %19, %arg5[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<4x4xf32>
        scf.yield %20 : tensor<4x4xf32>
      }
      %extracted_slice = tensor.extract_slice %arg3[0, %arg2] [4, 4] [1, 1] : tensor<4x16xf32> to tensor<4x4xf32>
      %12 = vector.transfer_read %11[%c0, %c0], %0 {in_bounds = [true, true]} : tensor<4x4xf32>, vector<4x4xf32>
      %13 = math.tanh %12 : vector<4x4xf32>
      %14 = arith.addf %13, %12 : vector<4x4xf32>
      %15 = vector.transfer_write %14, %extracted_slice[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<4x4xf32>
      %inserted_slice = tensor.insert_slice %15 into %arg3[0, %arg2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x16xf32>
      scf.yield %inserted_slice : tensor<4x16xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %8 into %arg1[0, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<4x16xf32>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  iree_codegen.store_to_buffer %7, %3 : tensor<4x16xf32> into memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

