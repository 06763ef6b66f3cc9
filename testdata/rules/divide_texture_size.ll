; Hand-written. Divisors from a texture's size. Shape: BlackHoleGPU's
; tonemapping kernel queries its textures' sizes
; (../shared/corpus/SirArthurNerdolot1__BlackHoleGPU/build/
; default.metallib.extracted/00005_tonemapping_kernel.ll line 12:
; `air.get_width_texture_2d(%1, i32 0)`); here a kernel wraps a flat index
; into the texture, `uint2(i % tex.get_width(), i / tex.get_height())`.
; MUST: exactly two findings, both divide-by-uniform, named
;   `inputTexture.get_width()` and `inputTexture.get_height()` (kind
;   argument, "a texture's size").
; MUST NOT: name the divisor `inputTexture` or call it a kernel argument.
source_filename = "divide_texture_size.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct._texture_2d_t = type opaque

define void @wrap(%struct._texture_2d_t addrspace(1)* nocapture readonly %0, i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i32 @air.get_width_texture_2d(%struct._texture_2d_t addrspace(1)* nocapture readonly %0, i32 0) #1
  %5 = tail call i32 @air.get_height_texture_2d(%struct._texture_2d_t addrspace(1)* nocapture readonly %0, i32 0) #1
  %6 = urem i32 %2, %4
  %7 = udiv i32 %2, %5
  %8 = add i32 %6, %7
  %9 = zext i32 %2 to i64
  %10 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %9
  store i32 %8, i32 addrspace(1)* %10, align 4
  ret void
}

declare i32 @air.get_width_texture_2d(%struct._texture_2d_t addrspace(1)* nocapture readonly, i32) local_unnamed_addr #1
declare i32 @air.get_height_texture_2d(%struct._texture_2d_t addrspace(1)* nocapture readonly, i32) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { argmemonly mustprogress nofree nounwind readonly willreturn }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (%struct._texture_2d_t addrspace(1)*, i32 addrspace(1)*, i32)* @wrap, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.texture", !"air.location_index", i32 0, i32 1, !"air.read", !"air.arg_type_name", !"texture2d<float, read>", !"air.arg_name", !"inputTexture"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
