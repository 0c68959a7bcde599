#map = affine_map<()[s0] -> (s0 * 4)>
module {
  llvm.func @free(!llvm.ptr)
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @mlp(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64, %arg12: i64, %arg13: i64, %arg14: i64, %arg15: i64, %arg16: !llvm.ptr, %arg17: !llvm.ptr, %arg18: i64, %arg19: i64, %arg20: i64, %arg21: i64, %arg22: i64, %arg23: i64, %arg24: i64) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> {
    %0 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
    %1 = llvm.insertvalue %arg16, %0[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %2 = llvm.insertvalue %arg17, %1[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %3 = llvm.insertvalue %arg18, %2[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %4 = llvm.insertvalue %arg19, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %5 = llvm.insertvalue %arg22, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %6 = llvm.insertvalue %arg20, %5[3, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %7 = llvm.insertvalue %arg23, %6[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %8 = llvm.insertvalue %arg21, %7[3, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %9 = llvm.insertvalue %arg24, %8[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %10 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
    %11 = llvm.insertvalue %arg7, %10[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %12 = llvm.insertvalue %arg8, %11[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %13 = llvm.insertvalue %arg9, %12[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %14 = llvm.insertvalue %arg10, %13[3, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %15 = llvm.insertvalue %arg13, %14[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %16 = llvm.insertvalue %arg11, %15[3, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %17 = llvm.insertvalue %arg14, %16[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %18 = llvm.insertvalue %arg12, %17[3, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %19 = llvm.insertvalue %arg15, %18[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %20 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %21 = llvm.insertvalue %arg0, %20[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %22 = llvm.insertvalue %arg1, %21[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %23 = llvm.insertvalue %arg2, %22[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %24 = llvm.insertvalue %arg3, %23[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %25 = llvm.insertvalue %arg5, %24[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %26 = llvm.insertvalue %arg4, %25[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %27 = llvm.insertvalue %arg6, %26[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %28 = llvm.mlir.constant(8 : index) : i64
    %29 = llvm.mlir.constant(16 : index) : i64
    %30 = llvm.mlir.constant(4 : index) : i64
    %31 = llvm.mlir.constant(1 : index) : i64
    %32 = llvm.mlir.constant(0 : index) : i64
    %33 = llvm.mlir.constant(3.40282347E+38 : f32) : f32
    %34 = llvm.mlir.constant(0.000000e+00 : f32) : f32
    %35 = llvm.extractvalue %27[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %36 = llvm.extractvalue %27[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %37 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64)>
    %38 = llvm.insertvalue %35, %37[0] : !llvm.struct<(ptr, ptr, i64)> 
    %39 = llvm.insertvalue %36, %38[1] : !llvm.struct<(ptr, ptr, i64)> 
    %40 = llvm.mlir.constant(0 : index) : i64
    %41 = llvm.insertvalue %40, %39[2] : !llvm.struct<(ptr, ptr, i64)> 
    %42 = llvm.extractvalue %27[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %43 = llvm.extractvalue %27[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %44 = llvm.extractvalue %27[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %45 = llvm.extractvalue %27[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %46 = llvm.extractvalue %27[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %47 = builtin.unrealized_conversion_cast %45 : i64 to index
    %48 = affine.apply #map()[%47]
    %49 = builtin.unrealized_conversion_cast %48 : index to i64
    %50 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
    %51 = llvm.extractvalue %41[0] : !llvm.struct<(ptr, ptr, i64)> 
    %52 = llvm.extractvalue %41[1] : !llvm.struct<(ptr, ptr, i64)> 
    %53 = llvm.insertvalue %51, %50[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %54 = llvm.insertvalue %52, %53[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %55 = llvm.insertvalue %42, %54[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %56 = llvm.mlir.constant(1 : index) : i64
    %57 = llvm.insertvalue %56, %55[3, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %58 = llvm.insertvalue %49, %57[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %59 = llvm.mlir.constant(4 : index) : i64
    %60 = llvm.insertvalue %59, %58[3, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %61 = llvm.insertvalue %45, %60[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %62 = llvm.mlir.constant(8 : index) : i64
    %63 = llvm.insertvalue %62, %61[3, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %64 = llvm.insertvalue %46, %63[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %65 = llvm.mlir.constant(1 : index) : i64
    %66 = llvm.mlir.constant(4 : index) : i64
    %67 = llvm.mlir.constant(16 : index) : i64
    %68 = llvm.mlir.constant(1 : index) : i64
    %69 = llvm.mlir.constant(64 : index) : i64
    %70 = llvm.mlir.constant(64 : index) : i64
    %71 = llvm.mlir.zero : !llvm.ptr
    %72 = llvm.getelementptr %71[%70] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %73 = llvm.ptrtoint %72 : !llvm.ptr to i64
    %74 = llvm.mlir.constant(64 : index) : i64
    %75 = llvm.add %73, %74 : i64
    %76 = llvm.call @malloc(%75) : (i64) -> !llvm.ptr
    %77 = llvm.ptrtoint %76 : !llvm.ptr to i64
    %78 = llvm.mlir.constant(1 : index) : i64
    %79 = llvm.sub %74, %78 : i64
    %80 = llvm.add %77, %79 : i64
    %81 = llvm.urem %80, %74  : i64
    %82 = llvm.sub %80, %81 : i64
    %83 = llvm.inttoptr %82 : i64 to !llvm.ptr
    %84 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
    %85 = llvm.insertvalue %76, %84[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %86 = llvm.insertvalue %83, %85[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %87 = llvm.mlir.constant(0 : index) : i64
    %88 = llvm.insertvalue %87, %86[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %89 = llvm.insertvalue %65, %88[3, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %90 = llvm.insertvalue %66, %89[3, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %91 = llvm.insertvalue %67, %90[3, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %92 = llvm.insertvalue %69, %91[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %93 = llvm.insertvalue %67, %92[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %94 = llvm.insertvalue %68, %93[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %95 = llvm.mlir.constant(1 : index) : i64
    %96 = llvm.mlir.constant(4 : index) : i64
    %97 = llvm.mlir.constant(16 : index) : i64
    %98 = llvm.mlir.constant(1 : index) : i64
    %99 = llvm.mlir.constant(64 : index) : i64
    %100 = llvm.mlir.constant(64 : index) : i64
    %101 = llvm.mlir.zero : !llvm.ptr
    %102 = llvm.getelementptr %101[%100] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %103 = llvm.ptrtoint %102 : !llvm.ptr to i64
    %104 = llvm.mlir.constant(64 : index) : i64
    %105 = llvm.add %103, %104 : i64
    %106 = llvm.call @malloc(%105) : (i64) -> !llvm.ptr
    %107 = llvm.ptrtoint %106 : !llvm.ptr to i64
    %108 = llvm.mlir.constant(1 : index) : i64
    %109 = llvm.sub %104, %108 : i64
    %110 = llvm.add %107, %109 : i64
    %111 = llvm.urem %110, %104  : i64
    %112 = llvm.sub %110, %111 : i64
    %113 = llvm.inttoptr %112 : i64 to !llvm.ptr
    %114 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
    %115 = llvm.insertvalue %106, %114[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %116 = llvm.insertvalue %113, %115[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %117 = llvm.mlir.constant(0 : index) : i64
    %118 = llvm.insertvalue %117, %116[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %119 = llvm.insertvalue %95, %118[3, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %120 = llvm.insertvalue %96, %119[3, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %121 = llvm.insertvalue %97, %120[3, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %122 = llvm.insertvalue %99, %121[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %123 = llvm.insertvalue %97, %122[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %124 = llvm.insertvalue %98, %123[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    llvm.br ^bb1(%32 : i64)
  ^bb1(%125: i64):  // 2 preds: ^bb0, ^bb6
    %126 = llvm.icmp "slt" %125, %31 : i64
    llvm.cond_br %126, ^bb2(%32 : i64), ^bb7(%32 : i64)
  ^bb2(%127: i64):  // 2 preds: ^bb1, ^bb5
    %128 = llvm.icmp "slt" %127, %30 : i64
    llvm.cond_br %128, ^bb3(%32 : i64), ^bb6
  ^bb3(%129: i64):  // 2 preds: ^bb2, ^bb4
    %130 = llvm.icmp "slt" %129, %29 : i64
    llvm.cond_br %130, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %131 = llvm.extractvalue %124[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %132 = llvm.mlir.constant(64 : index) : i64
    %133 = llvm.mul %125, %132 : i64
    %134 = llvm.mlir.constant(16 : index) : i64
    %135 = llvm.mul %127, %134 : i64
    %136 = llvm.add %133, %135 : i64
    %137 = llvm.add %136, %129 : i64
    %138 = llvm.getelementptr %131[%137] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %34, %138 : f32, !llvm.ptr
    %139 = llvm.add %129, %31 : i64
    llvm.br ^bb3(%139 : i64)
  ^bb5:  // pred: ^bb3
    %140 = llvm.add %127, %31 : i64
    llvm.br ^bb2(%140 : i64)
  ^bb6:  // pred: ^bb2
    %141 = llvm.add %125, %31 : i64
    llvm.br ^bb1(%141 : i64)
  ^bb7(%142: i64):  // 2 preds: ^bb1, ^bb14
    %143 = llvm.icmp "slt" %142, %31 : i64
    llvm.cond_br %143, ^bb8(%32 : i64), ^bb15(%32 : i64)
  ^bb8(%144: i64):  // 2 preds: ^bb7, ^bb13
    %145 = llvm.icmp "slt" %144, %30 : i64
    llvm.cond_br %145, ^bb9(%32 : i64), ^bb14
  ^bb9(%146: i64):  // 2 preds: ^bb8, ^bb12
    %147 = llvm.icmp "slt" %146, %29 : i64
    llvm.cond_br %147, ^bb10(%32 : i64), ^bb13
  ^bb10(%148: i64):  // 2 preds: ^bb9, ^bb11
    %149 = llvm.icmp "slt" %148, %28 : i64
    llvm.cond_br %149, ^bb11, ^bb12
  ^bb11:  // pred: ^bb10
    %150 = llvm.extractvalue %64[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %151 = llvm.extractvalue %64[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %152 = llvm.getelementptr %150[%151] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %153 = llvm.extractvalue %64[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %154 = llvm.mul %142, %153 : i64
    %155 = llvm.extractvalue %64[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %156 = llvm.mul %144, %155 : i64
    %157 = llvm.add %154, %156 : i64
    %158 = llvm.extractvalue %64[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %159 = llvm.mul %148, %158 : i64
    %160 = llvm.add %157, %159 : i64
    %161 = llvm.getelementptr %152[%160] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %162 = llvm.load %161 : !llvm.ptr -> f32
    %163 = llvm.extractvalue %19[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %164 = llvm.extractvalue %19[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %165 = llvm.getelementptr %163[%164] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %166 = llvm.extractvalue %19[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %167 = llvm.mul %142, %166 : i64
    %168 = llvm.extractvalue %19[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %169 = llvm.mul %148, %168 : i64
    %170 = llvm.add %167, %169 : i64
    %171 = llvm.extractvalue %19[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %172 = llvm.mul %146, %171 : i64
    %173 = llvm.add %170, %172 : i64
    %174 = llvm.getelementptr %165[%173] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %175 = llvm.load %174 : !llvm.ptr -> f32
    %176 = llvm.extractvalue %124[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %177 = llvm.mlir.constant(64 : index) : i64
    %178 = llvm.mul %142, %177 : i64
    %179 = llvm.mlir.constant(16 : index) : i64
    %180 = llvm.mul %144, %179 : i64
    %181 = llvm.add %178, %180 : i64
    %182 = llvm.add %181, %146 : i64
    %183 = llvm.getelementptr %176[%182] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %184 = llvm.load %183 : !llvm.ptr -> f32
    %185 = llvm.fmul %162, %175  : f32
    %186 = llvm.fadd %184, %185  : f32
    %187 = llvm.extractvalue %124[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %188 = llvm.mlir.constant(64 : index) : i64
    %189 = llvm.mul %142, %188 : i64
    %190 = llvm.mlir.constant(16 : index) : i64
    %191 = llvm.mul %144, %190 : i64
    %192 = llvm.add %189, %191 : i64
    %193 = llvm.add %192, %146 : i64
    %194 = llvm.getelementptr %187[%193] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %186, %194 : f32, !llvm.ptr
    %195 = llvm.add %148, %31 : i64
    llvm.br ^bb10(%195 : i64)
  ^bb12:  // pred: ^bb10
    %196 = llvm.add %146, %31 : i64
    llvm.br ^bb9(%196 : i64)
  ^bb13:  // pred: ^bb9
    %197 = llvm.add %144, %31 : i64
    llvm.br ^bb8(%197 : i64)
  ^bb14:  // pred: ^bb8
    %198 = llvm.add %142, %31 : i64
    llvm.br ^bb7(%198 : i64)
  ^bb15(%199: i64):  // 2 preds: ^bb7, ^bb20
    %200 = llvm.icmp "slt" %199, %31 : i64
    llvm.cond_br %200, ^bb16(%32 : i64), ^bb21
  ^bb16(%201: i64):  // 2 preds: ^bb15, ^bb19
    %202 = llvm.icmp "slt" %201, %30 : i64
    llvm.cond_br %202, ^bb17(%32 : i64), ^bb20
  ^bb17(%203: i64):  // 2 preds: ^bb16, ^bb18
    %204 = llvm.icmp "slt" %203, %29 : i64
    llvm.cond_br %204, ^bb18, ^bb19
  ^bb18:  // pred: ^bb17
    %205 = llvm.extractvalue %124[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %206 = llvm.mlir.constant(64 : index) : i64
    %207 = llvm.mul %32, %206 : i64
    %208 = llvm.mlir.constant(16 : index) : i64
    %209 = llvm.mul %201, %208 : i64
    %210 = llvm.add %207, %209 : i64
    %211 = llvm.add %210, %203 : i64
    %212 = llvm.getelementptr %205[%211] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %213 = llvm.load %212 : !llvm.ptr -> f32
    %214 = llvm.extractvalue %9[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %215 = llvm.extractvalue %9[2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %216 = llvm.getelementptr %214[%215] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %217 = llvm.extractvalue %9[4, 0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %218 = llvm.mul %32, %217 : i64
    %219 = llvm.extractvalue %9[4, 1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %220 = llvm.mul %32, %219 : i64
    %221 = llvm.add %218, %220 : i64
    %222 = llvm.extractvalue %9[4, 2] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %223 = llvm.mul %203, %222 : i64
    %224 = llvm.add %221, %223 : i64
    %225 = llvm.getelementptr %216[%224] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %226 = llvm.load %225 : !llvm.ptr -> f32
    %227 = llvm.fadd %213, %226  : f32
    %228 = llvm.intr.minimum(%227, %33)  : (f32, f32) -> f32
    %229 = llvm.intr.maximum(%228, %34)  : (f32, f32) -> f32
    %230 = math.tanh %229 : f32
    %231 = llvm.extractvalue %94[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %232 = llvm.mlir.constant(64 : index) : i64
    %233 = llvm.mul %199, %232 : i64
    %234 = llvm.mlir.constant(16 : index) : i64
    %235 = llvm.mul %201, %234 : i64
    %236 = llvm.add %233, %235 : i64
    %237 = llvm.add %236, %203 : i64
    %238 = llvm.getelementptr %231[%237] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %230, %238 : f32, !llvm.ptr
    %239 = llvm.add %203, %31 : i64
    llvm.br ^bb17(%239 : i64)
  ^bb19:  // pred: ^bb17
    %240 = llvm.add %201, %31 : i64
    llvm.br ^bb16(%240 : i64)
  ^bb20:  // pred: ^bb16
    %241 = llvm.add %199, %31 : i64
    llvm.br ^bb15(%241 : i64)
  ^bb21:  // pred: ^bb15
    %242 = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %243 = llvm.extractvalue %94[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %244 = llvm.extractvalue %94[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    %245 = llvm.insertvalue %243, %242[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %246 = llvm.insertvalue %244, %245[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %247 = llvm.mlir.constant(0 : index) : i64
    %248 = llvm.insertvalue %247, %246[2] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %249 = llvm.mlir.constant(4 : index) : i64
    %250 = llvm.insertvalue %249, %248[3, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %251 = llvm.mlir.constant(16 : index) : i64
    %252 = llvm.insertvalue %251, %250[4, 0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %253 = llvm.mlir.constant(16 : index) : i64
    %254 = llvm.insertvalue %253, %252[3, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %255 = llvm.mlir.constant(1 : index) : i64
    %256 = llvm.insertvalue %255, %254[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %257 = llvm.extractvalue %124[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)> 
    llvm.call @free(%257) : (!llvm.ptr) -> ()
    llvm.return %256 : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  }
}

