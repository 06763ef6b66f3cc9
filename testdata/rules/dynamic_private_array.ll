; Hand-written. Thread-private arrays and structs, indexed dynamically or
; not. Shapes:
; - @private_histogram: `uint counts[16] = {}; for (i < n) counts[in[i] & 15]++;`
;   the index comes from device memory (the same for every thread: `in` is
;   read-only and `i` no thread id reaches; data all the same) (the "dynamically indexed stack array"
;   of WWDC16 session 606; seed 001 finding 181).
; - @tail_fill: MLX's layer_norm tail after -O2 split its guarded loop
;   (../shared/corpus/Iito__spindll/mlx.metallib.extracted/
;   00352_layer_normfloat32.ll lines 85-90): `for (i = remaining; i < 8; i++)
;   thread_x[i] = 0;`, the start depending on the thread.
; - @field_array: `struct { float v[8]; uint n; } s; s.v[lid & 7] = x;`, an
;   array inside a private struct.
; - @unrolled_reads: MLX's gemv `#pragma unroll` loops (00129_gemv_float32_…
;   lines 86-97): `for (int i = 0; i < 4; i++) inter[i] = in[i];` with
;   `llvm.loop.unroll.full`: the backend unrolls it, the indices become
;   constants.
; - @fc_offset: Metal FlashAttention's `C_sram_offset`
;   (../shared/corpus/EricLBuehler__mistral.rs/…/00001_hgemm.ll lines
;   26, 198, 382-384): an index into a private array computed by the
;   `air.static_init` constructor from function constants, known when the
;   pipeline is built.
; - @struct_fields: a private struct read at constant field indices only.
; MUST: exactly three findings, all dynamic-private-array (warning), on the
;   allocas of @private_histogram (index from `in`, in a loop), @tail_fill
;   (class mixed) and @field_array (index from `lid`).
; MUST NOT: a finding in @unrolled_reads, @fc_offset or @struct_fields.
source_filename = "dynamic_private_array.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

%struct.Staged = type { [8 x float], i32 }

@_Z7M_split.MTL_FC_INIT_0_t = internal unnamed_addr addrspace(2) externally_initialized constant i16 undef, section "air.fc_initializer", align 2
@_ZL13C_sram_offset = internal unnamed_addr addrspace(2) global i16 0, align 2
@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, i8* } { i32 65535, void ()* @_GLOBAL__sub_I_dynamic_private_array.metal, i8* null }]

; Function Attrs: convergent mustprogress nounwind
define void @private_histogram(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %counts = alloca [16 x i32], align 4
  %5 = bitcast [16 x i32]* %counts to i8*
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(64) %5, i8 0, i64 64, i1 false)
  %6 = load i32, i32 addrspace(2)* %2, align 4, !tbaa !30
  %7 = icmp eq i32 %6, 0
  br i1 %7, label %done, label %count

count:
  %8 = phi i32 [ %15, %count ], [ 0, %4 ]
  %9 = zext i32 %8 to i64
  %10 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %9
  %11 = load i32, i32 addrspace(1)* %10, align 4, !tbaa !30
  %12 = and i32 %11, 15
  %13 = zext i32 %12 to i64
  %bin = getelementptr inbounds [16 x i32], [16 x i32]* %counts, i64 0, i64 %13
  %14 = load i32, i32* %bin, align 4, !tbaa !30
  %inc = add i32 %14, 1
  store i32 %inc, i32* %bin, align 4, !tbaa !30
  %15 = add nuw i32 %8, 1
  %16 = icmp eq i32 %15, %6
  br i1 %16, label %done, label %count, !llvm.loop !40

done:
  %first = getelementptr inbounds [16 x i32], [16 x i32]* %counts, i64 0, i64 0
  %17 = load i32, i32* %first, align 4, !tbaa !30
  %18 = zext i32 %3 to i64
  %19 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %18
  store i32 %17, i32 addrspace(1)* %19, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define void @tail_fill(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %thread_x = alloca [8 x float], align 4
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = shl i32 %2, 3
  %6 = sub i32 %4, %5
  %7 = icmp slt i32 %6, 8
  br i1 %7, label %fill, label %sum

fill:
  %8 = phi i32 [ %11, %fill ], [ %6, %3 ]
  %9 = sext i32 %8 to i64
  %10 = getelementptr inbounds [8 x float], [8 x float]* %thread_x, i64 0, i64 %9
  store float 0.000000e+00, float* %10, align 4, !tbaa !34
  %11 = add i32 %8, 1
  %12 = icmp eq i32 %11, 8
  br i1 %12, label %sum, label %fill, !llvm.loop !40

sum:
  %13 = getelementptr inbounds [8 x float], [8 x float]* %thread_x, i64 0, i64 7
  %14 = load float, float* %13, align 4, !tbaa !34
  %15 = zext i32 %2 to i64
  %16 = getelementptr inbounds float, float addrspace(1)* %0, i64 %15
  store float %14, float addrspace(1)* %16, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @field_array(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %s = alloca %struct.Staged, align 4
  %3 = and i32 %1, 7
  %4 = zext i32 %3 to i64
  %5 = getelementptr inbounds %struct.Staged, %struct.Staged* %s, i64 0, i32 0, i64 %4
  store float 1.000000e+00, float* %5, align 4, !tbaa !34
  %6 = getelementptr inbounds %struct.Staged, %struct.Staged* %s, i64 0, i32 0, i64 0
  %7 = load float, float* %6, align 4, !tbaa !34
  %8 = zext i32 %1 to i64
  %9 = getelementptr inbounds float, float addrspace(1)* %0, i64 %8
  store float %7, float addrspace(1)* %9, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @unrolled_reads(float addrspace(1)* noundef "air-buffer-no-alias" %0, float addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #1 {
  %inter = alloca [4 x float], align 4
  br label %read

read:
  %4 = phi i32 [ 0, %3 ], [ %10, %read ]
  %5 = zext i32 %4 to i64
  %6 = getelementptr inbounds float, float addrspace(1)* %1, i64 %5
  %7 = load float, float addrspace(1)* %6, align 4, !tbaa !34
  %8 = zext i32 %4 to i64
  %9 = getelementptr inbounds [4 x float], [4 x float]* %inter, i64 0, i64 %8
  store float %7, float* %9, align 4, !tbaa !34
  %10 = add nuw nsw i32 %4, 1
  %11 = icmp eq i32 %10, 4
  br i1 %11, label %sum, label %read, !llvm.loop !42

sum:
  %12 = phi i32 [ 0, %read ], [ %18, %sum ]
  %13 = phi float [ 0.000000e+00, %read ], [ %17, %sum ]
  %14 = zext i32 %12 to i64
  %15 = getelementptr inbounds [4 x float], [4 x float]* %inter, i64 0, i64 %14
  %16 = load float, float* %15, align 4, !tbaa !34
  %17 = fadd fast float %13, %16
  %18 = add nuw nsw i32 %12, 1
  %19 = icmp eq i32 %18, 4
  br i1 %19, label %out, label %sum, !llvm.loop !42

out:
  %20 = zext i32 %2 to i64
  %21 = getelementptr inbounds float, float addrspace(1)* %0, i64 %20
  store float %17, float addrspace(1)* %21, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @fc_offset(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %sram = alloca [64 x float], align 4
  %3 = load i16, i16 addrspace(2)* @_ZL13C_sram_offset, align 2, !tbaa !36
  %4 = zext i16 %3 to i64
  %5 = getelementptr inbounds [64 x float], [64 x float]* %sram, i64 0, i64 %4
  store float 1.000000e+00, float* %5, align 4, !tbaa !34
  %6 = getelementptr inbounds [64 x float], [64 x float]* %sram, i64 0, i64 0
  %7 = load float, float* %6, align 4, !tbaa !34
  %8 = zext i32 %1 to i64
  %9 = getelementptr inbounds float, float addrspace(1)* %0, i64 %8
  store float %7, float addrspace(1)* %9, align 4, !tbaa !34
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @struct_fields(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #1 {
  %s = alloca %struct.Staged, align 4
  %3 = getelementptr inbounds %struct.Staged, %struct.Staged* %s, i64 0, i32 0, i64 3
  store float 2.000000e+00, float* %3, align 4, !tbaa !34
  %4 = getelementptr inbounds %struct.Staged, %struct.Staged* %s, i64 0, i32 1
  store i32 %1, i32* %4, align 4, !tbaa !30
  %5 = load float, float* %3, align 4, !tbaa !34
  %6 = zext i32 %1 to i64
  %7 = getelementptr inbounds float, float addrspace(1)* %0, i64 %6
  store float %5, float addrspace(1)* %7, align 4, !tbaa !34
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn
define internal void @_GLOBAL__sub_I_dynamic_private_array.metal() #2 section "air.static_init" {
  %1 = load i16, i16 addrspace(2)* @_Z7M_split.MTL_FC_INIT_0_t, align 2, !tbaa !36
  %2 = lshr i16 %1, 3
  %3 = mul i16 %2, 8
  store i16 %3, i16 addrspace(2)* @_ZL13C_sram_offset, align 2, !tbaa !36
  ret void
}

; Function Attrs: argmemonly nocallback nofree nounwind willreturn writeonly
declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #3

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { argmemonly nocallback nofree nounwind willreturn writeonly }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15, !18, !21, !23, !24}
!air.function_constants = !{!38}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(2)*, i32)* @private_histogram, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!14 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{void (float addrspace(1)*, i32 addrspace(2)*, i32)* @tail_fill, !9, !16}
!16 = !{!17, !25, !26}
!17 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!18 = !{void (float addrspace(1)*, i32)* @field_array, !9, !19}
!19 = !{!17, !20}
!20 = !{i32 1, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!21 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @unrolled_reads, !9, !22}
!22 = !{!17, !27, !28}
!23 = !{void (float addrspace(1)*, i32)* @fc_offset, !9, !19}
!24 = !{void (float addrspace(1)*, i32)* @struct_fields, !9, !19}
!25 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"axis_size"}
!26 = !{i32 2, !"air.thread_position_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!27 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!28 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!36 = !{!37, !37, i64 0}
!37 = !{!"short", !32, i64 0}
!38 = !{i16 addrspace(2)* @_Z7M_split.MTL_FC_INIT_0_t, !"ushort", !"M_split", i32 0, i1 true}
!40 = distinct !{!40, !41}
!41 = !{!"llvm.loop.mustprogress"}
!42 = distinct !{!42, !41, !43}
!43 = !{!"llvm.loop.unroll.full"}
