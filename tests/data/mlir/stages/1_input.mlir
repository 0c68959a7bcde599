module {
  func.func @mlp(%arg0: tensor<4x8xf32>, %arg1: tensor<1x8x16xf32>, %arg2: tensor<1x1x16xf32>) -> tensor<4x16xf32> {
    %0 = tosa.reshape %arg0 {new_shape = array<i64: 1, 4, 8>} : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
    %1 = tosa.matmul %0, %arg1 : (tensor<1x4x8xf32>, tensor<1x8x16xf32>) -> tensor<1x4x16xf32>
    %2 = tosa.add %1, %arg2 : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
    %3 = tosa.clamp %2 {max_fp = 3.40282347E+38 : f32, max_int = 2147483647 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %4 = tosa.tanh %3 : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    %5 = tosa.reshape %4 {new_shape = array<i64: 4, 16>} : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    return %5 : tensor<4x16xf32>
  }
}

