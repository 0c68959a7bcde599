module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<4x4xf32>) -> (tensor<4x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4x4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]> : tensor<4x4xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %10 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.add %3, %4 : tensor<4x4xf32>
    %6 = "stablehlo.reduce_scatter"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %10 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %7 = stablehlo.add %5, %6 : tensor<4x4xf32>
    %8 = "stablehlo.collective_permute"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<0> : tensor<1x2xi64>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.add %7, %8 : tensor<4x4xf32>
    return %9 : tensor<4x4xf32>
  }
}
