; Hand-written. Uniform divisors whose cost the message must qualify:
; - @kernel_conv_2d: ggml's grid-stride loop (../shared/msl/ggml-org__ggml/
;   pre-PR22711/ggml-metal.metal lines 4722-4757): `uint64_t tmp = index; ow =
;   tmp % args.OW; tmp /= args.OW; oh = tmp % args.OH;` (i64, OW and OH are
;   int32_t fields of ggml_metal_kargs_conv_2d, ggml-metal-impl.h lines
;   619-647, sign-extended) and, under `if (base_y < 0)`, `ky_start = (-base_y
;   + args.d1 - 1)/args.d1` (i32). Simplified: the thread index and stride come
;   from thread_position_in_grid and threads_per_grid; field loads hoisted.
; - @elem_to_loc: MLX's elem_to_loc loop in arg_reduce (../shared/corpus/
;   Iito__spindll/mlx.metallib.extracted/00024_argmin_uint32.ll lines 33-51):
;   `srem i64` and `sdiv i64` by `sext (load shape[i])`, shape a `constant
;   int*`, i counting down from `constant size_t& ndim`.
; - @arg_reduce_blocks: the same file, lines 53-61: `udiv i64` by
;   zext(lsize.x << 2) (threads_per_threadgroup), in no loop.
; MUST: exactly seven findings, all divide-by-uniform:
;   lines 66 (urem i64), 67 (udiv i64) name `args.OW`; line 68
;     (urem i64) names `args.OH`: loop depth 1, messages say both "in a loop"
;     and "64-bit";
;   line 78 (sdiv i32) names `args.d1`: loop depth 1, message says "in a
;     loop" and NOT "64-bit";
;   lines 123 (srem i64), 128 (sdiv i64) name `shape`: loop depth 1,
;     both notes;
;   line 143 (udiv i64) names `threads_per_threadgroup`: loop depth 0,
;     message says "64-bit" and NOT "in a loop".
; MUST NOT: divide-by-varying on any of them (the dividends vary, the
;   divisors do not).
source_filename = "divide_cost.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct.ggml_metal_kargs_conv_2d = type { i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32 }

; Function Attrs: convergent mustprogress nofree norecurse nounwind
define void @kernel_conv_2d(%struct.ggml_metal_kargs_conv_2d addrspace(2)* noundef align 8 dereferenceable(160) "air-buffer-no-alias" %0, float addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 20
  %6 = load i32, i32 addrspace(2)* %5, align 8, !tbaa !40
  %7 = sext i32 %6 to i64
  %8 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 17
  %9 = load i32, i32 addrspace(2)* %8, align 4, !tbaa !44
  %10 = sext i32 %9 to i64
  %11 = mul i64 %7, %10
  %12 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 19
  %13 = load i32, i32 addrspace(2)* %12, align 4, !tbaa !45
  %14 = sext i32 %13 to i64
  %15 = mul i64 %11, %14
  %16 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 18
  %17 = load i32, i32 addrspace(2)* %16, align 8, !tbaa !46
  %18 = sext i32 %17 to i64
  %19 = mul i64 %15, %18
  %20 = zext i32 %2 to i64
  %21 = icmp ult i64 %20, %19
  br i1 %21, label %22, label %51

22:                                               ; preds = %4
  %23 = zext i32 %3 to i64
  %24 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 22
  %25 = load i32, i32 addrspace(2)* %24, align 8, !tbaa !47
  %26 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 24
  %27 = load i32, i32 addrspace(2)* %26, align 8, !tbaa !48
  %28 = getelementptr inbounds %struct.ggml_metal_kargs_conv_2d, %struct.ggml_metal_kargs_conv_2d addrspace(2)* %0, i64 0, i32 26
  %29 = load i32, i32 addrspace(2)* %28, align 8, !tbaa !49
  br label %30

30:                                               ; preds = %43, %22
  %31 = phi i64 [ %20, %22 ], [ %49, %43 ]
  %32 = urem i64 %31, %18
  %33 = udiv i64 %31, %18
  %34 = urem i64 %33, %14
  %35 = trunc i64 %34 to i32
  %36 = mul nsw i32 %35, %25
  %37 = sub nsw i32 %36, %27
  %38 = icmp slt i32 %37, 0
  br i1 %38, label %39, label %43

39:                                               ; preds = %30
  %40 = sub nsw i32 %29, %37
  %41 = add nsw i32 %40, -1
  %42 = sdiv i32 %41, %29
  br label %43

43:                                               ; preds = %39, %30
  %44 = phi i32 [ %42, %39 ], [ 0, %30 ]
  %45 = trunc i64 %32 to i32
  %46 = add nsw i32 %44, %45
  %47 = sitofp i32 %46 to float
  %48 = getelementptr inbounds float, float addrspace(1)* %1, i64 %31
  store float %47, float addrspace(1)* %48, align 4, !tbaa !50
  %49 = add i64 %31, %23
  %50 = icmp ult i64 %49, %19
  br i1 %50, label %30, label %51, !llvm.loop !52

51:                                               ; preds = %43, %4
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind
define void @elem_to_loc(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i64 addrspace(2)* noundef "air-buffer-no-alias" %2, i64 addrspace(2)* noundef align 8 dereferenceable(8) "air-buffer-no-alias" %3, <3 x i32> noundef %4) local_unnamed_addr #0 {
  %6 = extractelement <3 x i32> %4, i64 1
  %7 = zext i32 %6 to i64
  %8 = load i64, i64 addrspace(2)* %3, align 8, !tbaa !53
  %9 = trunc i64 %8 to i32
  %10 = icmp sgt i32 %9, 0
  %11 = icmp ne i64 %7, 0
  %12 = select i1 %10, i1 %11, i1 false
  br i1 %12, label %17, label %13

13:                                               ; preds = %17, %5
  %14 = phi i64 [ 0, %5 ], [ %30, %17 ]
  %15 = trunc i64 %14 to i32
  %16 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %7
  store i32 %15, i32 addrspace(1)* %16, align 4, !tbaa !54
  ret void

17:                                               ; preds = %17, %5
  %18 = phi i32 [ %21, %17 ], [ %9, %5 ]
  %19 = phi i64 [ %30, %17 ], [ 0, %5 ]
  %20 = phi i64 [ %31, %17 ], [ %7, %5 ]
  %21 = add nsw i32 %18, -1
  %22 = zext i32 %21 to i64
  %23 = getelementptr inbounds i32, i32 addrspace(2)* %1, i64 %22
  %24 = load i32, i32 addrspace(2)* %23, align 4, !tbaa !54
  %25 = sext i32 %24 to i64
  %26 = srem i64 %20, %25
  %27 = getelementptr inbounds i64, i64 addrspace(2)* %2, i64 %22
  %28 = load i64, i64 addrspace(2)* %27, align 8, !tbaa !53
  %29 = mul nsw i64 %28, %26
  %30 = add nsw i64 %29, %19
  %31 = sdiv i64 %20, %25
  %32 = icmp ugt i32 %18, 1
  %33 = icmp sgt i64 %31, 0
  %34 = select i1 %32, i1 %33, i1 false
  br i1 %34, label %17, label %13, !llvm.loop !52
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @arg_reduce_blocks(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i64 addrspace(2)* noundef align 8 dereferenceable(8) "air-buffer-no-alias" %1, <3 x i32> noundef %2) local_unnamed_addr #1 {
  %4 = load i64, i64 addrspace(2)* %1, align 8, !tbaa !53
  %5 = extractelement <3 x i32> %2, i64 0
  %6 = shl i32 %5, 2
  %7 = zext i32 %6 to i64
  %8 = add nsw i64 %7, -1
  %9 = add i64 %8, %4
  %10 = udiv i64 %9, %7
  %11 = trunc i64 %10 to i32
  store i32 %11, i32 addrspace(1)* %0, align 4, !tbaa !54
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !16, !23}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (%struct.ggml_metal_kargs_conv_2d addrspace(2)*, float addrspace(1)*, i32, i32)* @kernel_conv_2d, !9, !10}
!9 = !{}
!10 = !{!11, !13, !14, !15}
!11 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 160, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.struct_type_info", !12, !"air.arg_type_size", i32 160, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ggml_metal_kargs_conv_2d", !"air.arg_name", !"args"}
!12 = !{i32 0, i32 8, i32 0, !"ulong", !"nb00", i32 8, i32 8, i32 0, !"ulong", !"nb01", i32 16, i32 8, i32 0, !"ulong", !"nb02", i32 24, i32 8, i32 0, !"ulong", !"nb03", i32 32, i32 8, i32 0, !"ulong", !"nb10", i32 40, i32 8, i32 0, !"ulong", !"nb11", i32 48, i32 8, i32 0, !"ulong", !"nb12", i32 56, i32 8, i32 0, !"ulong", !"nb13", i32 64, i32 8, i32 0, !"ulong", !"nb0", i32 72, i32 8, i32 0, !"ulong", !"nb1", i32 80, i32 8, i32 0, !"ulong", !"nb2", i32 88, i32 8, i32 0, !"ulong", !"nb3", i32 96, i32 4, i32 0, !"int", !"IW", i32 100, i32 4, i32 0, !"int", !"IH", i32 104, i32 4, i32 0, !"int", !"KW", i32 108, i32 4, i32 0, !"int", !"KH", i32 112, i32 4, i32 0, !"int", !"IC", i32 116, i32 4, i32 0, !"int", !"OC", i32 120, i32 4, i32 0, !"int", !"OW", i32 124, i32 4, i32 0, !"int", !"OH", i32 128, i32 4, i32 0, !"int", !"N", i32 132, i32 4, i32 0, !"int", !"s0", i32 136, i32 4, i32 0, !"int", !"s1", i32 140, i32 4, i32 0, !"int", !"p0", i32 144, i32 4, i32 0, !"int", !"p1", i32 148, i32 4, i32 0, !"int", !"d0", i32 152, i32 4, i32 0, !"int", !"d1"}
!13 = !{i32 1, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"dst"}
!14 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"thread_index"}
!15 = !{i32 3, !"air.threads_per_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"total_threads"}
!16 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i64 addrspace(2)*, i64 addrspace(2)*, <3 x i32>)* @elem_to_loc, !9, !17}
!17 = !{!18, !19, !20, !21, !22}
!18 = !{i32 0, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!19 = !{i32 1, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"shape"}
!20 = !{i32 2, !"air.buffer", !"air.location_index", i32 3, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"long", !"air.arg_name", !"in_strides"}
!21 = !{i32 3, !"air.buffer", !"air.buffer_size", i32 8, !"air.location_index", i32 5, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ulong", !"air.arg_name", !"ndim"}
!22 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"gid"}
!23 = !{void (i32 addrspace(1)*, i64 addrspace(2)*, <3 x i32>)* @arg_reduce_blocks, !9, !24}
!24 = !{!18, !25, !26}
!25 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 8, !"air.location_index", i32 7, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 8, !"air.arg_type_align_size", i32 8, !"air.arg_type_name", !"ulong", !"air.arg_name", !"axis_size"}
!26 = !{i32 2, !"air.threads_per_threadgroup", !"air.arg_type_name", !"uint3", !"air.arg_name", !"lsize"}
!40 = !{!41, !42, i64 128}
!41 = !{!"_ZTS24ggml_metal_kargs_conv_2d", !43, i64 0, !43, i64 8, !43, i64 16, !43, i64 24, !43, i64 32, !43, i64 40, !43, i64 48, !43, i64 56, !43, i64 64, !43, i64 72, !43, i64 80, !43, i64 88, !42, i64 96, !42, i64 100, !42, i64 104, !42, i64 108, !42, i64 112, !42, i64 116, !42, i64 120, !42, i64 124, !42, i64 128, !42, i64 132, !42, i64 136, !42, i64 140, !42, i64 144, !42, i64 148, !42, i64 152}
!42 = !{!"int", !55, i64 0}
!43 = !{!"long", !55, i64 0}
!44 = !{!41, !42, i64 116}
!45 = !{!41, !42, i64 124}
!46 = !{!41, !42, i64 120}
!47 = !{!41, !42, i64 136}
!48 = !{!41, !42, i64 144}
!49 = !{!41, !42, i64 152}
!50 = !{!51, !51, i64 0}
!51 = !{!"float", !55, i64 0}
!52 = distinct !{!52, !57}
!53 = !{!43, !43, i64 0}
!54 = !{!42, !42, i64 0}
!55 = !{!"omnipotent char", !56, i64 0}
!56 = !{!"Simple C++ TBAA"}
!57 = !{!"llvm.loop.mustprogress"}
