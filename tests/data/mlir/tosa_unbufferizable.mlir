func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = tosa.tanh %s : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}
