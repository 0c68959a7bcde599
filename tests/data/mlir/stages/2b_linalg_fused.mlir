#map = affine_map<(d0, d1, d2) -> ()>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (0, 0, d2)>
module {
  func.func @mlp(%arg0: tensor<4x8xf32>, %arg1: tensor<1x8x16xf32>, %arg2: tensor<1x1x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 3.40282347E+38 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %expanded = tensor.expand_shape %arg0 [[0, 1], [2]] output_shape [1, 4, 8] : tensor<4x8xf32> into tensor<1x4x8xf32>
    %0 = tensor.empty() : tensor<1x4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_0 : f32) outs(%0 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x4x16xf32>
    %2 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded, %arg1 : tensor<1x4x8xf32>, tensor<1x8x16xf32>) outs(%1 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %4 = arith.mulf %in, %in_1 : f32
      %5 = arith.addf %out, %4 : f32
      linalg.yield %5 : f32
    } -> tensor<1x4x16xf32>
    %3 = linalg.generic {indexing_maps = [#map5, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %arg2 : tensor<1x4x16xf32>, tensor<1x1x16xf32>) outs(%0 : tensor<1x4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %4 = arith.addf %in, %in_1 : f32
      %5 = arith.minimumf %4, %cst : f32
      %6 = arith.maximumf %5, %cst_0 : f32
      %7 = math.tanh %6 : f32
      linalg.yield %7 : f32
    } -> tensor<1x4x16xf32>
    %collapsed = tensor.collapse_shape %3 [[0, 1], [2]] : tensor<1x4x16xf32> into tensor<4x16xf32>
    return %collapsed : tensor<4x16xf32>
  }
}

