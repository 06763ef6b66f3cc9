; Hand-written. Shape: opaque-pointer AIR as a newer llvm-dis prints it, like
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.opaque.ll
;   ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/00003_attention.opaque.ll
; (multi-line switch, 0xH half constants), with the triple of
;   ../shared/corpus/sueszli__llvm-to-air/tests/test.ll (air64_v27-...),
; the fast-div shapes of ../shared/seeds/002_1a3b6f607dabf4d0.txt
; (`mul i32 %x, 536870907`, `shl`, `sext`), and, for instructions Metal itself
; lowers to air.* calls (atomicrmw, cmpxchg, fence), LLVM LangRef syntax.
; Flags from LLVM 19/20 LangRef: nneg, disjoint, samesign, `getelementptr inbounds nuw`,
; `trunc nuw nsw`, `splat (...)`, `captures(none)`, `range(...)`, `memory(...)`.
; Must produce: four definitions with every instruction, its opcode, flags,
; types, operands and attachments; blocks unnamed, numbered and named.
; Must not produce: any diagnostic (module or bodies).
source_filename = "reader_instructions"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64_v27-apple-macosx15.0.0"

%struct.Pair = type { float, i32 }

@_ZZ6reduceE7scratch = internal unnamed_addr addrspace(3) global [32 x float] undef, align 4

; Function Attrs: mustprogress nofree nounwind willreturn memory(argmem: readwrite)
define void @numbered(ptr addrspace(1) noundef "air-buffer-no-alias" %0, ptr addrspace(2) noundef readonly align 4 dereferenceable(4) "air-buffer-no-alias" %1, <3 x i32> noundef %2) local_unnamed_addr #0 {
  %4 = extractelement <3 x i32> %2, i64 0
  %5 = load i32, ptr addrspace(2) %1, align 4, !tbaa !10, !alias.scope !14, !noalias !17
  %6 = icmp samesign ult i32 %4, %5
  br i1 %6, label %7, label %20

7:                                                ; preds = %3
  %8 = zext nneg i32 %4 to i64
  %9 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %8
  %10 = load float, ptr addrspace(1) %9, align 4, !tbaa !19
  %11 = fmul fast float %10, 0x3FF8000000000000
  %12 = fadd nnan ninf float %11, -1.250000e-01
  %13 = fcmp fast olt float %12, 0.000000e+00
  %14 = select i1 %13, float 0.000000e+00, float %12
  %15 = fptrunc float %14 to half
  %16 = fadd fast half %15, 0xH3C00
  %17 = fpext half %16 to float
  %18 = tail call fast float @air.fast_exp2.f32(float %17) #2
  store float %18, ptr addrspace(1) %9, align 4, !tbaa !19
  br label %20

20:                                               ; preds = %7, %3
  ret void
}

; Function Attrs: mustprogress nofree nounwind willreturn memory(argmem: readwrite)
define void @loops(ptr addrspace(1) noundef "air-buffer-no-alias" %out, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %cmp.not = icmp eq i32 %n, 0
  br i1 %cmp.not, label %exit, label %for.body

for.body:                                         ; preds = %entry, %for.body
  %i = phi i32 [ 0, %entry ], [ %inc, %for.body ]
  %acc = phi <2 x i32> [ zeroinitializer, %entry ], [ %acc.next, %for.body ]
  %lane = and i32 %i, 31
  %hi = or disjoint i32 %lane, 64
  %half = lshr exact i32 %hi, 1
  %q = udiv exact i32 %half, 3
  %m = mul i32 %q, 536870907
  %s = add nuw nsw i32 %m, %i
  %sh = shl nuw i32 %s, 3
  %v = insertelement <2 x i32> poison, i32 %sh, i64 0
  %v1 = insertelement <2 x i32> %v, i32 %i, i64 1
  %acc.next = add <2 x i32> %acc, <i32 1, i32 2>
  %acc.x = xor <2 x i32> %v1, splat (i32 1)
  %inc = add nuw i32 %i, 1
  %done = icmp uge i32 %inc, %n
  br i1 %done, label %exit, label %for.body, !llvm.loop !21

exit:                                             ; preds = %for.body, %entry
  %r = phi <2 x i32> [ undef, %entry ], [ %acc.next, %for.body ]
  %e0 = extractelement <2 x i32> %r, i64 0
  %w = sext i32 %e0 to i64
  %t = trunc nuw nsw i64 %w to i32
  %sw = freeze i32 %t
  switch i32 %sw, label %store [
    i32 3, label %three
    i32 16, label %sixteen
  ]

three:                                            ; preds = %exit
  br label %store

sixteen:                                          ; preds = %exit
  br label %store

store:                                            ; preds = %sixteen, %three, %exit
  %val = phi i32 [ %sw, %exit ], [ 3, %three ], [ 16, %sixteen ]
  %idx = zext i32 %val to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %val, ptr addrspace(1) %slot, align 4, !tbaa !10
  ret void
}

; Function Attrs: nounwind
define void @atomics(ptr addrspace(1) noundef captures(none) "air-buffer-no-alias" %counter, ptr addrspace(3) noundef %slot) local_unnamed_addr #1 {
entry:
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
  %fold = atomicrmw volatile fadd ptr addrspace(3) %slot, float 1.000000e+00 syncscope("workgroup") seq_cst, align 4
  %pair = cmpxchg weak ptr addrspace(1) %counter, i32 %old, i32 0 acq_rel monotonic, align 4
  %prev = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  fence syncscope("workgroup") release
  %agg = insertvalue %struct.Pair undef, float 2.000000e+00, 0
  %agg2 = insertvalue %struct.Pair %agg, i32 %prev, 1
  %f = extractvalue %struct.Pair %agg2, 0
  %tmp = alloca [4 x float], align 4
  %tmp.i = getelementptr inbounds [4 x float], ptr %tmp, i64 0, i64 2
  store volatile float %f, ptr %tmp.i, align 4
  %ld = load atomic i32, ptr addrspace(1) %counter seq_cst, align 4, !range !23
  br i1 %ok, label %done, label %trap

trap:                                             ; preds = %entry
  unreachable

done:                                             ; preds = %entry
  ret void
}

; Function Attrs: nounwind
define float @calls(ptr addrspace(1) noundef %p, ptr addrspace(3) noundef %lds, i32 noundef range(i32 0, 1024) %x, <4 x float> noundef %v) local_unnamed_addr #1 {
  call void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) noundef align 4 %p, ptr addrspace(3) noundef align 4 %lds, i64 16, i1 false)
  tail call void @air.wg.barrier(i32 2, i32 1) #3
  %1 = shufflevector <4 x float> %v, <4 x float> poison, <2 x i32> <i32 0, i32 3>
  %2 = bitcast <2 x float> %1 to i64
  %3 = addrspacecast ptr addrspace(3) %lds to ptr
  %4 = ptrtoint ptr addrspace(1) %p to i64
  %5 = inttoptr i64 %4 to ptr addrspace(1)
  %6 = sitofp i32 %x to float
  %7 = uitofp nneg i32 %x to float
  %8 = fptosi float %6 to i32
  %9 = fptoui float %7 to i32
  %10 = sdiv i32 %8, 7
  %11 = srem i32 %10, -3
  %12 = urem i32 %9, 5
  %13 = ashr i32 %11, 2
  %14 = sub nsw i32 %13, %12
  %15 = fneg fast float %6
  %16 = fsub fast float %15, 1.000000e+00
  %17 = fdiv arcp float %16, %7
  %18 = frem float %17, 2.000000e+00
  %19 = icmp ne ptr addrspace(1) %5, null
  %20 = select fast i1 %19, float %18, float 0x7FF8000000000000
  %21 = tail call fast float @air.fast_fmax.f32(float %20, float %18) #2
  ret float %21
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare float @air.fast_exp2.f32(float) local_unnamed_addr #2

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare float @air.fast_fmax.f32(float, float) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #3

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p1.p3.i64(ptr addrspace(1) noalias writeonly captures(none), ptr addrspace(3) noalias readonly captures(none), i64, i1 immarg) #4

attributes #0 = { mustprogress nofree nounwind willreturn memory(argmem: readwrite) "approx-func-fp-math"="true" "frame-pointer"="all" }
attributes #1 = { nounwind }
attributes #2 = { mustprogress nofree nosync nounwind willreturn memory(none) }
attributes #3 = { convergent mustprogress nounwind willreturn }
attributes #4 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }

!llvm.ident = !{!9}

!9 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{!15}
!15 = distinct !{!15, !16, !"air-alias-scope-arg(1)"}
!16 = distinct !{!16, !"air-alias-scopes(numbered)"}
!17 = !{!18}
!18 = distinct !{!18, !16, !"air-alias-scope-arg(0)"}
!19 = !{!20, !20, i64 0}
!20 = !{!"float", !12, i64 0}
!21 = distinct !{!21, !22}
!22 = !{!"llvm.loop.mustprogress"}
!23 = !{i32 0, i32 1}
