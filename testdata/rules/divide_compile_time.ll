; Hand-written. Divisors the backend knows when it builds the pipeline,
; literals and function constants, and a probe that they are seen as such.
; - @div_literals: a non-power-of-two literal (udiv by 7) and a power of two
;   (udiv by 32, ggml's `args.ne00/QK4_0` as -O0 leaves it; -O2 would shift).
; - @kernel_mul_mv_fc: ggml after llama.cpp PR 22711
;   (../shared/msl/ggml-org__ggml/post-PR22711_2026-05-14/ggml-metal.metal
;   lines 3356, 3382-3383: `constant short FC_mul_mv_ne12
;   [[function_constant(FC_MUL_MV + 2)]]`, `im%FC_mul_mv_ne12`,
;   `im/FC_mul_mv_ne12`, im = tgpig.z), its global loaded directly; and a
;   function constant `ne12` both loaded directly from its
;   `_Z4ne12.MTL_FC_INIT_0_i` global and through the `_ZL4ne12` copy an
;   `air.static_init` constructor makes, as MLX does
;   (../shared/corpus/Iito__spindll/mlx.metallib.extracted/
;   00105_sdpa_vector_2pass_1_bfloat16_t_64_64.ll lines 10-11, 39-40, 109:
;   `_Z6blocks.MTL_FC_INIT_26_i` -> `_ZL6blocks`).
; - @fc_probe: each of those function constants times `constant uint& n`. A
;   function constant joined with a uniform is uniform, so these MUST fire;
;   had the globals been taken for unknown memory, the divisor would be
;   unknown and nothing would fire: this proves the silence above is for the
;   right reason.
; MUST NOT: a finding in @div_literals (lines 39 and 40) or in
;   @kernel_mul_mv_fc (53 and 54: FC_mul_mv_ne12 through sext; 56:
;   ne12 direct; 58: ne12 via _ZL4ne12).
; MUST: exactly three findings, all in @fc_probe: divide-by-uniform on lines
;   73, 76 and 80, each naming `n`.
; The dividend is uniform or thread-varying on purpose: only the divisor
; counts.
source_filename = "divide_compile_time.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_ZL4ne12 = internal unnamed_addr addrspace(2) global i32 undef, align 4
@_Z4ne12.MTL_FC_INIT_0_i = internal unnamed_addr addrspace(2) externally_initialized constant i32 undef, section "air.fc_initializer", align 4
@_Z14FC_mul_mv_ne12.MTL_FC_INIT_602_s = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @_GLOBAL__sub_I_divide_compile_time.metal, i8* null }]

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @div_literals(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = udiv i32 %1, 7
  %4 = udiv i32 %1, 32
  %5 = add i32 %3, %4
  %6 = zext i32 %1 to i64
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %6
  store i32 %5, i32 addrspace(1)* %7, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @kernel_mul_mv_fc(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, <3 x i32> noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = extractelement <3 x i32> %1, i64 2
  %5 = load i16, i16 addrspace(2)* @_Z14FC_mul_mv_ne12.MTL_FC_INIT_602_s, align 2, !tbaa !34
  %6 = sext i16 %5 to i32
  %7 = srem i32 %4, %6
  %8 = sdiv i32 %4, %6
  %9 = load i32, i32 addrspace(2)* @_Z4ne12.MTL_FC_INIT_0_i, align 4, !tbaa !30
  %10 = udiv i32 %2, %9
  %11 = load i32, i32 addrspace(2)* @_ZL4ne12, align 4, !tbaa !30
  %12 = urem i32 %2, %11
  %13 = add i32 %7, %8
  %14 = add i32 %13, %10
  %15 = add i32 %14, %12
  %16 = zext i32 %2 to i64
  %17 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %16
  store i32 %15, i32 addrspace(1)* %17, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @fc_probe(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef align 4 dereferenceable(4) "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = load i32, i32 addrspace(2)* @_Z4ne12.MTL_FC_INIT_0_i, align 4, !tbaa !30
  %6 = mul i32 %5, %4
  %7 = udiv i32 %2, %6
  %8 = load i32, i32 addrspace(2)* @_ZL4ne12, align 4, !tbaa !30
  %9 = mul i32 %8, %4
  %10 = udiv i32 %2, %9
  %11 = load i16, i16 addrspace(2)* @_Z14FC_mul_mv_ne12.MTL_FC_INIT_602_s, align 2, !tbaa !34
  %12 = sext i16 %11 to i32
  %13 = mul nsw i32 %12, %4
  %14 = sdiv i32 %2, %13
  %15 = add i32 %7, %10
  %16 = add i32 %15, %14
  %17 = zext i32 %2 to i64
  %18 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %17
  store i32 %16, i32 addrspace(1)* %18, align 4, !tbaa !30
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define internal void @_GLOBAL__sub_I_divide_compile_time.metal() #1 section "air.static_init" {
  %1 = load i32, i32 addrspace(2)* @_Z4ne12.MTL_FC_INIT_0_i, align 4, !tbaa !30
  store i32 %1, i32 addrspace(2)* @_ZL4ne12, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !18}
!air.function_constants = !{!20, !21}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32)* @div_literals, !9, !10}
!9 = !{}
!10 = !{!11, !12}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"dst"}
!12 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!13 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!14 = !{void (i32 addrspace(1)*, <3 x i32>, i32)* @kernel_mul_mv_fc, !9, !15}
!15 = !{!11, !16, !17}
!16 = !{i32 1, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"tgpig"}
!17 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!18 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @fc_probe, !9, !19}
!19 = !{!11, !13, !22}
!20 = !{i16 addrspace(2)* @_Z14FC_mul_mv_ne12.MTL_FC_INIT_602_s, !"short", !"FC_mul_mv_ne12", i32 602, i1 true}
!21 = !{i32 addrspace(2)* @_Z4ne12.MTL_FC_INIT_0_i, !"int", !"ne12", i32 0, i1 true}
!22 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"short", !32, i64 0}
