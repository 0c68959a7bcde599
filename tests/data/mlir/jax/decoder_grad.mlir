module @jit_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<3x3x8x8xf32>, %arg3: tensor<3x3x8x5xf32>, %arg4: tensor<16x128xf32>, %arg5: tensor<4x16xf32>, %arg6: tensor<4x256xi32>) -> (tensor<8xf32> {jax.result_info = "result[0]['b1']"}, tensor<8xf32> {jax.result_info = "result[0]['g1']"}, tensor<3x3x8x8xf32> {jax.result_info = "result[0]['k1']"}, tensor<3x3x8x5xf32> {jax.result_info = "result[0]['k2']"}, tensor<16x128xf32> {jax.result_info = "result[0]['w0']"}, tensor<4x256xi32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg5, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x128xf32>) -> tensor<4x128xf32>
    %1 = stablehlo.reshape %0 : (tensor<4x128xf32>) -> tensor<4x4x4x8xf32>
    %2 = stablehlo.convolution(%1, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x4x4x8xf32>, tensor<3x3x8x8xf32>) -> tensor<4x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.divide %3, %4 : tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6:4 = call @_var(%2, %c) : (tensor<4x8x8x8xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<4x8x8x8xf32>, tensor<f32>, tensor<i1>)
    %7 = stablehlo.broadcast_in_dim %5, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %9 = stablehlo.subtract %2, %8 : tensor<4x8x8x8xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %11 = stablehlo.add %6#0, %10 : tensor<8xf32>
    %12 = stablehlo.sqrt %11 : tensor<8xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.divide %13, %12 : tensor<8xf32>
    %15 = stablehlo.broadcast_in_dim %12, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %17 = stablehlo.divide %9, %16 : tensor<4x8x8x8xf32>
    %18 = stablehlo.multiply %15, %15 : tensor<1x1x1x8xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %20 = stablehlo.divide %19, %18 : tensor<1x1x1x8xf32>
    %21 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %23 = stablehlo.multiply %17, %22 : tensor<4x8x8x8xf32>
    %24 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %26 = stablehlo.add %23, %25 : tensor<4x8x8x8xf32>
    %27 = stablehlo.negate %26 : tensor<4x8x8x8xf32>
    %28 = stablehlo.exponential %27 : tensor<4x8x8x8xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %30 = stablehlo.add %29, %28 : tensor<4x8x8x8xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %32 = stablehlo.divide %31, %30 : tensor<4x8x8x8xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %34 = stablehlo.subtract %33, %32 : tensor<4x8x8x8xf32>
    %35 = stablehlo.multiply %32, %34 : tensor<4x8x8x8xf32>
    %36 = stablehlo.multiply %26, %32 : tensor<4x8x8x8xf32>
    %37 = stablehlo.convolution(%36, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x8xf32>, tensor<3x3x8x5xf32>) -> tensor<4x16x16x5xf32>
    %38 = call @cumsum(%37) : (tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32>
    %39 = stablehlo.reshape %38 : (tensor<4x16x16x5xf32>) -> tensor<4x256x5xf32>
    %40:2 = call @log_softmax(%39) : (tensor<4x256x5xf32>) -> (tensor<4x256x5xf32>, tensor<4x256x1xf32>)
    %41 = call @argmax(%39) : (tensor<4x256x5xf32>) -> tensor<4x256xi32>
    %42 = stablehlo.broadcast_in_dim %arg6, dims = [0, 1] : (tensor<4x256xi32>) -> tensor<4x256x1xi32>
    %43 = call @take_along_axis(%42) : (tensor<4x256x1xi32>) -> tensor<4x256x1x1xi32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %44 = stablehlo.negate %cst_7 : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %45 = stablehlo.divide %44, %cst_8 : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [] : (tensor<f32>) -> tensor<4x256x1xf32>
    %47 = call @take_along_axis_1(%43, %46) : (tensor<4x256x1x1xi32>, tensor<4x256x1xf32>) -> tensor<4x256x5xf32>
    %48 = call @log_softmax_2(%40#0, %40#1, %47) : (tensor<4x256x5xf32>, tensor<4x256x1xf32>, tensor<4x256x5xf32>) -> tensor<4x256x5xf32>
    %49 = stablehlo.reshape %48 : (tensor<4x256x5xf32>) -> tensor<4x16x16x5xf32>
    %50 = call @cumsum_3(%49) : (tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32>
    %51 = stablehlo.convolution(%36, %50) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x8xf32>, tensor<4x16x16x5xf32>) -> tensor<3x3x8x5xf32>
    %52 = stablehlo.reverse %arg3, dims = [0, 1] : tensor<3x3x8x5xf32>
    %53 = stablehlo.convolution(%50, %52) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x16x16x5xf32>, tensor<3x3x8x5xf32>) -> tensor<4x8x8x8xf32>
    %54 = stablehlo.multiply %26, %53 : tensor<4x8x8x8xf32>
    %55 = stablehlo.multiply %53, %32 : tensor<4x8x8x8xf32>
    %56 = stablehlo.multiply %54, %35 : tensor<4x8x8x8xf32>
    %57 = stablehlo.add %55, %56 : tensor<4x8x8x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%57 init: %cst_9) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %59 = stablehlo.reshape %58 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%59 init: %cst_10) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %61 = stablehlo.multiply %17, %57 : tensor<4x8x8x8xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_11) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %63 = stablehlo.reshape %62 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %64 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %65 = stablehlo.multiply %57, %64 : tensor<4x8x8x8xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%63 init: %cst_12) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %67 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %68 = stablehlo.multiply %65, %67 : tensor<4x8x8x8xf32>
    %69 = stablehlo.multiply %68, %9 : tensor<4x8x8x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%69 init: %cst_13) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %71 = stablehlo.reshape %70 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %72 = stablehlo.negate %71 : tensor<1x1x1x8xf32>
    %73 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %74 = stablehlo.divide %65, %73 : tensor<4x8x8x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%72 init: %cst_14) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %76 = stablehlo.multiply %75, %14 : tensor<8xf32>
    %77 = stablehlo.negate %74 : tensor<4x8x8x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %78 = stablehlo.reduce(%77 init: %cst_15) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %79 = stablehlo.reshape %78 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.reduce(%79 init: %cst_16) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %81 = call @_var_5(%6#1, %6#2, %6#3, %76) : (tensor<4x8x8x8xf32>, tensor<f32>, tensor<i1>, tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %82 = stablehlo.add %74, %81 : tensor<4x8x8x8xf32>
    %cst_17 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %84 = stablehlo.divide %80, %83 : tensor<8xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %86 = stablehlo.add %82, %85 : tensor<4x8x8x8xf32>
    %87 = stablehlo.convolution(%1, %86) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x4x4x8xf32>, tensor<4x8x8x8xf32>) -> tensor<3x3x8x8xf32>
    %88 = stablehlo.reverse %arg2, dims = [0, 1] : tensor<3x3x8x8xf32>
    %89 = stablehlo.convolution(%86, %88) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<4x8x8x8xf32>, tensor<3x3x8x8xf32>) -> tensor<4x4x4x8xf32>
    %90 = stablehlo.reshape %89 : (tensor<4x4x4x8xf32>) -> tensor<4x128xf32>
    %91 = stablehlo.dot_general %90, %arg5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x128xf32>, tensor<4x16xf32>) -> tensor<128x16xf32>
    %92 = stablehlo.transpose %91, dims = [1, 0] : (tensor<128x16xf32>) -> tensor<16x128xf32>
    return %60, %66, %87, %51, %92, %41 : tensor<8xf32>, tensor<8xf32>, tensor<3x3x8x8xf32>, tensor<3x3x8x5xf32>, tensor<16x128xf32>, tensor<4x256xi32>
  }
  func.func private @_var(%arg0: tensor<4x8x8x8xf32>, %arg1: tensor<i32>) -> (tensor<8xf32>, tensor<4x8x8x8xf32>, tensor<f32>, tensor<i1>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<4x8x8x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x8x8x8xf32>
    %6 = chlo.square %5 : tensor<4x8x8x8xf32> -> tensor<4x8x8x8xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x8x8x8xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<4x8x8x8xf32>
    %9 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %10 = stablehlo.subtract %cst_2, %9 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%6 init: %cst_3) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %13 = stablehlo.divide %11, %12 : tensor<8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.compare GT, %10, %cst_4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_5 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = call @_where(%14, %13, %cst_5) : (tensor<i1>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    return %15, %8, %10, %14 : tensor<8xf32>, tensor<4x8x8x8xf32>, tensor<f32>, tensor<i1>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<8xf32>, %arg2: tensor<f32>) -> tensor<8xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<8xf32>
    return %2 : tensor<8xf32>
  }
  func.func private @cumsum(%arg0: tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32>
    return %0 : tensor<4x16x16x5xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [15, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 16, 1, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x16x16x5xf32>, tensor<f32>) -> tensor<4x16x16x5xf32>
    return %1 : tensor<4x16x16x5xf32>
  }
  func.func private @log_softmax(%arg0: tensor<4x256x5xf32>) -> (tensor<4x256x5xf32>, tensor<4x256x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<4x256x5xf32>, tensor<f32>) -> tensor<4x256xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x256xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4x256xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<4x256xf32>) -> tensor<4x256x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x256x1xf32>) -> tensor<4x256x5xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x256x5xf32>
    %6 = stablehlo.exponential %5 : tensor<4x256x5xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x256x5xf32>, tensor<f32>) -> tensor<4x256xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x256xf32>) -> tensor<4x256x1xf32>
    return %6, %8 : tensor<4x256x5xf32>, tensor<4x256x1xf32>
  }
  func.func private @argmax(%arg0: tensor<4x256x5xf32>) -> tensor<4x256xi32> {
    %0 = stablehlo.iota dim = 2 : tensor<4x256x5xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [2] : (tensor<4x256x5xf32>, tensor<4x256x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x256xf32>, tensor<4x256xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<4x256xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x256x1xi32>) -> tensor<4x256x1x1xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x256x1xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED : (tensor<4x256x1xi32>, tensor<4x256x1xi32>) -> tensor<4x256x1xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x256x1xi32>
    %3 = stablehlo.add %arg0, %2 : tensor<4x256x1xi32>
    %4 = stablehlo.select %1, %3, %arg0 : tensor<4x256x1xi1>, tensor<4x256x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x256x1xi32>) -> tensor<4x256x1x1xi32>
    return %5 : tensor<4x256x1x1xi32>
  }
  func.func private @take_along_axis_1(%arg0: tensor<4x256x1x1xi32>, %arg1: tensor<4x256x1xf32>) -> tensor<4x256x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x256x5xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x256x5xf32>, tensor<4x256x1x1xi32>, tensor<4x256x1xf32>) -> tensor<4x256x5xf32>
    return %1 : tensor<4x256x5xf32>
  }
  func.func private @log_softmax_2(%arg0: tensor<4x256x5xf32>, %arg1: tensor<4x256x1xf32>, %arg2: tensor<4x256x5xf32>) -> tensor<4x256x5xf32> {
    %0 = stablehlo.negate %arg2 : tensor<4x256x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x256x5xf32>, tensor<f32>) -> tensor<4x256xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x256xf32>) -> tensor<4x256x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<4x256x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<4x256x1xf32>, tensor<f32>) -> tensor<4x256xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x256xf32>) -> tensor<4x256x5xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<4x256x5xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<4x256x5xf32>
    return %7 : tensor<4x256x5xf32>
  }
  func.func private @cumsum_3(%arg0: tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32> {
    %0 = call @cumsum_4(%arg0) : (tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32>
    return %0 : tensor<4x16x16x5xf32>
  }
  func.func private @cumsum_4(%arg0: tensor<4x16x16x5xf32>) -> tensor<4x16x16x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 15], [0, 0], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 16, 1, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x16x16x5xf32>, tensor<f32>) -> tensor<4x16x16x5xf32>
    return %1 : tensor<4x16x16x5xf32>
  }
  func.func private @_var_5(%arg0: tensor<4x8x8x8xf32>, %arg1: tensor<f32>, %arg2: tensor<i1>, %arg3: tensor<8xf32>) -> tensor<4x8x8x8xf32> {
    %0 = call @_where_6(%arg2, %arg3) : (tensor<i1>, tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<4x8x8x8xf32>
    %5 = stablehlo.negate %4 : tensor<4x8x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x8x8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %7 = stablehlo.reshape %6 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x8xf32>
    %9 = stablehlo.divide %7, %8 : tensor<1x1x1x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [3] : (tensor<8xf32>) -> tensor<4x8x8x8xf32>
    %12 = stablehlo.add %4, %11 : tensor<4x8x8x8xf32>
    return %12 : tensor<4x8x8x8xf32>
  }
  func.func private @_where_6(%arg0: tensor<i1>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<i1>, tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
