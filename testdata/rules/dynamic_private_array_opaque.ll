; The opaque-pointer twin of dynamic_private_array.ll (see its comments for
; the shapes and where they come from), made with `llvm-as-14
; dynamic_private_array.ll -o x.bc && llvm-dis-19 x.bc`: the GEPs index
; `ptr %counts` instead of typed pointers and the bitcast before the memset
; is gone.
; MUST: the same three dynamic-private-array findings as the typed file
;   (same functions, types, indices and messages but for line numbers).
; MUST NOT: a finding in @unrolled_reads, @fc_offset or @struct_fields.
source_filename = "dynamic_private_array.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct.Staged = type { [8 x float], i32 }

@_Z7M_split.MTL_FC_INIT_0_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@_ZL13C_sram_offset = internal unnamed_addr addrspace(2) global i16 0, align 2
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @_GLOBAL__sub_I_dynamic_private_array.metal, ptr null }]

; Function Attrs: convergent mustprogress nounwind
define void @private_histogram(ptr addrspace(1) noundef "air-buffer-no-alias" %0, ptr addrspace(1) noundef readonly "air-buffer-no-alias" %1, ptr addrspace(2) noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %counts = alloca [16 x i32], align 4
  %5 = bitcast ptr %counts to ptr
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 4 dereferenceable(64) %5, i8 0, i64 64, i1 false)
  %6 = load i32, ptr addrspace(2) %2, align 4, !tbaa !30
  %7 = icmp eq i32 %6, 0
  br i1 %7, label %done, label %count

count:                                            ; preds = %count, %4
  %8 = phi i32 [ %15, %count ], [ 0, %4 ]
  %9 = zext i32 %8 to i64
  %10 = getelementptr inbounds i32, ptr addrspace(1) %1, i64 %9
  %11 = load i32, ptr addrspace(1) %10, align 4, !tbaa !30
  %12 = and i32 %11, 15
  %13 = zext i32 %12 to i64
  %bin = getelementptr inbounds [16 x i32], ptr %counts, i64 0, i64 %13
  %14 = load i32, ptr %bin, align 4, !tbaa !30
  %inc = add i32 %14, 1
  store i32 %inc, ptr %bin, align 4, !tbaa !30
  %15 = add nuw i32 %8, 1
  %16 = icmp eq i32 %15, %6
  br i1 %16, label %done, label %count, !llvm.loop !34

done:                                             ; preds = %count, %4
  %first = getelementptr inbounds [16 x i32], ptr %counts, i64 0, i64 0
  %17 = load i32, ptr %first, align 4, !tbaa !30
  %18 = zext i32 %3 to i64
  %19 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %18
  store i32 %17, ptr addrspace(1) %19, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @tail_fill(ptr addrspace(1) noundef "air-buffer-no-alias" %0, ptr addrspace(2) noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %thread_x = alloca [8 x float], align 4
  %4 = load i32, ptr addrspace(2) %1, align 4, !tbaa !30
  %5 = shl i32 %2, 3
  %6 = sub i32 %4, %5
  %7 = icmp slt i32 %6, 8
  br i1 %7, label %fill, label %sum

fill:                                             ; preds = %fill, %3
  %8 = phi i32 [ %11, %fill ], [ %6, %3 ]
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds [8 x float], ptr %thread_x, i64 0, i64 %9
  store float 0.000000e+00, ptr %10, align 4, !tbaa !36
  %11 = add i32 %8, 1
  %12 = icmp eq i32 %11, 8
  br i1 %12, label %sum, label %fill, !llvm.loop !34

sum:                                              ; preds = %fill, %3
  %13 = getelementptr inbounds [8 x float], ptr %thread_x, i64 0, i64 7
  %14 = load float, ptr %13, align 4, !tbaa !36
  %15 = zext i32 %2 to i64
  %16 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %15
  store float %14, ptr addrspace(1) %16, align 4, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @field_array(ptr addrspace(1) noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %s = alloca %struct.Staged, align 4
  %3 = and i32 %1, 7
  %4 = zext i32 %3 to i64
  %5 = getelementptr inbounds %struct.Staged, ptr %s, i64 0, i32 0, i64 %4
  store float 1.000000e+00, ptr %5, align 4, !tbaa !36
  %6 = getelementptr inbounds %struct.Staged, ptr %s, i64 0, i32 0, i64 0
  %7 = load float, ptr %6, align 4, !tbaa !36
  %8 = zext i32 %1 to i64
  %9 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %8
  store float %7, ptr addrspace(1) %9, align 4, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @unrolled_reads(ptr addrspace(1) noundef "air-buffer-no-alias" %0, ptr addrspace(1) noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #1 {
  %inter = alloca [4 x float], align 4
  br label %read

read:                                             ; preds = %read, %3
  %4 = phi i32 [ 0, %3 ], [ %10, %read ]
  %5 = zext i32 %4 to i64
  %6 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %5
  %7 = load float, ptr addrspace(1) %6, align 4, !tbaa !36
  %8 = zext i32 %4 to i64
  %9 = getelementptr inbounds [4 x float], ptr %inter, i64 0, i64 %8
  store float %7, ptr %9, align 4, !tbaa !36
  %10 = add nuw nsw i32 %4, 1
  %11 = icmp eq i32 %10, 4
  br i1 %11, label %sum, label %read, !llvm.loop !38

sum:                                              ; preds = %sum, %read
  %12 = phi i32 [ 0, %read ], [ %18, %sum ]
  %13 = phi float [ 0.000000e+00, %read ], [ %17, %sum ]
  %14 = zext i32 %12 to i64
  %15 = getelementptr inbounds [4 x float], ptr %inter, i64 0, i64 %14
  %16 = load float, ptr %15, align 4, !tbaa !36
  %17 = fadd fast float %13, %16
  %18 = add nuw nsw i32 %12, 1
  %19 = icmp eq i32 %18, 4
  br i1 %19, label %out, label %sum, !llvm.loop !38

out:                                              ; preds = %sum
  %20 = zext i32 %2 to i64
  %21 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %20
  store float %17, ptr addrspace(1) %21, align 4, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @fc_offset(ptr addrspace(1) noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %sram = alloca [64 x float], align 4
  %3 = load i16, ptr addrspace(2) @_ZL13C_sram_offset, align 2, !tbaa !40
  %4 = zext i16 %3 to i64
  %5 = getelementptr inbounds [64 x float], ptr %sram, i64 0, i64 %4
  store float 1.000000e+00, ptr %5, align 4, !tbaa !36
  %6 = getelementptr inbounds [64 x float], ptr %sram, i64 0, i64 0
  %7 = load float, ptr %6, align 4, !tbaa !36
  %8 = zext i32 %1 to i64
  %9 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %8
  store float %7, ptr addrspace(1) %9, align 4, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @struct_fields(ptr addrspace(1) noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %s = alloca %struct.Staged, align 4
  %3 = getelementptr inbounds %struct.Staged, ptr %s, i64 0, i32 0, i64 3
  store float 2.000000e+00, ptr %3, align 4, !tbaa !36
  %4 = getelementptr inbounds %struct.Staged, ptr %s, i64 0, i32 1
  store i32 %1, ptr %4, align 4, !tbaa !30
  %5 = load float, ptr %3, align 4, !tbaa !36
  %6 = zext i32 %1 to i64
  %7 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %6
  store float %5, ptr addrspace(1) %7, align 4, !tbaa !36
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define internal void @_GLOBAL__sub_I_dynamic_private_array.metal() #2 section "air.static_init" {
  %1 = load i16, ptr addrspace(2) @_Z7M_split.MTL_FC_INIT_0_t, align 2, !tbaa !40
  %2 = lshr i16 %1, 3
  %3 = mul i16 %2, 8
  store i16 %3, ptr addrspace(2) @_ZL13C_sram_offset, align 2, !tbaa !40
  ret void
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #3

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !20, !23, !27, !28}
!air.function_constants = !{!29}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{ptr @private_histogram, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!14 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{ptr @tail_fill, !9, !16}
!16 = !{!17, !18, !19}
!17 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!18 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"axis_size"}
!19 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!20 = !{ptr @field_array, !9, !21}
!21 = !{!17, !22}
!22 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!23 = !{ptr @unrolled_reads, !9, !24}
!24 = !{!17, !25, !26}
!25 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!26 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!27 = !{ptr @fc_offset, !9, !21}
!28 = !{ptr @struct_fields, !9, !21}
!29 = !{ptr addrspace(2) @_Z7M_split.MTL_FC_INIT_0_t, !"ushort", !"M_split", i32 0, i1 true}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = distinct !{!34, !35}
!35 = !{!"llvm.loop.mustprogress"}
!36 = !{!37, !37, i64 0}
!37 = !{!"float", !32, i64 0}
!38 = distinct !{!38, !35, !39}
!39 = !{!"llvm.loop.unroll.full"}
!40 = !{!41, !41, i64 0}
!41 = !{!"short", !32, i64 0}
