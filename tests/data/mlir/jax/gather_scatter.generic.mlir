"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x6xf32>, tensor<5x6xf32>, tensor<i32>) -> (tensor<5x6xf32>, tensor<8x6xf32>, tensor<2xf32>, tensor<8x6xf32>, tensor<3x7xf32>, tensor<2x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<8x6xf32>, %arg4: tensor<5x6xf32>, %arg5: tensor<i32>):
    %4 = "stablehlo.constant"() <{value = dense<[3, 0, 2, 2, 7]> : tensor<5xi32>}> : () -> tensor<5xi32>
    %5 = "stablehlo.constant"() <{value = dense<[1, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %6 = "stablehlo.constant"() <{value = dense<[0, 5]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %7 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %9 = "stablehlo.compare"(%4, %8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %10 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %12 = "stablehlo.add"(%4, %11) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %13 = "stablehlo.select"(%9, %12, %4) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %15 = "stablehlo.gather"(%arg3, %14) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %18 = "stablehlo.compare"(%4, %17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %19 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %21 = "stablehlo.add"(%4, %20) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %22 = "stablehlo.select"(%18, %21, %4) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %24 = "stablehlo.scatter"(%arg3, %23, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %88 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%88) : (tensor<f32>) -> ()
    }) : (tensor<8x6xf32>, tensor<5x1xi32>, tensor<5x6xf32>) -> tensor<8x6xf32>
    %25 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %27 = "stablehlo.compare"(%5, %26) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %28 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %30 = "stablehlo.add"(%5, %29) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %31 = "stablehlo.select"(%27, %30, %5) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %32 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %34 = "stablehlo.compare"(%6, %33) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %35 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2xi32>
    %37 = "stablehlo.add"(%6, %36) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %38 = "stablehlo.select"(%34, %37, %6) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %39 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xi32>) -> tensor<2x1xi32>
    %40 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xi32>) -> tensor<2x1xi32>
    %41 = "stablehlo.concatenate"(%39, %40) <{dimension = 1 : i64}> : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
    %42 = "stablehlo.gather"(%arg3, %41) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x6xf32>, tensor<2x2xi32>) -> tensor<2xf32>
    %43 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %44 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %45 = "func.call"(%arg5, %43, %44) <{callee = @clip}> : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %46 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %47 = "stablehlo.compare"(%45, %46) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %48 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %49 = "stablehlo.add"(%45, %48) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %50 = "stablehlo.select"(%47, %49, %45) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %51 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %52 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %53 = "stablehlo.compare"(%51, %52) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %54 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %55 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %56 = "stablehlo.add"(%54, %55) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %57 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %58 = "stablehlo.select"(%53, %56, %57) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %59 = "stablehlo.dynamic_slice"(%arg3, %50, %58) <{slice_sizes = array<i64: 3, 4>}> : (tensor<8x6xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %60 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x4xf32>
    %62 = "stablehlo.multiply"(%59, %61) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %63 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %64 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %65 = "stablehlo.compare"(%63, %64) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %66 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %67 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %68 = "stablehlo.add"(%66, %67) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %69 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %70 = "stablehlo.select"(%65, %68, %69) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %71 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %72 = "stablehlo.compare"(%45, %71) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %73 = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %74 = "stablehlo.add"(%45, %73) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %75 = "stablehlo.select"(%72, %74, %45) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %76 = "stablehlo.dynamic_update_slice"(%arg3, %62, %70, %75) : (tensor<8x6xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x6xf32>
    %77 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 2, 6>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x6xf32>) -> tensor<2x6xf32>
    %78 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %79 = "stablehlo.pad"(%77, %78) <{edge_padding_high = array<i64: -1, 3>, edge_padding_low = array<i64: 1, -2>, interior_padding = array<i64: 1, 0>}> : (tensor<2x6xf32>, tensor<f32>) -> tensor<3x7xf32>
    %80 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 1, 6>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x6xf32>) -> tensor<1x6xf32>
    %81 = "stablehlo.reshape"(%80) : (tensor<1x6xf32>) -> tensor<6xf32>
    %82 = "stablehlo.bitcast_convert"(%81) : (tensor<6xf32>) -> tensor<6xi32>
    %83 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %85 = "stablehlo.shift_right_arithmetic"(%82, %84) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %86 = "stablehlo.convert"(%85) : (tensor<6xi32>) -> tensor<6xf32>
    %87 = "stablehlo.reshape"(%86) : (tensor<6xf32>) -> tensor<2x3xf32>
    "func.return"(%15, %24, %42, %76, %79, %87) : (tensor<5x6xf32>, tensor<8x6xf32>, tensor<2xf32>, tensor<8x6xf32>, tensor<3x7xf32>, tensor<2x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.maximum"(%0, %arg0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<i32>
    %3 = "stablehlo.minimum"(%2, %1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%3) : (tensor<i32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
