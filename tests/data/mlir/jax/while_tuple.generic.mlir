"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x8xf32>, tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg6: tensor<4x8xf32>, %arg7: tensor<8x8xf32>):
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14:5 = "stablehlo.while"(%arg7, %13, %11, %arg6, %12) ({
    ^bb0(%arg13: tensor<8x8xf32>, %arg14: tensor<i32>, %arg15: tensor<i32>, %arg16: tensor<4x8xf32>, %arg17: tensor<f32>):
      %18 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %19 = "stablehlo.compare"(%arg14, %18) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%19) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg8: tensor<8x8xf32>, %arg9: tensor<i32>, %arg10: tensor<i32>, %arg11: tensor<4x8xf32>, %arg12: tensor<f32>):
      %15:3 = "func.call"(%arg8, %arg10, %arg11, %arg12) <{callee = @closed_call}> : (tensor<8x8xf32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x8xf32>, tensor<f32>)
      %16 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %17 = "stablehlo.add"(%arg9, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg8, %17, %15#0, %15#1, %15#2) : (tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<8x8xf32>, tensor<i32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>)
    "func.return"(%14#3, %14#4) : (tensor<4x8xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<i32>, tensor<4x8xf32>, tensor<f32>), res_attrs = [{}, {}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x8xf32>, %arg1: tensor<i32>, %arg2: tensor<4x8xf32>, %arg3: tensor<f32>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.add"(%arg1, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.dot_general"(%arg2, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %3 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = "stablehlo.tanh"(%5) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.reduce"(%6, %7) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %10 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.add"(%arg3, %8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%1, %6, %9) : (tensor<i32>, tensor<4x8xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
