; Hand-written. Barriers some threads skip only by leaving the kernel: the
; MSL specification asks every thread *executing the kernel* to reach a
; barrier, and a thread that returned is no longer executing it. Shapes:
; - @early_return: Metal FlashAttention's GEMM
;   (../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/
;   src/libMetalFlashAttention.metallib.extracted/00001_hgemm.ll lines
;   286-298, 365): `if (sid * M_simd + row >= M) return;` then barriers.
; - @loop_then_return: effort's bucketMulWild (../shared/corpus/
;   kolinko__effort/default.metallib.extracted/00078_bucketMulWild.ll lines
;   11-80): a loop from `f(gid)` to `f(gid) + chunk` with a barrier inside;
;   after the loop each thread stores its sum and returns.
; - @lock_with_timeout: Metal FlashAttention's attention (00003_attention.ll
;   lines 1916-1946 and 2209-2220): thread 0 takes a spin lock with
;   compare-and-exchange, giving up after 1000 tries; giving up sets a flag
;   (a phi of 1) that sends it to the exit, past the barriers the other
;   threads wait at. Only the flag's phi, folded on the edge it comes in on,
;   shows that the give-up path never reaches the second barrier.
; MUST NOT: a barrier finding (default settings); cross-threadgroup-spin-wait
;   fires on the lock's cmpxchg. Nor, under `strict = true` (air-scan.toml),
;   in @loop_then_return: its guard and exit test compare thread-varying
;   values a uniform distance apart, so every thread runs it `chunk` times
;   (barrier_uniform_trip.ll has more of the shape).
; MUST: (checked by the test) the barriers sit in blocks a thread-varying
;   branch decides.
source_filename = "barrier_threads_leave.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @early_return(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, i32 addrspace(2)* %2, align 4, !tbaa !30
  %7 = shl i32 %3, 3
  %8 = add i32 %7, %4
  %9 = icmp ult i32 %8, %6
  br i1 %9, label %work, label %exit

work:
  %10 = zext i32 %8 to i64
  %11 = getelementptr inbounds float, float addrspace(3)* %1, i64 %10
  store float 1.000000e+00, float addrspace(3)* %11, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; staged
  %12 = load float, float addrspace(3)* %1, align 4, !tbaa !34
  %13 = getelementptr inbounds float, float addrspace(1)* %0, i64 %10
  store float %12, float addrspace(1)* %13, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; written
  br label %exit

exit:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @loop_then_return(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, float addrspace(3)* noundef "air-buffer-no-alias" %2, i32 addrspace(2)* noundef "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #2 {
  %6 = load i32, i32 addrspace(2)* %3, align 4, !tbaa !30
  %7 = mul i32 %6, %4
  %8 = add i32 %7, %6
  %9 = icmp ult i32 %7, %8
  br i1 %9, label %body, label %store

body:
  %10 = phi i32 [ %7, %5 ], [ %16, %body ]
  %11 = phi float [ 0.000000e+00, %5 ], [ %15, %body ]
  %12 = zext i32 %10 to i64
  %13 = getelementptr inbounds float, float addrspace(1)* %1, i64 %12
  %14 = load float, float addrspace(1)* %13, align 4, !tbaa !34
  store float %14, float addrspace(3)* %2, align 4, !tbaa !34
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; chunk step
  %15 = fadd fast float %11, %14
  %16 = add i32 %10, 1
  %17 = icmp eq i32 %16, %8
  br i1 %17, label %store, label %body, !llvm.loop !40

store:
  %18 = phi float [ 0.000000e+00, %5 ], [ %15, %body ]
  %19 = zext i32 %4 to i64
  %20 = getelementptr inbounds float, float addrspace(1)* %0, i64 %19
  store float %18, float addrspace(1)* %20, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @lock_with_timeout(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(3)* noundef "air-buffer-no-alias" %1, i8 addrspace(2)* noundef "air-buffer-no-alias" %2, i16 noundef %3, i16 noundef %4) local_unnamed_addr #2 {
  %6 = alloca i32, align 4
  %two_pass = load i8, i8 addrspace(2)* %2, align 1, !tbaa !36
  %7 = or i16 %4, %3
  %8 = icmp eq i16 %7, 0
  br i1 %8, label %lock, label %locked_out

lock:
  br label %spin

spin:
  %9 = phi i32 [ %11, %try ], [ 0, %lock ]
  %10 = icmp ugt i32 %9, 999
  br i1 %10, label %tail, label %try

try:
  %11 = add nuw nsw i32 %9, 1
  store i32 1, i32* %6, align 4, !tbaa !30
  %12 = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %6, i32 0, i32 0, i32 0, i32 2, i1 true) #3
  %13 = icmp eq i32 %12, 1
  br i1 %13, label %unlock, label %spin

unlock:
  store i32 0, i32 addrspace(1)* %0, align 4, !tbaa !30
  br label %locked_out

locked_out:
  tail call void @air.wg.barrier(i32 1, i32 1) #1 ; after lock
  store float 0.000000e+00, float addrspace(3)* %1, align 4, !tbaa !34
  br label %tail

tail:
  %14 = phi i32 [ 0, %locked_out ], [ 1, %spin ]
  %15 = icmp ne i32 %14, 0
  %16 = icmp eq i8 %two_pass, 0
  %17 = or i1 %16, %15
  br i1 %17, label %exit, label %more

more:
  tail call void @air.wg.barrier(i32 2, i32 1) #1 ; second pass
  store float 1.000000e+00, float addrspace(3)* %1, align 4, !tbaa !34
  br label %exit

exit:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: mustprogress nounwind willreturn
declare i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture, i32* nocapture, i32, i32, i32, i32, i1) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { mustprogress nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !16, !21}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32, i32)* @early_return, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14, !15}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"M"}
!14 = !{i32 3, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"sid"}
!15 = !{i32 4, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane_id"}
!16 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(3)*, i32 addrspace(2)*, i32)* @loop_then_return, !9, !17}
!17 = !{!11, !18, !19, !20, !22}
!18 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"dispatch"}
!19 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"tg"}
!20 = !{i32 3, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"chunk"}
!21 = !{void (i32 addrspace(1)*, float addrspace(3)*, i8 addrspace(2)*, i16, i16)* @lock_with_timeout, !9, !23}
!22 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!23 = !{!24, !12, !25, !26, !27}
!24 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"lock"}
!25 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 1, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"bool", !"air.arg_name", !"two_pass"}
!26 = !{i32 3, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"ushort", !"air.arg_name", !"sid"}
!27 = !{i32 4, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"ushort", !"air.arg_name", !"lane_id"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!36 = !{!37, !37, i64 0}
!37 = !{!"bool", !32, i64 0}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
