; Hand-written. Divisors that are uniform kernel arguments or builtins:
; - @arg_reduce_tail: MLX's arg_reduce tail (../shared/corpus/Iito__spindll/
;   mlx.metallib.extracted/00040_argmin_bfloat16.ll lines 197-200 and !30:
;   `(lsize.x + simd_size - 1) / simd_size`, `udiv i32 %162, %12` with %12 the
;   `air.threads_per_simdgroup` argument), and ggml's `tiitg%ntg[0]`
;   (../shared/msl/ggml-org__ggml/pre-PR22711/ggml-metal.metal line 7316,
;   ntg = threads_per_threadgroup).
; - @scalar_args: a `constant uint& n [[buffer(2)]]` (MLX's by-reference
;   scalars, e.g. 00105_sdpa_vector_2pass_1_bfloat16_t_64_64.ll !24 `N`) and a
;   by-value `i32 %2` whose metadata has no kind tag (no air.buffer, no
;   builtin): the fallback for a by-value scalar, also uniform.
; MUST: exactly four findings, all divide-by-uniform:
;   line 30 names `threads_per_simdgroup` (kind builtin) and says it is
;     always 32 on Apple GPUs;
;   line 31 names `threads_per_threadgroup` (kind builtin, "a
;     threadgroup-uniform builtin");
;   line 42 names `n` (kind argument);
;   line 43 names `k` (kind argument).
; MUST NOT: divide-by-varying on any of them (the dividends vary per thread,
;   the divisors do not), nor any finding on the `add`s.
source_filename = "divide_uniform_args.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @arg_reduce_tail(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, <3 x i32> noundef %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = extractelement <3 x i32> %1, i64 0
  %6 = add i32 %5, -1
  %7 = add i32 %6, %2
  %8 = udiv i32 %7, %2
  %9 = urem i32 %3, %5
  %10 = add i32 %8, %9
  %11 = zext i32 %3 to i64
  %12 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %11
  store i32 %10, i32 addrspace(1)* %12, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @scalar_args(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef align 4 dereferenceable(4) "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %6 = udiv i32 %3, %5
  %7 = urem i32 %3, %2
  %8 = add i32 %6, %7
  %9 = zext i32 %3 to i64
  %10 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %9
  store i32 %8, i32 addrspace(1)* %10, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, <3 x i32>, i32, i32)* @arg_reduce_tail, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint3", !"air.arg_name", !"lsize"}
!13 = !{i32 2, !"air.threads_per_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_size"}
!14 = !{i32 3, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tiitg"}
!15 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32, i32)* @scalar_args, !9, !16}
!16 = !{!11, !17, !18, !19}
!17 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!18 = !{i32 2, !"air.arg_type_name", !"uint", !"air.arg_name", !"k"}
!19 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
