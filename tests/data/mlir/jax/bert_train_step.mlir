module @jit_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32> {tf.aliasing_output = 0 : i32}, %arg1: tensor<32xf32> {tf.aliasing_output = 1 : i32}, %arg2: tensor<32xf32> {tf.aliasing_output = 2 : i32}, %arg3: tensor<64xf32> {tf.aliasing_output = 3 : i32}, %arg4: tensor<32xf32> {tf.aliasing_output = 4 : i32}, %arg5: tensor<50x32xf32> {tf.aliasing_output = 5 : i32}, %arg6: tensor<32xf32> {tf.aliasing_output = 6 : i32}, %arg7: tensor<32xf32> {tf.aliasing_output = 7 : i32}, %arg8: tensor<32xf32> {tf.aliasing_output = 8 : i32}, %arg9: tensor<32x64xf32> {tf.aliasing_output = 9 : i32}, %arg10: tensor<64x32xf32> {tf.aliasing_output = 10 : i32}, %arg11: tensor<32x32xf32> {tf.aliasing_output = 11 : i32}, %arg12: tensor<32x32xf32> {tf.aliasing_output = 12 : i32}, %arg13: tensor<32x32xf32> {tf.aliasing_output = 13 : i32}, %arg14: tensor<32x32xf32> {tf.aliasing_output = 14 : i32}, %arg15: tensor<32xf32> {tf.aliasing_output = 15 : i32}, %arg16: tensor<32xf32> {tf.aliasing_output = 16 : i32}, %arg17: tensor<32xf32> {tf.aliasing_output = 17 : i32}, %arg18: tensor<64xf32> {tf.aliasing_output = 18 : i32}, %arg19: tensor<32xf32> {tf.aliasing_output = 19 : i32}, %arg20: tensor<50x32xf32> {tf.aliasing_output = 20 : i32}, %arg21: tensor<32xf32> {tf.aliasing_output = 21 : i32}, %arg22: tensor<32xf32> {tf.aliasing_output = 22 : i32}, %arg23: tensor<32xf32> {tf.aliasing_output = 23 : i32}, %arg24: tensor<32x64xf32> {tf.aliasing_output = 24 : i32}, %arg25: tensor<64x32xf32> {tf.aliasing_output = 25 : i32}, %arg26: tensor<32x32xf32> {tf.aliasing_output = 26 : i32}, %arg27: tensor<32x32xf32> {tf.aliasing_output = 27 : i32}, %arg28: tensor<32x32xf32> {tf.aliasing_output = 28 : i32}, %arg29: tensor<32x32xf32> {tf.aliasing_output = 29 : i32}, %arg30: tensor<2x8xi32>, %arg31: tensor<2x8xi32>, %arg32: tensor<2xui32>) -> (tensor<32xf32> {jax.result_info = "result[0]['b0']"}, tensor<32xf32> {jax.result_info = "result[0]['b1']"}, tensor<32xf32> {jax.result_info = "result[0]['b2']"}, tensor<64xf32> {jax.result_info = "result[0]['c1']"}, tensor<32xf32> {jax.result_info = "result[0]['c2']"}, tensor<50x32xf32> {jax.result_info = "result[0]['emb']"}, tensor<32xf32> {jax.result_info = "result[0]['g0']"}, tensor<32xf32> {jax.result_info = "result[0]['g1']"}, tensor<32xf32> {jax.result_info = "result[0]['g2']"}, tensor<32x64xf32> {jax.result_info = "result[0]['w1']"}, tensor<64x32xf32> {jax.result_info = "result[0]['w2']"}, tensor<32x32xf32> {jax.result_info = "result[0]['wk']"}, tensor<32x32xf32> {jax.result_info = "result[0]['wo']"}, tensor<32x32xf32> {jax.result_info = "result[0]['wq']"}, tensor<32x32xf32> {jax.result_info = "result[0]['wv']"}, tensor<32xf32> {jax.result_info = "result[1]['b0']"}, tensor<32xf32> {jax.result_info = "result[1]['b1']"}, tensor<32xf32> {jax.result_info = "result[1]['b2']"}, tensor<64xf32> {jax.result_info = "result[1]['c1']"}, tensor<32xf32> {jax.result_info = "result[1]['c2']"}, tensor<50x32xf32> {jax.result_info = "result[1]['emb']"}, tensor<32xf32> {jax.result_info = "result[1]['g0']"}, tensor<32xf32> {jax.result_info = "result[1]['g1']"}, tensor<32xf32> {jax.result_info = "result[1]['g2']"}, tensor<32x64xf32> {jax.result_info = "result[1]['w1']"}, tensor<64x32xf32> {jax.result_info = "result[1]['w2']"}, tensor<32x32xf32> {jax.result_info = "result[1]['wk']"}, tensor<32x32xf32> {jax.result_info = "result[1]['wo']"}, tensor<32x32xf32> {jax.result_info = "result[1]['wq']"}, tensor<32x32xf32> {jax.result_info = "result[1]['wv']"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x8xi32>
    %1 = stablehlo.compare LT, %arg30, %0, SIGNED : (tensor<2x8xi32>, tensor<2x8xi32>) -> tensor<2x8xi1>
    %c_0 = stablehlo.constant dense<50> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x8xi32>
    %3 = stablehlo.add %arg30, %2 : tensor<2x8xi32>
    %4 = stablehlo.select %1, %3, %arg30 : tensor<2x8xi1>, tensor<2x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x8xi32>) -> tensor<2x8x1xi32>
    %6 = "stablehlo.gather"(%arg5, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<50x32xf32>, tensor<2x8x1xi32>) -> tensor<2x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<2x8x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %12 = stablehlo.subtract %6, %11 : tensor<2x8x32xf32>
    %13 = chlo.square %12 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<2x8x32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%13 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_4 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %19 = stablehlo.divide %17, %18 : tensor<2x8x1xf32>
    %20 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %21 = stablehlo.subtract %6, %20 : tensor<2x8x32xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %23 = stablehlo.add %19, %22 : tensor<2x8x1xf32>
    %24 = stablehlo.rsqrt %23 : tensor<2x8x1xf32>
    %25 = stablehlo.divide %24, %23 : tensor<2x8x1xf32>
    %cst_6 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %27 = stablehlo.multiply %26, %25 : tensor<2x8x1xf32>
    %28 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %29 = stablehlo.multiply %21, %28 : tensor<2x8x32xf32>
    %30 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %32 = stablehlo.multiply %29, %31 : tensor<2x8x32xf32>
    %33 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %35 = stablehlo.add %32, %34 : tensor<2x8x32xf32>
    %36 = stablehlo.dot_general %35, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %37 = stablehlo.reshape %36 : (tensor<2x8x32xf32>) -> tensor<2x8x2x16xf32>
    %38 = stablehlo.dot_general %35, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %39 = stablehlo.reshape %38 : (tensor<2x8x32xf32>) -> tensor<2x8x2x16xf32>
    %40 = stablehlo.dot_general %35, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %41 = stablehlo.reshape %40 : (tensor<2x8x32xf32>) -> tensor<2x8x2x16xf32>
    %42 = stablehlo.dot_general %37, %39, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xf32>, tensor<2x8x2x16xf32>) -> tensor<2x2x8x8xf32>
    %cst_7 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %43 = stablehlo.sqrt %cst_7 : tensor<f32>
    %44 = stablehlo.convert %43 : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %46 = stablehlo.divide %42, %45 : tensor<2x2x8x8xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_8) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %cst_9 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x2x8xf32>
    %49 = stablehlo.maximum %48, %47 : tensor<2x2x8xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %52 = stablehlo.subtract %46, %51 : tensor<2x2x8x8xf32>
    %53 = stablehlo.exponential %52 : tensor<2x2x8x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.reduce(%53 init: %cst_10) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %57 = stablehlo.divide %53, %56 : tensor<2x2x8x8xf32>
    %58 = stablehlo.multiply %55, %55 : tensor<2x2x8x1xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x2x8x1xf32>
    %60 = stablehlo.divide %59, %58 : tensor<2x2x8x1xf32>
    %61 = call @_threefry_split(%arg32) : (tensor<2xui32>) -> tensor<2x2xui32>
    %62 = stablehlo.slice %61 [0:1, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %63 = stablehlo.reshape %62 : (tensor<1x2xui32>) -> tensor<2xui32>
    %64 = stablehlo.slice %61 [1:2, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %65 = stablehlo.reshape %64 : (tensor<1x2xui32>) -> tensor<2xui32>
    %cst_12 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %66 = call @_bernoulli(%63, %cst_12) : (tensor<2xui32>, tensor<f32>) -> tensor<2x2x8x8xi1>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %68 = stablehlo.divide %57, %67 : tensor<2x2x8x8xf32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %69 = call @_where(%66, %68, %c_14) : (tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>, tensor<i32>) -> tensor<2x2x8x8xf32>
    %70 = stablehlo.dot_general %41, %69, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x2x16xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x16x8xf32>
    %71 = stablehlo.transpose %70, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xf32>) -> tensor<2x8x2x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %73 = stablehlo.dot_general %72, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %74 = stablehlo.add %35, %73 : tensor<2x8x32xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_16 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<2x8x1xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %80 = stablehlo.subtract %74, %79 : tensor<2x8x32xf32>
    %81 = chlo.square %80 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_17 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %83 = stablehlo.multiply %82, %80 : tensor<2x8x32xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %84 = stablehlo.reduce(%81 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_19 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %87 = stablehlo.divide %85, %86 : tensor<2x8x1xf32>
    %88 = stablehlo.broadcast_in_dim %78, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %89 = stablehlo.subtract %74, %88 : tensor<2x8x32xf32>
    %cst_20 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %91 = stablehlo.add %87, %90 : tensor<2x8x1xf32>
    %92 = stablehlo.rsqrt %91 : tensor<2x8x1xf32>
    %93 = stablehlo.divide %92, %91 : tensor<2x8x1xf32>
    %cst_21 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<2x8x1xf32>
    %96 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %97 = stablehlo.multiply %89, %96 : tensor<2x8x32xf32>
    %98 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %100 = stablehlo.multiply %97, %99 : tensor<2x8x32xf32>
    %101 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %103 = stablehlo.add %100, %102 : tensor<2x8x32xf32>
    %104 = stablehlo.dot_general %103, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
    %105 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x8x64xf32>
    %107 = stablehlo.add %104, %106 : tensor<2x8x64xf32>
    %108 = stablehlo.multiply %107, %107 : tensor<2x8x64xf32>
    %109 = stablehlo.multiply %108, %107 : tensor<2x8x64xf32>
    %110 = stablehlo.multiply %107, %107 : tensor<2x8x64xf32>
    %cst_22 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %112 = stablehlo.multiply %111, %110 : tensor<2x8x64xf32>
    %cst_23 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %113 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %114 = stablehlo.multiply %113, %109 : tensor<2x8x64xf32>
    %115 = stablehlo.add %107, %114 : tensor<2x8x64xf32>
    %cst_24 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %117 = stablehlo.multiply %116, %115 : tensor<2x8x64xf32>
    %118 = stablehlo.tanh %117 : tensor<2x8x64xf32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %119 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %120 = stablehlo.subtract %119, %118 : tensor<2x8x64xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %122 = stablehlo.add %121, %118 : tensor<2x8x64xf32>
    %cst_27 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %124 = stablehlo.multiply %123, %122 : tensor<2x8x64xf32>
    %125 = stablehlo.multiply %107, %124 : tensor<2x8x64xf32>
    %cst_28 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %126 = call @_bernoulli_2(%65, %cst_28) : (tensor<2xui32>, tensor<f32>) -> tensor<2x8x64xi1>
    %cst_29 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %128 = stablehlo.divide %125, %127 : tensor<2x8x64xf32>
    %c_30 = stablehlo.constant dense<0> : tensor<i32>
    %129 = call @_where_6(%126, %128, %c_30) : (tensor<2x8x64xi1>, tensor<2x8x64xf32>, tensor<i32>) -> tensor<2x8x64xf32>
    %130 = stablehlo.dot_general %129, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
    %131 = stablehlo.add %103, %130 : tensor<2x8x32xf32>
    %132 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %134 = stablehlo.add %131, %133 : tensor<2x8x32xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %135 = stablehlo.reduce(%134 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_32 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %138 = stablehlo.divide %136, %137 : tensor<2x8x1xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %140 = stablehlo.subtract %134, %139 : tensor<2x8x32xf32>
    %141 = chlo.square %140 : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
    %cst_33 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %143 = stablehlo.multiply %142, %140 : tensor<2x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%141 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %145 = stablehlo.broadcast_in_dim %144, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_35 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %147 = stablehlo.divide %145, %146 : tensor<2x8x1xf32>
    %148 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %149 = stablehlo.subtract %134, %148 : tensor<2x8x32xf32>
    %cst_36 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %151 = stablehlo.add %147, %150 : tensor<2x8x1xf32>
    %152 = stablehlo.rsqrt %151 : tensor<2x8x1xf32>
    %153 = stablehlo.divide %152, %151 : tensor<2x8x1xf32>
    %cst_37 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %155 = stablehlo.multiply %154, %153 : tensor<2x8x1xf32>
    %156 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %157 = stablehlo.multiply %149, %156 : tensor<2x8x32xf32>
    %158 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %160 = stablehlo.multiply %157, %159 : tensor<2x8x32xf32>
    %161 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %163 = stablehlo.add %160, %162 : tensor<2x8x32xf32>
    %164 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<50x32xf32>) -> tensor<32x50xf32>
    %165 = stablehlo.dot_general %163, %164, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x50xf32>) -> tensor<2x8x50xf32>
    %166:3 = call @log_softmax(%165) : (tensor<2x8x50xf32>) -> (tensor<2x8x50xf32>, tensor<2x8x50xf32>, tensor<2x8x1xf32>)
    %167 = stablehlo.broadcast_in_dim %arg31, dims = [0, 1] : (tensor<2x8xi32>) -> tensor<2x8x1xi32>
    %168:2 = call @take_along_axis(%166#0, %167) : (tensor<2x8x50xf32>, tensor<2x8x1xi32>) -> (tensor<2x8x1xf32>, tensor<2x8x1x1xi32>)
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.reduce(%168#0 init: %cst_38) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_39 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %170 = stablehlo.divide %169, %cst_39 : tensor<f32>
    %171 = stablehlo.negate %170 : tensor<f32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %172 = stablehlo.negate %cst_40 : tensor<f32>
    %cst_41 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %173 = stablehlo.divide %172, %cst_41 : tensor<f32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %175 = call @take_along_axis_7(%168#1, %174) : (tensor<2x8x1x1xi32>, tensor<2x8x1xf32>) -> tensor<2x8x50xf32>
    %176 = call @log_softmax_8(%166#1, %166#2, %175) : (tensor<2x8x50xf32>, tensor<2x8x1xf32>, tensor<2x8x50xf32>) -> tensor<2x8x50xf32>
    %177 = stablehlo.dot_general %176, %163, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x50xf32>, tensor<2x8x32xf32>) -> tensor<50x32xf32>
    %178 = stablehlo.transpose %177, dims = [1, 0] : (tensor<50x32xf32>) -> tensor<32x50xf32>
    %179 = stablehlo.dot_general %176, %164, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x50xf32>, tensor<32x50xf32>) -> tensor<2x8x32xf32>
    %180 = stablehlo.transpose %178, dims = [1, 0] : (tensor<32x50xf32>) -> tensor<50x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.reduce(%179 init: %cst_42) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %182 = stablehlo.reshape %181 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %183 = stablehlo.reduce(%182 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %184 = stablehlo.multiply %157, %179 : tensor<2x8x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %185 = stablehlo.reduce(%184 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %186 = stablehlo.reshape %185 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %187 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %188 = stablehlo.multiply %179, %187 : tensor<2x8x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %189 = stablehlo.reduce(%186 init: %cst_45) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %190 = stablehlo.multiply %149, %188 : tensor<2x8x32xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %191 = stablehlo.reduce(%190 init: %cst_46) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %192 = stablehlo.reshape %191 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %193 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %194 = stablehlo.multiply %188, %193 : tensor<2x8x32xf32>
    %195 = stablehlo.multiply %192, %155 : tensor<2x8x1xf32>
    %196 = stablehlo.negate %194 : tensor<2x8x32xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %197 = stablehlo.reduce(%196 init: %cst_47) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %198 = stablehlo.reshape %197 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_48 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %200 = stablehlo.divide %195, %199 : tensor<2x8x1xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %201 = stablehlo.reduce(%200 init: %cst_49) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %202 = stablehlo.broadcast_in_dim %201, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %203 = stablehlo.multiply %202, %143 : tensor<2x8x32xf32>
    %204 = stablehlo.negate %203 : tensor<2x8x32xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_50) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %206 = stablehlo.reshape %205 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %207 = stablehlo.add %194, %203 : tensor<2x8x32xf32>
    %208 = stablehlo.add %198, %206 : tensor<2x8x1xf32>
    %cst_51 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %209 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %210 = stablehlo.divide %208, %209 : tensor<2x8x1xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %211 = stablehlo.reduce(%210 init: %cst_52) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %212 = stablehlo.broadcast_in_dim %211, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %213 = stablehlo.add %207, %212 : tensor<2x8x32xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %214 = stablehlo.reduce(%213 init: %cst_53) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %215 = stablehlo.reshape %214 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %216 = stablehlo.reduce(%215 init: %cst_54) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %217 = stablehlo.dot_general %213, %129, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x64xf32>) -> tensor<32x64xf32>
    %218 = stablehlo.transpose %217, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %219 = stablehlo.dot_general %213, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<64x32xf32>) -> tensor<2x8x64xf32>
    %220 = call @_where_9(%126, %219) : (tensor<2x8x64xi1>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
    %cst_55 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %222 = stablehlo.divide %220, %221 : tensor<2x8x64xf32>
    %223 = stablehlo.multiply %107, %222 : tensor<2x8x64xf32>
    %224 = stablehlo.multiply %222, %124 : tensor<2x8x64xf32>
    %cst_56 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %226 = stablehlo.multiply %225, %223 : tensor<2x8x64xf32>
    %227 = stablehlo.multiply %226, %120 : tensor<2x8x64xf32>
    %228 = stablehlo.multiply %227, %118 : tensor<2x8x64xf32>
    %229 = stablehlo.add %227, %228 : tensor<2x8x64xf32>
    %cst_57 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %231 = stablehlo.multiply %230, %229 : tensor<2x8x64xf32>
    %232 = stablehlo.add %224, %231 : tensor<2x8x64xf32>
    %cst_58 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %233 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %234 = stablehlo.multiply %233, %231 : tensor<2x8x64xf32>
    %235 = stablehlo.multiply %234, %112 : tensor<2x8x64xf32>
    %236 = stablehlo.add %232, %235 : tensor<2x8x64xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %237 = stablehlo.reduce(%236 init: %cst_59) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x64xf32>, tensor<f32>) -> tensor<64xf32>
    %238 = stablehlo.reshape %237 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %cst_60 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %239 = stablehlo.reduce(%238 init: %cst_60) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %240 = stablehlo.dot_general %236, %103, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<2x8x32xf32>) -> tensor<64x32xf32>
    %241 = stablehlo.transpose %240, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %242 = stablehlo.dot_general %236, %arg9, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<32x64xf32>) -> tensor<2x8x32xf32>
    %243 = stablehlo.add %213, %242 : tensor<2x8x32xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %244 = stablehlo.reduce(%243 init: %cst_61) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %245 = stablehlo.reshape %244 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %246 = stablehlo.reduce(%245 init: %cst_62) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %247 = stablehlo.multiply %97, %243 : tensor<2x8x32xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %248 = stablehlo.reduce(%247 init: %cst_63) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %249 = stablehlo.reshape %248 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %250 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %251 = stablehlo.multiply %243, %250 : tensor<2x8x32xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %252 = stablehlo.reduce(%249 init: %cst_64) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %253 = stablehlo.multiply %89, %251 : tensor<2x8x32xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %254 = stablehlo.reduce(%253 init: %cst_65) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %255 = stablehlo.reshape %254 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %256 = stablehlo.broadcast_in_dim %92, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %257 = stablehlo.multiply %251, %256 : tensor<2x8x32xf32>
    %258 = stablehlo.multiply %255, %95 : tensor<2x8x1xf32>
    %259 = stablehlo.negate %257 : tensor<2x8x32xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %260 = stablehlo.reduce(%259 init: %cst_66) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %261 = stablehlo.reshape %260 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_67 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %262 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %263 = stablehlo.divide %258, %262 : tensor<2x8x1xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %264 = stablehlo.reduce(%263 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %265 = stablehlo.broadcast_in_dim %264, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %266 = stablehlo.multiply %265, %83 : tensor<2x8x32xf32>
    %267 = stablehlo.negate %266 : tensor<2x8x32xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %268 = stablehlo.reduce(%267 init: %cst_69) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %269 = stablehlo.reshape %268 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %270 = stablehlo.add %257, %266 : tensor<2x8x32xf32>
    %271 = stablehlo.add %261, %269 : tensor<2x8x1xf32>
    %cst_70 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %272 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %273 = stablehlo.divide %271, %272 : tensor<2x8x1xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %274 = stablehlo.reduce(%273 init: %cst_71) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %275 = stablehlo.broadcast_in_dim %274, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %276 = stablehlo.add %270, %275 : tensor<2x8x32xf32>
    %277 = stablehlo.dot_general %276, %72, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %278 = stablehlo.transpose %277, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %279 = stablehlo.dot_general %276, %arg12, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %280 = stablehlo.reshape %279 : (tensor<2x8x32xf32>) -> tensor<2x8x2x16xf32>
    %281 = stablehlo.transpose %280, dims = [0, 2, 3, 1] : (tensor<2x8x2x16xf32>) -> tensor<2x2x16x8xf32>
    %282 = stablehlo.dot_general %281, %41, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xf32>, tensor<2x8x2x16xf32>) -> tensor<2x2x8x8xf32>
    %283 = stablehlo.dot_general %281, %69, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x16x8xf32>
    %284 = stablehlo.transpose %283, dims = [0, 3, 1, 2] : (tensor<2x2x16x8xf32>) -> tensor<2x8x2x16xf32>
    %285 = call @_where_10(%66, %282) : (tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %cst_72 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %286 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %287 = stablehlo.divide %285, %286 : tensor<2x2x8x8xf32>
    %288 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %289 = stablehlo.multiply %287, %288 : tensor<2x2x8x8xf32>
    %290 = stablehlo.multiply %289, %53 : tensor<2x2x8x8xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %291 = stablehlo.reduce(%290 init: %cst_73) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %292 = stablehlo.reshape %291 : (tensor<2x2x8xf32>) -> tensor<2x2x8x1xf32>
    %293 = stablehlo.negate %292 : tensor<2x2x8x1xf32>
    %294 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2, 3] : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
    %295 = stablehlo.divide %287, %294 : tensor<2x2x8x8xf32>
    %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %296 = stablehlo.reduce(%293 init: %cst_74) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x1xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %297 = stablehlo.broadcast_in_dim %296, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %298 = stablehlo.add %295, %297 : tensor<2x2x8x8xf32>
    %299 = stablehlo.multiply %298, %53 : tensor<2x2x8x8xf32>
    %300 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %301 = stablehlo.divide %299, %300 : tensor<2x2x8x8xf32>
    %302 = stablehlo.dot_general %301, %37, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xf32>, tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
    %303 = stablehlo.transpose %302, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xf32>) -> tensor<2x8x2x16xf32>
    %304 = stablehlo.dot_general %301, %39, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x8x8xf32>, tensor<2x8x2x16xf32>) -> tensor<2x2x8x16xf32>
    %305 = stablehlo.transpose %304, dims = [0, 2, 1, 3] : (tensor<2x2x8x16xf32>) -> tensor<2x8x2x16xf32>
    %306 = stablehlo.reshape %284 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %307 = stablehlo.dot_general %306, %35, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %308 = stablehlo.transpose %307, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %309 = stablehlo.dot_general %306, %arg14, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %310 = stablehlo.add %276, %309 : tensor<2x8x32xf32>
    %311 = stablehlo.reshape %303 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %312 = stablehlo.dot_general %311, %35, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %313 = stablehlo.transpose %312, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %314 = stablehlo.dot_general %311, %arg11, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %315 = stablehlo.add %310, %314 : tensor<2x8x32xf32>
    %316 = stablehlo.reshape %305 : (tensor<2x8x2x16xf32>) -> tensor<2x8x32xf32>
    %317 = stablehlo.dot_general %316, %35, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %318 = stablehlo.transpose %317, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %319 = stablehlo.dot_general %316, %arg13, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %320 = stablehlo.add %315, %319 : tensor<2x8x32xf32>
    %cst_75 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %321 = stablehlo.reduce(%320 init: %cst_75) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %322 = stablehlo.reshape %321 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %323 = stablehlo.reduce(%322 init: %cst_76) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %324 = stablehlo.multiply %29, %320 : tensor<2x8x32xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %325 = stablehlo.reduce(%324 init: %cst_77) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %326 = stablehlo.reshape %325 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %327 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %328 = stablehlo.multiply %320, %327 : tensor<2x8x32xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %329 = stablehlo.reduce(%326 init: %cst_78) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %330 = stablehlo.multiply %21, %328 : tensor<2x8x32xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %331 = stablehlo.reduce(%330 init: %cst_79) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %332 = stablehlo.reshape %331 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %333 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %334 = stablehlo.multiply %328, %333 : tensor<2x8x32xf32>
    %335 = stablehlo.multiply %332, %27 : tensor<2x8x1xf32>
    %336 = stablehlo.negate %334 : tensor<2x8x32xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %337 = stablehlo.reduce(%336 init: %cst_80) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %338 = stablehlo.reshape %337 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_81 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %340 = stablehlo.divide %335, %339 : tensor<2x8x1xf32>
    %cst_82 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %341 = stablehlo.reduce(%340 init: %cst_82) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %342 = stablehlo.broadcast_in_dim %341, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %343 = stablehlo.multiply %342, %15 : tensor<2x8x32xf32>
    %344 = stablehlo.negate %343 : tensor<2x8x32xf32>
    %cst_83 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %345 = stablehlo.reduce(%344 init: %cst_83) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %346 = stablehlo.reshape %345 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %347 = stablehlo.add %334, %343 : tensor<2x8x32xf32>
    %348 = stablehlo.add %338, %346 : tensor<2x8x1xf32>
    %cst_84 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %349 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %350 = stablehlo.divide %348, %349 : tensor<2x8x1xf32>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %351 = stablehlo.reduce(%350 init: %cst_85) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %352 = stablehlo.broadcast_in_dim %351, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %353 = stablehlo.add %347, %352 : tensor<2x8x32xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<50x32xf32>
    %355 = "stablehlo.scatter"(%354, %5, %353) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg33: tensor<f32>, %arg34: tensor<f32>):
      %447 = stablehlo.add %arg33, %arg34 : tensor<f32>
      stablehlo.return %447 : tensor<f32>
    }) : (tensor<50x32xf32>, tensor<2x8x1xi32>, tensor<2x8x32xf32>) -> tensor<50x32xf32>
    %356 = stablehlo.add %180, %355 : tensor<50x32xf32>
    %cst_87 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %357 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %358 = stablehlo.multiply %357, %arg15 : tensor<32xf32>
    %359 = stablehlo.add %358, %323 : tensor<32xf32>
    %cst_88 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %360 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %361 = stablehlo.multiply %360, %arg16 : tensor<32xf32>
    %362 = stablehlo.add %361, %246 : tensor<32xf32>
    %cst_89 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %363 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %364 = stablehlo.multiply %363, %arg17 : tensor<32xf32>
    %365 = stablehlo.add %364, %183 : tensor<32xf32>
    %cst_90 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %366 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %367 = stablehlo.multiply %366, %arg18 : tensor<64xf32>
    %368 = stablehlo.add %367, %239 : tensor<64xf32>
    %cst_91 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %369 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %370 = stablehlo.multiply %369, %arg19 : tensor<32xf32>
    %371 = stablehlo.add %370, %216 : tensor<32xf32>
    %cst_92 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %372 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<50x32xf32>
    %373 = stablehlo.multiply %372, %arg20 : tensor<50x32xf32>
    %374 = stablehlo.add %373, %356 : tensor<50x32xf32>
    %cst_93 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %375 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %376 = stablehlo.multiply %375, %arg21 : tensor<32xf32>
    %377 = stablehlo.add %376, %329 : tensor<32xf32>
    %cst_94 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %378 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %379 = stablehlo.multiply %378, %arg22 : tensor<32xf32>
    %380 = stablehlo.add %379, %252 : tensor<32xf32>
    %cst_95 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %381 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %382 = stablehlo.multiply %381, %arg23 : tensor<32xf32>
    %383 = stablehlo.add %382, %189 : tensor<32xf32>
    %cst_96 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %384 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %385 = stablehlo.multiply %384, %arg24 : tensor<32x64xf32>
    %386 = stablehlo.add %385, %241 : tensor<32x64xf32>
    %cst_97 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %387 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %388 = stablehlo.multiply %387, %arg25 : tensor<64x32xf32>
    %389 = stablehlo.add %388, %218 : tensor<64x32xf32>
    %cst_98 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %390 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %391 = stablehlo.multiply %390, %arg26 : tensor<32x32xf32>
    %392 = stablehlo.add %391, %313 : tensor<32x32xf32>
    %cst_99 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %393 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %394 = stablehlo.multiply %393, %arg27 : tensor<32x32xf32>
    %395 = stablehlo.add %394, %278 : tensor<32x32xf32>
    %cst_100 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %396 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %397 = stablehlo.multiply %396, %arg28 : tensor<32x32xf32>
    %398 = stablehlo.add %397, %318 : tensor<32x32xf32>
    %cst_101 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %399 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %400 = stablehlo.multiply %399, %arg29 : tensor<32x32xf32>
    %401 = stablehlo.add %400, %308 : tensor<32x32xf32>
    %cst_102 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %402 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %403 = stablehlo.multiply %402, %359 : tensor<32xf32>
    %404 = stablehlo.subtract %arg0, %403 : tensor<32xf32>
    %cst_103 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %405 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %406 = stablehlo.multiply %405, %362 : tensor<32xf32>
    %407 = stablehlo.subtract %arg1, %406 : tensor<32xf32>
    %cst_104 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %408 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %409 = stablehlo.multiply %408, %365 : tensor<32xf32>
    %410 = stablehlo.subtract %arg2, %409 : tensor<32xf32>
    %cst_105 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %411 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %412 = stablehlo.multiply %411, %368 : tensor<64xf32>
    %413 = stablehlo.subtract %arg3, %412 : tensor<64xf32>
    %cst_106 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %414 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %415 = stablehlo.multiply %414, %371 : tensor<32xf32>
    %416 = stablehlo.subtract %arg4, %415 : tensor<32xf32>
    %cst_107 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %417 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f32>) -> tensor<50x32xf32>
    %418 = stablehlo.multiply %417, %374 : tensor<50x32xf32>
    %419 = stablehlo.subtract %arg5, %418 : tensor<50x32xf32>
    %cst_108 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %420 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %421 = stablehlo.multiply %420, %377 : tensor<32xf32>
    %422 = stablehlo.subtract %arg6, %421 : tensor<32xf32>
    %cst_109 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %423 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %424 = stablehlo.multiply %423, %380 : tensor<32xf32>
    %425 = stablehlo.subtract %arg7, %424 : tensor<32xf32>
    %cst_110 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %426 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %427 = stablehlo.multiply %426, %383 : tensor<32xf32>
    %428 = stablehlo.subtract %arg8, %427 : tensor<32xf32>
    %cst_111 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %429 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %430 = stablehlo.multiply %429, %386 : tensor<32x64xf32>
    %431 = stablehlo.subtract %arg9, %430 : tensor<32x64xf32>
    %cst_112 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %432 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
    %433 = stablehlo.multiply %432, %389 : tensor<64x32xf32>
    %434 = stablehlo.subtract %arg10, %433 : tensor<64x32xf32>
    %cst_113 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %435 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %436 = stablehlo.multiply %435, %392 : tensor<32x32xf32>
    %437 = stablehlo.subtract %arg11, %436 : tensor<32x32xf32>
    %cst_114 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %438 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %439 = stablehlo.multiply %438, %395 : tensor<32x32xf32>
    %440 = stablehlo.subtract %arg12, %439 : tensor<32x32xf32>
    %cst_115 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %441 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %442 = stablehlo.multiply %441, %398 : tensor<32x32xf32>
    %443 = stablehlo.subtract %arg13, %442 : tensor<32x32xf32>
    %cst_116 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %444 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %445 = stablehlo.multiply %444, %401 : tensor<32x32xf32>
    %446 = stablehlo.subtract %arg14, %445 : tensor<32x32xf32>
    return %404, %407, %410, %413, %416, %419, %422, %425, %428, %431, %434, %437, %440, %443, %446, %359, %362, %365, %368, %371, %374, %377, %380, %383, %386, %389, %392, %395, %398, %401, %171 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64xf32>, tensor<32xf32>, tensor<50x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<64xf32>, tensor<32xf32>, tensor<50x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<f32>
  }
  func.func private @_threefry_split(%arg0: tensor<2xui32>) -> tensor<2x2xui32> {
    %0 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1xui32>) -> tensor<ui32>
    %2 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<2xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<2xui64>
    %9 = stablehlo.convert %6 : (tensor<2xui64>) -> tensor<2xui32>
    %10 = stablehlo.convert %8 : (tensor<2xui64>) -> tensor<2xui32>
    %11:2 = call @threefry2x32(%1, %3, %10, %9) : (tensor<ui32>, tensor<ui32>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
    %12 = stablehlo.broadcast_in_dim %11#0, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %13 = stablehlo.broadcast_in_dim %11#1, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x2xui32>
    return %14 : tensor<2x2xui32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<2xui32>, %arg2: tensor<2xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2xui32>
    %9 = stablehlo.or %5, %8 : tensor<2xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2xui32>
    %19 = stablehlo.or %15, %18 : tensor<2xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2xui32>
    %29 = stablehlo.or %25, %28 : tensor<2xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2xui32>
    %39 = stablehlo.or %35, %38 : tensor<2xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %42 = stablehlo.add %33, %41 : tensor<2xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %44 = stablehlo.add %40, %43 : tensor<2xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %48 = stablehlo.add %44, %47 : tensor<2xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_bernoulli(%arg0: tensor<2xui32>, %arg1: tensor<f32>) -> tensor<2x2x8x8xi1> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<2x2x8x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %2 = stablehlo.compare LT, %0, %1, FLOAT : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xi1>
    return %2 : tensor<2x2x8x8xi1>
  }
  func.func private @_uniform(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<2x2x8x8xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1x1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1x1x1xf32>
    %4 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.iota dim = 0 : tensor<2x2x8x8xui64>
    %9 = stablehlo.iota dim = 1 : tensor<2x2x8x8xui64>
    %10 = stablehlo.iota dim = 2 : tensor<2x2x8x8xui64>
    %11 = stablehlo.iota dim = 3 : tensor<2x2x8x8xui64>
    %c = stablehlo.constant dense<128> : tensor<ui64>
    %12 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2x2x8x8xui64>
    %13 = stablehlo.multiply %12, %8 : tensor<2x2x8x8xui64>
    %c_0 = stablehlo.constant dense<64> : tensor<ui64>
    %14 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2x2x8x8xui64>
    %15 = stablehlo.multiply %14, %9 : tensor<2x2x8x8xui64>
    %c_1 = stablehlo.constant dense<8> : tensor<ui64>
    %16 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<2x2x8x8xui64>
    %17 = stablehlo.multiply %16, %10 : tensor<2x2x8x8xui64>
    %c_2 = stablehlo.constant dense<1> : tensor<ui64>
    %18 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<2x2x8x8xui64>
    %19 = stablehlo.multiply %18, %11 : tensor<2x2x8x8xui64>
    %20 = stablehlo.add %13, %15 : tensor<2x2x8x8xui64>
    %21 = stablehlo.add %20, %17 : tensor<2x2x8x8xui64>
    %22 = stablehlo.add %21, %19 : tensor<2x2x8x8xui64>
    %c_3 = stablehlo.constant dense<32> : tensor<ui64>
    %23 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui64>) -> tensor<2x2x8x8xui64>
    %24 = stablehlo.shift_right_logical %22, %23 : tensor<2x2x8x8xui64>
    %25 = stablehlo.convert %22 : (tensor<2x2x8x8xui64>) -> tensor<2x2x8x8xui32>
    %26 = stablehlo.convert %24 : (tensor<2x2x8x8xui64>) -> tensor<2x2x8x8xui32>
    %27:2 = call @threefry2x32_0(%5, %7, %26, %25) : (tensor<ui32>, tensor<ui32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>) -> (tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>)
    %28 = stablehlo.xor %27#0, %27#1 : tensor<2x2x8x8xui32>
    %c_4 = stablehlo.constant dense<9> : tensor<ui32>
    %29 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %30 = stablehlo.shift_right_logical %28, %29 : tensor<2x2x8x8xui32>
    %c_5 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %31 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %32 = stablehlo.or %30, %31 : tensor<2x2x8x8xui32>
    %33 = stablehlo.bitcast_convert %32 : (tensor<2x2x8x8xui32>) -> tensor<2x2x8x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %35 = stablehlo.subtract %33, %34 : tensor<2x2x8x8xf32>
    %36 = stablehlo.subtract %3, %2 : tensor<1x1x1x1xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xf32>) -> tensor<2x2x8x8xf32>
    %38 = stablehlo.multiply %35, %37 : tensor<2x2x8x8xf32>
    %39 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xf32>) -> tensor<2x2x8x8xf32>
    %40 = stablehlo.add %38, %39 : tensor<2x2x8x8xf32>
    %41 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xf32>) -> tensor<2x2x8x8xf32>
    %42 = stablehlo.maximum %41, %40 : tensor<2x2x8x8xf32>
    return %42 : tensor<2x2x8x8xf32>
  }
  func.func private @threefry2x32_0(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2x2x8x8xui32>, %arg3: tensor<2x2x8x8xui32>) -> (tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2x2x8x8xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2x2x8x8xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call_1(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>
  }
  func.func private @closed_call_1(%arg0: tensor<i32>, %arg1: tensor<2x2x8x8xui32>, %arg2: tensor<2x2x8x8xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2x2x8x8xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2x2x8x8xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2x2x8x8xui32>
    %9 = stablehlo.or %5, %8 : tensor<2x2x8x8xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2x2x8x8xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2x2x8x8xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2x2x8x8xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2x2x8x8xui32>
    %19 = stablehlo.or %15, %18 : tensor<2x2x8x8xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2x2x8x8xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2x2x8x8xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2x2x8x8xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2x2x8x8xui32>
    %29 = stablehlo.or %25, %28 : tensor<2x2x8x8xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2x2x8x8xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2x2x8x8xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2x2x8x8xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2x2x8x8xui32>
    %39 = stablehlo.or %35, %38 : tensor<2x2x8x8xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2x2x8x8xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %42 = stablehlo.add %33, %41 : tensor<2x2x8x8xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %44 = stablehlo.add %40, %43 : tensor<2x2x8x8xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<2x2x8x8xui32>
    %48 = stablehlo.add %44, %47 : tensor<2x2x8x8xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<2x2x8x8xui32>, tensor<2x2x8x8xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_where(%arg0: tensor<2x2x8x8xi1>, %arg1: tensor<2x2x8x8xf32>, %arg2: tensor<i32>) -> tensor<2x2x8x8xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %2 : tensor<2x2x8x8xf32>
  }
  func.func private @_bernoulli_2(%arg0: tensor<2xui32>, %arg1: tensor<f32>) -> tensor<2x8x64xi1> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform_3(%arg0, %cst, %cst_0) : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<2x8x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %2 = stablehlo.compare LT, %0, %1, FLOAT : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xi1>
    return %2 : tensor<2x8x64xi1>
  }
  func.func private @_uniform_3(%arg0: tensor<2xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<2x8x64xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %4 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.iota dim = 0 : tensor<2x8x64xui64>
    %9 = stablehlo.iota dim = 1 : tensor<2x8x64xui64>
    %10 = stablehlo.iota dim = 2 : tensor<2x8x64xui64>
    %c = stablehlo.constant dense<512> : tensor<ui64>
    %11 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2x8x64xui64>
    %12 = stablehlo.multiply %11, %8 : tensor<2x8x64xui64>
    %c_0 = stablehlo.constant dense<64> : tensor<ui64>
    %13 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2x8x64xui64>
    %14 = stablehlo.multiply %13, %9 : tensor<2x8x64xui64>
    %c_1 = stablehlo.constant dense<1> : tensor<ui64>
    %15 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<2x8x64xui64>
    %16 = stablehlo.multiply %15, %10 : tensor<2x8x64xui64>
    %17 = stablehlo.add %12, %14 : tensor<2x8x64xui64>
    %18 = stablehlo.add %17, %16 : tensor<2x8x64xui64>
    %c_2 = stablehlo.constant dense<32> : tensor<ui64>
    %19 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<2x8x64xui64>
    %20 = stablehlo.shift_right_logical %18, %19 : tensor<2x8x64xui64>
    %21 = stablehlo.convert %18 : (tensor<2x8x64xui64>) -> tensor<2x8x64xui32>
    %22 = stablehlo.convert %20 : (tensor<2x8x64xui64>) -> tensor<2x8x64xui32>
    %23:2 = call @threefry2x32_4(%5, %7, %22, %21) : (tensor<ui32>, tensor<ui32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>) -> (tensor<2x8x64xui32>, tensor<2x8x64xui32>)
    %24 = stablehlo.xor %23#0, %23#1 : tensor<2x8x64xui32>
    %c_3 = stablehlo.constant dense<9> : tensor<ui32>
    %25 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %26 = stablehlo.shift_right_logical %24, %25 : tensor<2x8x64xui32>
    %c_4 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %28 = stablehlo.or %26, %27 : tensor<2x8x64xui32>
    %29 = stablehlo.bitcast_convert %28 : (tensor<2x8x64xui32>) -> tensor<2x8x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %31 = stablehlo.subtract %29, %30 : tensor<2x8x64xf32>
    %32 = stablehlo.subtract %3, %2 : tensor<1x1x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<2x8x64xf32>
    %34 = stablehlo.multiply %31, %33 : tensor<2x8x64xf32>
    %35 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<2x8x64xf32>
    %36 = stablehlo.add %34, %35 : tensor<2x8x64xf32>
    %37 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<2x8x64xf32>
    %38 = stablehlo.maximum %37, %36 : tensor<2x8x64xf32>
    return %38 : tensor<2x8x64xf32>
  }
  func.func private @threefry2x32_4(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2x8x64xui32>, %arg3: tensor<2x8x64xui32>) -> (tensor<2x8x64xui32>, tensor<2x8x64xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2x8x64xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2x8x64xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i32>, tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call_5(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i32>, tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2x8x64xui32>, tensor<2x8x64xui32>
  }
  func.func private @closed_call_5(%arg0: tensor<i32>, %arg1: tensor<2x8x64xui32>, %arg2: tensor<2x8x64xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2x8x64xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2x8x64xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2x8x64xui32>
    %9 = stablehlo.or %5, %8 : tensor<2x8x64xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2x8x64xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2x8x64xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2x8x64xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2x8x64xui32>
    %19 = stablehlo.or %15, %18 : tensor<2x8x64xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2x8x64xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2x8x64xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2x8x64xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2x8x64xui32>
    %29 = stablehlo.or %25, %28 : tensor<2x8x64xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2x8x64xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2x8x64xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2x8x64xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2x8x64xui32>
    %39 = stablehlo.or %35, %38 : tensor<2x8x64xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2x8x64xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %42 = stablehlo.add %33, %41 : tensor<2x8x64xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %44 = stablehlo.add %40, %43 : tensor<2x8x64xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i32>
    %46 = stablehlo.convert %45 : (tensor<i32>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<2x8x64xui32>
    %48 = stablehlo.add %44, %47 : tensor<2x8x64xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i32>, tensor<2x8x64xui32>, tensor<2x8x64xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_where_6(%arg0: tensor<2x8x64xi1>, %arg1: tensor<2x8x64xf32>, %arg2: tensor<i32>) -> tensor<2x8x64xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<2x8x64xi1>, tensor<2x8x64xf32>
    return %2 : tensor<2x8x64xf32>
  }
  func.func private @log_softmax(%arg0: tensor<2x8x50xf32>) -> (tensor<2x8x50xf32>, tensor<2x8x50xf32>, tensor<2x8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x50xf32>, tensor<f32>) -> tensor<2x8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2x8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x50xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x8x50xf32>
    %6 = stablehlo.exponential %5 : tensor<2x8x50xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x8x50xf32>, tensor<f32>) -> tensor<2x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %9 = stablehlo.log %8 : tensor<2x8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x50xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x8x50xf32>
    return %11, %6, %8 : tensor<2x8x50xf32>, tensor<2x8x50xf32>, tensor<2x8x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x8x50xf32>, %arg1: tensor<2x8x1xi32>) -> (tensor<2x8x1xf32>, tensor<2x8x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x8x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x8x1xi32>, tensor<2x8x1xi32>) -> tensor<2x8x1xi1>
    %c_0 = stablehlo.constant dense<50> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x8x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x8x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x8x1xi1>, tensor<2x8x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x8x1xi32>) -> tensor<2x8x1x1xi32>
    %c_1 = stablehlo.constant dense<49> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x8x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x8x1x1xi32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [3] : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x1xi32>) -> tensor<2x8x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x8x1x1xi32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x8x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [3] : (tensor<2x8x1x1xi1>, tensor<i1>) -> tensor<2x8x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<2x8x50xf32>, tensor<2x8x1x1xi32>) -> tensor<2x8x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x8x1xi1>, tensor<2x8x1xf32>
    return %15, %5 : tensor<2x8x1xf32>, tensor<2x8x1x1xi32>
  }
  func.func private @take_along_axis_7(%arg0: tensor<2x8x1x1xi32>, %arg1: tensor<2x8x1xf32>) -> tensor<2x8x50xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x50xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [2], input_batching_dims = [0, 1], scatter_indices_batching_dims = [0, 1], scatter_dims_to_operand_dims = [2], index_vector_dim = 3>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x8x50xf32>, tensor<2x8x1x1xi32>, tensor<2x8x1xf32>) -> tensor<2x8x50xf32>
    return %1 : tensor<2x8x50xf32>
  }
  func.func private @log_softmax_8(%arg0: tensor<2x8x50xf32>, %arg1: tensor<2x8x1xf32>, %arg2: tensor<2x8x50xf32>) -> tensor<2x8x50xf32> {
    %0 = stablehlo.negate %arg2 : tensor<2x8x50xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x50xf32>, tensor<f32>) -> tensor<2x8xf32>
    %2 = stablehlo.reshape %1 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<2x8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x50xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<2x8x50xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<2x8x50xf32>
    return %7 : tensor<2x8x50xf32>
  }
  func.func private @_where_9(%arg0: tensor<2x8x64xi1>, %arg1: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x8x64xi1>, tensor<2x8x64xf32>
    return %1 : tensor<2x8x64xf32>
  }
  func.func private @_where_10(%arg0: tensor<2x2x8x8xi1>, %arg1: tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x8x8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    return %1 : tensor<2x2x8x8xf32>
  }
}
