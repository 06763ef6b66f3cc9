0x00000000000c1a40 -- add_one:
; ModuleID = 'add_one.air'
; Hand-written. Shape: what Apple's `metal-objdump` prints for one function of
; a metallib: a `0x<offset> -- <name>:` line, the function's IR (here the small
; typed-pointer kernel style of
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.ll),
; then `Disassembly of section ...` blocks that are not IR. (The first line is
; the dump header, so these comments come second.)
; Must produce: the module read from line 2 on (ModuleID, triple, one kernel,
; its AIR metadata), instruction lines as in this file.
; Must not produce: any diagnostic; nothing from the disassembly blocks.
source_filename = "add_one"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define void @add_one(float addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(1)* %0, i64 %3
  %5 = load float, float addrspace(1)* %4, align 4, !tbaa !8
  %6 = fadd fast float %5, 1.000000e+00
  store float %6, float addrspace(1)* %4, align 4, !tbaa !8
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.kernel = !{!2}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!2 = !{void (float addrspace(1)*, i32)* @add_one, !3, !4}
!3 = !{}
!4 = !{!5, !6}
!5 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"data"}
!6 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!8 = !{!9, !9, i64 0}
!9 = !{!"float", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C++ TBAA"}

Disassembly of section __TEXT,__text:

0000000000000000 <_agc.main>:
       0: 0e 05 80 00 00 00            	get_sr	r1, sr80 (thread_position_in_grid.x)
       6: 72 1d 04 2c 00 00            	iadd	r7_r8, u2_u3, r1.discard, lsl 2
       c: 05 11 0c c2 00 08            	device_load	0, i32, x, r4, r7_r8, 0, signed, lsl 1
      12: 38 00 00 00                  	wait	0
}
define void @not_ir() {
  %x = garbage ( [ {
%0 = "unterminated

Disassembly of section __TEXT,__const:

0000000000000000 <ltmp1>:
       0: 00 00 80 3f                  	.long	0x3f800000
