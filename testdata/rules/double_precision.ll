; Hand-written. double in a kernel, as an LLVM IR to AIR translator or a C
; math routine would leave it (MSL has no double; the corpus has none: `grep
; -w double` finds nothing in ../shared/corpus). Shapes:
; - @scale_in_double: `out[gid] = float(double(in[gid]) * 1.0e-3)`, a
;   literal without the `f` suffix promoting the product to double:
;   fpext, fmul double, fptrunc.
; - @index_to_double: `double(gid) / double(n)` then fcmp and fptosi:
;   sitofp and uitofp to double, fdiv double, fcmp double, fptosi from double.
; - @fma_double: a call to `llvm.fma.f64`.
; - @moves_only: a double loaded and stored unchanged (memory traffic, no
;   arithmetic) and float and half arithmetic.
; MUST: exactly ten findings, all double-precision (warning): fpext, fmul,
;   fptrunc in @scale_in_double; sitofp, uitofp, fdiv, fcmp, fptosi in
;   @index_to_double; the call and the fptrunc in @fma_double.
; MUST NOT: a finding in @moves_only.
source_filename = "double_precision.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @scale_in_double(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %1, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = fpext float %6 to double
  %8 = fmul double %7, 1.000000e-03
  %9 = fptrunc double %8 to float
  %10 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  store float %9, float addrspace(1)* %10, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @index_to_double(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = sitofp i32 %4 to double
  %6 = uitofp i32 %2 to double
  %7 = fdiv double %6, %5
  %8 = fcmp olt double %7, 5.000000e-01
  %9 = fptosi double %7 to i32
  %10 = select i1 %8, i32 0, i32 %9
  %11 = zext i32 %2 to i64
  %12 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %11
  store i32 %10, i32 addrspace(1)* %12, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @fma_double(float addrspace(1)* noundef "air-buffer-no-alias" %0, double addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds double, double addrspace(1)* %1, i64 %4
  %6 = load double, double addrspace(1)* %5, align 8, !tbaa !36
  %7 = tail call double @llvm.fma.f64(double %6, double %6, double 1.000000e+00)
  %8 = fptrunc double %7 to float
  %9 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  store float %8, float addrspace(1)* %9, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @moves_only(double addrspace(1)* noundef "air-buffer-no-alias" %0, half addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds double, double addrspace(1)* %0, i64 %4
  %6 = load double, double addrspace(1)* %5, align 8, !tbaa !36
  %7 = add nuw nsw i64 %4, 1
  %8 = getelementptr inbounds double, double addrspace(1)* %0, i64 %7
  store double %6, double addrspace(1)* %8, align 8, !tbaa !36
  %9 = getelementptr inbounds half, half addrspace(1)* %1, i64 %4
  %10 = load half, half addrspace(1)* %9, align 2, !tbaa !38
  %11 = fpext half %10 to float
  %12 = fmul fast float %11, 2.000000e+00
  %13 = fptrunc float %12 to half
  store half %13, half addrspace(1)* %9, align 2, !tbaa !38
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare double @llvm.fma.f64(double, double, double) #1

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { nocallback nofree nosync nounwind readnone speculatable willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !18, !21}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @scale_in_double, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!14 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @index_to_double, !9, !15}
!15 = !{!16, !17, !13}
!16 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!17 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"n"}
!18 = !{void (float addrspace(1)*, double addrspace(1)*, i32)* @fma_double, !9, !19}
!19 = !{!11, !20, !13}
!20 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"double", !"air.arg_name", !"in"}
!21 = !{void (double addrspace(1)*, half addrspace(1)*, i32)* @moves_only, !9, !22}
!22 = !{!23, !24, !13}
!23 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"double", !"air.arg_name", !"data"}
!24 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"h"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!36 = !{!37, !37, i64 0}
!37 = !{!"double", !32, i64 0}
!38 = !{!39, !39, i64 0}
!39 = !{!"half", !32, i64 0}
