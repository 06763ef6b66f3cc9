; Hand-written. Barriers inside functions of the module that a kernel calls
; (not inlined: `fastcc` helpers, as Metal FlashAttention's kernels call
; `_attention_impl` and `_generate_block_mask_impl`, which hold barriers:
; ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/
; src/libMetalFlashAttention.metallib.extracted/00003_attention.ll). There
; the calls are under function-constant branches, which every thread takes
; alike; here some are under thread-varying ones. Shapes:
; - @helper_in_branch: `if (lid < n) { sync_tile(tg, lid); }
;   threadgroup_barrier();` where sync_tile stores, meets a
;   threadgroup_barrier and loads.
; - @helper_two_deep: `if (simd_lane < 16) { lane_step(tg, simd_lane); }
;   simdgroup_barrier();` where lane_step calls lane_sync, which meets a
;   simdgroup_barrier.
; - @helper_uniform: `if (n > 16) { sync_tile(tg, lid); }`: a branch on a
;   `constant` buffer value, the same for the whole threadgroup.
; - @plain_helper: `if (lid < n) { scale(tg, lid); } threadgroup_barrier();`
;   where scale holds no barrier.
; MUST: exactly two findings, both barrier-in-divergent-flow (error), at the
;   calls: @helper_in_branch's call of @sync_tile (evidence barrier
;   air.wg.barrier, via sync_tile, condition `lid`, the barrier after the
;   branch met), and @helper_two_deep's call of @lane_step (evidence barrier
;   air.simdgroup.barrier, via lane_step, condition `simd_lane`, with the
;   simdgroup note).
; MUST NOT: a finding inside @sync_tile, @lane_step or @lane_sync (their
;   barriers run whenever they are called); a finding in @helper_uniform or
;   @plain_helper; a finding at the barriers after each branch.
source_filename = "barrier_in_helper.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @helper_in_branch(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = icmp ult i32 %2, %4
  br i1 %5, label %some, label %join

some:
  tail call fastcc void @sync_tile(float addrspace(3)* %0, i32 %2) #2 ; call in branch
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after branch
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @helper_two_deep(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = icmp ult i32 %1, 16
  br i1 %3, label %low, label %all

low:
  tail call fastcc void @lane_step(float addrspace(3)* %0, i32 %1) #2 ; low lanes
  br label %all

all:
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; all lanes
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @helper_uniform(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = icmp ugt i32 %4, 16
  br i1 %5, label %big, label %done

big:
  tail call fastcc void @sync_tile(float addrspace(3)* %0, i32 %2) #2 ; n > 16
  br label %done

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @plain_helper(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = icmp ult i32 %2, %4
  br i1 %5, label %some, label %join

some:
  tail call fastcc void @scale(float addrspace(3)* %0, i32 %2) #2 ; no barrier inside
  br label %join

join:
  tail call void @air.wg.barrier(i32 2, i32 1) #1
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define internal fastcc void @sync_tile(float addrspace(3)* nocapture noundef %0, i32 noundef %1) unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(3)* %0, i64 %3
  store float 1.000000e+00, float addrspace(3)* %4, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; inside sync_tile
  %5 = xor i32 %1, 1
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds float, float addrspace(3)* %0, i64 %6
  %8 = load float, float addrspace(3)* %7, align 4, !tbaa !34
  store float %8, float addrspace(3)* %4, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define internal fastcc void @lane_step(float addrspace(3)* nocapture noundef %0, i32 noundef %1) unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(3)* %0, i64 %3
  store float 2.000000e+00, float addrspace(3)* %4, align 4, !tbaa !34
  tail call fastcc void @lane_sync() #2
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define internal fastcc void @lane_sync() unnamed_addr #0 {
  tail call void @air.simdgroup.barrier(i32 2, i32 1) #1 ; inside lane_sync
  ret void
}

; Function Attrs: mustprogress nounwind willreturn
define internal fastcc void @scale(float addrspace(3)* nocapture noundef %0, i32 noundef %1) unnamed_addr #3 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds float, float addrspace(3)* %0, i64 %3
  %5 = load float, float addrspace(3)* %4, align 4, !tbaa !34
  %6 = fmul fast float %5, 2.000000e+00
  store float %6, float addrspace(3)* %4, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.simdgroup.barrier(i32, i32) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent nounwind }
attributes #3 = { mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !17, !18}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(3)*, i32 addrspace(2)*, i32)* @helper_in_branch, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!12 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!13 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!14 = !{void (float addrspace(3)*, i32)* @helper_two_deep, !9, !15}
!15 = !{!11, !16}
!16 = !{i32 1, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_lane"}
!17 = !{void (float addrspace(3)*, i32 addrspace(2)*, i32)* @helper_uniform, !9, !10}
!18 = !{void (float addrspace(3)*, i32 addrspace(2)*, i32)* @plain_helper, !9, !10}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
