; Hand-written. Loops around device atomics. Shapes:
; - @flag_wait: Metal FlashAttention's lock (../shared/corpus/EricLBuehler__mistral.rs/
;   mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/
;   00003_attention.ll lines 1926-1938): `air.atomic.global.cmpxchg.weak.i32`
;   with expected 1 (stored before each try) and desired 0, up to 1000 tries,
;   waiting for another threadgroup to set `locks[i]`.
; - @ready_bits_wait: the same kernel's wait for partial results (ibid. lines
;   1958-1985): an inner loop of atomic loads sets a flag by `select` when a
;   value lacks its ready bit; an outer loop of up to 100 rounds ends when
;   none did. One finding, at the first atomic load.
; - @unbounded_wait: `while (atomic_load(flag) == 0) {}` in LLVM's `load
;   atomic` (a non-Metal front end), with no try limit.
; - @xchg_lock: `while (atomic_exchange(lock, 1) != 0) {}` (a spin lock).
; - @float_add_cas: float-atomic-cas-loop's retry loop (float_atomic_cas_loop.ll):
;   the expected value is the exchange's own last result.
; - @cas_load_inside: `do { old = atomic_load(p); } while (!cas(p, old,
;   old | bit))` in LLVM's `cmpxchg`: the expected value is this loop's read.
; - @threadgroup_wait: a wait on `air.atomic.local.load` (threadgroup memory).
; - @exit_not_atomic: a counted loop whose atomic load result is only stored.
; - @work_queue: `while ((i = atomic_fetch_add(next, 1)) < n)`: the counter
;   moves on every try, no wait.
; - @done_flag_wait: `bool done = false; while (!done) { if (atomic_load(f))
;   done = true; else misses[g] += 1; }` once SROA has taken `done` out of
;   memory (LLVM's mem2reg shape): the exit tests a phi of constants that the
;   atomic's branch picks, control dependence and no data dependence.
; - @picked_but_counted: the atomic's branch picks a phi that is only summed
;   and stored; the loop ends on its counter alone.
; MUST: exactly five findings, cross-threadgroup-spin-wait (warning): the
;   cmpxchg of @flag_wait (bounded, naming `locks`), the first atomic load of
;   @ready_bits_wait (bounded), the `load atomic` of @unbounded_wait (not
;   bounded), the xchg of @xchg_lock (not bounded), the atomic load of
;   @done_flag_wait (not bounded).
; (float-atomic-cas-loop fires on @float_add_cas, its own case.)
; MUST NOT: a finding of this rule in @float_add_cas, @cas_load_inside,
;   @threadgroup_wait, @exit_not_atomic, @work_queue or @picked_but_counted.
source_filename = "cross_threadgroup_spin_wait.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

define void @flag_wait(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %expected = alloca i32, align 4
  %g = zext i32 %1 to i64
  %slot = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %g
  br label %spin

spin:
  %tries = phi i32 [ 0, %2 ], [ %next, %try ]
  %give_up = icmp ugt i32 %tries, 999
  br i1 %give_up, label %done, label %try

try:
  %next = add nuw nsw i32 %tries, 1
  store i32 1, i32* %expected, align 4
  %seen = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %slot, i32* nocapture nonnull %expected, i32 0, i32 0, i32 0, i32 2, i1 true) #1
  %set = icmp eq i32 %seen, 1
  br i1 %set, label %done, label %spin

done:
  ret void
}

define void @ready_bits_wait(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %round

round:
  %r = phi i32 [ 0, %2 ], [ %nr, %check ]
  %nr = add nuw nsw i32 %r, 1
  %give_up = icmp ugt i32 %r, 99
  br i1 %give_up, label %done, label %scan

scan:
  %k = phi i32 [ 0, %round ], [ %nk, %scan ]
  %missing = phi i8 [ 0, %round ], [ %m2, %scan ]
  %kz = zext i32 %k to i64
  %p0 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %kz
  %v0 = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %p0, i32 0, i32 2, i1 true) #1
  %p1 = getelementptr inbounds i32, i32 addrspace(1)* %p0, i64 1
  %v1 = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %p1, i32 0, i32 2, i1 true) #1
  %both = and i32 %v0, %v1
  %bit = and i32 %both, 1
  %ready = icmp ne i32 %bit, 0
  %m2 = select i1 %ready, i8 %missing, i8 1
  %nk = add nuw nsw i32 %k, 8
  %more = icmp ult i32 %nk, %1
  br i1 %more, label %scan, label %check

check:
  %m = and i8 %m2, 1
  %all = icmp eq i8 %m, 0
  br i1 %all, label %done, label %round

done:
  ret void
}

define void @unbounded_wait(i32 addrspace(1)* noundef "air-buffer-no-alias" %0) local_unnamed_addr #0 {
  br label %spin

spin:
  %v = load atomic i32, i32 addrspace(1)* %0 acquire, align 4
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done

done:
  ret void
}

define void @xchg_lock(i32 addrspace(1)* noundef "air-buffer-no-alias" %0) local_unnamed_addr #0 {
  br label %spin

spin:
  %old = call i32 @air.atomic.global.xchg.i32(i32 addrspace(1)* nocapture %0, i32 1, i32 0, i32 2, i1 true) #1
  %held = icmp ne i32 %old, 0
  br i1 %held, label %spin, label %done

done:
  store i32 0, i32 addrspace(1)* %0, align 4
  ret void
}

define void @float_add_cas(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float noundef %1) local_unnamed_addr #0 {
  %expected = alloca i32, align 4
  %first = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %0, i32 0, i32 2, i1 true) #1
  br label %retry

retry:
  %old = phi i32 [ %first, %2 ], [ %seen, %retry ]
  %f = bitcast i32 %old to float
  %sum = fadd fast float %f, %1
  %new = bitcast float %sum to i32
  store i32 %old, i32* %expected, align 4
  %seen = call i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture %0, i32* nocapture nonnull %expected, i32 %new, i32 0, i32 0, i32 2, i1 true) #1
  %ok = icmp eq i32 %seen, %old
  br i1 %ok, label %done, label %retry

done:
  ret void
}

define void @cas_load_inside(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  br label %retry

retry:
  %old = load atomic i32, i32 addrspace(1)* %0 monotonic, align 4
  %new = or i32 %old, %1
  %pair = cmpxchg i32 addrspace(1)* %0, i32 %old, i32 %new monotonic monotonic, align 4
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %done, label %retry

done:
  ret void
}

define void @threadgroup_wait(i32 addrspace(3)* noundef %0) local_unnamed_addr #0 {
  br label %spin

spin:
  %v = call i32 @air.atomic.local.load.i32(i32 addrspace(3)* nocapture %0, i32 0, i32 1, i1 true) #1
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %spin, label %done

done:
  ret void
}

define void @exit_not_atomic(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %loop ]
  %iz = zext i32 %i to i64
  %p = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %iz
  %v = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %p, i32 0, i32 2, i1 true) #1
  %o = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %iz
  store i32 %v, i32 addrspace(1)* %o, align 4
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, %2
  br i1 %more, label %loop, label %done

done:
  ret void
}

define void @work_queue(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %take

take:
  %i = call i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture %0, i32 1, i32 0, i32 2, i1 true) #1
  %in = icmp ult i32 %i, %2
  br i1 %in, label %work, label %done

work:
  %iz = zext i32 %i to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %iz
  store float 0.000000e+00, float addrspace(1)* %p, align 4
  br label %take

done:
  ret void
}

define void @done_flag_wait(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %flag = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %g
  %miss = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %g
  br label %wait

wait:
  %done = phi i1 [ false, %3 ], [ true, %seen ], [ false, %missed ]
  br i1 %done, label %out, label %poll

poll:
  %v = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %flag, i32 0, i32 2, i1 true) #1
  %set = icmp ne i32 %v, 0
  br i1 %set, label %seen, label %missed

seen:
  br label %wait

missed:
  %m = load i32, i32 addrspace(1)* %miss, align 4
  %m1 = add i32 %m, 1
  store i32 %m1, i32 addrspace(1)* %miss, align 4
  br label %wait

out:
  ret void
}

define void @picked_but_counted(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %next ]
  %sum = phi i32 [ 0, %3 ], [ %sum1, %next ]
  %iz = zext i32 %i to i64
  %p = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %iz
  %v = call i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture %p, i32 0, i32 2, i1 true) #1
  %set = icmp ne i32 %v, 0
  br i1 %set, label %hit, label %next

hit:
  br label %next

next:
  %one = phi i32 [ 1, %hit ], [ 0, %loop ]
  %sum1 = add i32 %sum, %one
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, %2
  br i1 %more, label %loop, label %done

done:
  store i32 %sum1, i32 addrspace(1)* %1, align 4
  ret void
}

declare i32 @air.atomic.global.cmpxchg.weak.i32(i32 addrspace(1)* nocapture, i32* nocapture, i32, i32, i32, i32, i1) local_unnamed_addr #1
declare i32 @air.atomic.global.load.i32(i32 addrspace(1)* nocapture, i32, i32, i1) local_unnamed_addr #1
declare i32 @air.atomic.global.xchg.i32(i32 addrspace(1)* nocapture, i32, i32, i32, i1) local_unnamed_addr #1
declare i32 @air.atomic.global.add.u.i32(i32 addrspace(1)* nocapture, i32, i32, i32, i1) local_unnamed_addr #1
declare i32 @air.atomic.local.load.i32(i32 addrspace(3)* nocapture, i32, i32, i1) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32)* @flag_wait, !9, !10}
!9 = !{}
!10 = !{!11, !12}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"atomic_uint", !"air.arg_name", !"locks"}
!12 = !{i32 1, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tgid"}
