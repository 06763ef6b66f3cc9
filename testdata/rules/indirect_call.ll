; Hand-written. Calls through function pointers. Shapes:
; - @gemm_activation: Metal FlashAttention's GEMM epilogue
;   (../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/
;   src/libMetalFlashAttention.metallib.extracted/00002_sgemm.ll lines
;   1517-1537): the function index is read from a `constant` buffer, the
;   pointer from `air.get_function_pointer_visible_function_table`, bitcast
;   and called: the same function for every thread.
; - @per_element_op: the same lookup with the index read from a device
;   buffer at `gid`: threads of a SIMD-group may call different functions.
; - @direct_calls: a direct call to a module function and one through a
;   constant bitcast of it (the typed-pointer form of a direct call).
; MUST: exactly two findings, both indirect-call (note): the call of
;   @gemm_activation (table `table`, not divergent) and of @per_element_op
;   (divergent).
; MUST NOT: a finding in @direct_calls.
source_filename = "indirect_call.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct._visible_function_table_t = type opaque

; Function Attrs: convergent mustprogress nounwind
define void @gemm_activation(float addrspace(1)* noundef "air-buffer-no-alias" %0, %struct._visible_function_table_t addrspace(1)* noundef "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = load i32, i32 addrspace(2)* %2, align 4, !tbaa !30
  %6 = call i8* @air.get_function_pointer_visible_function_table(%struct._visible_function_table_t addrspace(1)* nocapture readonly %1, i32 %5) #2
  %7 = bitcast i8* %6 to void (float addrspace(1)*, i32)*
  call void %7(float addrspace(1)* %0, i32 %3) #3
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @per_element_op(float addrspace(1)* noundef "air-buffer-no-alias" %0, %struct._visible_function_table_t addrspace(1)* noundef "air-buffer-no-alias" %1, i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = zext i32 %3 to i64
  %6 = getelementptr inbounds i32, i32 addrspace(1)* %2, i64 %5
  %7 = load i32, i32 addrspace(1)* %6, align 4, !tbaa !30
  %8 = call i8* @air.get_function_pointer_visible_function_table(%struct._visible_function_table_t addrspace(1)* nocapture readonly %1, i32 %7) #2
  %9 = bitcast i8* %8 to void (float addrspace(1)*, i32)*
  call void %9(float addrspace(1)* %0, i32 %3) #3
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @direct_calls(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  call void @relu(float addrspace(1)* %0, i32 %1) #3
  call void bitcast (void (float addrspace(1)*, i32)* @relu to void (float addrspace(1)*, i32)*)(float addrspace(1)* %0, i32 %1) #3
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @relu(float addrspace(1)* noundef %0, i32 noundef %1) #1 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(1)* %0, i64 %3
  %5 = load float, float addrspace(1)* %4, align 4, !tbaa !34
  %6 = tail call fast float @air.fast_fmax.f32(float %5, float 0.000000e+00) #4
  store float %6, float addrspace(1)* %4, align 4, !tbaa !34
  ret void
}

; Function Attrs: mustprogress nofree nosync nounwind readonly willreturn
declare i8* @air.get_function_pointer_visible_function_table(%struct._visible_function_table_t addrspace(1)* nocapture readonly, i32) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nosync nounwind readnone willreturn
declare float @air.fast_fmax.f32(float, float) local_unnamed_addr #4

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind "air-visible-function" "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { mustprogress nofree nosync nounwind readonly willreturn }
attributes #3 = { convergent nounwind }
attributes #4 = { mustprogress nofree nosync nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !18}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, %struct._visible_function_table_t addrspace(1)*, i32 addrspace(2)*, i32)* @gemm_activation, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"C"}
!12 = !{i32 1, !"air.visible_function_table", !"air.location_index", i32 1, i32 1, !"air.read", !"air.arg_type_name", !"visible_function_table", !"air.arg_name", !"table"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"activation"}
!14 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{void (float addrspace(1)*, %struct._visible_function_table_t addrspace(1)*, i32 addrspace(1)*, i32)* @per_element_op, !9, !16}
!16 = !{!11, !12, !17, !14}
!17 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"ops"}
!18 = !{void (float addrspace(1)*, i32)* @direct_calls, !9, !19}
!19 = !{!11, !20}
!20 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
