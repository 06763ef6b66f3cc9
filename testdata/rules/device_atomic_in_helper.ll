; Hand-written. Device atomics done inside functions of the module that a
; kernel calls, in a loop or not. Shape: Metal FlashAttention in mistral.rs
; (../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/
; src/libMetalFlashAttention.metallib.extracted/00003_attention.ll): kernels
; call `define internal fastcc` helpers (line 359, @_Z15_attention_impl...)
; that do the `air.atomic.global.*` calls (line 1838); at -O0 every MSL
; function that takes an `atomic_uint*` stays such a helper. The atomic is
; effort's append counter (device_atomic_in_loop.ll, @append_in_loop).
; - @helper_in_loop: a loop calling @bump, which does
;   `air.atomic.global.add.u.i32` on its pointer.
; - @helper_two_deep: a loop calling @bump_via, which calls @bump.
; - @helper_once: @bump called once, outside any loop.
; - @local_helper_in_loop: a loop calling @bump_local, a threadgroup atomic.
; - @load_helper_in_loop: a loop calling @peek, an atomic load (no
;   read-modify-write).
; MUST: exactly one finding, device-atomic-contention (warning), on the
;   atomic inside @bump itself (its pointer is `counter` from every caller, so
;   one word for all threads), listing the three kernels that reach it
;   (helper_in_loop, helper_two_deep, helper_once). The rule asks about the
;   address, which the helper's own body shows, not about loops around calls.
; MUST NOT: a finding at any call, in @bump_local (threadgroup) or @peek
;   (an atomic load).
source_filename = "device_atomic_in_helper.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind
define void @helper_in_loop(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %count

count:
  %3 = phi i32 [ 0, %2 ], [ %4, %count ]
  call fastcc void @bump(i32 addrspace(1)* %0) ; call in loop
  %4 = add nuw nsw i32 %3, 1
  %5 = icmp eq i32 %4, %1
  br i1 %5, label %done, label %count, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @helper_two_deep(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %count

count:
  %3 = phi i32 [ 0, %2 ], [ %4, %count ]
  call fastcc void @bump_via(i32 addrspace(1)* %0) ; call two deep
  %4 = add nuw nsw i32 %3, 1
  %5 = icmp eq i32 %4, %1
  br i1 %5, label %done, label %count, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @helper_once(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  call fastcc void @bump(i32 addrspace(1)* %0) ; call once
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @local_helper_in_loop(i32 addrspace(3)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %count

count:
  %3 = phi i32 [ 0, %2 ], [ %4, %count ]
  call fastcc void @bump_local(i32 addrspace(3)* %0) ; call local
  %4 = add nuw nsw i32 %3, 1
  %5 = icmp eq i32 %4, 8
  br i1 %5, label %done, label %count, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @load_helper_in_loop(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %poll

poll:
  %3 = phi i32 [ 0, %2 ], [ %5, %poll ]
  %4 = call fastcc i32 @peek(i32 addrspace(1)* %0) ; call load
  %5 = add nuw nsw i32 %3, 1
  %6 = icmp ne i32 %4, 0
  %7 = icmp eq i32 %5, 64
  %8 = or i1 %6, %7
  br i1 %8, label %done, label %poll, !llvm.loop !40

done:
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define internal fastcc void @bump(i32 addrspace(1)* %0) unnamed_addr #0 {
  %2 = tail call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %0, i32 1, i32 0, i32 2, i1 true) #2
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define internal fastcc void @bump_via(i32 addrspace(1)* %0) unnamed_addr #0 {
  call fastcc void @bump(i32 addrspace(1)* %0)
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define internal fastcc void @bump_local(i32 addrspace(3)* %0) unnamed_addr #0 {
  %2 = tail call i32 @air.atomic.local.add.u.i32(i32 addrspace(3)* nocapture %0, i32 1, i32 0, i32 1, i1 true) #2
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define internal fastcc i32 @peek(i32 addrspace(1)* %0) unnamed_addr #0 {
  %2 = tail call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #2
  ret i32 %2
}

; Function Attrs: mustprogress nounwind willreturn
declare i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture, i32, i32, i32, i1) local_unnamed_addr #2
declare i32 @air.atomic.local.add.u.i32(i32 addrspace(3)* nocapture, i32, i32, i32, i1) local_unnamed_addr #2
declare i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture, i32, i32, i1) local_unnamed_addr #2

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { mustprogress nounwind willreturn }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !16, !17, !20}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32)* @helper_in_loop, !9, !10}
!9 = !{}
!10 = !{!11, !12}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"counter"}
!12 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"id"}
!15 = !{void (i32 addrspace(1)*, i32)* @helper_two_deep, !9, !10}
!16 = !{void (i32 addrspace(1)*, i32)* @helper_once, !9, !10}
!17 = !{void (i32 addrspace(3)*, i32)* @local_helper_in_loop, !9, !18}
!18 = !{!19, !12}
!19 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"bins"}
!20 = !{void (i32 addrspace(1)*, i32)* @load_helper_in_loop, !9, !10}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
