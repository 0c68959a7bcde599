"builtin.module"() <{sym_name = "jit_cond_sort"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x8xf32>, tensor<i1>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<8x3xf32>, tensor<8x3xi32>), res_attrs = [{jax.result_info = "result[0][0]"}, {jax.result_info = "result[0][1]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %40 = "stablehlo.cosine"(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %41 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
      %43 = "stablehlo.add"(%40, %42) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%43) : (tensor<8x8xf32>) -> ()
    }, {
      %36 = "stablehlo.sine"(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      %37 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
      %39 = "stablehlo.multiply"(%36, %38) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%39) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.clamp"(%2, %arg2, %3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %33 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
      %35 = "stablehlo.multiply"(%1, %34) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%35) : (tensor<8x8xf32>) -> ()
    }, {
      %30 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
      %32 = "stablehlo.subtract"(%1, %31) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%32) : (tensor<8x8xf32>) -> ()
    }, {
      %29 = "stablehlo.exponential"(%1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%29) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x8xf32>
    %6 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
    %7 = "stablehlo.negate"(%5) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %8:2 = "stablehlo.sort"(%7, %6) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<i32>):
      %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %15 = "stablehlo.compare"(%arg3, %14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %17 = "stablehlo.select"(%15, %16, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %18 = "stablehlo.compare"(%arg3, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %20 = "stablehlo.select"(%18, %19, %17) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %22 = "stablehlo.compare"(%arg4, %21) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %24 = "stablehlo.select"(%22, %23, %arg4) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %25 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %26 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %27 = "stablehlo.select"(%25, %26, %24) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %28 = "stablehlo.compare"(%20, %27) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%28) : (tensor<i1>) -> ()
    }) : (tensor<8x8xf32>, tensor<8x8xi32>) -> (tensor<8x8xf32>, tensor<8x8xi32>)
    %9 = "stablehlo.reshape"(%5) : (tensor<8x8xf32>) -> tensor<64xf32>
    %10:2 = "chlo.top_k"(%9) <{k = 3 : i64}> : (tensor<64xf32>) -> (tensor<3xf32>, tensor<3xi32>)
    %11 = "stablehlo.slice"(%8#0) <{limit_indices = array<i64: 8, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x8xf32>) -> tensor<8x3xf32>
    %12 = "stablehlo.negate"(%11) : (tensor<8x3xf32>) -> tensor<8x3xf32>
    %13 = "stablehlo.slice"(%8#1) <{limit_indices = array<i64: 8, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x8xi32>) -> tensor<8x3xi32>
    "func.return"(%10#0, %10#1, %12, %13) : (tensor<3xf32>, tensor<3xi32>, tensor<8x3xf32>, tensor<8x3xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
