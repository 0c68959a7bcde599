func.func @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant dense<2.0> : tensor<4x8xf32>
  %0 = tosa.mul %x, %c {shift = 0 : i8} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = call @helper(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.add %1, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
