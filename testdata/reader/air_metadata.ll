; Hand-written. Shape of the AIR metadata, from:
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.opaque.ll
;     (!air.kernel, air.buffer args, air.buffer_size, builtins, version metadata)
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00000_steel_attention_float16_bq32_bk16_bd128_wm4_wn1_maskfloat16.ll
;     (@_Z7align_Q.MTL_FC_INIT_200_b in section "air.fc_initializer")
;   ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/00002_sgemm.ll
;     (!air.function_constants, air.function_constant-guarded arguments)
;   ../shared/corpus/ziglana__grincel/vanity.metallib.extracted/00000_compute.opaque.ll
;     (air.struct_type_info: offset, size, count, type name, field name)
;   ../shared/corpus/RosaStack__rosemetal/examples/hello/Shaders.metallib.extracted/0000{0,1}_*.opaque.ll
;     (!air.vertex, !air.fragment)
;   ../shared/seeds/000_49be003a6d742d65.txt (ggml's mul_mv args struct with ne00, ne12, r2 and
;     the FC_mul_mv_ne12 function constant).
; Must produce: one kernel (6 arguments, one guarded by a function constant, one
; with struct fields), one vertex and one fragment entry, four function
; constants (three from air.fc_initializer globals, one only from
; !air.function_constants), AIR 2.7.0, Metal 3.2.0, three compile options, llvm.ident.
; Must not produce: any diagnostic (reader or AIR layer).
source_filename = "ggml_mul_mv_ext"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@__metal_implicit_fc_pred_0.2 = internal addrspace(2) global i8 0, align 1
@_ZL7align_Q = internal unnamed_addr addrspace(2) global i8 undef, align 1
@_Z7align_Q.MTL_FC_INIT_200_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1
@_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@_Z9has_sinks.MTL_FC_INIT_302_b = internal unnamed_addr addrspace(2) externally_initialized constant i8 undef, section "air.fc_initializer", align 1
@_ZL5alpha = internal unnamed_addr addrspace(2) constant float undef, align 4

; Function Attrs: mustprogress nofree nounwind willreturn memory(argmem: readwrite)
define void @kernel_mul_mv_ext(ptr addrspace(2) noundef readonly captures(none) align 8 dereferenceable(32) "air-buffer-no-alias" %0, ptr addrspace(1) noundef readonly captures(none) "air-buffer-no-alias" %1, ptr addrspace(1) noundef captures(none) "air-buffer-no-alias" %2, ptr addrspace(1) noundef readonly captures(none) "air-buffer-no-alias" %3, <3 x i32> noundef %4, i32 noundef %5) local_unnamed_addr #0 {
  %7 = getelementptr inbounds nuw i8, ptr addrspace(2) %0, i64 16
  %8 = load i16, ptr addrspace(2) %7, align 8
  %9 = load i16, ptr addrspace(2) @_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s, align 2
  %10 = extractelement <3 x i32> %4, i64 0
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %11
  %13 = load float, ptr addrspace(1) %12, align 4
  %14 = getelementptr inbounds float, ptr addrspace(1) %2, i64 %11
  store float %13, ptr addrspace(1) %14, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define <4 x float> @vertex_main(i32 noundef %0, ptr addrspace(2) noundef readonly captures(none) "air-buffer-no-alias" %1) local_unnamed_addr #1 {
  %3 = zext i32 %0 to i64
  %4 = getelementptr inbounds <4 x float>, ptr addrspace(2) %1, i64 %3
  %5 = load <4 x float>, ptr addrspace(2) %4, align 16
  ret <4 x float> %5
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define <4 x float> @fragment_main(<4 x float> noundef %0) local_unnamed_addr #1 {
  ret <4 x float> <float 0x3FE6D6D6E0000000, float 0x3FEE1E1E20000000, float 0x3FF2121220000000, float 1.000000e+00>
}

attributes #0 = { mustprogress nofree nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) "frame-pointer"="all" }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}
!air.version = !{!3}
!air.language_version = !{!4}
!air.compile_options = !{!5, !6, !7}
!air.kernel = !{!8}
!air.vertex = !{!30}
!air.fragment = !{!40}
!air.function_constants = !{!50, !51, !52}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 7, !"air.max_device_buffers", i32 31}
!2 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!3 = !{i32 2, i32 7, i32 0}
!4 = !{!"Metal", i32 3, i32 2, i32 0}
!5 = !{!"air.compile.denorms_disable"}
!6 = !{!"air.compile.fast_math_enable"}
!7 = !{!"air.compile.framebuffer_fetch_enable"}
!8 = !{ptr @kernel_mul_mv_ext, !9, !10, !20}
!9 = !{}
!10 = !{!11, !13, !14, !15, !17, !18}
!11 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 32, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.struct_type_info", !12, !"air.arg_type_size", i32 32, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ggml_metal_kargs_mul_mv_ext", !"air.arg_name", !"args"}
!12 = !{i32 0, i32 4, i32 0, !"int", !"ne00", i32 4, i32 4, i32 0, !"int", !"ne01", i32 8, i32 8, i32 0, !"ulong", !"nb01", i32 16, i32 2, i32 0, !"short", !"ne12", i32 18, i32 2, i32 0, !"short", !"r2", i32 20, i32 4, i32 3, !"int", !"pad"}
!13 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"src0"}
!14 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"dst"}
!15 = !{i32 3, !"air.function_constant", !16, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"bias"}
!16 = !{ptr addrspace(2) @__metal_implicit_fc_pred_0.2, !"bool", !"align_Q"}
!17 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"tgpig"}
!18 = !{i32 5, !"air.threads_per_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"ntg"}
!20 = !{!"air.max_work_group_size", i32 256}
!30 = !{ptr @vertex_main, !31, !33}
!31 = !{!32}
!32 = !{!"air.position", !"air.arg_type_name", !"float4"}
!33 = !{!34, !35}
!34 = !{i32 0, !"air.vertex_id", !"air.arg_type_name", !"uint", !"air.arg_name", !"vid"}
!35 = !{i32 1, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 16, !"air.arg_type_align_size", i32 16, !"air.arg_type_name", !"float4", !"air.arg_name", !"positions"}
!40 = !{ptr @fragment_main, !41, !43}
!41 = !{!42}
!42 = !{!"air.render_target", i32 0, i32 0, !"air.arg_type_name", !"float4"}
!43 = !{!44}
!44 = !{i32 0, !"air.fragment_input", !"generated(8positionDv4_f)", !"air.center", !"air.perspective", !"air.arg_type_name", !"float4", !"air.arg_name", !"position", !"air.arg_unused"}
!50 = !{ptr addrspace(2) @_Z7align_Q.MTL_FC_INIT_200_b, !"bool", !"align_Q", i32 200, i1 true}
!51 = !{ptr addrspace(2) @_Z14FC_mul_mv_ne12.MTL_FC_INIT_600_s, !"short", !"FC_mul_mv_ne12", i32 600, i1 true}
!52 = !{ptr addrspace(2) @_ZL5alpha, !"float", !"alpha", i32 20, i1 false}
