; Hand-written. Divisors that differ per thread. Shapes:
; - @div_by_scalar_buffer: tinygrad's way of reading a scalar from a one-element
;   device buffer (`int val1 = *(data2_1+0);`, the generated MSL style shown in
;   seed ../shared/seeds/002_1a3b6f607dabf4d0.txt, Phase 1) as a divisor:
;   `sdiv i32 a[gid], b[0]`, plus the same from a `threadgroup int *shmem
;   [[threadgroup(0)]]` argument (metadata as the corpus's `shared_data`,
;   address space 3) and from a program-scope threadgroup array (like MLX's
;   `Q_smem` globals, ../shared/corpus/Iito__spindll/mlx.metallib.extracted/
;   00000_steel_attention_*.ll line 24) read at a constant-expression address.
;   Threadgroup memory is written by the threadgroup: varying. The device
;   buffer `b` is read at one address by every thread and never written by
;   the kernel: the same value for all (divide_device_uniform.ll has more).
; - @div_by_thread: a divisor from `thread_position_in_grid` (gid + 1) and one
;   that mixes `constant uint& n` with it (n + gid).
; The same loads at a thread-indexed address are in
; divide_varying_indexed_memory.ll.
; MUST: exactly five findings:
;   line 35 divide-by-uniform naming `b` (kind memory, class uniform, "a
;   device scalar");
;   and divide-by-varying (severity note) on the others:
;   line 37 names `shmem` (kind memory);
;   line 39 names the array's global `_ZZ20div_by_scalar_bufferE4bins` (kind memory);
;   line 51 names `thread_position_in_grid` (kind builtin);
;   line 53 names `thread_position_in_grid` (kind builtin, class mixed).
; MUST NOT: divide-by-uniform on lines 37-53, even where the dividend (`n`)
;   or part of the divisor is uniform.
source_filename = "divide_varying.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_ZZ20div_by_scalar_bufferE4bins = internal unnamed_addr addrspace(3) global [32 x i32] undef, align 4

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @div_by_scalar_buffer(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %2, i32 addrspace(3)* nocapture noundef readonly "air-buffer-no-alias" %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = zext i32 %4 to i64
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %6
  %8 = load i32, i32 addrspace(1)* %7, align 4, !tbaa !30
  %9 = load i32, i32 addrspace(1)* %2, align 4, !tbaa !30
  %10 = sdiv i32 %8, %9
  %11 = load i32, i32 addrspace(3)* %3, align 4, !tbaa !30
  %12 = srem i32 %8, %11
  %13 = load i32, i32 addrspace(3)* getelementptr inbounds ([32 x i32], [32 x i32] addrspace(3)* @_ZZ20div_by_scalar_bufferE4bins, i64 0, i64 0), align 4, !tbaa !30
  %14 = urem i32 %8, %13
  %15 = add i32 %10, %12
  %16 = add i32 %15, %14
  %17 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %6
  store i32 %16, i32 addrspace(1)* %17, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @div_by_thread(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(2)* noundef align 4 dereferenceable(4) "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !tbaa !30
  %5 = add i32 %2, 1
  %6 = udiv i32 %4, %5
  %7 = add i32 %4, %2
  %8 = udiv i32 %2, %7
  %9 = add i32 %6, %8
  %10 = zext i32 %2 to i64
  %11 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %10
  store i32 %9, i32 addrspace(1)* %11, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !16}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(3)*, i32)* @div_by_scalar_buffer, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14, !15}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"a"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"b"}
!14 = !{i32 3, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"shmem"}
!15 = !{i32 4, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!16 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @div_by_thread, !9, !17}
!17 = !{!11, !18, !19}
!18 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!19 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
