; Hand-written. Shape: seed ../shared/seeds/002_1a3b6f607dabf4d0.txt, kernel
; `buggy` (MSL in ../shared/seeds/metalbug_reproducer_kernels.metal) as
; `xcrun metal -O2 -S -emit-llvm` prints it: section "Root Cause Summary",
; "reproducer_O2.ll @buggy, lines 39-44", and "Kernel A (buggy) - IR structure"
; (the condition from `srem i64 _, 5` before the branch; the true-branch block
; recomputes alu1 % 5 by fast_idiv and fuses `-5 * q << 3` into
; `mul i32 q, 536870907` -> add -> `shl i32 _, 3` -> sext -> `getelementptr i8`
; -> `load i8`). Value numbers are ours, the chain is the seed's. Typed
; pointers (`i8 addrspace(1)*`); fused_shift_buggy_opaque.ll is its twin.
; MUST: exactly one finding, fused-shift-address-in-branch on the `mul i32`
;   (line 46), confirmed (k = 3, m = 5), chain shl/sext/gep/load = lines 48-51.
; MUST NOT: divide-by-uniform or divide-by-varying on `srem i64 %13, 5` (line
;   30, a literal divisor); any finding on `mul nsw i64 _, 1717986919` (line
;   40: 64-bit, not in the family).
source_filename = "metalbug_reproducer.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @buggy(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i8 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %2, <3 x i32> noundef %3) local_unnamed_addr #0 {
  %5 = extractelement <3 x i32> %3, i64 0
  %6 = sext i32 %5 to i64
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %6
  %8 = load i32, i32 addrspace(1)* %7, align 4, !tbaa !20
  %9 = icmp slt i32 %8, 0
  %10 = select i1 %9, i32 25, i32 0
  %11 = add nsw i32 %10, %8
  %12 = sext i32 %11 to i64
  %13 = add nsw i64 %12, 1
  %14 = srem i64 %13, 5
  %15 = trunc i64 %14 to i32
  %16 = icmp slt i32 %15, 2
  %17 = icmp ult i32 %11, 25
  %18 = and i1 %16, %17
  br i1 %18, label %19, label %35

19:                                               ; preds = %4
  %20 = add nsw i32 %11, 1
  %21 = sext i32 %20 to i64
  %22 = mul nsw i64 %21, 1717986919
  %23 = lshr i64 %22, 33
  %24 = trunc i64 %23 to i32
  %25 = icmp slt i32 %20, 0
  %26 = zext i1 %25 to i32
  %27 = add nuw i32 %24, %26
  %28 = mul i32 %27, 536870907
  %29 = add i32 %28, %20
  %30 = shl i32 %29, 3
  %31 = sext i32 %30 to i64
  %32 = getelementptr inbounds i8, i8 addrspace(1)* %2, i64 %31
  %33 = load i8, i8 addrspace(1)* %32, align 1, !tbaa !24
  %34 = zext i8 %33 to i32
  br label %35

35:                                               ; preds = %19, %4
  %36 = phi i32 [ %34, %19 ], [ 0, %4 ]
  %37 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %6
  store i32 %36, i32 addrspace(1)* %37, align 4, !tbaa !20
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
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i8 addrspace(1)*, <3 x i32>)* @buggy, !9, !10}
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
