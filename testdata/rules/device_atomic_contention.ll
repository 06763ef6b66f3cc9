; Hand-written. Device atomics, contended or not. Shapes:
; - @append_in_loop: effort's prepareExpertDispatch (../shared/corpus/
;   kolinko__effort/bucketMul.metal lines 66-76; default.metallib.extracted/
;   00008_prepareExpertDispatchFast.ll line 47): each thread takes slots of an
;   append buffer with `idx = atomic_fetch_add_explicit(dispatchCount, 1)`:
;   every thread of the dispatch on one counter, its result used.
; - @scatter_in_loop: effort's bucketMulQ8 (bucketMulQ8.metal line 137;
;   00003_bucketMulQ8.ll line 108): `for (i < 16) atomic_fetch_add(
;   &result[id.x * 16 + i], myVal[i])`: a word per thread and iteration.
; - @rmw_in_loop: an LLVM `atomicrmw fadd` on one addrspace(1) word in a loop,
;   the form a non-Metal front end emits.
; - @once_per_thread: effort's sum_of_exps32 (aux.metal line 205;
;   00030_sum_of_exps32.ll line 15): one `atomic_fetch_add(sum, exp(x))` per
;   thread on one word, no reduction first.
; - @threadgroup_in_loop: threadgroup atomics, which scale with the cores.
; - @load_in_loop: an atomic load (no read-modify-write), polled: cross-threadgroup-spin-wait's.
; - @hash_scatter: a grid-stride loop counting keys into a table indexed by
;   loaded data (`atomic_fetch_add(&table[keys[i] & mask], 1)`), as database
;   hash and count kernels do.
; - @reduce_then_one: Apple's recommended reduction (seed 001 finding 188):
;   `s = simd_sum(x)`; lane 0 writes threadgroup memory; barrier; then
;   `if (lid == 0) atomic_fetch_add(total, …)`.
; - @guarded_only: `if (lid == 0) atomic_fetch_add(total, x)` with no
;   reduction: one thread per threadgroup.
; - @histogram_flush: after a barrier, `for (i = lid; i < 256; i += tptg)
;   atomic_fetch_add(&hist[i], tg_hist[i])`, adding threadgroup-memory bins.
; - @few_bins: `atomic_fetch_add(&bins[x > 0 ? 1 : 0], 1)`: a phi of two
;   constant addresses at a thread-varying join, a few words for all threads.
; MUST: exactly four findings, all device-atomic-contention: a note on
;   @append_in_loop (append_counter, `dispatchCount`, the
;   simd_prefix_exclusive_sum advice) and warnings on @rmw_in_loop
;   (`result`, loop depth 1), @once_per_thread (`result`) and @few_bins
;   (`bins`).
; MUST NOT: a device-atomic-contention finding in @scatter_in_loop, @threadgroup_in_loop,
;   @load_in_loop, @hash_scatter, @reduce_then_one, @guarded_only or
;   @histogram_flush.
source_filename = "device_atomic_in_loop.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind
define void @append_in_loop(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, <2 x float> addrspace(1)* noundef "air-buffer-no-alias" %1, i32 addrspace(1)* noundef "air-buffer-no-alias" %2, i32 addrspace(2)* noundef "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, i32 addrspace(2)* %3, align 4, !tbaa !30
  %7 = mul i32 %6, %4
  %8 = add i32 %7, %6
  br label %scan

scan:
  %9 = phi i32 [ %7, %5 ], [ %16, %next ]
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds float, float addrspace(1)* %0, i64 %10
  %12 = load float, float addrspace(1)* %11, align 4, !tbaa !34
  %13 = fcmp fast ogt float %12, 0.000000e+00
  br i1 %13, label %keep, label %next

keep:
  %slot = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %2, i32 1, i32 0, i32 2, i1 true) #2
  %14 = zext i32 %slot to i64
  %15 = getelementptr inbounds <2 x float>, <2 x float> addrspace(1)* %1, i64 %14
  %pair = insertelement <2 x float> zeroinitializer, float %12, i64 0
  store <2 x float> %pair, <2 x float> addrspace(1)* %15, align 8, !tbaa !36
  br label %next

next:
  %16 = add i32 %9, 1
  %17 = icmp eq i32 %16, %8
  br i1 %17, label %done, label %scan, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @scatter_in_loop(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = shl i32 %2, 4
  br label %add

add:
  %5 = phi i32 [ 0, %3 ], [ %12, %add ]
  %6 = add i32 %4, %5
  %7 = zext i32 %6 to i64
  %8 = getelementptr inbounds float, float addrspace(1)* %1, i64 %7
  %9 = load float, float addrspace(1)* %8, align 4, !tbaa !34
  %10 = getelementptr inbounds float, float addrspace(1)* %0, i64 %7
  %11 = tail call float @air.atomic.global.add.f32(float addrspace(1)* nocapture %10, float %9, i32 0, i32 2, i1 true) #2
  %12 = add nuw nsw i32 %5, 1
  %13 = icmp eq i32 %12, 16
  br i1 %13, label %done, label %add, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @rmw_in_loop(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %add

add:
  %4 = phi i32 [ 0, %3 ], [ %9, %add ]
  %5 = add i32 %2, %4
  %6 = zext i32 %5 to i64
  %7 = getelementptr inbounds float, float addrspace(1)* %1, i64 %6
  %8 = load float, float addrspace(1)* %7, align 4, !tbaa !34
  %old = atomicrmw fadd float addrspace(1)* %0, float %8 monotonic, align 4
  %9 = add nuw nsw i32 %4, 1
  %10 = icmp eq i32 %9, 8
  br i1 %10, label %done, label %add, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @once_per_thread(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #1 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %0, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = tail call fast float @air.fast_exp.f32(float %6) #3
  %8 = tail call float @air.atomic.global.add.f32(float addrspace(1)* nocapture %1, float %7, i32 0, i32 2, i1 true) #2
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @threadgroup_in_loop(i32 addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = and i32 %1, 15
  %4 = zext i32 %3 to i64
  %5 = getelementptr inbounds i32, i32 addrspace(3)* %0, i64 %4
  br label %bump

bump:
  %6 = phi i32 [ 0, %2 ], [ %9, %bump ]
  %7 = tail call i32 @air.atomic.local.add.u.i32(i32 addrspace(3)* nocapture %5, i32 1, i32 0, i32 1, i1 true) #2
  %8 = atomicrmw add i32 addrspace(3)* %0, i32 1 monotonic, align 4
  %9 = add nuw nsw i32 %6, 1
  %10 = icmp eq i32 %9, 4
  br i1 %10, label %done, label %bump, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @load_in_loop(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %poll

poll:
  %4 = phi i32 [ 0, %3 ], [ %6, %poll ]
  %5 = tail call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #2
  %6 = add nuw nsw i32 %4, 1
  %7 = icmp ne i32 %5, 0
  %8 = icmp eq i32 %6, 64
  %9 = or i1 %7, %8
  br i1 %9, label %done, label %poll, !llvm.loop !40

done:
  %10 = zext i32 %2 to i64
  %11 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %10
  store i32 %5, i32 addrspace(1)* %11, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @hash_scatter(i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  br label %loop

loop:
  %i = phi i32 [ %2, %4 ], [ %next, %loop ]
  %k = zext i32 %i to i64
  %kp = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %k
  %key = load i32, i32 addrspace(1)* %kp, align 4, !tbaa !30
  %h = and i32 %key, 4095
  %hz = zext i32 %h to i64
  %slot = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %hz
  %old = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %slot, i32 1, i32 0, i32 2, i1 true) #2
  %next = add i32 %i, %3
  %more = icmp ult i32 %next, 1048576
  br i1 %more, label %loop, label %done, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @reduce_then_one(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, float addrspace(3)* noundef "air-buffer-no-alias" %2, i32 noundef %3, i32 noundef %4, i32 noundef %5, i32 noundef %6) local_unnamed_addr #0 {
  %g = zext i32 %3 to i64
  %xp = getelementptr inbounds float, float addrspace(1)* %0, i64 %g
  %x = load float, float addrspace(1)* %xp, align 4, !tbaa !34
  %s = tail call fast float @air.simd_sum.f32(float %x) #2
  %lane0 = icmp eq i32 %5, 0
  br i1 %lane0, label %write, label %sync

write:
  %sg = zext i32 %6 to i64
  %tp = getelementptr inbounds float, float addrspace(3)* %2, i64 %sg
  store float %s, float addrspace(3)* %tp, align 4, !tbaa !34
  br label %sync

sync:
  tail call void @air.wg.barrier(i32 2, i32 1) #2
  %first = icmp eq i32 %4, 0
  br i1 %first, label %flush, label %done

flush:
  %t = load float, float addrspace(3)* %2, align 4, !tbaa !34
  %old = tail call float @air.atomic.global.add.f32(float addrspace(1)* nocapture %1, float %t, i32 0, i32 2, i1 true) #2
  br label %done

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @guarded_only(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %first = icmp ne i32 %3, 0
  br i1 %first, label %done, label %flush

flush:
  %g = zext i32 %2 to i64
  %xp = getelementptr inbounds float, float addrspace(1)* %0, i64 %g
  %x = load float, float addrspace(1)* %xp, align 4, !tbaa !34
  %old = tail call float @air.atomic.global.add.f32(float addrspace(1)* nocapture %1, float %x, i32 0, i32 2, i1 true) #2
  br label %done

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @histogram_flush(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(3)* noundef "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  tail call void @air.wg.barrier(i32 2, i32 1) #2
  br label %loop

loop:
  %i = phi i32 [ %2, %4 ], [ %next, %loop ]
  %iz = zext i32 %i to i64
  %tp = getelementptr inbounds i32, i32 addrspace(3)* %1, i64 %iz
  %v = load i32, i32 addrspace(3)* %tp, align 4, !tbaa !30
  %hp = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %iz
  %old = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %hp, i32 %v, i32 0, i32 2, i1 true) #2
  %next = add i32 %i, %3
  %more = icmp ult i32 %next, 256
  br i1 %more, label %loop, label %done, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @few_bins(float addrspace(1)* noundef readonly "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %xp = getelementptr inbounds float, float addrspace(1)* %0, i64 %g
  %x = load float, float addrspace(1)* %xp, align 4, !tbaa !34
  %pos = fcmp fast ogt float %x, 0.000000e+00
  br i1 %pos, label %hi, label %join

hi:
  br label %join

join:
  %bin = phi i64 [ 1, %hi ], [ 0, %3 ]
  %bp = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %bin
  %old = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %bp, i32 1, i32 0, i32 2, i1 true) #2
  ret void
}

; Function Attrs: mustprogress nounwind willreturn
declare i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture, i32, i32, i32, i1) local_unnamed_addr #2
declare float @air.atomic.global.add.f32(float addrspace(1)* nocapture, float, i32, i32, i1) local_unnamed_addr #2
declare i32 @air.atomic.local.add.u.i32(i32 addrspace(3)* nocapture, i32, i32, i32, i1) local_unnamed_addr #2
declare i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture, i32, i32, i1) local_unnamed_addr #2
declare float @air.simd_sum.f32(float) local_unnamed_addr #2
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nosync nounwind readnone willreturn
declare float @air.fast_exp.f32(float) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { mustprogress nounwind willreturn }
attributes #3 = { mustprogress nofree nosync nounwind readnone willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !19, !20, !22, !25, !50, !53, !58, !60, !64}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, <2 x float> addrspace(1)*, i32 addrspace(1)*, i32 addrspace(2)*, i32)* @append_in_loop, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14, !27}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"v"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"float2", !"air.arg_name", !"dispatch"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"dispatchCount"}
!14 = !{i32 3, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 3, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"chunkSize"}
!15 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @scatter_in_loop, !9, !16}
!16 = !{!17, !18, !28}
!17 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_float", !"air.arg_name", !"result"}
!18 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"myVal"}
!19 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @rmw_in_loop, !9, !16}
!20 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @once_per_thread, !9, !21}
!21 = !{!11, !81, !28}
!22 = !{void (i32 addrspace(3)*, i32)* @threadgroup_in_loop, !9, !23}
!23 = !{!24, !29}
!24 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"bins"}
!25 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @load_in_loop, !9, !26}
!26 = !{!13, !38, !28}
!27 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"id"}
!28 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"id"}
!29 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!36 = !{!32, !32, i64 0}
!38 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
!50 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32, i32)* @hash_scatter, !9, !51}
!51 = !{!52, !70, !28, !71}
!52 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"keys"}
!70 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"table"}
!71 = !{i32 3, !"air.threads_per_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"grid"}
!53 = !{void (float addrspace(1)*, float addrspace(1)*, float addrspace(3)*, i32, i32, i32, i32)* @reduce_then_one, !9, !54}
!54 = !{!11, !72, !73, !74, !75, !76, !77}
!72 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_float", !"air.arg_name", !"total"}
!73 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"partial"}
!74 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"id"}
!75 = !{i32 4, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!76 = !{i32 5, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}
!77 = !{i32 6, !"air.simdgroup_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"sg"}
!58 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i32)* @guarded_only, !9, !59}
!59 = !{!11, !72, !28, !78}
!78 = !{i32 3, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!60 = !{void (i32 addrspace(1)*, i32 addrspace(3)*, i32, i32)* @histogram_flush, !9, !61}
!61 = !{!62, !63, !79, !80}
!62 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"hist"}
!63 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"tg_hist"}
!79 = !{i32 2, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!80 = !{i32 3, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"tptg"}
!64 = !{void (float addrspace(1)*, i32 addrspace(1)*, i32)* @few_bins, !9, !65}
!65 = !{!11, !66, !28}
!66 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"bins"}
!81 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_float", !"air.arg_name", !"result"}
