; ModuleID = 'reader/header_globals_typed.air'
; Hand-written (the ModuleID line must stay line 1: llvm-dis always prints it first).
; Shape: the head of the typed-pointer MLX steel-attention module
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00000_steel_attention_float16_bq32_bk16_bd128_wm4_wn1_maskfloat16.ll
; (quoted struct names, MTL_FC_INIT globals, llvm.global_ctors, air.static_init)
; and of MetalFlashAttention's
;   ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/00002_sgemm.ll
; (`type opaque` structs, addrspacecast constants in llvm.compiler.used).
; Must produce: ModuleID, source_filename, datalayout, triple air64-apple-macosx15.0.0;
; five named structs (one opaque, one packed); thirteen globals with their
; linkage, address space, section, externally_initialized and initializers
; kept as trees (aggregates, GEP and addrspacecast constant expressions,
; zeroinitializer, c"..."); one declaration, one air.static_init definition and
; one kernel whose parameter attribute texts are kept as written.
; Must not produce: any diagnostic.
source_filename = "steel_attention_small"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%"struct.mlx::steel::AttnParams" = type { i32, i32, float, [3 x i64] }
%"struct.mlx::steel::AttnMaskParams" = type { [3 x i64] }
%struct._simdgroup_event_t = type opaque
%"struct.metal::simdgroup_event" = type { %struct._simdgroup_event_t* }
%struct.PackedHeader = type <{ i8, i32, half }>

@__metal_implicit_fc_pred_0.2 = internal addrspace(2) global i8 0, align 1
@_ZL7align_Q = internal unnamed_addr addrspace(2) global i8 undef, align 1
@_Z7align_Q.MTL_FC_INIT_200_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1
@_ZZ9attentionE6Q_smem = internal unnamed_addr addrspace(3) global [64 x half] undef, align 2
@_ZL5table = internal unnamed_addr addrspace(2) constant [4 x float] [float 1.000000e+00, float 0x3FE6D6D6E0000000, float -2.500000e-01, float 0.000000e+00], align 4
@_ZL6second = internal addrspace(2) constant float addrspace(2)* getelementptr inbounds ([4 x float], [4 x float] addrspace(2)* @_ZL5table, i64 0, i64 1), align 8
@_ZL4none = internal addrspace(2) constant %"struct.mlx::steel::AttnMaskParams" zeroinitializer, align 8
@_ZL6header = internal addrspace(2) constant %struct.PackedHeader <{ i8 1, i32 2, half 0xH3C00 }>, align 1
@.str = private unnamed_addr addrspace(2) constant [6 x i8] c"steel\00", align 1
@_ZL8position = internal unnamed_addr addrspace(2) constant [2 x <2 x float>] [<2 x float> <float 0.000000e+00, float -5.000000e-01>, <2 x float> <float 5.000000e-01, float 5.000000e-01>], align 8
@ext_counter = external addrspace(1) global i32, align 4
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @_GLOBAL__sub_I_steel_attention.metal, i8* null }]
@llvm.compiler.used = appending global [1 x i8*] [i8* addrspacecast (i8 addrspace(2)* @__metal_implicit_fc_pred_0.2 to i8*)], section "llvm.metadata"

; Function Attrs: mustprogress nofree nosync nounwind readnone willreturn
declare i8 @air.normalize_function_constant_predicate.i8(i8) local_unnamed_addr #0

; Function Attrs: nounwind
define internal void @_GLOBAL__sub_I_steel_attention.metal() #1 section "air.static_init" {
  %1 = load i8, i8 addrspace(2)* @_Z7align_Q.MTL_FC_INIT_200_b, align 1, !tbaa !5, !range !9
  %2 = tail call i8 @air.normalize_function_constant_predicate.i8(i8 %1) #2
  store i8 %2, i8 addrspace(2)* @_ZL7align_Q, align 1, !tbaa !5
  store i8 %2, i8 addrspace(2)* @__metal_implicit_fc_pred_0.2, align 1, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nounwind
define weak_odr void @attention(half addrspace(1)* noundef "air-buffer-no-alias" %0, %"struct.mlx::steel::AttnParams" addrspace(2)* noundef "air-buffer-no-alias" %1, i32 addrspace(2)* nocapture readonly align 4 dereferenceable(4) %2, <3 x i32> noundef %3) local_unnamed_addr #1 {
  %5 = getelementptr inbounds %"struct.mlx::steel::AttnParams", %"struct.mlx::steel::AttnParams" addrspace(2)* %1, i64 0, i32 2
  %6 = load float, float addrspace(2)* %5, align 4, !tbaa !10
  %7 = fptrunc float %6 to half
  %8 = extractelement <3 x i32> %3, i64 0
  %9 = zext i32 %8 to i64
  %10 = getelementptr inbounds [64 x half], [64 x half] addrspace(3)* @_ZZ9attentionE6Q_smem, i64 0, i64 %9
  store half %7, half addrspace(3)* %10, align 2, !tbaa !12
  ret void
}

attributes #0 = { mustprogress nofree nosync nounwind readnone willreturn }
attributes #1 = { mustprogress nounwind "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="96" "no-builtins" }
attributes #2 = { nounwind }

!llvm.ident = !{!0}
!air.version = !{!1}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!5 = !{!6, !6, i64 0}
!6 = !{!"bool", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = !{i8 0, i8 2}
!10 = !{!11, !11, i64 0}
!11 = !{!"float", !7, i64 0}
!12 = !{!13, !13, i64 0}
!13 = !{!"half", !7, i64 0}
