
lib.metallib:	file format metallib

Disassembly of section MODULE_LIST:
0x00000000000000d0 -- add_two:
; Hand-written. Shape: what Apple's `xcrun metal-objdump -d lib.metallib`
; prints for a whole library (the layout issue 24 describes, as seed 002's
; `xcrun metal-objdump -d test/metalbug_ir/bug.metallib` runs it): an
; optional blank line, `PATH:<tab>file format metallib`, `Disassembly of
; section MODULE_LIST:`, then per module a `0x<offset> -- <name>:` line and
; that module's IR (here the typed-pointer kernel style of
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.ll),
; modules apart by blank lines, then a trailing REFLECTION_LIST section that
; is not IR. These comments belong to the first module's IR.
; Must produce: two modules, `add_two` from line 6 and `scale_two` from its
; header's next line, each with one kernel and lines as in this file; one
; warning, at the REFLECTION_LIST line, saying the section was skipped.
; Must not produce: any error; anything read from the REFLECTION_LIST part.
; ModuleID = 'add_two.air'
source_filename = "add_two"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define void @add_two(float addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(1)* %0, i64 %3
  %5 = load float, float addrspace(1)* %4, align 4, !tbaa !8
  %6 = fadd fast float %5, 2.000000e+00
  store float %6, float addrspace(1)* %4, align 4, !tbaa !8
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.kernel = !{!2}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!2 = !{void (float addrspace(1)*, i32)* @add_two, !3, !4}
!3 = !{}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"data"}
!6 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!8 = !{!9, !9, i64 0}
!9 = !{!"float", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}

0x0000000000000ed0 -- scale_two:
; ModuleID = 'scale_two.air'
source_filename = "scale_two"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define void @scale_two(float addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(1)* %0, i64 %3
  %5 = load float, float addrspace(1)* %4, align 4, !tbaa !8
  %6 = fmul fast float %5, 2.000000e+00
  store float %6, float addrspace(1)* %4, align 4, !tbaa !8
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.kernel = !{!2}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!2 = !{void (float addrspace(1)*, i32)* @scale_two, !3, !4}
!3 = !{}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"values"}
!6 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!8 = !{!9, !9, i64 0}
!9 = !{!"float", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}

Disassembly of section REFLECTION_LIST:
0x0000000000001a00 -- add_two:
	buffer(0): data, float, read_write
	thread_position_in_grid: gid
0x0000000000001a40 -- scale_two:
define void @not_ir() {
