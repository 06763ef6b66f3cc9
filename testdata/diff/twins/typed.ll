; Hand-written. One program printed two ways: this file with typed pointers,
; as Apple's metalfe-32023 `-S -emit-llvm` and `llvm-dis-14` print AIR, and
; ./opaque.ll as an opaque-pointer printer (LLVM 19+) prints it. Shape from
; ../shared/corpus/kolinko__effort/default.metallib.extracted/00061_bucketMul2.ll
; (a private `[16 x float]` array cleared through an `i8*` bitcast, lifetime
; markers, a loop accumulating into it) plus a helper it calls, a divide by a
; `constant` buffer value, a barrier and a memcpy out to device memory.
; What differs from ./opaque.ll, and what the diff must not count:
;   - `bitcast` of pointers (lines 22, 29, 54, 55): typed pointers need them,
;     opaque pointers do not;
;   - `call void @llvm.dbg.declare` / `@llvm.dbg.value` (lines 31, 48), printed
;     as `#dbg_declare` / `#dbg_value` records by LLVM 19+;
;   - intrinsic names (`llvm.memset.p0i8.i64` vs `llvm.memset.p0.i64`).
; The diff typed.ll -> opaque.ll MUST show: kernel `bucket_sum` unchanged,
;   exit code 0, its one divide-by-uniform finding (the `urem`, in a loop) on
;   both sides; counts include the helper @clear (each function once).
source_filename = "bucket_sum"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.4.0"

define internal fastcc void @clear(float* noundef %0) unnamed_addr #0 {
  %2 = bitcast float* %0 to i8*
  call void @llvm.memset.p0i8.i64(i8* noundef nonnull align 4 dereferenceable(64) %2, i8 0, i64 64, i1 false)
  ret void
}

define void @bucket_sum(float addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, float addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %1, i32 addrspace(2)* nocapture noundef readonly "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 !dbg !12 {
  %5 = alloca [16 x float], align 4
  %6 = bitcast [16 x float]* %5 to i8*
  call void @llvm.lifetime.start.p0i8(i64 64, i8* nonnull %6) #2
  call void @llvm.dbg.declare(metadata [16 x float]* %5, metadata !16, metadata !DIExpression()), !dbg !19
  %7 = getelementptr inbounds [16 x float], [16 x float]* %5, i64 0, i64 0
  call fastcc void @clear(float* noundef %7)
  %8 = load i32, i32 addrspace(2)* %2, align 4
  br label %9

9:                                                ; preds = %9, %4
  %10 = phi i32 [ 0, %4 ], [ %19, %9 ]
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds float, float addrspace(1)* %1, i64 %11
  %13 = load float, float addrspace(1)* %12, align 4
  %14 = urem i32 %10, %8
  %15 = zext i32 %14 to i64
  %16 = getelementptr inbounds [16 x float], [16 x float]* %5, i64 0, i64 %15
  %17 = load float, float* %16, align 4
  %18 = fadd fast float %17, %13
  store float %18, float* %16, align 4
  call void @llvm.dbg.value(metadata i32 %10, metadata !17, metadata !DIExpression()), !dbg !19
  %19 = add nuw nsw i32 %10, 1
  %20 = icmp eq i32 %19, %3
  br i1 %20, label %21, label %9

21:                                               ; preds = %9
  %22 = bitcast float addrspace(1)* %0 to i8 addrspace(1)*
  %23 = bitcast [16 x float]* %5 to i8*
  call void @llvm.memcpy.p1i8.p0i8.i64(i8 addrspace(1)* align 4 %22, i8* align 4 %23, i64 64, i1 false)
  tail call void @air.wg.barrier(i32 2, i32 1) #3
  call void @llvm.lifetime.end.p0i8(i64 64, i8* nonnull %6) #2
  ret void
}

declare void @llvm.memset.p0i8.i64(i8* nocapture writeonly, i8, i64, i1 immarg) #1
declare void @llvm.memcpy.p1i8.p0i8.i64(i8 addrspace(1)* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #1
declare void @llvm.lifetime.start.p0i8(i64 immarg, i8* nocapture) #1
declare void @llvm.lifetime.end.p0i8(i64 immarg, i8* nocapture) #1
declare void @llvm.dbg.declare(metadata, metadata, metadata) #1
declare void @llvm.dbg.value(metadata, metadata, metadata) #1
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #3

attributes #0 = { mustprogress nounwind "frame-pointer"="all" }
attributes #1 = { argmemonly nofree nounwind willreturn }
attributes #2 = { nounwind }
attributes #3 = { convergent nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!air.kernel = !{!4}
!air.version = !{!10}
!llvm.ident = !{!11}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Apple metal version 31001.667 (metalfe-31001.667)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "bucket_sum.metal", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(2)*, i32)* @bucket_sum, !5, !6}
!5 = !{}
!6 = !{!7, !8, !9, !20}
!7 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!8 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!9 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"buckets"}
!10 = !{i32 2, i32 6, i32 0}
!11 = !{!"Apple metal version 31001.667 (metalfe-31001.667)"}
!12 = distinct !DISubprogram(name: "bucket_sum", scope: !1, file: !1, line: 3, type: !13, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !5)
!13 = !DISubroutineType(types: !14)
!14 = !{null}
!15 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!16 = !DILocalVariable(name: "acc", scope: !12, file: !1, line: 4, type: !18)
!17 = !DILocalVariable(name: "i", scope: !12, file: !1, line: 6, type: !21)
!18 = !DICompositeType(tag: DW_TAG_array_type, baseType: !15, size: 512, elements: !22)
!19 = !DILocation(line: 4, column: 9, scope: !12)
!20 = !{i32 3, !"air.threads_per_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!21 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!22 = !{!23}
!23 = !DISubrange(count: 16)
