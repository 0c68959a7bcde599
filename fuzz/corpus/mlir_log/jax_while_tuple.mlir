module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:5 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %c_0, %iterArg_2 = %c, %iterArg_3 = %arg0, %iterArg_4 = %cst) : tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>
    cond {
      %c_5 = stablehlo.constant dense<4> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:3 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_3, %iterArg_4) : (tensor<8x8xf32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x8xf32>, tensor<f32>)
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %c_5 : tensor<i32>
      stablehlo.return %iterArg, %2, %1#0, %1#1, %1#2 : tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>
    }
    return %0#3, %0#4 : tensor<4x8xf32>, tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>, %arg2: tensor<4x8xf32>, %arg3: tensor<f32>) -> (tensor<i32>, tensor<4x8xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %1 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %4 = stablehlo.add %1, %3 : tensor<4x8xf32>
    %5 = stablehlo.tanh %4 : tensor<4x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.add %arg3, %6 : tensor<f32>
    return %0, %5, %7 : tensor<i32>, tensor<4x8xf32>, tensor<f32>
  }
}
