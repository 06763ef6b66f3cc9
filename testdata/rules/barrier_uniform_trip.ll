; Hand-written. Loops with a barrier inside whose exit test compares
; thread-varying values. Source of the shape: effort's bucketMulWild
; (../shared/corpus/kolinko__effort/wild.metal line 35, `for (uint i = begin;
; i < end; i++)` with `begin = chunk * id.y`, `end = chunk + begin`;
; default.metallib.extracted/00078_bucketMulWild.ll lines 11-80): LLVM
; rotates it into a guard `begin < begin + chunk` and a latch test
; `i.next == begin + chunk`. Both compare values that depend on the thread,
; yet the loop runs `chunk` times on every thread. Shapes:
; - @chunk_rotated: bucketMulWild's, as LLVM emits it (guard, `eq` latch).
; - @chunk_top_tested: the same loop tested at the top (`icmp slt`), stepping
;   by a uniform value read from the `constant` buffer before the loop.
; - @chunk_widened: the counter widened to `i64` (`zext`), tested with `ne`.
; - @up_to_gid: `for (i = 0; i < gid; i++)`: the trip count is the thread id.
; - @from_gid_to_n: `for (i = gid; i < n; i++)`: n - gid trips.
; - @varying_step: from `begin` to `begin + n` by `(gid & 3) + 1`.
; - @counter_after_loop: a per-thread search from `begin` (exit on data),
;   then `if (i < begin + n)` around a barrier: after its loop the counter
;   has stopped at a different place on each thread.
; Each loop is followed by per-thread work (a store), so threads that leave
; early keep running the kernel; the must-flag ones also meet a barrier
; after the loop.
; MUST NOT (default or `strict = true`): a finding in @chunk_rotated,
;   @chunk_top_tested, @chunk_widened (before the uniform-distance compare,
;   strict mode reported all three).
; MUST (default and strict): barrier-in-divergent-flow on the barrier in the
;   loop of @up_to_gid, @from_gid_to_n and @varying_step, and on the barrier
;   under the branch of @counter_after_loop, each with skipping
;   `meets_barrier`; nothing else.
source_filename = "barrier_uniform_trip.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind
define void @chunk_rotated(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %chunk = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %begin = mul i32 %chunk, %gid
  %end = add i32 %begin, %chunk
  %guard = icmp ult i32 %begin, %end
  br i1 %guard, label %body, label %store

body:
  %i = phi i32 [ %begin, %entry ], [ %i.next, %body ]
  %acc = phi float [ 0.000000e+00, %entry ], [ %sum, %body ]
  %idx = zext i32 %i to i64
  %src = getelementptr inbounds float, float addrspace(1)* %out, i64 %idx
  %v = load float, float addrspace(1)* %src, align 4, !tbaa !34
  store float %v, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; rotated step
  %sum = fadd fast float %acc, %v
  %i.next = add nuw i32 %i, 1
  %done = icmp eq i32 %i.next, %end
  br i1 %done, label %store, label %body, !llvm.loop !40

store:
  %r = phi float [ 0.000000e+00, %entry ], [ %sum, %body ]
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float %r, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @chunk_top_tested(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %chunk = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %step.ptr = getelementptr inbounds i32, i32 addrspace(2)* %n.ptr, i64 1
  %step = load i32, i32 addrspace(2)* %step.ptr, align 4, !tbaa !30
  %begin = shl i32 %gid, 4
  %end = add nsw i32 %chunk, %begin
  br label %head

head:
  %i = phi i32 [ %begin, %entry ], [ %i.next, %body ]
  %more = icmp slt i32 %i, %end
  br i1 %more, label %body, label %store

body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds float, float addrspace(1)* %out, i64 %idx
  %v = load float, float addrspace(1)* %src, align 4, !tbaa !34
  store float %v, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; top-tested step
  %i.next = add nsw i32 %i, %step
  br label %head, !llvm.loop !40

store:
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @chunk_widened(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %chunk = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %begin = mul i32 %chunk, %gid
  %end = add i32 %begin, %chunk
  %begin.wide = zext i32 %begin to i64
  %end.wide = zext i32 %end to i64
  %guard = icmp ne i32 %chunk, 0
  br i1 %guard, label %body, label %store

body:
  %i = phi i64 [ %begin.wide, %entry ], [ %i.next, %body ]
  %src = getelementptr inbounds float, float addrspace(1)* %out, i64 %i
  %v = load float, float addrspace(1)* %src, align 4, !tbaa !34
  store float %v, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; widened step
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ne i64 %i.next, %end.wide
  br i1 %more, label %body, label %store, !llvm.loop !40

store:
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @up_to_gid(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %none = icmp eq i32 %gid, 0
  br i1 %none, label %after, label %body

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %f = uitofp i32 %i to float
  store float %f, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; gid trips
  %i.next = add nuw i32 %i, 1
  %done = icmp eq i32 %i.next, %gid
  br i1 %done, label %after, label %body, !llvm.loop !40

after:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after gid trips
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @from_gid_to_n(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %n = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %guard = icmp ult i32 %gid, %n
  br i1 %guard, label %body, label %after

body:
  %i = phi i32 [ %gid, %entry ], [ %i.next, %body ]
  %f = uitofp i32 %i to float
  store float %f, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; n - gid trips
  %i.next = add nuw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %after, label %body, !llvm.loop !40

after:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after n - gid trips
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @varying_step(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %chunk = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %begin = mul i32 %chunk, %gid
  %end = add i32 %begin, %chunk
  %low = and i32 %gid, 3
  %step = add nuw nsw i32 %low, 1
  %guard = icmp ult i32 %begin, %end
  br i1 %guard, label %body, label %after

body:
  %i = phi i32 [ %begin, %entry ], [ %i.next, %body ]
  %f = uitofp i32 %i to float
  store float %f, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; varying stride
  %i.next = add i32 %i, %step
  %more = icmp ult i32 %i.next, %end
  br i1 %more, label %body, label %after, !llvm.loop !40

after:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after varying stride
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @counter_after_loop(float addrspace(1)* noundef "air-buffer-no-alias" %out, float addrspace(3)* noundef "air-buffer-no-alias" %tg, i32 addrspace(2)* noundef "air-buffer-no-alias" %n.ptr, i32 noundef %gid) local_unnamed_addr #0 {
entry:
  %chunk = load i32, i32 addrspace(2)* %n.ptr, align 4, !tbaa !30
  %begin = mul i32 %chunk, %gid
  %end = add i32 %begin, %chunk
  br label %search

search:
  %i = phi i32 [ %begin, %entry ], [ %i.next, %search ]
  %idx = zext i32 %i to i64
  %src = getelementptr inbounds float, float addrspace(1)* %out, i64 %idx
  %v = load float, float addrspace(1)* %src, align 4, !tbaa !34
  %i.next = add nuw i32 %i, 1
  %found = fcmp fast oeq float %v, 0.000000e+00
  br i1 %found, label %check, label %search, !llvm.loop !40

check:
  %inside = icmp ult i32 %i, %end
  br i1 %inside, label %share, label %after

share:
  store float %v, float addrspace(3)* %tg, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; found inside
  br label %after

after:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after the search
  %at = zext i32 %gid to i64
  %dst = getelementptr inbounds float, float addrspace(1)* %out, i64 %at
  store float 1.000000e+00, float addrspace(1)* %dst, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !16, !17, !18, !19, !20}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @chunk_rotated, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"data"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 8, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"sizes"}
!14 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @chunk_top_tested, !9, !10}
!16 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @chunk_widened, !9, !10}
!17 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @up_to_gid, !9, !10}
!18 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @from_gid_to_n, !9, !10}
!19 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @varying_step, !9, !10}
!20 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @counter_after_loop, !9, !10}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
