; Hand-written. Compare-and-exchange loops. Shapes:
; - @float_add_cas: the pre-Metal-3 float atomic add (seed 001 finding 184:
;   "Float atomics must be emulated via CAS loops"): `uint old = load(p);
;   do { desired = as_type<uint>(as_type<float>(old) + v); } while
;   (!atomic_compare_exchange_weak_explicit(p, &old, desired, ...));` with
;   `air.atomic.global.cmpxchg.weak.i32` (its signature as in ../shared/
;   corpus/EricLBuehler__mistral.rs/…/00003_attention.ll line 1936).
; - @float_max_cmpxchg: the same for a float max in LLVM's own `cmpxchg`
;   (a non-Metal front end's form), on a half converted to float.
; - @spin_lock: Metal FlashAttention's lock (00003_attention.ll lines
;   1926-1938): expected 1, desired 0, up to 1000 tries. An integer lock,
;   not a float.
; - @int_max_cas: an integer max by compare-and-exchange (desired from
;   `select`, no float).
; - @float_add_once: one float compare-and-exchange, no retry loop.
; MUST: exactly two float-atomic-cas-loop findings (warning): the
;   cmpxchg call of @float_add_cas and the cmpxchg of @float_max_cmpxchg;
;   and one cross-threadgroup-spin-wait, on @spin_lock's cmpxchg (a wait for
;   another threadgroup's flag, not a retry).
; MUST NOT: a float-atomic-cas-loop finding in @spin_lock, any finding in
;   @int_max_cas or @float_add_once, and no device-atomic-contention anywhere
;   (compare-and-exchange is this rule's).
source_filename = "float_atomic_cas_loop.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind
define void @float_add_cas(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %expected = alloca i32, align 4
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %1, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = tail call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #1
  br label %retry

retry:
  %8 = phi i32 [ %7, %3 ], [ %12, %retry ]
  %9 = bitcast i32 %8 to float
  %10 = fadd fast float %9, %6
  %11 = bitcast float %10 to i32
  store i32 %8, i32* %expected, align 4, !tbaa !30
  %12 = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %expected, i32 %11, i32 0, i32 0, i32 2, i1 true) #1
  %13 = icmp eq i32 %12, %8
  br i1 %13, label %done, label %retry, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @float_max_cmpxchg(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, half addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds half, half addrspace(1)* %1, i64 %4
  %6 = load half, half addrspace(1)* %5, align 2, !tbaa !38
  %7 = fpext half %6 to float
  %8 = load atomic i32, i32 addrspace(1)* %0 monotonic, align 4
  br label %retry

retry:
  %9 = phi i32 [ %8, %3 ], [ %14, %retry ]
  %10 = bitcast i32 %9 to float
  %11 = tail call fast float @air.fast_fmax.f32(float %10, float %7) #2
  %12 = bitcast float %11 to i32
  %13 = cmpxchg i32 addrspace(1)* %0, i32 %9, i32 %12 monotonic monotonic, align 4
  %14 = extractvalue { i32, i1 } %13, 0
  %15 = extractvalue { i32, i1 } %13, 1
  br i1 %15, label %done, label %retry, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @spin_lock(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %expected = alloca i32, align 4
  br label %spin

spin:
  %3 = phi i32 [ 0, %2 ], [ %5, %try ]
  %4 = icmp ugt i32 %3, 999
  br i1 %4, label %done, label %try

try:
  %5 = add nuw nsw i32 %3, 1
  store i32 1, i32* %expected, align 4, !tbaa !30
  %6 = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %expected, i32 0, i32 0, i32 0, i32 2, i1 true) #1
  %7 = icmp eq i32 %6, 1
  br i1 %7, label %done, label %spin

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @int_max_cas(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %expected = alloca i32, align 4
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %4
  %6 = load i32, i32 addrspace(1)* %5, align 4, !tbaa !30
  %7 = tail call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #1
  br label %retry

retry:
  %8 = phi i32 [ %7, %3 ], [ %11, %retry ]
  %9 = icmp ugt i32 %6, %8
  %10 = select i1 %9, i32 %6, i32 %8
  store i32 %8, i32* %expected, align 4, !tbaa !30
  %11 = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %expected, i32 %10, i32 0, i32 0, i32 2, i1 true) #1
  %12 = icmp eq i32 %11, %8
  br i1 %12, label %done, label %retry, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @float_add_once(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #3 {
  %expected = alloca i32, align 4
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds float, float addrspace(1)* %1, i64 %4
  %6 = load float, float addrspace(1)* %5, align 4, !tbaa !34
  %7 = tail call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #1
  %8 = bitcast i32 %7 to float
  %9 = fadd fast float %8, %6
  %10 = bitcast float %9 to i32
  store i32 %7, i32* %expected, align 4, !tbaa !30
  %11 = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %expected, i32 %10, i32 0, i32 0, i32 2, i1 true) #1
  ret void
}

; Function Attrs: mustprogress nounwind willreturn
declare i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture, i32, i32, i1) local_unnamed_addr #1
declare i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture, i32* nocapture, i32, i32, i32, i32, i1) local_unnamed_addr #1

; Function Attrs: mustprogress nofree nosync nounwind readnone willreturn
declare float @air.fast_fmax.f32(float, float) local_unnamed_addr #2

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nounwind willreturn }
attributes #2 = { mustprogress nofree nosync nounwind readnone willreturn }
attributes #3 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !17, !20, !23}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, float addrspace(1)*, i32)* @float_add_cas, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"sum"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!14 = !{void (i32 addrspace(1)*, half addrspace(1)*, i32)* @float_max_cmpxchg, !9, !15}
!15 = !{!11, !16, !13}
!16 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"half", !"air.arg_name", !"in"}
!17 = !{void (i32 addrspace(1)*, i32)* @spin_lock, !9, !18}
!18 = !{!19, !26}
!19 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"lock"}
!20 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @int_max_cas, !9, !21}
!21 = !{!22, !25, !13}
!22 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"best"}
!23 = !{void (i32 addrspace(1)*, float addrspace(1)*, i32)* @float_add_once, !9, !10}
!25 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!26 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!38 = !{!39, !39, i64 0}
!39 = !{!"half", !32, i64 0}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
