#map = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @broadcast_maximum_fusion(%x: tensor<32x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x128xf32>
  %bb = linalg.generic {indexing_maps = [#bcast, #map], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<128xf32>) outs(%empty : tensor<32x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
  } -> tensor<32x128xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bb : tensor<32x128xf32>, tensor<32x128xf32>) outs(%empty : tensor<32x128xf32>) {
    ^bb0(%a: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<32x128xf32>) outs(%empty : tensor<32x128xf32>) {
    ^bb0(%a: f32, %out: f32):
      %m = arith.maximumf %a, %zero : f32
      linalg.yield %m : f32
  } -> tensor<32x128xf32>
  return %relu : tensor<32x128xf32>
}
