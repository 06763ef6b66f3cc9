; Hand-written for tests/binary_inputs.rs, which assembles it with llvm-as at
; test time into an `.air` file (in Apple's bitcode wrapper) and into a
; metallib built by the test. Shape: the typed-pointer kernels of
; ../shared/corpus/Iito__spindll/mlx.metallib.extracted/*.ll (device buffers,
; a `constant` scalar, thread_position_in_grid, `!air.kernel` metadata).
; Typed pointers so that llvm-as 14 to 22 all accept it. One kernel, `scale`.
source_filename = "scale"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define void @scale(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, float addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = load float, float addrspace(2)* %2, align 4, !tbaa !20
  %6 = zext i32 %3 to i64
  %7 = getelementptr inbounds float, float addrspace(1)* %0, i64 %6
  %8 = load float, float addrspace(1)* %7, align 4, !tbaa !20
  %9 = fmul fast float %8, %5
  %10 = getelementptr inbounds float, float addrspace(1)* %1, i64 %6
  store float %9, float addrspace(1)* %10, align 4, !tbaa !20
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.language_version = !{!2}
!air.compile_options = !{!3}
!air.kernel = !{!4}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!2 = !{!"Metal", i32 3, i32 2, i32 0}
!3 = !{!"air.compile.fast_math_enable"}
!4 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(2)*, i32)* @scale, !5, !6}
!5 = !{}
!6 = !{!7, !8, !9, !10}
!7 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!8 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!9 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"factor"}
!10 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{!21, !21, i64 0}
!21 = !{!"float", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C++ TBAA"}
