module @jit_cond_sort attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>) -> (tensor<3xf32> {jax.result_info = "result[0][0]"}, tensor<3xi32> {jax.result_info = "result[0][1]"}, tensor<8x3xf32> {jax.result_info = "result[1]"}, tensor<8x3xi32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.convert %arg1 : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %11 = stablehlo.cosine %arg0 : tensor<8x8xf32>
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %13 = stablehlo.add %11, %12 : tensor<8x8xf32>
      stablehlo.return %13 : tensor<8x8xf32>
    }, {
      %11 = stablehlo.sine %arg0 : tensor<8x8xf32>
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %13 = stablehlo.multiply %11, %12 : tensor<8x8xf32>
      stablehlo.return %13 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.clamp %c, %arg2, %c_0 : tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %12 = stablehlo.multiply %1, %11 : tensor<8x8xf32>
      stablehlo.return %12 : tensor<8x8xf32>
    }, {
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
      %12 = stablehlo.subtract %1, %11 : tensor<8x8xf32>
      stablehlo.return %12 : tensor<8x8xf32>
    }, {
      %11 = stablehlo.exponential %1 : tensor<8x8xf32>
      stablehlo.return %11 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %4 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %5 = stablehlo.negate %3 : tensor<8x8xf32>
    %6:2 = "stablehlo.sort"(%5, %4) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %11 = stablehlo.compare EQ, %arg3, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.select %11, %cst_1, %arg3 : tensor<i1>, tensor<f32>
      %13 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_2 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %14 = stablehlo.select %13, %cst_2, %12 : tensor<i1>, tensor<f32>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %15 = stablehlo.compare EQ, %arg4, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %16 = stablehlo.select %15, %cst_4, %arg4 : tensor<i1>, tensor<f32>
      %17 = stablehlo.compare NE, %arg4, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_5 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %18 = stablehlo.select %17, %cst_5, %16 : tensor<i1>, tensor<f32>
      %19 = stablehlo.compare LT, %14, %18, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %19 : tensor<i1>
    }) : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8x8xf32>, tensor<8x8xi32>)
    %7 = stablehlo.reshape %3 : (tensor<8x8xf32>) -> tensor<64xf32>
    %values, %indices = chlo.top_k(%7, k = 3) : tensor<64xf32> -> (tensor<3xf32>, tensor<3xi32>)
    %8 = stablehlo.slice %6#0 [0:8, 0:3] : (tensor<8x8xf32>) -> tensor<8x3xf32>
    %9 = stablehlo.negate %8 : tensor<8x3xf32>
    %10 = stablehlo.slice %6#1 [0:8, 0:3] : (tensor<8x8xi32>) -> tensor<8x3xi32>
    return %values, %indices, %9, %10 : tensor<3xf32>, tensor<3xi32>, tensor<8x3xf32>, tensor<8x3xi32>
  }
}
