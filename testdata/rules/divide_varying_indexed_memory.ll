; Hand-written. divide_varying.ll's memory divisors, read at a thread-indexed
; or threadgroup-indexed address instead of a fixed one, as elementwise
; kernels do (tinygrad's `a // b` on int tensors: `sdiv i32 a[gid], b[gid]`;
; the first "basic division and modulo" tests of seed
; ../shared/seeds/002_1a3b6f607dabf4d0.txt, Phase 1):
; - @div_elementwise: divisor b[gid] from a device buffer;
; - @div_by_group: b[tgpig.x] (a uniform index into device memory), shmem[lid]
;   from a `threadgroup int *shmem [[threadgroup(0)]]` argument, and bins[lid]
;   from a program-scope threadgroup array.
; The divisor is the loaded value; the index only says where it is read.
; MUST: exactly four findings, all divide-by-varying, each naming the memory
;   the divisor is loaded from (kind memory, "a value loaded from device or
;   threadgroup memory"), never the index:
;   line 33 names `b` (class varying);
;   line 45 names `b` (varying or mixed: device memory at a uniform index);
;   line 49 names `shmem`;
;   line 52 names `_ZZ12div_by_groupE4bins`.
; MUST NOT: name `thread_position_in_grid`, `threadgroup_position_in_grid` or
;   `thread_index_in_threadgroup` as the divisor.
source_filename = "divide_varying_indexed_memory.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_ZZ12div_by_groupE4bins = internal unnamed_addr addrspace(3) global [32 x i32] undef, align 4

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @div_elementwise(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = zext i32 %3 to i64
  %6 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %5
  %7 = load i32, i32 addrspace(1)* %6, align 4, !tbaa !30
  %8 = getelementptr inbounds i32, i32 addrspace(1)* %2, i64 %5
  %9 = load i32, i32 addrspace(1)* %8, align 4, !tbaa !30
  %10 = sdiv i32 %7, %9
  %11 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %5
  store i32 %10, i32 addrspace(1)* %11, align 4, !tbaa !30
  ret void
}

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn
define void @div_by_group(i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i32 addrspace(3)* nocapture noundef readonly "air-buffer-no-alias" %2, <3 x i32> noundef %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = extractelement <3 x i32> %3, i64 0
  %7 = zext i32 %6 to i64
  %8 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %7
  %9 = load i32, i32 addrspace(1)* %8, align 4, !tbaa !30
  %10 = udiv i32 %4, %9
  %11 = zext i32 %4 to i64
  %12 = getelementptr inbounds i32, i32 addrspace(3)* %2, i64 %11
  %13 = load i32, i32 addrspace(3)* %12, align 4, !tbaa !30
  %14 = srem i32 %6, %13
  %15 = getelementptr inbounds [32 x i32], [32 x i32] addrspace(3)* @_ZZ12div_by_groupE4bins, i64 0, i64 %11
  %16 = load i32, i32 addrspace(3)* %15, align 4, !tbaa !30
  %17 = urem i32 %6, %16
  %18 = add i32 %10, %14
  %19 = add i32 %18, %17
  %20 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %11
  store i32 %19, i32 addrspace(1)* %20, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !15}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*, i32)* @div_elementwise, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"out"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"a"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"b"}
!14 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!15 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(3)*, <3 x i32>, i32)* @div_by_group, !9, !16}
!16 = !{!11, !17, !18, !19, !20}
!17 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"b"}
!18 = !{i32 2, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 3, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"shmem"}
!19 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"tgpig"}
!20 = !{i32 4, !"air.thread_index_in_threadgroup", !"air.arg_type_name", !"uint", !"air.arg_name", !"lid"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
