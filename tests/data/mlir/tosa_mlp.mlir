func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<1x8x16xf32>, %b: tensor<1x1x16xf32>) -> tensor<4x16xf32> {
  %x3 = tosa.reshape %x {new_shape = array<i64: 1, 4, 8>} : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
  %mm = tosa.matmul %x3, %w : (tensor<1x4x8xf32>, tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
  %add = tosa.add %mm, %b : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
  %relu = tosa.clamp %add {min_int = 0 : i64, max_int = 2147483647 : i64, min_fp = 0.0 : f32, max_fp = 3.4028235e+38 : f32} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %t = tosa.tanh %relu : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %r = tosa.reshape %t {new_shape = array<i64: 4, 16>} : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
