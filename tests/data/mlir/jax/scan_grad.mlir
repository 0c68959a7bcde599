module @jit_rnn_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4x16xf32>, %arg1: tensor<16x16xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<16x16xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x4x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x4x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<5x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:7 = stablehlo.while(%iterArg = %arg0, %iterArg_7 = %arg1, %iterArg_8 = %c, %iterArg_9 = %0, %iterArg_10 = %1, %iterArg_11 = %2, %iterArg_12 = %3) : tensor<5x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>
    cond {
      %c_13 = stablehlo.constant dense<5> : tensor<i32>
      %9 = stablehlo.compare LT, %iterArg_8, %c_13, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %9 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_8) : (tensor<5x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %10:4 = func.call @closed_call(%iterArg_7, %iterArg_9, %9) : (tensor<16x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      %11 = func.call @dynamic_update_index_in_dim(%iterArg_10, %10#1, %iterArg_8) : (tensor<5x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<5x4x16xf32>
      %12 = func.call @dynamic_update_index_in_dim(%iterArg_11, %10#2, %iterArg_8) : (tensor<5x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<5x4x16xf32>
      %13 = func.call @dynamic_update_index_in_dim(%iterArg_12, %10#3, %iterArg_8) : (tensor<5x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<5x4x16xf32>
      %c_13 = stablehlo.constant dense<1> : tensor<i32>
      %14 = stablehlo.add %iterArg_8, %c_13 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_7, %14, %10#0, %11, %12, %13 : tensor<5x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>
    }
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4#3 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x16xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %8:7 = stablehlo.while(%iterArg = %4#4, %iterArg_7 = %4#5, %iterArg_8 = %4#6, %iterArg_9 = %arg1, %iterArg_10 = %c_6, %iterArg_11 = %7, %iterArg_12 = %6) : tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<16x16xf32>, tensor<4x16xf32>
    cond {
      %c_13 = stablehlo.constant dense<5> : tensor<i32>
      %9 = stablehlo.compare LT, %iterArg_10, %c_13, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %c_13 = stablehlo.constant dense<5> : tensor<i32>
      %9 = stablehlo.subtract %c_13, %iterArg_10 : tensor<i32>
      %c_14 = stablehlo.constant dense<1> : tensor<i32>
      %10 = stablehlo.subtract %9, %c_14 : tensor<i32>
      %11 = func.call @dynamic_index_in_dim(%iterArg, %10) : (tensor<5x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %12 = func.call @dynamic_index_in_dim(%iterArg_7, %10) : (tensor<5x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %13 = func.call @dynamic_index_in_dim(%iterArg_8, %10) : (tensor<5x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %14:2 = func.call @closed_call_0(%iterArg_9, %iterArg_11, %iterArg_12, %11, %12, %13) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<16x16xf32>, tensor<4x16xf32>)
      %c_15 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg_10, %c_15 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_7, %iterArg_8, %iterArg_9, %15, %14#0, %14#1 : tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<5x4x16xf32>, tensor<16x16xf32>, tensor<i32>, tensor<16x16xf32>, tensor<4x16xf32>
    }
    return %5, %8#5 : tensor<f32>, tensor<16x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x4x16xf32>, %arg1: tensor<i32>) -> tensor<4x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 16] : (tensor<5x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.add %0, %arg2 : tensor<4x16xf32>
    %2 = stablehlo.tanh %1 : tensor<4x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %4 = stablehlo.subtract %3, %2 : tensor<4x16xf32>
    return %2, %arg1, %2, %4 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<5x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<5x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<5x4x16xf32>
    return %1 : tensor<5x4x16xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<4x16xf32>, %arg3: tensor<4x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<4x16xf32>) -> (tensor<16x16xf32>, tensor<4x16xf32>) {
    %0 = stablehlo.multiply %arg2, %arg5 : tensor<4x16xf32>
    %1 = stablehlo.multiply %0, %arg4 : tensor<4x16xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
    %3 = stablehlo.dot_general %2, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %5 = stablehlo.add %arg1, %4 : tensor<16x16xf32>
    %6 = stablehlo.dot_general %2, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    return %5, %6 : tensor<16x16xf32>, tensor<4x16xf32>
  }
}
