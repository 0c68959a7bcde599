; ModuleID = 'main_dispatch_0'
source_filename = "main_dispatch_0"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-unknown-eabi-elf"

%iree_hal_executable_library_header_t = type { i32, ptr, i32, i32 }
%iree_hal_executable_dispatch_attrs_v0_t = type { i64, i16, i8, i8, i32, i32, i16, i16, i64, i64, i64, i64, i64 }
%iree_hal_executable_source_location_v0_t = type { i32, i32, ptr }
%iree_hal_executable_stage_location_table_v0_t = type { i32, ptr, ptr }
%iree_hal_executable_library_v0_t = type { ptr, %iree_hal_executable_import_table_v0_t, %iree_hal_executable_export_table_v0_t, %iree_hal_executable_constant_table_v0_t, %iree_hal_executable_source_file_table_v0_t }
%iree_hal_executable_import_table_v0_t = type { i32, ptr }
%iree_hal_executable_export_table_v0_t = type { i32, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr }
%iree_hal_executable_constant_table_v0_t = type { i32 }
%iree_hal_executable_source_file_table_v0_t = type { i32, ptr }
%iree_hal_executable_dispatch_state_v0_t = type { i32, i32, i16, i16, i32, i32, i16, i8, i8, ptr, ptr, ptr }

@0 = private constant [16 x i8] c"main_dispatch_0\00", align 1
@iree_hal_executable_library_query_v0_header = private constant %iree_hal_executable_library_header_t { i32 6, ptr @0, i32 0, i32 0 }
@iree_hal_executable_library_query_v0_funcs = private constant [1 x ptr] [ptr @main_dispatch_0_matmul_4x16x8_f32]
@iree_hal_executable_library_query_v0_attrs = private constant [1 x %iree_hal_executable_dispatch_attrs_v0_t] [%iree_hal_executable_dispatch_attrs_v0_t { i64 0, i16 0, i8 0, i8 3, i32 1, i32 1, i16 1, i16 0, i64 0, i64 0, i64 0, i64 0, i64 0 }]
@1 = private constant [34 x i8] c"main_dispatch_0_matmul_4x16x8_f32\00", align 1
@iree_hal_executable_library_query_v0_names = private constant [1 x ptr] [ptr @1]
@2 = private constant [71 x i8] c"/tmp/tmp.W9wvS6KUB9/executables/configured_module_main_dispatch_0.mlir\00", align 1
@iree_hal_executable_library_query_v0_source_locations = private constant [1 x %iree_hal_executable_source_location_v0_t] [%iree_hal_executable_source_location_v0_t { i32 3, i32 70, ptr @2 }]
@iree_hal_executable_library_query_v0_main_dispatch_0_matmul_4x16x8_f32_stage_names = private constant [0 x ptr] zeroinitializer
@iree_hal_executable_library_query_v0_main_dispatch_0_matmul_4x16x8_f32_stage_source_locations = private constant [0 x %iree_hal_executable_source_location_v0_t] zeroinitializer
@iree_hal_executable_library_query_v0_stage_location_tables = private constant [1 x %iree_hal_executable_stage_location_table_v0_t] [%iree_hal_executable_stage_location_table_v0_t { i32 0, ptr @iree_hal_executable_library_query_v0_main_dispatch_0_matmul_4x16x8_f32_stage_names, ptr @iree_hal_executable_library_query_v0_main_dispatch_0_matmul_4x16x8_f32_stage_source_locations }]
@iree_hal_executable_library_query_v0 = private constant %iree_hal_executable_library_v0_t { ptr @iree_hal_executable_library_query_v0_header, %iree_hal_executable_import_table_v0_t zeroinitializer, %iree_hal_executable_export_table_v0_t { i32 1, ptr @iree_hal_executable_library_query_v0_funcs, ptr @iree_hal_executable_library_query_v0_attrs, ptr null, ptr null, ptr @iree_hal_executable_library_query_v0_names, ptr null, ptr null, ptr @iree_hal_executable_library_query_v0_source_locations, ptr @iree_hal_executable_library_query_v0_stage_location_tables }, %iree_hal_executable_constant_table_v0_t zeroinitializer, %iree_hal_executable_source_file_table_v0_t zeroinitializer }

define internal i32 @main_dispatch_0_matmul_4x16x8_f32(ptr noalias noundef nonnull align 16 %0, ptr noalias noundef nonnull align 16 %1, ptr noalias noundef nonnull align 16 %2) #0 !dbg !77 {
  %4 = load %iree_hal_executable_dispatch_state_v0_t, ptr %1, align 8, !dbg !78
  %5 = extractvalue %iree_hal_executable_dispatch_state_v0_t %4, 10, !dbg !78
  %6 = load ptr, ptr %5, align 8, !dbg !78
  call void @llvm.assume(i1 true) [ "align"(ptr %6, i64 64) ], !dbg !78
  %7 = load %iree_hal_executable_dispatch_state_v0_t, ptr %1, align 8, !dbg !79
  %8 = extractvalue %iree_hal_executable_dispatch_state_v0_t %7, 10, !dbg !79
  %9 = getelementptr ptr, ptr %8, i32 1, !dbg !79
  %10 = load ptr, ptr %9, align 8, !dbg !79
  call void @llvm.assume(i1 true) [ "align"(ptr %10, i64 64) ], !dbg !79
  %11 = load %iree_hal_executable_dispatch_state_v0_t, ptr %1, align 8, !dbg !80
  %12 = extractvalue %iree_hal_executable_dispatch_state_v0_t %11, 10, !dbg !80
  %13 = getelementptr ptr, ptr %12, i32 2, !dbg !80
  %14 = load ptr, ptr %13, align 8, !dbg !80
  call void @llvm.assume(i1 true) [ "align"(ptr %14, i64 64) ], !dbg !80
  br label %15, !dbg !81

15:                                               ; preds = %147, %3
  %16 = phi i64 [ %240, %147 ], [ 0, %3 ], !dbg !81
  %17 = icmp slt i64 %16, 16, !dbg !81
  br i1 %17, label %18, label %241, !dbg !81

18:                                               ; preds = %22, %15
  %19 = phi i64 [ %146, %22 ], [ 0, %15 ], !dbg !81
  %20 = phi [4 x <4 x float>] [ %145, %22 ], [ zeroinitializer, %15 ], !dbg !81
  %21 = icmp slt i64 %19, 8, !dbg !81
  br i1 %21, label %22, label %147, !dbg !81

22:                                               ; preds = %18
  %23 = mul i64 %19, 16, !dbg !81
  %24 = add i64 %23, %16, !dbg !81
  %25 = getelementptr float, ptr %10, i64 %24, !dbg !81
  %26 = load <4 x float>, ptr %25, align 4, !dbg !81
  %27 = add i64 %19, 1, !dbg !81
  %28 = mul i64 %27, 16, !dbg !81
  %29 = add i64 %28, %16, !dbg !81
  %30 = getelementptr float, ptr %10, i64 %29, !dbg !81
  %31 = load <4 x float>, ptr %30, align 4, !dbg !81
  %32 = add i64 %19, 2, !dbg !81
  %33 = mul i64 %32, 16, !dbg !81
  %34 = add i64 %33, %16, !dbg !81
  %35 = getelementptr float, ptr %10, i64 %34, !dbg !81
  %36 = load <4 x float>, ptr %35, align 4, !dbg !81
  %37 = add i64 %19, 3, !dbg !81
  %38 = mul i64 %37, 16, !dbg !81
  %39 = add i64 %38, %16, !dbg !81
  %40 = getelementptr float, ptr %10, i64 %39, !dbg !81
  %41 = load <4 x float>, ptr %40, align 4, !dbg !81
  %42 = add nuw nsw i64 0, %19, !dbg !85
  %43 = getelementptr inbounds nuw float, ptr %6, i64 %42, !dbg !85
  %44 = load float, ptr %43, align 4, !dbg !85
  %45 = insertelement <4 x float> poison, float %44, i32 0, !dbg !85
  %46 = shufflevector <4 x float> %45, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %47 = extractvalue [4 x <4 x float>] %20, 0, !dbg !85
  %48 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %46, <4 x float> %26, <4 x float> %47), !dbg !85
  %49 = add nuw nsw i64 8, %19, !dbg !85
  %50 = getelementptr inbounds nuw float, ptr %6, i64 %49, !dbg !85
  %51 = load float, ptr %50, align 4, !dbg !85
  %52 = insertelement <4 x float> poison, float %51, i32 0, !dbg !85
  %53 = shufflevector <4 x float> %52, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %54 = extractvalue [4 x <4 x float>] %20, 1, !dbg !85
  %55 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %53, <4 x float> %26, <4 x float> %54), !dbg !85
  %56 = add nuw nsw i64 16, %19, !dbg !85
  %57 = getelementptr inbounds nuw float, ptr %6, i64 %56, !dbg !85
  %58 = load float, ptr %57, align 4, !dbg !85
  %59 = insertelement <4 x float> poison, float %58, i32 0, !dbg !85
  %60 = shufflevector <4 x float> %59, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %61 = extractvalue [4 x <4 x float>] %20, 2, !dbg !85
  %62 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %60, <4 x float> %26, <4 x float> %61), !dbg !85
  %63 = add nuw nsw i64 24, %19, !dbg !85
  %64 = getelementptr inbounds nuw float, ptr %6, i64 %63, !dbg !85
  %65 = load float, ptr %64, align 4, !dbg !85
  %66 = insertelement <4 x float> poison, float %65, i32 0, !dbg !85
  %67 = shufflevector <4 x float> %66, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %68 = extractvalue [4 x <4 x float>] %20, 3, !dbg !85
  %69 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %67, <4 x float> %26, <4 x float> %68), !dbg !85
  %70 = add nuw nsw i64 0, %27, !dbg !85
  %71 = getelementptr inbounds nuw float, ptr %6, i64 %70, !dbg !85
  %72 = load float, ptr %71, align 4, !dbg !85
  %73 = insertelement <4 x float> poison, float %72, i32 0, !dbg !85
  %74 = shufflevector <4 x float> %73, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %75 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %74, <4 x float> %31, <4 x float> %48), !dbg !85
  %76 = add nuw nsw i64 8, %27, !dbg !85
  %77 = getelementptr inbounds nuw float, ptr %6, i64 %76, !dbg !85
  %78 = load float, ptr %77, align 4, !dbg !85
  %79 = insertelement <4 x float> poison, float %78, i32 0, !dbg !85
  %80 = shufflevector <4 x float> %79, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %81 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %80, <4 x float> %31, <4 x float> %55), !dbg !85
  %82 = add nuw nsw i64 16, %27, !dbg !85
  %83 = getelementptr inbounds nuw float, ptr %6, i64 %82, !dbg !85
  %84 = load float, ptr %83, align 4, !dbg !85
  %85 = insertelement <4 x float> poison, float %84, i32 0, !dbg !85
  %86 = shufflevector <4 x float> %85, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %87 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %86, <4 x float> %31, <4 x float> %62), !dbg !85
  %88 = add nuw nsw i64 24, %27, !dbg !85
  %89 = getelementptr inbounds nuw float, ptr %6, i64 %88, !dbg !85
  %90 = load float, ptr %89, align 4, !dbg !85
  %91 = insertelement <4 x float> poison, float %90, i32 0, !dbg !85
  %92 = shufflevector <4 x float> %91, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %93 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %92, <4 x float> %31, <4 x float> %69), !dbg !85
  %94 = add nuw nsw i64 0, %32, !dbg !85
  %95 = getelementptr inbounds nuw float, ptr %6, i64 %94, !dbg !85
  %96 = load float, ptr %95, align 4, !dbg !85
  %97 = insertelement <4 x float> poison, float %96, i32 0, !dbg !85
  %98 = shufflevector <4 x float> %97, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %99 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %98, <4 x float> %36, <4 x float> %75), !dbg !85
  %100 = add nuw nsw i64 8, %32, !dbg !85
  %101 = getelementptr inbounds nuw float, ptr %6, i64 %100, !dbg !85
  %102 = load float, ptr %101, align 4, !dbg !85
  %103 = insertelement <4 x float> poison, float %102, i32 0, !dbg !85
  %104 = shufflevector <4 x float> %103, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %105 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %104, <4 x float> %36, <4 x float> %81), !dbg !85
  %106 = add nuw nsw i64 16, %32, !dbg !85
  %107 = getelementptr inbounds nuw float, ptr %6, i64 %106, !dbg !85
  %108 = load float, ptr %107, align 4, !dbg !85
  %109 = insertelement <4 x float> poison, float %108, i32 0, !dbg !85
  %110 = shufflevector <4 x float> %109, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %111 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %110, <4 x float> %36, <4 x float> %87), !dbg !85
  %112 = add nuw nsw i64 24, %32, !dbg !85
  %113 = getelementptr inbounds nuw float, ptr %6, i64 %112, !dbg !85
  %114 = load float, ptr %113, align 4, !dbg !85
  %115 = insertelement <4 x float> poison, float %114, i32 0, !dbg !85
  %116 = shufflevector <4 x float> %115, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %117 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %116, <4 x float> %36, <4 x float> %93), !dbg !85
  %118 = add nuw nsw i64 0, %37, !dbg !85
  %119 = getelementptr inbounds nuw float, ptr %6, i64 %118, !dbg !85
  %120 = load float, ptr %119, align 4, !dbg !85
  %121 = insertelement <4 x float> poison, float %120, i32 0, !dbg !85
  %122 = shufflevector <4 x float> %121, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %123 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %122, <4 x float> %41, <4 x float> %99), !dbg !85
  %124 = add nuw nsw i64 8, %37, !dbg !85
  %125 = getelementptr inbounds nuw float, ptr %6, i64 %124, !dbg !85
  %126 = load float, ptr %125, align 4, !dbg !85
  %127 = insertelement <4 x float> poison, float %126, i32 0, !dbg !85
  %128 = shufflevector <4 x float> %127, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %129 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %128, <4 x float> %41, <4 x float> %105), !dbg !85
  %130 = add nuw nsw i64 16, %37, !dbg !85
  %131 = getelementptr inbounds nuw float, ptr %6, i64 %130, !dbg !85
  %132 = load float, ptr %131, align 4, !dbg !85
  %133 = insertelement <4 x float> poison, float %132, i32 0, !dbg !85
  %134 = shufflevector <4 x float> %133, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %135 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %134, <4 x float> %41, <4 x float> %111), !dbg !85
  %136 = add nuw nsw i64 24, %37, !dbg !85
  %137 = getelementptr inbounds nuw float, ptr %6, i64 %136, !dbg !85
  %138 = load float, ptr %137, align 4, !dbg !85
  %139 = insertelement <4 x float> poison, float %138, i32 0, !dbg !85
  %140 = shufflevector <4 x float> %139, <4 x float> poison, <4 x i32> zeroinitializer, !dbg !85
  %141 = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %140, <4 x float> %41, <4 x float> %117), !dbg !85
  %142 = insertvalue [4 x <4 x float>] poison, <4 x float> %123, 0, !dbg !85
  %143 = insertvalue [4 x <4 x float>] %142, <4 x float> %129, 1, !dbg !85
  %144 = insertvalue [4 x <4 x float>] %143, <4 x float> %135, 2, !dbg !85
  %145 = insertvalue [4 x <4 x float>] %144, <4 x float> %141, 3, !dbg !85
  %146 = add i64 %19, 4, !dbg !81
  br label %18, !dbg !81

147:                                              ; preds = %18
  %148 = extractvalue [4 x <4 x float>] %20, 0, !dbg !83
  %149 = fcmp ult <4 x float> %148, splat (float f0x40FFF644), !dbg !83
  %150 = extractvalue [4 x <4 x float>] %20, 1, !dbg !83
  %151 = fcmp ult <4 x float> %150, splat (float f0x40FFF644), !dbg !83
  %152 = extractvalue [4 x <4 x float>] %20, 2, !dbg !83
  %153 = fcmp ult <4 x float> %152, splat (float f0x40FFF644), !dbg !83
  %154 = extractvalue [4 x <4 x float>] %20, 3, !dbg !83
  %155 = fcmp ult <4 x float> %154, splat (float f0x40FFF644), !dbg !83
  %156 = select <4 x i1> %149, <4 x float> %148, <4 x float> splat (float f0x40FFF644), !dbg !83
  %157 = select <4 x i1> %151, <4 x float> %150, <4 x float> splat (float f0x40FFF644), !dbg !83
  %158 = select <4 x i1> %153, <4 x float> %152, <4 x float> splat (float f0x40FFF644), !dbg !83
  %159 = select <4 x i1> %155, <4 x float> %154, <4 x float> splat (float f0x40FFF644), !dbg !83
  %160 = fcmp ugt <4 x float> %156, splat (float f0xC0FFF644), !dbg !83
  %161 = fcmp ugt <4 x float> %157, splat (float f0xC0FFF644), !dbg !83
  %162 = fcmp ugt <4 x float> %158, splat (float f0xC0FFF644), !dbg !83
  %163 = fcmp ugt <4 x float> %159, splat (float f0xC0FFF644), !dbg !83
  %164 = select <4 x i1> %160, <4 x float> %156, <4 x float> splat (float f0xC0FFF644), !dbg !83
  %165 = select <4 x i1> %161, <4 x float> %157, <4 x float> splat (float f0xC0FFF644), !dbg !83
  %166 = select <4 x i1> %162, <4 x float> %158, <4 x float> splat (float f0xC0FFF644), !dbg !83
  %167 = select <4 x i1> %163, <4 x float> %159, <4 x float> splat (float f0xC0FFF644), !dbg !83
  %168 = call <4 x float> @llvm.fabs.v4f32(<4 x float> %148), !dbg !83
  %169 = call <4 x float> @llvm.fabs.v4f32(<4 x float> %150), !dbg !83
  %170 = call <4 x float> @llvm.fabs.v4f32(<4 x float> %152), !dbg !83
  %171 = call <4 x float> @llvm.fabs.v4f32(<4 x float> %154), !dbg !83
  %172 = fcmp olt <4 x float> %168, splat (float 4.000000e-04), !dbg !83
  %173 = fcmp olt <4 x float> %169, splat (float 4.000000e-04), !dbg !83
  %174 = fcmp olt <4 x float> %170, splat (float 4.000000e-04), !dbg !83
  %175 = fcmp olt <4 x float> %171, splat (float 4.000000e-04), !dbg !83
  %176 = fmul contract <4 x float> %164, %164, !dbg !83
  %177 = fmul contract <4 x float> %165, %165, !dbg !83
  %178 = fmul contract <4 x float> %166, %166, !dbg !83
  %179 = fmul contract <4 x float> %167, %167, !dbg !83
  %180 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> splat (float f0xA59F25C0), <4 x float> splat (float f0x2A61337E)), !dbg !83
  %181 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> splat (float f0xA59F25C0), <4 x float> splat (float f0x2A61337E)), !dbg !83
  %182 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> splat (float f0xA59F25C0), <4 x float> splat (float f0x2A61337E)), !dbg !83
  %183 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> splat (float f0xA59F25C0), <4 x float> splat (float f0x2A61337E)), !dbg !83
  %184 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %180, <4 x float> splat (float f0xAEBD37FF)), !dbg !83
  %185 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %181, <4 x float> splat (float f0xAEBD37FF)), !dbg !83
  %186 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %182, <4 x float> splat (float f0xAEBD37FF)), !dbg !83
  %187 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %183, <4 x float> splat (float f0xAEBD37FF)), !dbg !83
  %188 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %184, <4 x float> splat (float f0x335C0041)), !dbg !83
  %189 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %185, <4 x float> splat (float f0x335C0041)), !dbg !83
  %190 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %186, <4 x float> splat (float f0x335C0041)), !dbg !83
  %191 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %187, <4 x float> splat (float f0x335C0041)), !dbg !83
  %192 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %188, <4 x float> splat (float f0x3779434A)), !dbg !83
  %193 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %189, <4 x float> splat (float f0x3779434A)), !dbg !83
  %194 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %190, <4 x float> splat (float f0x3779434A)), !dbg !83
  %195 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %191, <4 x float> splat (float f0x3779434A)), !dbg !83
  %196 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %192, <4 x float> splat (float f0x3A270DED)), !dbg !83
  %197 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %193, <4 x float> splat (float f0x3A270DED)), !dbg !83
  %198 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %194, <4 x float> splat (float f0x3A270DED)), !dbg !83
  %199 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %195, <4 x float> splat (float f0x3A270DED)), !dbg !83
  %200 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %196, <4 x float> splat (float f0x3BA059DC)), !dbg !83
  %201 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %197, <4 x float> splat (float f0x3BA059DC)), !dbg !83
  %202 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %198, <4 x float> splat (float f0x3BA059DC)), !dbg !83
  %203 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %199, <4 x float> splat (float f0x3BA059DC)), !dbg !83
  %204 = fmul contract <4 x float> %164, %200, !dbg !83
  %205 = fmul contract <4 x float> %165, %201, !dbg !83
  %206 = fmul contract <4 x float> %166, %202, !dbg !83
  %207 = fmul contract <4 x float> %167, %203, !dbg !83
  %208 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> splat (float f0x35A0D3D8), <4 x float> splat (float f0x38F895D6)), !dbg !83
  %209 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> splat (float f0x35A0D3D8), <4 x float> splat (float f0x38F895D6)), !dbg !83
  %210 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> splat (float f0x35A0D3D8), <4 x float> splat (float f0x38F895D6)), !dbg !83
  %211 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> splat (float f0x35A0D3D8), <4 x float> splat (float f0x38F895D6)), !dbg !83
  %212 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %208, <4 x float> splat (float f0x3B14AA05)), !dbg !83
  %213 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %209, <4 x float> splat (float f0x3B14AA05)), !dbg !83
  %214 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %210, <4 x float> splat (float f0x3B14AA05)), !dbg !83
  %215 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %211, <4 x float> splat (float f0x3B14AA05)), !dbg !83
  %216 = call <4 x float> @llvm.fma.v4f32(<4 x float> %176, <4 x float> %212, <4 x float> splat (float f0x3BA059DD)), !dbg !83
  %217 = call <4 x float> @llvm.fma.v4f32(<4 x float> %177, <4 x float> %213, <4 x float> splat (float f0x3BA059DD)), !dbg !83
  %218 = call <4 x float> @llvm.fma.v4f32(<4 x float> %178, <4 x float> %214, <4 x float> splat (float f0x3BA059DD)), !dbg !83
  %219 = call <4 x float> @llvm.fma.v4f32(<4 x float> %179, <4 x float> %215, <4 x float> splat (float f0x3BA059DD)), !dbg !83
  %220 = fdiv <4 x float> %204, %216, !dbg !83
  %221 = fdiv <4 x float> %205, %217, !dbg !83
  %222 = fdiv <4 x float> %206, %218, !dbg !83
  %223 = fdiv <4 x float> %207, %219, !dbg !83
  %224 = select <4 x i1> %172, <4 x float> %164, <4 x float> %220, !dbg !83
  %225 = select <4 x i1> %173, <4 x float> %165, <4 x float> %221, !dbg !83
  %226 = select <4 x i1> %174, <4 x float> %166, <4 x float> %222, !dbg !83
  %227 = select <4 x i1> %175, <4 x float> %167, <4 x float> %223, !dbg !83
  %228 = fadd contract <4 x float> %224, %148, !dbg !84
  %229 = fadd contract <4 x float> %225, %150, !dbg !84
  %230 = fadd contract <4 x float> %226, %152, !dbg !84
  %231 = fadd contract <4 x float> %227, %154, !dbg !84
  %232 = add i64 0, %16, !dbg !81
  %233 = getelementptr float, ptr %14, i64 %232, !dbg !81
  store <4 x float> %228, ptr %233, align 4, !dbg !81
  %234 = add i64 16, %16, !dbg !81
  %235 = getelementptr float, ptr %14, i64 %234, !dbg !81
  store <4 x float> %229, ptr %235, align 4, !dbg !81
  %236 = add i64 32, %16, !dbg !81
  %237 = getelementptr float, ptr %14, i64 %236, !dbg !81
  store <4 x float> %230, ptr %237, align 4, !dbg !81
  %238 = add i64 48, %16, !dbg !81
  %239 = getelementptr float, ptr %14, i64 %238, !dbg !81
  store <4 x float> %231, ptr %239, align 4, !dbg !81
  %240 = add i64 %16, 4, !dbg !81
  br label %15, !dbg !81

241:                                              ; preds = %15
  ret i32 0, !dbg !82
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fabs.v4f32(<4 x float>) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>) #2

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #2

; Function Attrs: uwtable
define dso_local dllexport ptr @iree_hal_executable_library_query(i32 %0, ptr %1) #3 {
entry:
  %2 = icmp eq i32 %0, 6
  %3 = select i1 %2, ptr @iree_hal_executable_library_query_v0, ptr null
  ret ptr %3
}

attributes #0 = { "frame-pointer"="all" "hot" "no-builtins" "nonlazybind" }
attributes #1 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) "frame-pointer"="all" "hot" "no-builtins" "nonlazybind" }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) "frame-pointer"="all" "hot" "no-builtins" "nonlazybind" }
attributes #3 = { uwtable "nonlazybind" }

!llvm.dbg.cu = !{!76}
!llvm.module.flags = !{!86, !87}

!0 = !DIFile(filename: "configured_module_main_dispatch_0.mlir", directory: "/tmp/tmp.W9wvS6KUB9/executables")
!1 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!2 = !DIFile(filename: "runtime/src/iree/hal/local/executable_library.h", directory: ".")
!3 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!4 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint32_t", baseType: !3)
!5 = !DISubrange(count: 64)
!6 = !{!5}
!7 = !DICompositeType(tag: DW_TAG_array_type, scope: !2, file: !2, line: 227, baseType: !4, size: 2048, elements: !6)
!8 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !7)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64)
!10 = !DIDerivedType(tag: DW_TAG_member, name: "constants", baseType: !9, size: 64)
!11 = !DIBasicType(name: "void", encoding: DW_ATE_address)
!12 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !11, size: 64)
!13 = !DIDerivedType(tag: DW_TAG_member, name: "import_thunk", baseType: !12, size: 64, offset: 64)
!14 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !12)
!15 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !14, size: 64)
!16 = !DIDerivedType(tag: DW_TAG_member, name: "import_funcs", baseType: !15, size: 64, offset: 128)
!17 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!18 = !DIDerivedType(tag: DW_TAG_member, name: "import_contexts", baseType: !17, size: 64, offset: 192)
!19 = !DIBasicType(name: "long long unsigned int", size: 64, encoding: DW_ATE_unsigned)
!20 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint64_t", baseType: !19)
!21 = !DISubrange(count: 8)
!22 = !{!21}
!23 = !DICompositeType(tag: DW_TAG_array_type, scope: !2, file: !2, line: 227, baseType: !20, size: 512, elements: !22)
!24 = !DIDerivedType(tag: DW_TAG_member, name: "data", baseType: !23)
!25 = !{!24}
!26 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "iree_hal_processor_v0_t", scope: !2, file: !2, line: 227, size: 512, elements: !25)
!27 = !DIDerivedType(tag: DW_TAG_member, name: "processor", baseType: !26, offset: 256)
!28 = !{!10, !13, !16, !18, !27}
!29 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "iree_hal_executable_environment_v0_t", scope: !2, file: !2, line: 246, size: 768, elements: !28)
!30 = !DIDerivedType(tag: DW_TAG_typedef, name: "iree_hal_executable_environment_v0_t", baseType: !29)
!31 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !30)
!32 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !31, size: 64)
!33 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_size_x", baseType: !4, size: 32)
!34 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_size_y", baseType: !4, size: 32, offset: 32)
!35 = !DIBasicType(name: "unsigned short", size: 16, encoding: DW_ATE_unsigned)
!36 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint16_t", baseType: !35)
!37 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_size_z", baseType: !36, size: 16, offset: 64)
!38 = !DIDerivedType(tag: DW_TAG_member, name: "constant_count", baseType: !36, size: 16, offset: 80)
!39 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_count_x", baseType: !4, size: 32, offset: 96)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_count_y", baseType: !4, size: 32, offset: 128)
!41 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_count_z", baseType: !36, size: 16, offset: 160)
!42 = !DIBasicType(name: "unsigned char", size: 8, encoding: DW_ATE_unsigned_char)
!43 = !DIDerivedType(tag: DW_TAG_typedef, name: "uint8_t", baseType: !42)
!44 = !DIDerivedType(tag: DW_TAG_member, name: "max_concurrency", baseType: !43, size: 8, offset: 176)
!45 = !DIDerivedType(tag: DW_TAG_member, name: "binding_count", baseType: !43, size: 8, offset: 184)
!46 = !DIDerivedType(tag: DW_TAG_member, name: "constants", baseType: !9, size: 64, offset: 192)
!47 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !43, size: 64)
!48 = !DICompositeType(tag: DW_TAG_array_type, scope: !2, file: !2, line: 227, baseType: !47, size: 4096, elements: !6)
!49 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !48)
!50 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !49, size: 64)
!51 = !DIDerivedType(tag: DW_TAG_member, name: "binding_ptrs", baseType: !50, size: 64, offset: 256)
!52 = !DIDerivedType(tag: DW_TAG_typedef, name: "size_t", baseType: !20)
!53 = !DICompositeType(tag: DW_TAG_array_type, scope: !2, file: !2, line: 227, baseType: !52, size: 4096, elements: !6)
!54 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !53)
!55 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !54, size: 64)
!56 = !DIDerivedType(tag: DW_TAG_member, name: "binding_lengths", baseType: !55, size: 64, offset: 320)
!57 = !{!33, !34, !37, !38, !39, !40, !41, !44, !45, !46, !51, !56}
!58 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "iree_hal_executable_dispatch_state_v0_t", scope: !2, file: !2, line: 275, size: 384, elements: !57)
!59 = !DIDerivedType(tag: DW_TAG_typedef, name: "iree_hal_executable_dispatch_state_v0_t", baseType: !58)
!60 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !59)
!61 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !60, size: 64)
!62 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_id_x", baseType: !4, size: 32)
!63 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_id_y", baseType: !4, size: 32, offset: 32)
!64 = !DIDerivedType(tag: DW_TAG_member, name: "workgroup_id_z", baseType: !36, size: 16, offset: 64)
!65 = !DIDerivedType(tag: DW_TAG_member, name: "reserved", baseType: !36, size: 16, offset: 80)
!66 = !DIDerivedType(tag: DW_TAG_member, name: "processor_id", baseType: !4, size: 32, offset: 96)
!67 = !DIDerivedType(tag: DW_TAG_member, name: "local_memory", baseType: !12, size: 64, offset: 128)
!68 = !DIDerivedType(tag: DW_TAG_member, name: "local_memory_size", baseType: !4, size: 32, offset: 192)
!69 = !{!62, !63, !64, !65, !66, !67, !68}
!70 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "iree_hal_executable_workgroup_state_v0_t", scope: !2, file: !2, line: 321, size: 256, elements: !69)
!71 = !DIDerivedType(tag: DW_TAG_typedef, name: "iree_hal_executable_workgroup_state_v0_t", baseType: !70)
!72 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !71)
!73 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !72, size: 64)
!74 = !{!1, !32, !61, !73}
!75 = !DISubroutineType(cc: DW_CC_normal, types: !74)
!76 = distinct !DICompileUnit(language: DW_LANG_C17, file: !0, producer: "IREE", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!77 = distinct !DISubprogram(name: "main_dispatch_0_matmul_4x16x8_f32", linkageName: "main_dispatch_0_matmul_4x16x8_f32", scope: !0, file: !0, line: 1, type: !75, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !76)
!78 = !DILocation(line: 11, column: 8, scope: !77)
!79 = !DILocation(line: 12, column: 8, scope: !77)
!80 = !DILocation(line: 13, column: 8, scope: !77)
!81 = !DILocation(line: 18, column: 8, scope: !77)
!82 = !DILocation(line: 26, column: 8, scope: !77)
!83 = !DILocation(line: 21, column: 10, scope: !77)
!84 = !DILocation(line: 22, column: 10, scope: !77)
!85 = !DILocation(line: 1, column: 1, scope: !77)
!86 = !{i32 2, !"Debug Info Version", i32 3}
!87 = !{i32 1, !"float-abi", !"hard"}
