// -----// IR Dump After ReconcileTranslationInfoPass: iree-codegen-reconcile-translation-info{distribute-along=x} //----- //
module {
  func.func @main_dispatch_0_matmul_4x16x8_f32() {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant dense<0.000000e+00> : vector<4x4xf32>
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
    %assume_align = memref.assume_alignment %0, 64 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
    %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
    %assume_align_0 = memref.assume_alignment %1, 64 : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
    %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
    %assume_align_1 = memref.assume_alignment %2, 64 : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>
    %workgroup_id_x = hal.interface.workgroup.id[0] : index
    %workgroup_count_x = hal.interface.workgroup.count[0] : index
    %3 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%workgroup_id_x]
    scf.for %arg0 = %c0 to %c16 step %c4 {
      %4 = scf.for %arg1 = %c0 to %c8 step %c4 iter_args(%arg2 = %cst) -> (vector<4x4xf32>) {
        %11 = vector.load %assume_align_0[%arg1, %arg0] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
        %12 = affine.apply affine_map<(d0) -> (d0 + 1)>(%arg1)
        %13 = vector.load %assume_align_0[%12, %arg0] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
        %14 = affine.apply affine_map<(d0) -> (d0 + 2)>(%arg1)
        %15 = vector.load %assume_align_0[%14, %arg0] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
        %16 = affine.apply affine_map<(d0) -> (d0 + 3)>(%arg1)
        %17 = vector.load %assume_align_0[%16, %arg0] : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
        %18 = memref.load %assume_align[%c0, %arg1] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %19 = vector.broadcast %18 : f32 to vector<4xf32>
        %20 = vector.extract %arg2[0] : vector<4xf32> from vector<4x4xf32>
        %21 = vector.fma %19, %11, %20 : vector<4xf32>
        %22 = memref.load %assume_align[%c1, %arg1] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %23 = vector.broadcast %22 : f32 to vector<4xf32>
        %24 = vector.extract %arg2[1] : vector<4xf32> from vector<4x4xf32>
        %25 = vector.fma %23, %11, %24 : vector<4xf32>
        %26 = memref.load %assume_align[%c2, %arg1] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %27 = vector.broadcast %26 : f32 to vector<4xf32>
        %28 = vector.extract %arg2[2] : vector<4xf32> from vector<4x4xf32>
        %29 = vector.fma %27, %11, %28 : vector<4xf32>
        %30 = memref.load %assume_align[%c3, %arg1] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %31 = vector.broadcast %30 : f32 to vector<4xf32>
        %32 = vector.extract %arg2[3] : vector<4xf32> from vector<4x4xf32>
        %33 = vector.fma %31, %11, %32 : vector<4xf32>
        %34 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%arg1]
        %35 = memref.load %assume_align[%c0, %34] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %36 = vector.broadcast %35 : f32 to vector<4xf32>
        %37 = vector.fma %36, %13, %21 : vector<4xf32>
        %38 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%arg1]
        %39 = memref.load %assume_align[%c1, %38] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %40 = vector.broadcast %39 : f32 to vector<4xf32>
        %41 = vector.fma %40, %13, %25 : vector<4xf32>
        %42 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%arg1]
        %43 = memref.load %assume_align[%c2, %42] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %44 = vector.broadcast %43 : f32 to vector<4xf32>
        %45 = vector.fma %44, %13, %29 : vector<4xf32>
        %46 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%arg1]
        %47 = memref.load %assume_align[%c3, %46] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %48 = vector.broadcast %47 : f32 to vector<4xf32>
        %49 = vector.fma %48, %13, %33 : vector<4xf32>
        %50 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%arg1]
        %51 = memref.load %assume_align[%c0, %50] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %52 = vector.broadcast %51 : f32 to vector<4xf32>
        %53 = vector.fma %52, %15, %37 : vector<4xf32>
        %54 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%arg1]
        %55 = memref.load %assume_align[%c1, %54] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %56 = vector.broadcast %55 : f32 to vector<4xf32>
        %57 = vector.fma %56, %15, %41 : vector<4xf32>
        %58 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%arg1]
        %59 = memref.load %assume_align[%c2, %58] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %60 = vector.broadcast %59 : f32 to vector<4xf32>
        %61 = vector.fma %60, %15, %45 : vector<4xf32>
        %62 = affine.apply affine_map<()[s0] -> (s0 + 2)>()[%arg1]
        %63 = memref.load %assume_align[%c3, %62] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %64 = vector.broadcast %63 : f32 to vector<4xf32>
        %65 = vector.fma %64, %15, %49 : vector<4xf32>
        %66 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%arg1]
        %67 = memref.load %assume_align[%c0, %66] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %68 = vector.broadcast %67 : f32 to vector<4xf32>
        %69 = vector.fma %68, %17, %53 : vector<4xf32>
        %70 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%arg1]
        %71 = memref.load %assume_align[%c1, %70] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %72 = vector.broadcast %71 : f32 to vector<4xf32>
        %73 = vector.fma %72, %17, %57 : vector<4xf32>
        %74 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%arg1]
        %75 = memref.load %assume_align[%c2, %74] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %76 = vector.broadcast %75 : f32 to vector<4xf32>
        %77 = vector.fma %76, %17, %61 : vector<4xf32>
        %78 = affine.apply affine_map<()[s0] -> (s0 + 3)>()[%arg1]
        %79 = memref.load %assume_align[%c3, %78] : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
        %80 = vector.broadcast %79 : f32 to vector<4xf32>
        %81 = vector.fma %80, %17, %65 : vector<4xf32>
        %82:4 = vector.to_elements %69 : vector<4xf32>
        %83:4 = vector.to_elements %73 : vector<4xf32>
        %84:4 = vector.to_elements %77 : vector<4xf32>
        %85:4 = vector.to_elements %81 : vector<4xf32>
        %86 = vector.from_elements %82#0, %82#1, %82#2, %82#3, %83#0, %83#1, %83#2, %83#3, %84#0, %84#1, %84#2, %84#3, %85#0, %85#1, %85#2, %85#3 : vector<4x4xf32>
        scf.yield %86 : vector<4x4xf32>
      }
      %5 = math.tanh %4 : vector<4x4xf32>
      %6 = arith.addf %5, %4 : vector<4x4xf32>
      %7 = vector.extract %6[0] : vector<4xf32> from vector<4x4xf32>
      vector.store %7, %assume_align_1[%c0, %arg0] : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
      %8 = vector.extract %6[1] : vector<4xf32> from vector<4x4xf32>
      vector.store %8, %assume_align_1[%c1, %arg0] : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
      %9 = vector.extract %6[2] : vector<4xf32> from vector<4x4xf32>
      vector.store %9, %assume_align_1[%c2, %arg0] : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
      %10 = vector.extract %6[3] : vector<4xf32> from vector<4x4xf32>
      vector.store %10, %assume_align_1[%c3, %arg0] : memref<4x16xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
    }
    iree_codegen.workgroup_count_hint(1)
    return
  }
  iree_codegen.dispatch_config @main_dispatch_0_matmul_4x16x8_f32 workgroup_size = [1, 1, 1] {
  ^bb0(%arg0: !hal.device):
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    iree_codegen.yield %x, %y, %z : index, index, index
  }
}

