#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @add_reduce_fusion(%x: tensor<32x10xf32>, %b: tensor<10xf32>) -> tensor<32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<32xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#map, affine_map<(d0, d1) -> (d1)>, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %b : tensor<32x10xf32>, tensor<10xf32>) outs(%init : tensor<32xf32>) {
    ^bb0(%a: f32, %c: f32, %acc: f32):
      %s = arith.addf %a, %c : f32
      %m = arith.maximumf %s, %acc : f32
      linalg.yield %m : f32
  } -> tensor<32xf32>
  return %max : tensor<32xf32>
}
