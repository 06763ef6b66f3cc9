; Hand-written. Private arrays indexed by a loop counter wrapped by a
; constant (`%`, `/`, `&`, `^`): issue 23 ("an index built with `urem`,
; `udiv` or `xor` by a constant on the counter of a constant-trip loop
; becomes constant once the loop is unrolled (keccak's `(i+4)%5`)"). The
; shapes are written as LLVM -O2 leaves such loops in AIR (unrolling is left
; to the backend, as in MLX's gemv loops, see dynamic_private_array.ll).
; - @keccak_theta: Keccak's theta step on a private `ulong C[5]`:
;   `for (x = 0; x < 5; x++) D = C[(x + 4) % 5] ^ rotl(C[(x + 1) % 5], 1);`
;   (`urem` of the counter, trip count 5, exit test at the bottom).
; - @pairs: `for (i = 0; i < 8; i++) t[i ^ 1] = in[i]; ... h[i / 2] += ...`
;   (`xor` and `udiv` by constants, trip count 8, exit test at the top with
;   `icmp ult`).
; - @ring_runtime: `for (i = 0; i < n; i++) acc[i % 4] += in[i];` with `n`
;   a kernel argument: the loop cannot be unrolled fully and `% 4` keeps the
;   index in bounds however long it runs, so the array is indexed at run
;   time.
; - @mask_runtime: `for (i = 0; i < n; i++) acc[i & 3] += in[i];`, the same
;   with `and`.
; MUST: exactly two dynamic-private-array findings, on the allocas of
;   @ring_runtime (index `%idx`) and @mask_runtime (index `%idx`).
; MUST NOT: a finding in @keccak_theta or @pairs.
source_filename = "dynamic_private_array_wrapped.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @keccak_theta(i64 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %C = alloca [5 x i64], align 8
  %3 = zext i32 %1 to i64
  br label %fill

fill:
  %x = phi i32 [ 0, %2 ], [ %x.next, %fill ]
  %4 = zext i32 %x to i64
  %5 = add nuw nsw i64 %3, %4
  %6 = getelementptr inbounds i64, i64 addrspace(1)* %0, i64 %5
  %7 = load i64, i64 addrspace(1)* %6, align 8, !tbaa !20
  %8 = getelementptr inbounds [5 x i64], [5 x i64]* %C, i64 0, i64 %4
  store i64 %7, i64* %8, align 8, !tbaa !20
  %x.next = add nuw nsw i32 %x, 1
  %9 = icmp eq i32 %x.next, 5
  br i1 %9, label %theta, label %fill, !llvm.loop !30

theta:
  %y = phi i32 [ 0, %fill ], [ %y.next, %theta ]
  %10 = add nuw nsw i32 %y, 4
  %left = urem i32 %10, 5
  %11 = zext i32 %left to i64
  %12 = getelementptr inbounds [5 x i64], [5 x i64]* %C, i64 0, i64 %11
  %13 = load i64, i64* %12, align 8, !tbaa !20
  %14 = add nuw nsw i32 %y, 1
  %right = urem i32 %14, 5
  %15 = zext i32 %right to i64
  %16 = getelementptr inbounds [5 x i64], [5 x i64]* %C, i64 0, i64 %15
  %17 = load i64, i64* %16, align 8, !tbaa !20
  %18 = tail call i64 @llvm.fshl.i64(i64 %17, i64 %17, i64 1)
  %19 = xor i64 %18, %13
  %20 = zext i32 %y to i64
  %21 = add nuw nsw i64 %3, %20
  %22 = getelementptr inbounds i64, i64 addrspace(1)* %0, i64 %21
  store i64 %19, i64 addrspace(1)* %22, align 8, !tbaa !20
  %y.next = add nuw nsw i32 %y, 1
  %23 = icmp eq i32 %y.next, 5
  br i1 %23, label %done, label %theta, !llvm.loop !30

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @pairs(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %t = alloca [8 x float], align 4
  %h = alloca [4 x float], align 4
  br label %head

head:
  %i = phi i32 [ 0, %3 ], [ %i.next, %body ]
  %4 = icmp ult i32 %i, 8
  br i1 %4, label %body, label %out

body:
  %5 = zext i32 %i to i64
  %6 = getelementptr inbounds float, float addrspace(1)* %1, i64 %5
  %7 = load float, float addrspace(1)* %6, align 4, !tbaa !22
  %swap = xor i32 %i, 1
  %8 = zext i32 %swap to i64
  %9 = getelementptr inbounds [8 x float], [8 x float]* %t, i64 0, i64 %8
  store float %7, float* %9, align 4, !tbaa !22
  %half = udiv i32 %i, 2
  %10 = zext i32 %half to i64
  %11 = getelementptr inbounds [4 x float], [4 x float]* %h, i64 0, i64 %10
  %12 = load float, float* %11, align 4, !tbaa !22
  %13 = fadd fast float %12, %7
  store float %13, float* %11, align 4, !tbaa !22
  %i.next = add nuw nsw i32 %i, 1
  br label %head, !llvm.loop !30

out:
  %14 = getelementptr inbounds [8 x float], [8 x float]* %t, i64 0, i64 3
  %15 = load float, float* %14, align 4, !tbaa !22
  %16 = getelementptr inbounds [4 x float], [4 x float]* %h, i64 0, i64 1
  %17 = load float, float* %16, align 4, !tbaa !22
  %18 = fadd fast float %15, %17
  %19 = zext i32 %2 to i64
  %20 = getelementptr inbounds float, float addrspace(1)* %0, i64 %19
  store float %18, float addrspace(1)* %20, align 4, !tbaa !22
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @ring_runtime(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %acc = alloca [4 x float], align 4
  %n = load i32, i32 addrspace(2)* %2, align 4, !tbaa !24
  %5 = icmp eq i32 %n, 0
  br i1 %5, label %out, label %loop

loop:
  %i = phi i32 [ 0, %4 ], [ %i.next, %loop ]
  %6 = zext i32 %i to i64
  %7 = getelementptr inbounds float, float addrspace(1)* %1, i64 %6
  %8 = load float, float addrspace(1)* %7, align 4, !tbaa !22
  %slot = urem i32 %i, 4
  %idx = zext i32 %slot to i64
  %9 = getelementptr inbounds [4 x float], [4 x float]* %acc, i64 0, i64 %idx
  %10 = load float, float* %9, align 4, !tbaa !22
  %11 = fadd fast float %10, %8
  store float %11, float* %9, align 4, !tbaa !22
  %i.next = add nuw i32 %i, 1
  %12 = icmp eq i32 %i.next, %n
  br i1 %12, label %out, label %loop, !llvm.loop !30

out:
  %13 = getelementptr inbounds [4 x float], [4 x float]* %acc, i64 0, i64 0
  %14 = load float, float* %13, align 4, !tbaa !22
  %15 = zext i32 %3 to i64
  %16 = getelementptr inbounds float, float addrspace(1)* %0, i64 %15
  store float %14, float addrspace(1)* %16, align 4, !tbaa !22
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @mask_runtime(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %acc = alloca [4 x float], align 4
  %n = load i32, i32 addrspace(2)* %2, align 4, !tbaa !24
  %5 = icmp eq i32 %n, 0
  br i1 %5, label %out, label %loop

loop:
  %i = phi i32 [ 0, %4 ], [ %i.next, %loop ]
  %6 = zext i32 %i to i64
  %7 = getelementptr inbounds float, float addrspace(1)* %1, i64 %6
  %8 = load float, float addrspace(1)* %7, align 4, !tbaa !22
  %slot = and i32 %i, 3
  %idx = zext i32 %slot to i64
  %9 = getelementptr inbounds [4 x float], [4 x float]* %acc, i64 0, i64 %idx
  %10 = load float, float* %9, align 4, !tbaa !22
  %11 = fadd fast float %10, %8
  store float %11, float* %9, align 4, !tbaa !22
  %i.next = add nuw i32 %i, 1
  %12 = icmp eq i32 %i.next, %n
  br i1 %12, label %out, label %loop, !llvm.loop !30

out:
  %13 = getelementptr inbounds [4 x float], [4 x float]* %acc, i64 0, i64 0
  %14 = load float, float* %13, align 4, !tbaa !22
  %15 = zext i32 %3 to i64
  %16 = getelementptr inbounds float, float addrspace(1)* %0, i64 %15
  store float %14, float addrspace(1)* %16, align 4, !tbaa !22
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind readnone speculatable willreturn
declare i64 @llvm.fshl.i64(i64, i64, i64) #1

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { nocallback nofree nosync nounwind readnone speculatable willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !12, !15, !19}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i64 addrspace(1)*, i32)* @keccak_theta, !9, !10}
!9 = !{}
!10 = !{!11, !18}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ulong", !"air.arg_name", !"state"}
!12 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @pairs, !9, !13}
!13 = !{!14, !16, !17}
!14 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!15 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(2)*, i32)* @ring_runtime, !9, !21}
!16 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!17 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!18 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!19 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(2)*, i32)* @mask_runtime, !9, !21}
!20 = !{!26, !26, i64 0}
!21 = !{!14, !16, !27, !28}
!22 = !{!29, !29, i64 0}
!24 = !{!25, !25, i64 0}
!25 = !{!"int", !31, i64 0}
!26 = !{!"long", !31, i64 0}
!27 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!28 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!29 = !{!"float", !31, i64 0}
!30 = distinct !{!30, !32}
!31 = !{!"omnipotent char", !33, i64 0}
!32 = !{!"llvm.loop.mustprogress"}
!33 = !{!"Simple C++ TBAA"}
