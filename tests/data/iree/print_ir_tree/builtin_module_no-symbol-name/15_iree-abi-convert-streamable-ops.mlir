// -----// IR Dump After ConvertStreamableOpsPass: iree-abi-convert-streamable-ops //----- //
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  util.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = tensor.empty() : tensor<4x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x16xf32>) outs(%3 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = math.tanh %in : f32
      linalg.yield %7 : f32
    } -> tensor<4x16xf32>
    %5 = tensor.empty() : tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %2 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%5 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %7 = arith.addf %in, %in_0 : f32
      linalg.yield %7 : f32
    } -> tensor<4x16xf32>
    util.return %6 : tensor<4x16xf32>
  }
}


