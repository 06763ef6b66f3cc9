; Hand-written. Branches on values from `constant` buffers. Shapes:
; - @ray_march: BlackHoleGPU's ray march (../shared/corpus/SirArthurNerdolot1__BlackHoleGPU/
;   build/default.metallib.extracted/00000_computeShader.ll lines 246-274,
;   shaders/BlackHole.metal's `uniforms.adaptive_stepping`): an `i8` bool field
;   of a `constant Uniforms&` tested (`icmp eq i8 %b, 0`) outside the loop and
;   branched on inside it, around a small step-size block.
; - @tonemap: the same project's tonemapping kernel (00005_tonemapping_kernel.ll
;   lines 26-50, tonemapping.metal line 28): `constant bool& enabled` around
;   the ACES curve and a gamma `pow`, outside any loop (18 instructions).
; - @mode_switch: `switch (u.mode)` on an `int` field with three cases.
; - @tiny: a bool field around 3 instructions, outside loops.
; - @trip_count: `for (uint i = 0; i < u.n; i++)`: the guard `u.n == 0` tests
;   a count the loop's exit also compares with its counter.
; - @per_thread: `flags[gid]` from a `constant bool*`: differs per thread.
; - @fc: a function constant (`air.function_constant` global).
; - @per_iteration: `layers[i].enabled` in a loop over i: differs per iteration.
; - @combined: `if (u.adaptive && u.h > 0.1)` in a loop (BlackHoleGPU's
;   renderParticlesAdvanced, ParticleTrails.metal line 185: `select i1 %on,
;   i1 %big, i1 false`, 00011_renderParticlesAdvanced.ll line 87).
; - @early_out: `if (!u.adaptive) return;` in front of the kernel's work
;   (BlackHoleGPU's spawnParticles, ParticleSystem.metal line 273): the side
;   taken when off does nothing, so specialising removes only the test.
; - @ordered_mode: `if (u.mode > 1)` (`icmp sgt i32 %mode, 1`) in a loop: an
;   ordered test against a constant (issue 23's missed `u.mode > 1`).
; - @ordered_bound: `for (int i = 0; i < u.mode; i++)` as LLVM rotates a signed
;   count: the guard `n > 0` is an ordered test against a constant, but the
;   latch compares the same load with the counter (`i.next < n`).
; - @ordered_index: `if (u.mode < 4) v = data[u.mode]`: a range check on a
;   value also used as an index.
; MUST: exactly five findings, function-constant-branch (note): the branch in
;   @ray_march's loop (bool, `u.adaptive`), @tonemap's branch (bool,
;   `enabled`, 18 instructions), @mode_switch's switch (enum, compared to
;   0, 1 and 2), the branch in @combined's loop (bool, `u.adaptive`), the
;   branch in @ordered_mode's loop (enum, `u.mode`, compared to 1).
; MUST NOT: a finding of this rule in @tiny, @trip_count, @per_thread, @fc,
;   @per_iteration, @early_out, @ordered_bound or @ordered_index
;   (per-thread-constant-read fires on @per_thread's `flags[gid]`, its own
;   case).
source_filename = "function_constant_branch.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct.U = type { i32, float, i8, i32 }
%struct.Layer = type { float, i8 }

@fc_enabled = internal addrspace(2) global i8 0, align 1

define void @ray_march(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %np = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 0
  %n = load i32, i32 addrspace(2)* %np, align 4
  %hp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 1
  %h = load float, float addrspace(2)* %hp, align 4
  %bp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 2
  %b = load i8, i8 addrspace(2)* %bp, align 4, !range !30
  %off = icmp eq i8 %b, 0
  %gf = uitofp i32 %2 to float
  br label %step

step:
  %i = phi i32 [ 0, %3 ], [ %ni, %advance ]
  %x = phi float [ %gf, %3 ], [ %nx, %advance ]
  %r = fmul fast float %x, %x
  br i1 %off, label %advance, label %adapt

adapt:
  %s = call fast float @air.fast_sqrt.f32(float %r)
  %near = fcmp fast olt float %s, 3.000000e+00
  %small = fmul fast float %h, %s
  %hh = select i1 %near, float %small, float %h
  br label %advance

advance:
  %dt = phi float [ %h, %step ], [ %hh, %adapt ]
  %nx = fadd fast float %x, %dt
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, %n
  br i1 %more, label %step, label %done

done:
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %nx, float addrspace(1)* %o, align 4
  ret void
}

define void @tonemap(float addrspace(2)* noundef readonly "air-buffer-no-alias" %0, i8 addrspace(2)* noundef readonly "air-buffer-no-alias" %1, <3 x float> addrspace(1)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %g = zext i32 %3 to i64
  %p = getelementptr inbounds <3 x float>, <3 x float> addrspace(1)* %2, i64 %g
  %c = load <3 x float>, <3 x float> addrspace(1)* %p, align 16
  %e = load i8, i8 addrspace(2)* %1, align 1, !range !30
  %skip = icmp eq i8 %e, 0
  br i1 %skip, label %out, label %aces

aces:
  %a1 = fmul fast <3 x float> %c, <float 2.510000e+00, float 2.510000e+00, float 2.510000e+00>
  %a2 = fadd fast <3 x float> %a1, <float 3.000000e-02, float 3.000000e-02, float 3.000000e-02>
  %a3 = fmul fast <3 x float> %a2, %c
  %a4 = fmul fast <3 x float> %c, <float 2.430000e+00, float 2.430000e+00, float 2.430000e+00>
  %a5 = fadd fast <3 x float> %a4, <float 5.900000e-01, float 5.900000e-01, float 5.900000e-01>
  %a6 = fmul fast <3 x float> %a5, %c
  %a7 = fadd fast <3 x float> %a6, <float 1.400000e-01, float 1.400000e-01, float 1.400000e-01>
  %a8 = fdiv fast <3 x float> %a3, %a7
  %a9 = call fast <3 x float> @air.fast_clamp.v3f32(<3 x float> %a8, <3 x float> zeroinitializer, <3 x float> <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>)
  %gm = load float, float addrspace(2)* %0, align 4
  %ig = fdiv fast float 1.000000e+00, %gm
  %v1 = insertelement <3 x float> poison, float %ig, i64 0
  %v2 = shufflevector <3 x float> %v1, <3 x float> poison, <3 x i32> zeroinitializer
  %pw = call fast <3 x float> @air.fast_pow.v3f32(<3 x float> %a9, <3 x float> %v2)
  %q1 = fadd fast <3 x float> %pw, zeroinitializer
  %q2 = fmul fast <3 x float> %q1, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %q3 = fadd fast <3 x float> %q2, zeroinitializer
  br label %out

out:
  %res = phi <3 x float> [ %c, %4 ], [ %q3, %aces ]
  store <3 x float> %res, <3 x float> addrspace(1)* %p, align 16
  ret void
}

define void @mode_switch(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  %x = load float, float addrspace(1)* %p, align 4
  %mp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 3
  %mode = load i32, i32 addrspace(2)* %mp, align 4
  switch i32 %mode, label %other [
    i32 0, label %m0
    i32 1, label %m1
    i32 2, label %m2
  ]

m0:
  %y0 = call fast float @air.fast_exp.f32(float %x)
  %z0 = call fast float @air.fast_log.f32(float %y0)
  %w0 = fmul fast float %z0, %y0
  %u0 = fadd fast float %w0, %x
  %t0 = call fast float @air.fast_sin.f32(float %u0)
  br label %out

m1:
  %y1 = call fast float @air.fast_cos.f32(float %x)
  %z1 = call fast float @air.fast_sin.f32(float %y1)
  %w1 = fmul fast float %z1, %y1
  %u1 = fadd fast float %w1, %x
  %t1 = call fast float @air.fast_exp.f32(float %u1)
  br label %out

m2:
  %y2 = call fast float @air.fast_tanh.f32(float %x)
  %z2 = fmul fast float %y2, %y2
  %t2 = fsub fast float 1.000000e+00, %z2
  br label %out

other:
  br label %out

out:
  %r = phi float [ %t0, %m0 ], [ %t1, %m1 ], [ %t2, %m2 ], [ %x, %other ]
  store float %r, float addrspace(1)* %p, align 4
  ret void
}

define void @tiny(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  %x = load float, float addrspace(1)* %p, align 4
  %bp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 2
  %b = load i8, i8 addrspace(2)* %bp, align 4, !range !30
  %on = trunc i8 %b to i1
  br i1 %on, label %neg, label %out

neg:
  %y = fneg fast float %x
  %z = fmul fast float %y, 2.000000e+00
  br label %out

out:
  %r = phi float [ %x, %3 ], [ %z, %neg ]
  store float %r, float addrspace(1)* %p, align 4
  ret void
}

define void @trip_count(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %np = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 0
  %n = load i32, i32 addrspace(2)* %np, align 4
  %none = icmp eq i32 %n, 0
  br i1 %none, label %done, label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %loop ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %loop ]
  %iz = zext i32 %i to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %iz
  %v = load float, float addrspace(1)* %p, align 4
  %a = fadd fast float %acc, %v
  %ni = add nuw i32 %i, 1
  %again = icmp eq i32 %ni, %n
  br i1 %again, label %done, label %loop

done:
  %r = phi float [ 0.000000e+00, %3 ], [ %a, %loop ]
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %r, float addrspace(1)* %o, align 4
  ret void
}

define void @per_thread(i8 addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %fp = getelementptr inbounds i8, i8 addrspace(2)* %0, i64 %g
  %f = load i8, i8 addrspace(2)* %fp, align 1, !range !30
  %off = icmp eq i8 %f, 0
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %next ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %next ]
  br i1 %off, label %next, label %work

work:
  %s = call fast float @air.fast_sin.f32(float %acc)
  br label %next

next:
  %a = phi float [ %acc, %loop ], [ %s, %work ]
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, 16
  br i1 %more, label %loop, label %done

done:
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %a, float addrspace(1)* %o, align 4
  ret void
}

define void @fc(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %e = load i8, i8 addrspace(2)* @fc_enabled, align 1, !range !30
  %off = icmp eq i8 %e, 0
  br label %loop

loop:
  %i = phi i32 [ 0, %2 ], [ %ni, %next ]
  %acc = phi float [ 0.000000e+00, %2 ], [ %a, %next ]
  br i1 %off, label %next, label %work

work:
  %s = call fast float @air.fast_sin.f32(float %acc)
  br label %next

next:
  %a = phi float [ %acc, %loop ], [ %s, %work ]
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, 16
  br i1 %more, label %loop, label %done

done:
  %g = zext i32 %1 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %0, i64 %g
  store float %a, float addrspace(1)* %o, align 4
  ret void
}

define void @per_iteration(%struct.Layer addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %next ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %next ]
  %iz = zext i32 %i to i64
  %ep = getelementptr inbounds %struct.Layer, %struct.Layer addrspace(2)* %0, i64 %iz, i32 1
  %e = load i8, i8 addrspace(2)* %ep, align 4, !range !30
  %off = icmp eq i8 %e, 0
  br i1 %off, label %next, label %work

work:
  %wp = getelementptr inbounds %struct.Layer, %struct.Layer addrspace(2)* %0, i64 %iz, i32 0
  %w = load float, float addrspace(2)* %wp, align 4
  %s = fadd fast float %acc, %w
  br label %next

next:
  %a = phi float [ %acc, %loop ], [ %s, %work ]
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, 8
  br i1 %more, label %loop, label %done

done:
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %a, float addrspace(1)* %o, align 4
  ret void
}

define void @early_out(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %bp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 2
  %b = load i8, i8 addrspace(2)* %bp, align 4, !range !30
  %off = icmp eq i8 %b, 0
  br i1 %off, label %done, label %work

work:
  %g = zext i32 %2 to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  %x = load float, float addrspace(1)* %p, align 4
  %y1 = call fast float @air.fast_sin.f32(float %x)
  %y2 = call fast float @air.fast_cos.f32(float %y1)
  %y3 = call fast float @air.fast_exp.f32(float %y2)
  %y4 = call fast float @air.fast_log.f32(float %y3)
  %y5 = fmul fast float %y4, %y1
  %y6 = fadd fast float %y5, %y2
  %y7 = fmul fast float %y6, %y3
  %y8 = fadd fast float %y7, %x
  %y9 = call fast float @air.fast_tanh.f32(float %y8)
  store float %y9, float addrspace(1)* %p, align 4
  br label %done

done:
  ret void
}

define void @combined(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %bp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 2
  %b = load i8, i8 addrspace(2)* %bp, align 4, !range !30
  %on = icmp ne i8 %b, 0
  %hp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 1
  %h = load float, float addrspace(2)* %hp, align 4
  %big = fcmp fast ogt float %h, 0x3FB99999A0000000
  %both = select i1 %on, i1 %big, i1 false
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %next ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %next ]
  br i1 %both, label %work, label %next

work:
  %s = call fast float @air.fast_sin.f32(float %acc)
  br label %next

next:
  %a = phi float [ %acc, %loop ], [ %s, %work ]
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, 16
  br i1 %more, label %loop, label %done

done:
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %a, float addrspace(1)* %o, align 4
  ret void
}

define void @ordered_mode(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %mp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 3
  %mode = load i32, i32 addrspace(2)* %mp, align 4
  %fine = icmp sgt i32 %mode, 1
  br label %loop

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %next ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %next ]
  br i1 %fine, label %work, label %next

work:
  %s = call fast float @air.fast_sin.f32(float %acc)
  %c = call fast float @air.fast_cos.f32(float %s)
  %sc = fmul fast float %s, %c
  br label %next

next:
  %a = phi float [ %acc, %loop ], [ %sc, %work ]
  %ni = add nuw i32 %i, 1
  %more = icmp ult i32 %ni, 16
  br i1 %more, label %loop, label %done

done:
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %a, float addrspace(1)* %o, align 4
  ret void
}

define void @ordered_bound(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %np = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 3
  %n = load i32, i32 addrspace(2)* %np, align 4
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ 0, %3 ], [ %ni, %loop ]
  %acc = phi float [ 0.000000e+00, %3 ], [ %a, %loop ]
  %iz = zext i32 %i to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %iz
  %v = load float, float addrspace(1)* %p, align 4
  %s = call fast float @air.fast_sin.f32(float %v)
  %c = call fast float @air.fast_cos.f32(float %s)
  %e = call fast float @air.fast_exp.f32(float %c)
  %sc = fmul fast float %s, %e
  %t = fadd fast float %sc, %v
  %a = fadd fast float %acc, %t
  %ni = add nuw nsw i32 %i, 1
  %again = icmp slt i32 %ni, %n
  br i1 %again, label %loop, label %done

done:
  %r = phi float [ 0.000000e+00, %3 ], [ %a, %loop ]
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  store float %r, float addrspace(1)* %o, align 4
  ret void
}

define void @ordered_index(%struct.U addrspace(2)* noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %kp = getelementptr inbounds %struct.U, %struct.U addrspace(2)* %0, i64 0, i32 3
  %k = load i32, i32 addrspace(2)* %kp, align 4
  %g = zext i32 %2 to i64
  %o = getelementptr inbounds float, float addrspace(1)* %1, i64 %g
  %x = load float, float addrspace(1)* %o, align 4
  %inside = icmp ult i32 %k, 4
  br i1 %inside, label %work, label %join

work:
  %kz = zext i32 %k to i64
  %p = getelementptr inbounds float, float addrspace(1)* %1, i64 %kz
  %v = load float, float addrspace(1)* %p, align 4
  %y1 = call fast float @air.fast_sin.f32(float %v)
  %y2 = call fast float @air.fast_cos.f32(float %y1)
  %y3 = call fast float @air.fast_exp.f32(float %y2)
  %y4 = call fast float @air.fast_log.f32(float %y3)
  %y5 = fmul fast float %y4, %y1
  %y6 = fadd fast float %y5, %y2
  %y7 = fmul fast float %y6, %y3
  %y8 = fadd fast float %y7, %x
  %y9 = call fast float @air.fast_tanh.f32(float %y8)
  br label %join

join:
  %r = phi float [ %x, %3 ], [ %y9, %work ]
  store float %r, float addrspace(1)* %o, align 4
  ret void
}

declare float @air.fast_sqrt.f32(float)
declare float @air.fast_sin.f32(float)
declare float @air.fast_cos.f32(float)
declare float @air.fast_exp.f32(float)
declare float @air.fast_log.f32(float)
declare float @air.fast_tanh.f32(float)
declare <3 x float> @air.fast_clamp.v3f32(<3 x float>, <3 x float>, <3 x float>)
declare <3 x float> @air.fast_pow.v3f32(<3 x float>, <3 x float>)

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !18, !19, !20, !21, !23, !25, !34, !35, !36, !37, !38}
!air.function_constants = !{!27}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @ray_march, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13}
!11 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 16, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.struct_type_info", !28, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"U", !"air.arg_name", !"u"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!13 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!14 = !{void (float addrspace(2)*, i8 addrspace(2)*, <3 x float> addrspace(1)*, i32)* @tonemap, !9, !15}
!15 = !{!16, !17, !12, !13}
!16 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"gamma"}
!17 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 1, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"bool", !"air.arg_name", !"enabled"}
!18 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @mode_switch, !9, !10}
!19 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @tiny, !9, !10}
!20 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @trip_count, !9, !10}
!21 = !{void (i8 addrspace(2)*, float addrspace(1)*, i32)* @per_thread, !9, !22}
!22 = !{!29, !12, !13}
!23 = !{void (float addrspace(1)*, i32)* @fc, !9, !24}
!24 = !{!31, !32}
!25 = !{void (%struct.Layer addrspace(2)*, float addrspace(1)*, i32)* @per_iteration, !9, !26}
!26 = !{!33, !12, !13}
!27 = !{i8 addrspace(2)* @fc_enabled, i32 0, !"bool", !"fc_enabled"}
!28 = !{i32 0, i32 4, i32 0, !"uint", !"n", i32 4, i32 4, i32 0, !"float", !"h", i32 8, i32 1, i32 0, !"bool", !"adaptive", i32 12, i32 4, i32 0, !"int", !"mode"}
!29 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"bool", !"air.arg_name", !"flags"}
!30 = !{i8 0, i8 2}
!31 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!32 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!33 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"Layer", !"air.arg_name", !"layers"}
!34 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @early_out, !9, !10}
!35 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @combined, !9, !10}
!36 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @ordered_mode, !9, !10}
!37 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @ordered_bound, !9, !10}
!38 = !{void (%struct.U addrspace(2)*, float addrspace(1)*, i32)* @ordered_index, !9, !10}
