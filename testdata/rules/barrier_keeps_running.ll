; Hand-written. Barriers that some threads skip while they keep running the
; kernel, reaching no other barrier: issue 23's MLX gemv cases, which the
; default mode does not report and `strict = true` in air-scan.toml
; ([rules.barrier-in-divergent-flow]) does. Shapes:
; - @lane_zero_reduce: MLX's gemv threadgroup reduction
;   (../shared/msl/ml-explore__mlx/mlx/backend/metal/kernels/gemv.h lines
;   211-232; ../shared/corpus/Iito__spindll/mlx.metallib.extracted/
;   00129_gemv_float32_….ll lines 276-296): `if (thrN == 0) { tg[sg] = r;
;   threadgroup_barrier(mem_none); if (sg == 0) r += tg[1]; }` then
;   `if (thrN == 0) out[row] = r;` for the other lanes too before they return.
; - @guarded_loop: MLX's gemv_t (gemv.h lines 343-350):
;   `if (out_col < out_vec_size) { for (i = 0; i < n_iter; ++i) {
;   threadgroup_barrier(mem_none); ... } }` then every thread goes on.
; - @leave_at_once: `if (lid >= n) return;` before a barrier (Metal
;   FlashAttention's GEMM, barrier_threads_leave.ll @early_return): the
;   skipping threads return at once, through a block that only ends
;   lifetimes.
; MUST NOT (default): any finding.
; MUST (strict = true): exactly two barrier-in-divergent-flow findings, the
;   barriers of @lane_zero_reduce and @guarded_loop, with skipping
;   `keeps_running`; none in @leave_at_once.
source_filename = "barrier_keeps_running.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @lane_zero_reduce(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = uitofp i32 %3 to float
  %6 = icmp eq i32 %3, 0
  br i1 %6, label %reduce, label %join

reduce:
  %7 = zext i32 %2 to i64
  %8 = getelementptr inbounds float, float addrspace(3)* %1, i64 %7
  store float %5, float addrspace(3)* %8, align 4, !tbaa !30
  tail call void @air.wg.barrier(i32 0, i32 1) #1 ; lane zero
  %9 = icmp eq i32 %2, 0
  br i1 %9, label %sum, label %join

sum:
  %10 = getelementptr inbounds float, float addrspace(3)* %1, i64 1
  %11 = load float, float addrspace(3)* %10, align 4, !tbaa !30
  %12 = fadd fast float %5, %11
  br label %join

join:
  %13 = phi float [ %5, %4 ], [ %5, %reduce ], [ %12, %sum ]
  br i1 %6, label %write, label %exit

write:
  %14 = zext i32 %2 to i64
  %15 = getelementptr inbounds float, float addrspace(1)* %0, i64 %14
  store float %13, float addrspace(1)* %15, align 4, !tbaa !30
  br label %exit

exit:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @guarded_loop(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #2 {
  %n_iter = load i32, i32 addrspace(2)* %1, align 4, !tbaa !32
  %size = load i32, i32 addrspace(2)* %2, align 4, !tbaa !32
  %5 = icmp slt i32 %3, %size
  %6 = icmp sgt i32 %n_iter, 0
  %7 = and i1 %5, %6
  br i1 %7, label %loop, label %after

loop:
  %i = phi i32 [ 0, %4 ], [ %i.next, %loop ]
  %acc = phi float [ 0.000000e+00, %4 ], [ %9, %loop ]
  tail call void @air.wg.barrier(i32 0, i32 1) #1 ; in the loop
  %8 = sitofp i32 %i to float
  %9 = fadd fast float %acc, %8
  %i.next = add nuw nsw i32 %i, 1
  %10 = icmp eq i32 %i.next, %n_iter
  br i1 %10, label %after, label %loop

after:
  %11 = phi float [ 0.000000e+00, %4 ], [ %9, %loop ]
  %12 = sext i32 %3 to i64
  %13 = getelementptr inbounds float, float addrspace(1)* %0, i64 %12
  store float %11, float addrspace(1)* %13, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @leave_at_once(float addrspace(3)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %n = load i32, i32 addrspace(2)* %1, align 4, !tbaa !32
  %4 = icmp ult i32 %2, %n
  br i1 %4, label %work, label %done

work:
  %5 = zext i32 %2 to i64
  %6 = getelementptr inbounds float, float addrspace(3)* %0, i64 %5
  store float 1.000000e+00, float addrspace(3)* %6, align 4, !tbaa !30
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; after the guard
  br label %done

done:
  %7 = bitcast float addrspace(3)* %0 to i8 addrspace(3)*
  call void @llvm.lifetime.end.p3i8(i64 4, i8 addrspace(3)* %7) #1
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: argmemonly nocallback nofree nosync nounwind willreturn
declare void @llvm.lifetime.end.p3i8(i64 immarg, i8 addrspace(3)* nocapture) #3

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { argmemonly nocallback nofree nosync nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !19}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(3)*, i32, i32)* @lane_zero_reduce, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !25}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!13 = !{i32 2, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_gid"}
!14 = !{void (float addrspace(1)*, i32 addrspace(2)*, i32 addrspace(2)*, i32)* @guarded_loop, !9, !15}
!15 = !{!11, !16, !17, !18}
!16 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"n_iter"}
!17 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out_vec_size"}
!18 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"out_col"}
!19 = !{void (float addrspace(3)*, i32 addrspace(2)*, i32)* @leave_at_once, !9, !20}
!20 = !{!12, !21, !22}
!21 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!22 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!25 = !{i32 3, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"simd_lid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"float", !33, i64 0}
!32 = !{!34, !34, i64 0}
!33 = !{!"omnipotent char", !35, i64 0}
!34 = !{!"int", !33, i64 0}
!35 = !{!"Simple C++ TBAA"}
