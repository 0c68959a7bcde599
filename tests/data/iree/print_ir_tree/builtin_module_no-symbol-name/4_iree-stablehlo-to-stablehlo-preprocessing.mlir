// -----// IR Dump After StableHLOToStableHLOPreprocessing: iree-stablehlo-to-stablehlo-preprocessing{order-conv-features=true} //----- //
module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.dot %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.tanh %0 : tensor<4x16xf32>
    %2 = stablehlo.add %1, %0 : tensor<4x16xf32>
    return %2 : tensor<4x16xf32>
  }
}


