"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x10xf32>) -> (tensor<6x10xf32>, tensor<6x10xi32>, tensor<6x3xf32>, tensor<6x3xi32>, tensor<6xi32>, tensor<10xi32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg25: tensor<6x10xf32>):
    %68:2 = "chlo.top_k"(%arg25) <{k = 3 : i64}> : (tensor<6x10xf32>) -> (tensor<6x3xf32>, tensor<6x3xi32>)
    %69 = "func.call"(%arg25) <{callee = @sort}> : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %70 = "func.call"(%arg25) <{callee = @argsort}> : (tensor<6x10xf32>) -> tensor<6x10xi32>
    %71 = "func.call"(%arg25) <{callee = @argmax}> : (tensor<6x10xf32>) -> tensor<6xi32>
    %72 = "func.call"(%arg25) <{callee = @argmin}> : (tensor<6x10xf32>) -> tensor<10xi32>
    %73 = "func.call"(%arg25) <{callee = @cumsum}> : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %74 = "func.call"(%arg25) <{callee = @cummax}> : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %75 = "chlo.erf"(%arg25) : (tensor<6x10xf32>) -> tensor<6x10xf32>
    "func.return"(%69, %70, %68#0, %68#1, %71, %72, %73, %74, %75) : (tensor<6x10xf32>, tensor<6x10xi32>, tensor<6x3xf32>, tensor<6x3xi32>, tensor<6xi32>, tensor<10xi32>, tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x10xf32>) -> tensor<6x10xf32>, res_attrs = [{}], sym_name = "sort", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<6x10xf32>):
    %52 = "stablehlo.sort"(%arg22) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg23: tensor<f32>, %arg24: tensor<f32>):
      %53 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %54 = "stablehlo.compare"(%arg23, %53) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %55 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %56 = "stablehlo.select"(%54, %55, %arg23) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %57 = "stablehlo.compare"(%arg23, %arg23) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %58 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %59 = "stablehlo.select"(%57, %58, %56) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %60 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %61 = "stablehlo.compare"(%arg24, %60) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %62 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %63 = "stablehlo.select"(%61, %62, %arg24) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %64 = "stablehlo.compare"(%arg24, %arg24) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %65 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %66 = "stablehlo.select"(%64, %65, %63) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %67 = "stablehlo.compare"(%59, %66) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%67) : (tensor<i1>) -> ()
    }) : (tensor<6x10xf32>) -> tensor<6x10xf32>
    "func.return"(%52) : (tensor<6x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x10xf32>) -> tensor<6x10xi32>, res_attrs = [{}], sym_name = "argsort", sym_visibility = "private"}> ({
  ^bb0(%arg17: tensor<6x10xf32>):
    %35 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<6x10xi32>
    %36:2 = "stablehlo.sort"(%arg17, %35) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>, %arg20: tensor<i32>, %arg21: tensor<i32>):
      %37 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %38 = "stablehlo.compare"(%arg18, %37) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %39 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %40 = "stablehlo.select"(%38, %39, %arg18) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %41 = "stablehlo.compare"(%arg18, %arg18) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %42 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %43 = "stablehlo.select"(%41, %42, %40) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %44 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %45 = "stablehlo.compare"(%arg19, %44) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %46 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %47 = "stablehlo.select"(%45, %46, %arg19) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %48 = "stablehlo.compare"(%arg19, %arg19) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %49 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %50 = "stablehlo.select"(%48, %49, %47) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %51 = "stablehlo.compare"(%43, %50) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%51) : (tensor<i1>) -> ()
    }) : (tensor<6x10xf32>, tensor<6x10xi32>) -> (tensor<6x10xf32>, tensor<6x10xi32>)
    "func.return"(%36#1) : (tensor<6x10xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x10xf32>) -> tensor<6xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<6x10xf32>):
    %22 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<6x10xi32>
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %25:2 = "stablehlo.reduce"(%arg12, %22, %23, %24) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<i32>, %arg15: tensor<f32>, %arg16: tensor<i32>):
      %26 = "stablehlo.compare"(%arg13, %arg15) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %27 = "stablehlo.compare"(%arg13, %arg13) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %28 = "stablehlo.or"(%26, %27) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %29 = "stablehlo.compare"(%arg13, %arg15) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %30 = "stablehlo.compare"(%arg14, %arg16) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %31 = "stablehlo.and"(%29, %30) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %32 = "stablehlo.or"(%28, %31) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %33 = "stablehlo.select"(%28, %arg13, %arg15) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %34 = "stablehlo.select"(%32, %arg14, %arg16) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%33, %34) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<6x10xf32>, tensor<6x10xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
    "func.return"(%25#1) : (tensor<6xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x10xf32>) -> tensor<10xi32>, sym_name = "argmin", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<6x10xf32>):
    %9 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<6x10xi32>
    %10 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12:2 = "stablehlo.reduce"(%arg7, %9, %10, %11) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<i32>, %arg10: tensor<f32>, %arg11: tensor<i32>):
      %13 = "stablehlo.compare"(%arg8, %arg10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %14 = "stablehlo.compare"(%arg8, %arg8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %15 = "stablehlo.or"(%13, %14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %16 = "stablehlo.compare"(%arg8, %arg10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %17 = "stablehlo.compare"(%arg9, %arg11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %18 = "stablehlo.and"(%16, %17) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %19 = "stablehlo.or"(%15, %18) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %20 = "stablehlo.select"(%15, %arg8, %arg10) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %21 = "stablehlo.select"(%19, %arg9, %arg11) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%20, %21) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<6x10xf32>, tensor<6x10xi32>, tensor<f32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xi32>)
    "func.return"(%12#1) : (tensor<10xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x10xf32>) -> tensor<6x10xf32>, res_attrs = [{}], sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<6x10xf32>):
    %8 = "func.call"(%arg6) <{callee = @cumsum_0}> : (tensor<6x10xf32>) -> tensor<6x10xf32>
    "func.return"(%8) : (tensor<6x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x10xf32>) -> tensor<6x10xf32>, sym_name = "cumsum_0", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<6x10xf32>):
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.reduce_window"(%arg3, %5) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [9, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 10>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %7 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<6x10xf32>
    "func.return"(%6) : (tensor<6x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x10xf32>) -> tensor<6x10xf32>, sym_name = "cummax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x10xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{base_dilations = array<i64: 1, 1>, padding = dense<[[5, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 6, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<6x10xf32>
    "func.return"(%2) : (tensor<6x10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
