; Hand-written. precise_math.ll's two kernels in a module compiled with fast
; math (`air.compile.fast_math_enable`, as every corpus module but one has,
; e.g. ../shared/corpus/kolinko__effort/default.metallib.extracted/
; 00000_decodeQ8.ll). There an `air.sin.f32` comes only from an explicit
; `precise::sin`, which is deliberate.
; MUST NOT: any finding (precise-math is for modules without fast math).
source_filename = "precise_math_fast.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @wave(float addrspace(1)* noundef "air-buffer-no-alias" %0, <4 x float> addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = tail call float @air.sin.f32(float %6) #1
  %8 = tail call float @air.cos.f32(float %6) #1
  %9 = fmul float %7, %8
  %10 = tail call float @air.pow.f32(float %6, float 0x40019999A0000000) #1
  %11 = fadd float %9, %10
  store float %11, float addrspace(1)* %5, align 4, !tbaa !34
  %12 = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %1, i64 %4
  %13 = load <4 x float>, <4 x float> addrspace(1)* %12, align 16, !tbaa !36
  %14 = tail call <4 x float> @air.exp.v4f32(<4 x float> %13) #1
  store <4 x float> %14, <4 x float> addrspace(1)* %12, align 16, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @cheap_forms(float addrspace(1)* noundef "air-buffer-no-alias" %0, half addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = tail call float @air.exp2.f32(float %6) #1
  %8 = tail call float @air.rsqrt.f32(float %7) #1
  %9 = tail call fast float @air.fast_cos.f32(float %8) #1
  %10 = tail call float @air.fabs.f32(float %9) #1
  store float %10, float addrspace(1)* %5, align 4, !tbaa !34
  %11 = getelementptr inbounds half, half addrspace(1)* %1, i64 %4
  %12 = load half, half addrspace(1)* %11, align 2, !tbaa !38
  %13 = tail call half @air.sin.f16(half %12) #1
  store half %13, half addrspace(1)* %11, align 2, !tbaa !38
  ret void
}

; Function Attrs: mustprogress nofree nosync nounwind readnone willreturn
declare float @air.sin.f32(float) local_unnamed_addr #1
declare float @air.cos.f32(float) local_unnamed_addr #1
declare float @air.pow.f32(float, float) local_unnamed_addr #1
declare <4 x float> @air.exp.v4f32(<4 x float>) local_unnamed_addr #1
declare float @air.exp2.f32(float) local_unnamed_addr #1
declare float @air.rsqrt.f32(float) local_unnamed_addr #1
declare float @air.fast_cos.f32(float) local_unnamed_addr #1
declare float @air.fabs.f32(float) local_unnamed_addr #1
declare half @air.sin.f16(half) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree nosync nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, <4 x float> addrspace(1)*, i32)* @wave, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"x"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"v"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!14 = !{void (float addrspace(1)*, half addrspace(1)*, i32)* @cheap_forms, !9, !15}
!15 = !{!11, !16, !13}
!16 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"h"}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !37, i64 0}
!36 = !{!37, !37, i64 0}
!37 = !{!"omnipotent char", !33, i64 0}
!38 = !{!39, !39, i64 0}
!39 = !{!"half", !37, i64 0}
