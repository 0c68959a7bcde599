"builtin.module"() <{sym_name = "jit_mlp"}> ({
  "func.func"() <{function_type = (tensor<64x32xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x10xf32>, tensor<10xf32>, tensor<8x64xf32>, tensor<8xi32>) -> (tensor<8x10xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<64x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32x16xf32>, %arg11: tensor<16xf32>, %arg12: tensor<16x10xf32>, %arg13: tensor<10xf32>, %arg14: tensor<8x64xf32>, %arg15: tensor<8xi32>):
    %29 = "stablehlo.dot_general"(%arg14, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %30 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %32 = "stablehlo.add"(%29, %31) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %33 = "func.call"(%32) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %34 = "stablehlo.dot_general"(%33, %arg10) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %35 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %37 = "stablehlo.add"(%34, %36) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %38 = "func.call"(%37) <{callee = @relu_0}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %39 = "stablehlo.dot_general"(%38, %arg12) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %40 = "stablehlo.broadcast_in_dim"(%arg13) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<1x10xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %42 = "stablehlo.add"(%39, %41) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %43 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.reduce"(%42, %43) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg22: tensor<f32>, %arg23: tensor<f32>):
      %70 = "stablehlo.maximum"(%arg22, %arg23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%70) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %45 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %47 = "stablehlo.maximum"(%46, %44) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %50 = "stablehlo.subtract"(%42, %49) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %51 = "stablehlo.exponential"(%50) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %52 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.reduce"(%51, %52) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %69 = "stablehlo.add"(%arg20, %arg21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%69) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %56 = "stablehlo.divide"(%51, %55) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %57 = "func.call"(%42) <{callee = @log_softmax}> : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %58 = "func.call"(%arg15) <{callee = @_one_hot}> : (tensor<8xi32>) -> tensor<8x10xf32>
    %59 = "stablehlo.multiply"(%58, %57) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %60 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.reduce"(%59, %60) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %68 = "stablehlo.add"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%68) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %62 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %63 = "stablehlo.reduce"(%61, %62) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %67 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%67) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %64 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %65 = "stablehlo.divide"(%63, %64) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %66 = "stablehlo.negate"(%65) : (tensor<f32>) -> tensor<f32>
    "func.return"(%56, %66) : (tensor<8x10xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<8x32xf32>):
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %28 = "stablehlo.maximum"(%arg7, %27) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%28) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, sym_name = "relu_0", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<8x16xf32>):
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %25 = "stablehlo.maximum"(%arg6, %24) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%25) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x10xf32>) -> tensor<8x10xf32>, sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<8x10xf32>):
    %6 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%arg1, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %22 = "stablehlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %10 = "stablehlo.maximum"(%9, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %13 = "stablehlo.subtract"(%arg1, %12) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %14 = "stablehlo.exponential"(%13) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%14, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %21 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %18 = "stablehlo.log"(%17) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %20 = "stablehlo.subtract"(%13, %19) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    "func.return"(%20) : (tensor<8x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8xi32>) -> tensor<8x10xf32>, sym_name = "_one_hot", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8xi32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1x10xi32>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xi32>) -> tensor<8x10xi32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x10xi32>) -> tensor<8x10xi32>
    %4 = "stablehlo.compare"(%2, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x10xi32>, tensor<8x10xi32>) -> tensor<8x10xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<8x10xi1>) -> tensor<8x10xf32>
    "func.return"(%5) : (tensor<8x10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
