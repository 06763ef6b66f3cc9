; Hand-written. Divides inside internal helpers that are not inlined, the
; shape of MLX's rope_impl (../shared/corpus/Iito__spindll/
; mlx.metallib.extracted/00380_rope_large_float32.ll lines 36 and 41-49: an
; `internal fastcc` function the kernel tail-calls, which divides by what the
; kernel passes it). Each helper has two callers:
; - @div_helper(%a, %b) divides by %b; @kernel_a and @kernel_b both pass their
;   `constant uint& n` (as the divisor) and their thread id (as the dividend).
; - @lit_helper(%a, %b) takes the remainder by %b; the kernels pass 7 and 16.
; A helper's parameters take the join of what every call site passes.
; MUST: exactly one finding: divide-by-uniform in @div_helper (line 44),
;   naming `n`, with `kernels` = [kernel_a, kernel_b] (both callers).
; MUST NOT: a finding in @lit_helper (line 51: only literals reach %b), nor
;   any finding in the kernels themselves (they hold no divide).
source_filename = "divide_helpers.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind
define void @kernel_a(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef align 4 dereferenceable(4) "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = tail call fastcc i32 @div_helper(i32 noundef %2, i32 noundef %4) #2
  %6 = tail call fastcc i32 @lit_helper(i32 noundef %2, i32 noundef 7) #2
  %7 = add i32 %5, %6
  %8 = zext i32 %2 to i64
  %9 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %8
  store i32 %7, i32 addrspace(1)* %9, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @kernel_b(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef align 4 dereferenceable(4) "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = tail call fastcc i32 @div_helper(i32 noundef %2, i32 noundef %4) #2
  %6 = tail call fastcc i32 @lit_helper(i32 noundef %2, i32 noundef 16) #2
  %7 = sub i32 %5, %6
  %8 = zext i32 %2 to i64
  %9 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %8
  store i32 %7, i32 addrspace(1)* %9, align 4, !tbaa !30
  ret void
}

; Function Attrs: mustprogress nounwind
define internal fastcc i32 @div_helper(i32 noundef %a, i32 noundef %b) unnamed_addr #1 {
  %1 = udiv i32 %a, %b
  %2 = mul i32 %1, 3
  ret i32 %2
}

; Function Attrs: mustprogress nounwind
define internal fastcc i32 @lit_helper(i32 noundef %a, i32 noundef %b) unnamed_addr #1 {
  %1 = urem i32 %a, %b
  %2 = mul i32 %1, 5
  ret i32 %2
}

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { nobuiltin "no-builtins" }

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
!8 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @kernel_a, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"dst"}
!12 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!14 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @kernel_b, !9, !10}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
