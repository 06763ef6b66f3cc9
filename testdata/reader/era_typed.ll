; Hand-written twin of era_opaque.ll: the same program, line for line, as an
; llvm-dis from before opaque pointers prints it. Shape:
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.ll
; (typed `float addrspace(1)*` params and loads, `readnone`/`argmemonly`
; attribute groups, `void (...)*` in !air.kernel), and the <2 x half> store of
;   ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/00003_attention.ll
; (No bitcasts of pointers: they would vanish in the opaque twin.)
; Must produce: the same opcodes, operand counts, operand address spaces and
; printed types as era_opaque.ll, and the same AIR kernel description.
; Must not produce: any diagnostic.
source_filename = "scale_rows"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.0.0"

; Function Attrs: argmemonly convergent mustprogress nounwind willreturn
define weak_odr void @scale_rows(float addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 addrspace(2)* nocapture noundef readonly align 4 dereferenceable(4) "air-buffer-no-alias" %2, <2 x half> addrspace(3)* nocapture noundef "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = load i32, i32 addrspace(2)* %2, align 4, !tbaa !20
  %7 = icmp ult i32 %4, %6
  br i1 %7, label %8, label %19

8:                                                ; preds = %5
  %9 = zext i32 %4 to i64
  %10 = getelementptr inbounds float, float addrspace(1)* %0, i64 %9
  %11 = load float, float addrspace(1)* %10, align 4, !tbaa !24
  %12 = insertelement <2 x float> undef, float %11, i64 0
  %13 = shufflevector <2 x float> %12, <2 x float> undef, <2 x i32> zeroinitializer
  %14 = fmul fast <2 x float> %13, <float 2.000000e+00, float 2.000000e+00>
  %15 = extractelement <2 x float> %14, i64 1
  %16 = getelementptr inbounds float, float addrspace(1)* %1, i64 %9
  store float %15, float addrspace(1)* %16, align 4, !tbaa !24
  %17 = getelementptr inbounds <2 x half>, <2 x half> addrspace(3)* %3, i64 %9
  store <2 x half> <half 0xHFBFF, half 0xHFBFF>, <2 x half> addrspace(3)* %17, align 4, !tbaa !26
  tail call void @air.wg.barrier(i32 2, i32 1) #2
  br label %19

19:                                               ; preds = %8, %5
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

attributes #0 = { argmemonly convergent mustprogress nounwind willreturn "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="64" "no-builtins" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent nounwind }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.language_version = !{!2}
!air.compile_options = !{!3, !4}
!air.kernel = !{!5}

!0 = !{!"Apple metal version 31001.667 (metalfe-31001.667.2)"}
!1 = !{i32 2, i32 6, i32 0}
!2 = !{!"Metal", i32 3, i32 1, i32 0}
!3 = !{!"air.compile.denorms_disable"}
!4 = !{!"air.compile.fast_math_enable"}
!5 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(2)*, <2 x half> addrspace(3)*, i32)* @scale_rows, !6, !7}
!6 = !{}
!7 = !{!8, !9, !10, !11, !12}
!8 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!9 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!10 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!11 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"half2", !"air.arg_name", !"scratch"}
!12 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"tid"}
!20 = !{!21, !21, i64 0}
!21 = !{!"int", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C++ TBAA"}
!24 = !{!25, !25, i64 0}
!25 = !{!"float", !22, i64 0}
!26 = !{!27, !27, i64 0}
!27 = !{!"half2", !22, i64 0}
