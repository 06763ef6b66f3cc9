; Hand-written. Shape: ggml before llama.cpp PR 22711,
; ../shared/msl/ggml-org__ggml/pre-PR22711/ggml-metal.metal lines 3376-3383
; (mul_vec_q_n_f32_impl inlined into kernel_mul_mv_q4_0_f32, lines 3524-3533):
; `const int im = tgpig.z; const uint i12 = im%args.ne12; const uint i13 =
; im/args.ne12;` then `r1*args.nb11 + i12*args.nb12 + i13*args.nb13` into
; src1. `args` is `constant ggml_metal_kargs_mul_mv &` (ggml-metal-impl.h lines
; 453-473: ne12 at byte 56), described by `air.struct_type_info` like the MLX
; corpus's AttnParams (../shared/corpus/Iito__spindll/mlx.metallib.extracted/
; 00000_steel_attention_float16_bq32_bk16_bd128_wm4_wn1_maskfloat16.ll l. 1277).
; Opaque twin of divide_args_field_typed.ll, same lines; its struct GEPs become
; `getelementptr inbounds i8, ptr addrspace(2) %0, i64 56` (the LLVM 19+ form).
; MUST: exactly two findings, divide-by-uniform on the srem (line 28) and
;   the sdiv (line 29), each naming the field `args.ne12` (kind field),
;   32-bit, not in a loop. This is the divide seed 000 says costs ~730 cycles.
; MUST NOT: a finding on the i64 muls by args.nb11/nb12/nb13 (no divides).
source_filename = "ggml-metal.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; (no %struct.ggml_metal_kargs_mul_mv here: no instruction names the type)

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @kernel_mul_mv_q4_0_f32(ptr addrspace(2) noundef align 8 dereferenceable(112) "air-buffer-no-alias" %0, ptr addrspace(1) noundef readonly captures(none) "air-buffer-no-alias" %1, ptr addrspace(1) noundef writeonly captures(none) "air-buffer-no-alias" %2, <3 x i32> noundef %3) local_unnamed_addr #0 {
  %5 = extractelement <3 x i32> %3, i64 1
  %6 = extractelement <3 x i32> %3, i64 2
  %7 = getelementptr inbounds i8, ptr addrspace(2) %0, i64 56
  %8 = load i32, ptr addrspace(2) %7, align 8, !tbaa !40
  %9 = srem i32 %6, %8
  %10 = sdiv i32 %6, %8
  %11 = zext i32 %5 to i64
  %12 = getelementptr inbounds i8, ptr addrspace(2) %0, i64 72
  %13 = load i64, ptr addrspace(2) %12, align 8, !tbaa !46
  %14 = mul i64 %13, %11
  %15 = zext i32 %9 to i64
  %16 = getelementptr inbounds i8, ptr addrspace(2) %0, i64 80
  %17 = load i64, ptr addrspace(2) %16, align 8, !tbaa !47
  %18 = mul i64 %17, %15
  %19 = add i64 %18, %14
  %20 = zext i32 %10 to i64
  %21 = getelementptr inbounds i8, ptr addrspace(2) %0, i64 88
  %22 = load i64, ptr addrspace(2) %21, align 8, !tbaa !48
  %23 = mul i64 %22, %20
  %24 = add i64 %19, %23
  %25 = getelementptr inbounds i8, ptr addrspace(1) %1, i64 %24
  %26 = load float, ptr addrspace(1) %25, align 4, !tbaa !49
  store float %26, ptr addrspace(1) %2, align 4, !tbaa !49
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{ptr @kernel_mul_mv_q4_0_f32, !9, !10}
!9 = !{}
!10 = !{!11, !13, !14, !15}
!11 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 112, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.struct_type_info", !12, !"air.arg_type_size", i32 112, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ggml_metal_kargs_mul_mv", !"air.arg_name", !"args"}
!12 = !{i32 0, i32 4, i32 0, !"int", !"ne00", i32 4, i32 4, i32 0, !"int", !"ne01", i32 8, i32 4, i32 0, !"int", !"ne02", i32 16, i32 8, i32 0, !"ulong", !"nb00", i32 24, i32 8, i32 0, !"ulong", !"nb01", i32 32, i32 8, i32 0, !"ulong", !"nb02", i32 40, i32 8, i32 0, !"ulong", !"nb03", i32 48, i32 4, i32 0, !"int", !"ne10", i32 52, i32 4, i32 0, !"int", !"ne11", i32 56, i32 4, i32 0, !"int", !"ne12", i32 64, i32 8, i32 0, !"ulong", !"nb10", i32 72, i32 8, i32 0, !"ulong", !"nb11", i32 80, i32 8, i32 0, !"ulong", !"nb12", i32 88, i32 8, i32 0, !"ulong", !"nb13", i32 96, i32 4, i32 0, !"int", !"ne0", i32 100, i32 4, i32 0, !"int", !"ne1", i32 104, i32 4, i32 0, !"int", !"nr0", i32 108, i32 2, i32 0, !"short", !"r2", i32 110, i32 2, i32 0, !"short", !"r3"}
!13 = !{i32 1, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"char", !"air.arg_name", !"src1"}
!14 = !{i32 2, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"char", !"air.arg_name", !"dst"}
!15 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"tgpig"}
!40 = !{!41, !42, i64 56}
!41 = !{!"_ZTS23ggml_metal_kargs_mul_mv", !42, i64 0, !42, i64 4, !42, i64 8, !45, i64 16, !45, i64 24, !45, i64 32, !45, i64 40, !42, i64 48, !42, i64 52, !42, i64 56, !45, i64 64, !45, i64 72, !45, i64 80, !45, i64 88, !42, i64 96, !42, i64 100, !42, i64 104, !50, i64 108, !50, i64 110}
!42 = !{!"int", !43, i64 0}
!43 = !{!"omnipotent char", !44, i64 0}
!44 = !{!"Simple C++ TBAA"}
!45 = !{!"long", !43, i64 0}
!46 = !{!41, !45, i64 72}
!47 = !{!41, !45, i64 80}
!48 = !{!41, !45, i64 88}
!49 = !{!51, !51, i64 0}
!50 = !{!"short", !43, i64 0}
!51 = !{!"float", !43, i64 0}
