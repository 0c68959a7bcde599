module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x6xf32>, %arg1: tensor<5x6xf32>, %arg2: tensor<i32>) -> (tensor<5x6xf32> {jax.result_info = "result[0]"}, tensor<8x6xf32> {jax.result_info = "result[1]"}, tensor<2xf32> {jax.result_info = "result[2]"}, tensor<8x6xf32> {jax.result_info = "result[3]"}, tensor<3x7xf32> {jax.result_info = "result[4]"}, tensor<2x3xf32> {jax.result_info = "result[5]"}) {
    %c = stablehlo.constant dense<[3, 0, 2, 2, 7]> : tensor<5xi32>
    %c_0 = stablehlo.constant dense<[1, 4]> : tensor<2xi32>
    %c_1 = stablehlo.constant dense<[0, 5]> : tensor<2xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_3 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.add %c, %2 : tensor<5xi32>
    %4 = stablehlo.select %1, %3, %c : tensor<5xi1>, tensor<5xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %8 = stablehlo.compare LT, %c, %7, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_5 = stablehlo.constant dense<8> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %10 = stablehlo.add %c, %9 : tensor<5xi32>
    %11 = stablehlo.select %8, %10, %c : tensor<5xi1>, tensor<5xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %13 = "stablehlo.scatter"(%arg0, %12, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %54 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %54 : tensor<f32>
    }) : (tensor<8x6xf32>, tensor<5x1xi32>, tensor<5x6xf32>) -> tensor<8x6xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %15 = stablehlo.compare LT, %c_0, %14, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_7 = stablehlo.constant dense<8> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %17 = stablehlo.add %c_0, %16 : tensor<2xi32>
    %18 = stablehlo.select %15, %17, %c_0 : tensor<2xi1>, tensor<2xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %20 = stablehlo.compare LT, %c_1, %19, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_9 = stablehlo.constant dense<6> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %22 = stablehlo.add %c_1, %21 : tensor<2xi32>
    %23 = stablehlo.select %20, %22, %c_1 : tensor<2xi1>, tensor<2xi32>
    %24 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %25 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %26 = stablehlo.concatenate %24, %25, dim = 1 : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
    %27 = "stablehlo.gather"(%arg0, %26) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x6xf32>, tensor<2x2xi32>) -> tensor<2xf32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %c_11 = stablehlo.constant dense<4> : tensor<i32>
    %28 = call @clip(%arg2, %c_10, %c_11) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.compare LT, %28, %c_12, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_13 = stablehlo.constant dense<8> : tensor<i32>
    %30 = stablehlo.add %28, %c_13 : tensor<i32>
    %31 = stablehlo.select %29, %30, %28 : tensor<i1>, tensor<i32>
    %c_14 = stablehlo.constant dense<1> : tensor<i32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %32 = stablehlo.compare LT, %c_14, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_16 = stablehlo.constant dense<1> : tensor<i32>
    %c_17 = stablehlo.constant dense<6> : tensor<i32>
    %33 = stablehlo.add %c_16, %c_17 : tensor<i32>
    %c_18 = stablehlo.constant dense<1> : tensor<i32>
    %34 = stablehlo.select %32, %33, %c_18 : tensor<i1>, tensor<i32>
    %35 = stablehlo.dynamic_slice %arg0, %31, %34, sizes = [3, 4] : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %37 = stablehlo.multiply %35, %36 : tensor<3x4xf32>
    %c_19 = stablehlo.constant dense<2> : tensor<i32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.compare LT, %c_19, %c_20, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_21 = stablehlo.constant dense<2> : tensor<i32>
    %c_22 = stablehlo.constant dense<8> : tensor<i32>
    %39 = stablehlo.add %c_21, %c_22 : tensor<i32>
    %c_23 = stablehlo.constant dense<2> : tensor<i32>
    %40 = stablehlo.select %38, %39, %c_23 : tensor<i1>, tensor<i32>
    %c_24 = stablehlo.constant dense<0> : tensor<i32>
    %41 = stablehlo.compare LT, %28, %c_24, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_25 = stablehlo.constant dense<6> : tensor<i32>
    %42 = stablehlo.add %28, %c_25 : tensor<i32>
    %43 = stablehlo.select %41, %42, %28 : tensor<i1>, tensor<i32>
    %44 = stablehlo.dynamic_update_slice %arg0, %37, %40, %43 : (tensor<8x6xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
    %45 = stablehlo.slice %arg0 [0:2, 0:6] : (tensor<8x6xf32>) -> tensor<2x6xf32>
    %cst_26 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %46 = stablehlo.pad %45, %cst_26, low = [1, -2], high = [-1, 3], interior = [1, 0] : (tensor<2x6xf32>, tensor<f32>) -> tensor<3x7xf32>
    %47 = stablehlo.slice %arg0 [0:1, 0:6] : (tensor<8x6xf32>) -> tensor<1x6xf32>
    %48 = stablehlo.reshape %47 : (tensor<1x6xf32>) -> tensor<6xf32>
    %49 = stablehlo.bitcast_convert %48 : (tensor<6xf32>) -> tensor<6xi32>
    %c_27 = stablehlo.constant dense<3> : tensor<i32>
    %50 = stablehlo.broadcast_in_dim %c_27, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %51 = stablehlo.shift_right_arithmetic %49, %50 : tensor<6xi32>
    %52 = stablehlo.convert %51 : (tensor<6xi32>) -> tensor<6xf32>
    %53 = stablehlo.reshape %52 : (tensor<6xf32>) -> tensor<2x3xf32>
    return %6, %13, %27, %44, %46, %53 : tensor<5x6xf32>, tensor<8x6xf32>, tensor<2xf32>, tensor<8x6xf32>, tensor<3x7xf32>, tensor<2x3xf32>
  }
  func.func private @clip(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.maximum %0, %arg0 : tensor<i32>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %3 = stablehlo.minimum %2, %1 : tensor<i32>
    return %3 : tensor<i32>
  }
}
