#map = affine_map<(d0, d1, d2) -> ()>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (0, 0, d2)>
module {
  func.func @mlp(%arg0: memref<4x8xf32, strided<[?, ?], offset: ?>>, %arg1: memref<1x8x16xf32, strided<[?, ?, ?], offset: ?>>, %arg2: memref<1x1x16xf32, strided<[?, ?, ?], offset: ?>>) -> memref<4x16xf32> {
    %cst = arith.constant 3.40282347E+38 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %expand_shape = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 4, 8] : memref<4x8xf32, strided<[?, ?], offset: ?>> into memref<1x4x8xf32, strided<[?, ?, ?], offset: ?>>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
    %alloc_1 = memref.alloc() {alignment = 64 : i64} : memref<1x4x16xf32>
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_0 : f32) outs(%alloc_1 : memref<1x4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expand_shape, %arg1 : memref<1x4x8xf32, strided<[?, ?, ?], offset: ?>>, memref<1x8x16xf32, strided<[?, ?, ?], offset: ?>>) outs(%alloc_1 : memref<1x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %0 = arith.mulf %in, %in_2 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    linalg.generic {indexing_maps = [#map5, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1, %arg2 : memref<1x4x16xf32>, memref<1x1x16xf32, strided<[?, ?, ?], offset: ?>>) outs(%alloc : memref<1x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %0 = arith.addf %in, %in_2 : f32
      %1 = arith.minimumf %0, %cst : f32
      %2 = arith.maximumf %1, %cst_0 : f32
      %3 = math.tanh %2 : f32
      linalg.yield %3 : f32
    }
    %collapse_shape = memref.collapse_shape %alloc [[0, 1], [2]] : memref<1x4x16xf32> into memref<4x16xf32>
    memref.dealloc %alloc_1 : memref<1x4x16xf32>
    return %collapse_shape : memref<4x16xf32>
  }
}

