; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"

declare ptr @malloc(i64)

define { ptr, ptr, i64, [2 x i64], [2 x i64] } @broadcast_maximum_fusion(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, ptr %7, ptr %8, i64 %9, i64 %10, i64 %11) {
  %13 = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } undef, ptr %7, 0
  %14 = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %13, ptr %8, 1
  %15 = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %14, i64 %9, 2
  %16 = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %15, i64 %10, 3, 0
  %17 = insertvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %16, i64 %11, 4, 0
  %18 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } undef, ptr %0, 0
  %19 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %18, ptr %1, 1
  %20 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %19, i64 %2, 2
  %21 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %20, i64 %3, 3, 0
  %22 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %21, i64 %5, 4, 0
  %23 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %22, i64 %4, 3, 1
  %24 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %23, i64 %6, 4, 1
  %25 = call ptr @malloc(i64 add (i64 ptrtoint (ptr getelementptr (float, ptr null, i64 4096) to i64), i64 64))
  %26 = ptrtoint ptr %25 to i64
  %27 = add i64 %26, 63
  %28 = urem i64 %27, 64
  %29 = sub i64 %27, %28
  %30 = inttoptr i64 %29 to ptr
  %31 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } undef, ptr %25, 0
  %32 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %31, ptr %30, 1
  %33 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %32, i64 0, 2
  %34 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %33, i64 32, 3, 0
  %35 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %34, i64 128, 3, 1
  %36 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %35, i64 128, 4, 0
  %37 = insertvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %36, i64 1, 4, 1
  br label %38

38:                                               ; preds = %70, %12
  %39 = phi i64 [ %71, %70 ], [ 0, %12 ]
  %40 = icmp slt i64 %39, 32
  br i1 %40, label %41, label %72

41:                                               ; preds = %38
  br label %42

42:                                               ; preds = %45, %41
  %43 = phi i64 [ %69, %45 ], [ 0, %41 ]
  %44 = icmp slt i64 %43, 128
  br i1 %44, label %45, label %70

45:                                               ; preds = %42
  %46 = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %24, 1
  %47 = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %24, 2
  %48 = getelementptr float, ptr %46, i64 %47
  %49 = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %24, 4, 0
  %50 = mul i64 %39, %49
  %51 = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %24, 4, 1
  %52 = mul i64 %43, %51
  %53 = add i64 %50, %52
  %54 = getelementptr float, ptr %48, i64 %53
  %55 = load float, ptr %54, align 4
  %56 = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %17, 1
  %57 = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %17, 2
  %58 = getelementptr float, ptr %56, i64 %57
  %59 = extractvalue { ptr, ptr, i64, [1 x i64], [1 x i64] } %17, 4, 0
  %60 = mul i64 %43, %59
  %61 = getelementptr float, ptr %58, i64 %60
  %62 = load float, ptr %61, align 4
  %63 = fadd float %55, %62
  %64 = call float @llvm.maximum.f32(float %63, float 0.000000e+00)
  %65 = extractvalue { ptr, ptr, i64, [2 x i64], [2 x i64] } %37, 1
  %66 = mul i64 %39, 128
  %67 = add i64 %66, %43
  %68 = getelementptr float, ptr %65, i64 %67
  store float %64, ptr %68, align 4
  %69 = add i64 %43, 1
  br label %42

70:                                               ; preds = %42
  %71 = add i64 %39, 1
  br label %38

72:                                               ; preds = %38
  ret { ptr, ptr, i64, [2 x i64], [2 x i64] } %37
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maximum.f32(float, float) #0

attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
