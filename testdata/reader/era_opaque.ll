; Hand-written twin of era_typed.ll: the same program, line for line, as a
; newer llvm-dis (LLVM 20+) prints it. Shape:
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.opaque.ll
;   ../shared/corpus/ziglana__grincel/default.metallib.extracted/00000_compute.opaque.ll
; (`ptr addrspace(N)`, `captures(none)`, `memory(...)` in attribute groups,
; `ptr @k` in !air.kernel), `splat (half 0xHFBFF)` as in 00003_attention.opaque.ll,
; and LLVM LangRef syntax for `getelementptr inbounds nuw`, `zext nneg`, `range(i32 0, 1024)`.
; Must produce: the same opcodes, operand counts, operand address spaces and
; printed types as era_typed.ll, and the same AIR kernel description.
; Must not produce: any diagnostic.
source_filename = "scale_rows"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn memory(argmem: readwrite)
define weak_odr void @scale_rows(ptr addrspace(1) noundef readonly captures(none) "air-buffer-no-alias" %0, ptr addrspace(1) noundef writeonly captures(none) "air-buffer-no-alias" %1, ptr addrspace(2) noundef readonly captures(none) align 4 dereferenceable(4) "air-buffer-no-alias" %2, ptr addrspace(3) noundef captures(none) "air-buffer-no-alias" %3, i32 noundef range(i32 0, 1024) %4) local_unnamed_addr #0 {
  %6 = load i32, ptr addrspace(2) %2, align 4, !tbaa !20
  %7 = icmp ult i32 %4, %6
  br i1 %7, label %8, label %19

8:                                                ; preds = %5
  %9 = zext nneg i32 %4 to i64
  %10 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %9
  %11 = load float, ptr addrspace(1) %10, align 4, !tbaa !24
  %12 = insertelement <2 x float> poison, float %11, i64 0
  %13 = shufflevector <2 x float> %12, <2 x float> poison, <2 x i32> zeroinitializer
  %14 = fmul fast <2 x float> %13, splat (float 2.000000e+00)
  %15 = extractelement <2 x float> %14, i64 1
  %16 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %9
  store float %15, ptr addrspace(1) %16, align 4, !tbaa !24
  %17 = getelementptr inbounds nuw <2 x half>, ptr addrspace(3) %3, i64 %9
  store <2 x half> splat (half 0xHFBFF), ptr addrspace(3) %17, align 4, !tbaa !26
  tail call void @air.wg.barrier(i32 2, i32 1) #2
  br label %19

19:                                               ; preds = %8, %5
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

attributes #0 = { convergent mustprogress nounwind willreturn memory(argmem: readwrite) "approx-func-fp-math"="true" "frame-pointer"="all" "min-legal-vector-width"="64" "no-builtins" }
attributes #1 = { convergent mustprogress nounwind willreturn }
attributes #2 = { convergent nounwind }

!llvm.ident = !{!0}
!air.version = !{!1}
!air.language_version = !{!2}
!air.compile_options = !{!3, !4}
!air.kernel = !{!5}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!1 = !{i32 2, i32 7, i32 0}
!2 = !{!"Metal", i32 3, i32 2, i32 0}
!3 = !{!"air.compile.denorms_disable"}
!4 = !{!"air.compile.fast_math_enable"}
!5 = !{ptr @scale_rows, !6, !7}
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
