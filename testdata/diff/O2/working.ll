; Hand-written. Shape: seed ../shared/seeds/002_1a3b6f607dabf4d0.txt, kernel
; `working` at -O2: sections "How the passing kernel avoids the bug" (pass_O2.ll
; lines 19-34) and "reproducer_O2.ll @working, lines 72-73". The remainder is
; needed by the condition, so it is computed BEFORE the branch with
; `mul i32 %19, -5`; the true-branch block %25 holds only shl/sext/gep/load.
; The same text as testdata/rules/fused_shift_working.ll; its -O0 form is
; ../O0/working.ll.
; The diff O0/working.ll -> O2/working.ll MUST show: kernel `working` changed
;   in its counts only (no allocas, no thread-memory access here); no finding
;   on either side, so nothing introduced or removed.
source_filename = "metalbug_reproducer.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @working(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i8 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %2, <3 x i32> noundef %3) local_unnamed_addr #0 {
  %5 = extractelement <3 x i32> %3, i64 0
  %6 = sext i32 %5 to i64
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %6
  %8 = load i32, i32 addrspace(1)* %7, align 4, !tbaa !20
  %9 = icmp slt i32 %8, 0
  %10 = select i1 %9, i32 25, i32 0
  %11 = add nsw i32 %10, %8
  %12 = add nsw i32 %11, 1
  %13 = icmp slt i32 %12, 0
  %14 = zext i1 %13 to i32
  %15 = sext i32 %12 to i64
  %16 = mul nsw i64 %15, 1717986919
  %17 = ashr i64 %16, 33
  %18 = trunc i64 %17 to i32
  %19 = add nsw i32 %18, %14
  %20 = mul i32 %19, -5
  %21 = add i32 %20, %12
  %22 = icmp slt i32 %21, 2
  %23 = icmp ult i32 %11, 25
  %24 = and i1 %22, %23
  br i1 %24, label %25, label %31

25:                                               ; preds = %4
  %26 = shl i32 %21, 3
  %27 = sext i32 %26 to i64
  %28 = getelementptr inbounds i8, i8 addrspace(1)* %2, i64 %27
  %29 = load i8, i8 addrspace(1)* %28, align 1, !tbaa !24
  %30 = zext i8 %29 to i32
  br label %31

31:                                               ; preds = %25, %4
  %32 = phi i32 [ %30, %25 ], [ 0, %4 ]
  %33 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %6
  store i32 %32, i32 addrspace(1)* %33, align 4, !tbaa !20
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 0]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.622 (metalfe-32023.622)"}
!4 = !{i32 2, i32 6, i32 0}
!5 = !{!"Metal", i32 3, i32 1, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.framebuffer_fetch_enable"}
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i8 addrspace(1)*, <3 x i32>)* @working, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"output"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"indices"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"data"}
!14 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"gid"}
!20 = !{!21, !21, i64 0}
!21 = !{!"int", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C++ TBAA"}
!24 = !{!22, !22, i64 0}
