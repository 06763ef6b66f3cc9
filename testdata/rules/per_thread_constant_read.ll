; Hand-written. Reads of `constant` (address space 2) memory. Shapes:
; - @life: LoganHX's life kernel (../shared/corpus/LoganHX__metal-dialect/
;   default.metallib.extracted/00000_life.ll lines 33-34): the grid is a
;   `constant int* v0` read at `v0[y * width + x]`, x and y from
;   thread_position_in_grid: a word per thread.
; - @params_only: `constant uint& n` and `constant int* shape` read at one
;   address and at a loop counter no thread id reaches (MLX's elem_to_loc).
; - @lut: a program-scope `constant float` table indexed by the SIMD lane
;   (MLX's Winograd matrices, 00069_winograd_conv_2d_weight_transform_…ll).
; - @device_per_thread: the same per-thread read from `device const int*`.
; MUST: exactly one finding, per-thread-constant-read (warning), on @life's
;   load, naming `v0` and `thread_position_in_grid`, in a loop (depth 1).
; MUST NOT: a finding in @params_only, @lut or @device_per_thread.
source_filename = "per_thread_constant_read.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_ZL2wt = internal unnamed_addr addrspace(2) constant [4 x float] [float 1.000000e+00, float 5.000000e-01, float -5.000000e-01, float 2.500000e-01], align 4

define void @life(i32 addrspace(2)* noundef readonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef readonly "air-buffer-no-alias" %1, i32 addrspace(1)* noundef "air-buffer-no-alias" %2, <3 x i32> noundef %3) local_unnamed_addr #0 {
  %x = extractelement <3 x i32> %3, i64 0
  %y = extractelement <3 x i32> %3, i64 1
  %w = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %row = mul i32 %y, %w
  br label %loop

loop:
  %dx = phi i32 [ -1, %4 ], [ %ndx, %loop ]
  %live = phi i32 [ 0, %4 ], [ %sum, %loop ]
  %cx = add i32 %x, %dx
  %at = add i32 %row, %cx
  %atz = zext i32 %at to i64
  %p = getelementptr inbounds i32, i32 addrspace(2)* %0, i64 %atz
  %cell = load i32, i32 addrspace(2)* %p, align 4, !tbaa !30
  %sum = add i32 %live, %cell
  %ndx = add nsw i32 %dx, 1
  %more = icmp slt i32 %ndx, 2
  br i1 %more, label %loop, label %done

done:
  %xz = zext i32 %x to i64
  %o = getelementptr inbounds i32, i32 addrspace(1)* %2, i64 %xz
  store i32 %sum, i32 addrspace(1)* %o, align 4, !tbaa !30
  ret void
}

define void @params_only(i32 addrspace(2)* noundef readonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef readonly "air-buffer-no-alias" %1, i32 addrspace(1)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %n = load i32, i32 addrspace(2)* %0, align 4, !tbaa !30
  br label %loop

loop:
  %i = phi i32 [ 0, %4 ], [ %ni, %loop ]
  %acc = phi i32 [ 1, %4 ], [ %prod, %loop ]
  %iz = zext i32 %i to i64
  %sp = getelementptr inbounds i32, i32 addrspace(2)* %1, i64 %iz
  %dim = load i32, i32 addrspace(2)* %sp, align 4, !tbaa !30
  %prod = mul i32 %acc, %dim
  %ni = add i32 %i, 1
  %more = icmp ult i32 %ni, %n
  br i1 %more, label %loop, label %done

done:
  %g = zext i32 %3 to i64
  %o = getelementptr inbounds i32, i32 addrspace(1)* %2, i64 %g
  store i32 %prod, i32 addrspace(1)* %o, align 4, !tbaa !30
  ret void
}

define void @lut(float addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %l = and i32 %1, 3
  %lz = zext i32 %l to i64
  %p = getelementptr inbounds [4 x float], [4 x float] addrspace(2)* @_ZL2wt, i64 0, i64 %lz
  %v = load float, float addrspace(2)* %p, align 4, !tbaa !34
  %o = getelementptr inbounds float, float addrspace(1)* %0, i64 %lz
  store float %v, float addrspace(1)* %o, align 4, !tbaa !34
  ret void
}

define void @device_per_thread(i32 addrspace(1)* noundef readonly "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %g = zext i32 %2 to i64
  %p = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %g
  %v = load i32, i32 addrspace(1)* %p, align 4, !tbaa !30
  %o = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %g
  store i32 %v, i32 addrspace(1)* %o, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !19, !22}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(2)*, i32 addrspace(2)*, i32 addrspace(1)*, <3 x i32>)* @life, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !40}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"v0"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"v1"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"v2"}
!40 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"id"}
!14 = !{void (i32 addrspace(2)*, i32 addrspace(2)*, i32 addrspace(1)*, i32)* @params_only, !9, !15}
!15 = !{!16, !17, !13, !41}
!16 = !{i32 0, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!17 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"shape"}
!41 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!19 = !{void (float addrspace(1)*, i32)* @lut, !9, !20}
!20 = !{!21, !42}
!21 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!42 = !{i32 1, !"air.thread_index_in_simdgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lane"}
!22 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @device_per_thread, !9, !23}
!23 = !{!24, !25, !43}
!24 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"grid"}
!25 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!43 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
