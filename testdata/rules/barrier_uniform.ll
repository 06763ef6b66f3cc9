; Hand-written. Barriers under branches whose condition is the same for
; every thread of the threadgroup. Shapes:
; - @by_argument: `if (n > 16) { barrier } barrier`, n a `constant uint&`.
; - @by_threadgroup: `if (tgid == 0) { barrier } barrier`,
;   threadgroup_position_in_grid.
; - @by_function_constant: `if (use_tg) { barrier } barrier`, a
;   [[function_constant]] bool (the `_Z…MTL_FC_INIT_…_b` global form of
;   ../shared/corpus/EricLBuehler__mistral.rs/…/00001_hgemm.ll).
; - @by_flag: `if (flag[0] != 0) { barrier } barrier`, a `device uint*` read
;   at a fixed address: every thread reads the same word (Metal
;   FlashAttention's block-sparse mask byte, 00003_attention.ll line 718,
;   has this shape).
; - @by_shared_count: effort's findCutoff loop (../shared/corpus/
;   kolinko__effort/bucketMul.metal lines 199-224): `while (true) { ...;
;   threadgroup_barrier(); if (globalCount == effort) break; }` with
;   `threadgroup ushort globalCount` read at a fixed address after the
;   barrier, then another barrier after the loop.
; - @simd_by_group: `if (simd_group == 0) { simdgroup_barrier }
;   simdgroup_barrier`: simdgroup_index_in_threadgroup is the same for the
;   whole SIMD-group.
; MUST NOT: any finding.
; MUST: (checked by the test) one barrier inside each branch or loop above,
;   so the silence is about the condition.
source_filename = "barrier_uniform.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_Z6use_tg.MTL_FC_INIT_0_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1
@_ZZ15by_shared_countE11globalCount = internal unnamed_addr addrspace(3) global i16 undef, align 2

; Function Attrs: convergent mustprogress nounwind willreturn
define void @by_argument(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = icmp ugt i32 %4, 16
  br i1 %5, label %wide, label %join

wide:
  store float 0.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; n > 16
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; everyone
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @by_threadgroup(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = icmp eq i32 %1, 0
  br i1 %4, label %first, label %join

first:
  store float 0.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; first group
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; everyone
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @by_function_constant(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = load i8, i8 addrspace(2)* @_Z6use_tg.MTL_FC_INIT_0_b, align 1, !tbaa !36
  %4 = icmp ne i8 %3, 0
  br i1 %4, label %staged, label %join

staged:
  store float 0.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; use_tg
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; everyone
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @by_flag(i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(1)* %0, align 4, !tbaa !30
  %5 = icmp ne i32 %4, 0
  br i1 %5, label %flagged, label %join

flagged:
  store float 0.000000e+00, float addrspace(3)* %1, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; flag set
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; everyone
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @by_shared_count(i16 addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #2 {
  %5 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %6 = trunc i32 %5 to i16
  %7 = zext i32 %2 to i64
  %8 = getelementptr inbounds i16, i16 addrspace(3)* %0, i64 %7
  %9 = icmp eq i32 %2, 0
  br label %round

round:
  %10 = phi i16 [ 0, %4 ], [ %11, %next ]
  %11 = add i16 %10, 1
  store i16 %11, i16 addrspace(3)* %8, align 2, !tbaa !38
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; each round
  br i1 %9, label %count, label %next

count:
  store i16 %11, i16 addrspace(3)* @_ZZ15by_shared_countE11globalCount, align 2, !tbaa !38
  br label %next

next:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; counted
  %12 = load i16, i16 addrspace(3)* @_ZZ15by_shared_countE11globalCount, align 2, !tbaa !38
  %13 = icmp eq i16 %12, %6
  br i1 %13, label %done, label %round, !llvm.loop !40

done:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after rounds
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @simd_by_group(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp eq i32 %1, 0
  br i1 %3, label %leader, label %join

leader:
  store float 0.000000e+00, float addrspace(3)* %0, align 4, !tbaa !34
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; group 0
  br label %join

join:
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; all groups
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.simdgroup.barrier(i32, i32) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !17, !20, !24, !27}
!air.function_constants = !{!41}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(3)*, i32 addrspace(2)*, i32)* @by_argument, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!12 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!13 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!14 = !{void (float addrspace(3)*, i32, i32)* @by_threadgroup, !9, !15}
!15 = !{!11, !16, !13}
!16 = !{i32 1, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tgid"}
!17 = !{void (float addrspace(3)*, i32)* @by_function_constant, !9, !18}
!18 = !{!11, !19}
!19 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!20 = !{void (i32 addrspace(1)*, float addrspace(3)*, i32)* @by_flag, !9, !21}
!21 = !{!22, !23, !13}
!22 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"flag"}
!23 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!24 = !{void (i16 addrspace(3)*, i32 addrspace(2)*, i32, i32)* @by_shared_count, !9, !25}
!25 = !{!26, !12, !28, !29}
!26 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"ushort", !"air.arg_name", !"tgAbove"}
!27 = !{void (float addrspace(3)*, i32)* @simd_by_group, !9, !42}
!28 = !{i32 2, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"siitg"}
!29 = !{i32 3, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tiisg"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!36 = !{!37, !37, i64 0}
!37 = !{!"bool", !32, i64 0}
!38 = !{!39, !39, i64 0}
!39 = !{!"short", !32, i64 0}
!40 = distinct !{!40, !44}
!41 = !{i8 addrspace(2)* @_Z6use_tg.MTL_FC_INIT_0_b, !"bool", !"use_tg", i32 0, i1 true}
!42 = !{!11, !43}
!43 = !{i32 1, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_group"}
!44 = !{!"llvm.loop.mustprogress"}
