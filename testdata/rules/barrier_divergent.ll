; Hand-written. Barriers that only some threads of a threadgroup reach while
; the others can still reach a barrier. Shapes:
; - @reduce_in_branch: a pairwise step done only by the first `n` threads,
;   `if (lid < n) { tg[lid] = x; threadgroup_barrier(); tg[lid] = tg[lid ^ 1]; }
;   threadgroup_barrier(); out[lid] = tg[0];` (the reduction shape of
;   effort's findCutoff, ../shared/corpus/kolinko__effort/bucketMul.metal
;   lines 178-194, with the barrier moved inside the branch).
; - @strided_loop: `for (uint i = lid; i < n; i += 32) { tg[lid] = in[i];
;   threadgroup_barrier(); acc += tg[lid ^ 1]; } threadgroup_barrier();`:
;   the trip count depends on lid, and threads that leave early wait at the
;   barrier after the loop.
; - @alternate_lanes: `for (k = 0; k < 4; k++) if (((lid + k) & 1) == 0)
;   { tg[lid] = k; threadgroup_barrier(); }`, then return: each thread
;   skips the barrier every other iteration and meets it in the next.
; - @first_ticket: `if (atomic_fetch_add(counter, 1) == 0) { barrier }
;   barrier`: an atomic's result differs per thread even at one address.
; - @by_element: `if (in[gid] > 0) { barrier } barrier`: memory read at a
;   thread-dependent address.
; - @lanes_simd: `if (simd_lane < 16) { simdgroup_barrier } simdgroup_barrier`.
; - @group_leader: `if (simd_group == 0) { threadgroup_barrier }
;   threadgroup_barrier`: the SIMD-group index is the same within a
;   SIMD-group but not across the threadgroup (barrier_uniform.ll has the
;   same branch around a simdgroup_barrier, which is fine).
; MUST: exactly seven findings, all barrier-in-divergent-flow (error):
;   @reduce_in_branch its first barrier (condition `lid`, other barrier met);
;   @strided_loop the barrier in the loop (loop exit, condition `lid`);
;   @alternate_lanes the barrier (skipping threads come back);
;   @first_ticket the first barrier (an atomic's per-thread result);
;   @by_element the first barrier (memory `in` at a thread-dependent address);
;   @lanes_simd the first simdgroup barrier (`simd_lane`), with the
;   simdgroup note;
;   @group_leader the first barrier (`simd_group`).
; MUST NOT: the barriers every thread reaches (after each branch or loop).
; MUST: also a device-atomic-contention note on @first_ticket's atomic: every
;   thread takes a ticket from one counter (an append counter's shape).
source_filename = "barrier_divergent.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @reduce_in_branch(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, float addrspace(3)* noundef "air-buffer-no-alias" %2, i32 addrspace(2)* noundef "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, i32 addrspace(2)* %3, align 4, !tbaa !30
  %7 = zext i32 %4 to i64
  %8 = getelementptr inbounds float, float addrspace(1)* %1, i64 %7
  %9 = load float, float addrspace(1)* %8, align 4, !tbaa !34
  %10 = icmp ult i32 %4, %6
  br i1 %10, label %pair, label %join

pair:
  %11 = getelementptr inbounds float, float addrspace(3)* %2, i64 %7
  store float %9, float addrspace(3)* %11, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; in branch
  %12 = xor i32 %4, 1
  %13 = zext i32 %12 to i64
  %14 = getelementptr inbounds float, float addrspace(3)* %2, i64 %13
  %15 = load float, float addrspace(3)* %14, align 4, !tbaa !34
  store float %15, float addrspace(3)* %11, align 4, !tbaa !34
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after branch
  %16 = load float, float addrspace(3)* %2, align 4, !tbaa !34
  %17 = getelementptr inbounds float, float addrspace(1)* %0, i64 %7
  store float %16, float addrspace(1)* %17, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @strided_loop(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, float addrspace(3)* noundef "air-buffer-no-alias" %2, i32 addrspace(2)* noundef "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, i32 addrspace(2)* %3, align 4, !tbaa !30
  %7 = zext i32 %4 to i64
  %8 = getelementptr inbounds float, float addrspace(3)* %2, i64 %7
  %9 = xor i32 %4, 1
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds float, float addrspace(3)* %2, i64 %10
  %12 = icmp ult i32 %4, %6
  br i1 %12, label %body, label %after

body:
  %13 = phi i32 [ %4, %5 ], [ %19, %body ]
  %14 = phi float [ 0.000000e+00, %5 ], [ %18, %body ]
  %15 = zext i32 %13 to i64
  %16 = getelementptr inbounds float, float addrspace(1)* %1, i64 %15
  %17 = load float, float addrspace(1)* %16, align 4, !tbaa !34
  store float %17, float addrspace(3)* %8, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; in loop
  %t = load float, float addrspace(3)* %11, align 4, !tbaa !34
  %18 = fadd fast float %14, %t
  %19 = add i32 %13, 32
  %20 = icmp ult i32 %19, %6
  br i1 %20, label %body, label %after, !llvm.loop !40

after:
  %21 = phi float [ 0.000000e+00, %5 ], [ %18, %body ]
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after loop
  %22 = load float, float addrspace(3)* %2, align 4, !tbaa !34
  %23 = fadd fast float %21, %22
  %24 = getelementptr inbounds float, float addrspace(1)* %0, i64 %7
  store float %23, float addrspace(1)* %24, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @alternate_lanes(i32 addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds i32, i32 addrspace(3)* %0, i64 %3
  br label %head

head:
  %5 = phi i32 [ 0, %2 ], [ %9, %latch ]
  %6 = add i32 %1, %5
  %7 = and i32 %6, 1
  %8 = icmp eq i32 %7, 0
  br i1 %8, label %even, label %latch

even:
  store i32 %5, i32 addrspace(3)* %4, align 4, !tbaa !30
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; every other
  br label %latch

latch:
  %9 = add nuw nsw i32 %5, 1
  %10 = icmp eq i32 %9, 4
  br i1 %10, label %done, label %head, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @first_ticket(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %0, i32 1, i32 0, i32 2, i1 true) #2
  %5 = icmp eq i32 %4, 0
  br i1 %5, label %first, label %join

first:
  store float 0.000000e+00, float addrspace(3)* %1, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; ticket
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; all tickets
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @by_element(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = fcmp fast ogt float %6, 0.000000e+00
  br i1 %7, label %positive, label %join

positive:
  store float %6, float addrspace(3)* %1, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; positive only
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; everyone
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @lanes_simd(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp ult i32 %1, 16
  br i1 %3, label %low, label %join

low:
  store float 1.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; low lanes
  br label %join

join:
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; all lanes
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @group_leader(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp eq i32 %1, 0
  br i1 %3, label %leader, label %join

leader:
  store float 1.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; group 0 only
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; all groups
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.simdgroup.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: mustprogress nounwind willreturn
declare i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture, i32, i32, i32, i1) local_unnamed_addr #2

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { mustprogress nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !16, !19, !23, !27, !46}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @reduce_in_branch, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14, !41}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!14 = !{i32 3, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!15 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @strided_loop, !9, !10}
!16 = !{void (i32 addrspace(3)*, i32)* @alternate_lanes, !9, !17}
!17 = !{!18, !42}
!18 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"tg"}
!19 = !{void (i32 addrspace(1)*, float addrspace(3)*, i32)* @first_ticket, !9, !20}
!20 = !{!21, !22, !43}
!21 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"counter"}
!22 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!23 = !{void (float addrspace(1)*, float addrspace(3)*, i32)* @by_element, !9, !24}
!24 = !{!25, !22, !26}
!25 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!26 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!27 = !{void (float addrspace(3)*, i32)* @lanes_simd, !9, !28}
!28 = !{!29, !44}
!29 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!40 = distinct !{!40, !45}
!41 = !{i32 4, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!42 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!43 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!44 = !{i32 1, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_lane"}
!45 = !{!"llvm.loop.mustprogress"}
!46 = !{void (float addrspace(3)*, i32)* @group_leader, !9, !47}
!47 = !{!29, !48}
!48 = !{i32 1, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_group"}
