// -----// IR Dump After IREEComprehensiveBufferizePass: iree-codegen-iree-comprehensive-bufferize{print-conflicts=false test-analysis-only=false} //----- //
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
  scf.forall (%arg0) = (0) to (4) step (4) {
    %4 = scf.for %arg1 = %c0 to %c16 step %c4 iter_args(%arg2 = %3) -> (memref<4x16xf32, #hal.descriptor_type<storage_buffer>>) {
      %5 = scf.for %arg3 = %c0 to %c8 step %c4 iter_args(%arg4 = %cst) -> (vector<4x4xf32>) {
        %8 = vector.transfer_read %1[%c0, %arg3], %0 {in_bounds = [true, true]} : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>, vector<4x4xf32>
        %9 = vector.transfer_read %2[%arg3, %arg1], %0 {in_bounds = [true, true]} : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4x4xf32>
        %10 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %8, %9, %arg4 : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
        scf.yield %10 : vector<4x4xf32>
      }
      %6 = math.tanh %5 : vector<4x4xf32>
      %7 = arith.addf %6, %5 : vector<4x4xf32>
      vector.transfer_write %7, %arg2[%c0, %arg1] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
      scf.yield %arg2 : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
    }
    %subview = memref.subview %3[0, 0] [4, 16] [1, 1] : memref<4x16xf32, #hal.descriptor_type<storage_buffer>> to memref<4x16xf32, strided<[16, 1]>, #hal.descriptor_type<storage_buffer>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4 : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>) outs(%subview : memref<4x16xf32, strided<[16, 1]>, #hal.descriptor_type<storage_buffer>>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3 : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>) outs(%3 : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

