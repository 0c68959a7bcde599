#map = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (0, 0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @mlp(%arg0: tensor<4x8xf32>, %arg1: tensor<1x8x16xf32>, %arg2: tensor<1x1x16xf32>) -> tensor<4x16xf32> {
    %expanded = tensor.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %2 = linalg.batch_matmul ins(%expanded, %arg1 : tensor<1x4x8xf32>, tensor<1x8x16xf32>) outs(%1 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %3 = tensor.empty() : tensor<1x4x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<1x4x16xf32>, tensor<1x1x16xf32>) outs(%3 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.addf %in, %in_0 : f32
      linalg.yield %9 : f32
    } -> tensor<1x4x16xf32>
    %5 = tensor.empty() : tensor<1x4x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x4x16xf32>) outs(%5 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_0 = arith.constant 0.000000e+00 : f32
      %cst_1 = arith.constant 3.40282347E+38 : f32
      %9 = arith.minimumf %in, %cst_1 : f32
      %10 = arith.maximumf %9, %cst_0 : f32
      linalg.yield %10 : f32
    } -> tensor<1x4x16xf32>
    %7 = tensor.empty() : tensor<1x4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x4x16xf32>) outs(%7 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = math.tanh %in : f32
      linalg.yield %9 : f32
    } -> tensor<1x4x16xf32>
    %collapsed = tensor.collapse_shape %8 [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
    return %collapsed : tensor<4x16xf32>
  }
}

