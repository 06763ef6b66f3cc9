; Hand-written from ./typed.ll: that file assembled with llvm-as-14 and printed
; with llvm-dis-22 (opaque pointers, `captures(none)`, `#dbg_declare` and
; `#dbg_value` records, LLVM 22's one-operand `llvm.lifetime.start.p0`,
; `llvm.memset.p0.i64`), then with the pointer-to-pointer `bitcast`s removed and
; the values renumbered, as a compiler that emits opaque pointers prints the
; same program (llvm-dis-22 itself keeps them as `bitcast ptr %5 to ptr`).
; The diff typed.ll -> opaque.ll MUST show: kernel `bucket_sum` unchanged, exit
;   code 0; the same counts on both sides (the removed bitcasts, the debug
;   calls and the lifetime markers are counted on neither) and the same
;   divide-by-uniform finding on the `urem` in the loop.
source_filename = "bucket_sum"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx14.4.0"

; Function Attrs: mustprogress nounwind
define internal fastcc void @clear(ptr noundef %0) unnamed_addr #0 {
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 4 dereferenceable(64) %0, i8 0, i64 64, i1 false)
  ret void
}

; Function Attrs: mustprogress nounwind
define void @bucket_sum(ptr addrspace(1) noundef captures(none) "air-buffer-no-alias" %0, ptr addrspace(1) noundef readonly captures(none) "air-buffer-no-alias" %1, ptr addrspace(2) noundef readonly captures(none) "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 !dbg !13 {
  %5 = alloca [16 x float], align 4
  call void @llvm.lifetime.start.p0(ptr %5)
    #dbg_declare(ptr %5, !16, !DIExpression(), !21)
  %6 = getelementptr inbounds [16 x float], ptr %5, i64 0, i64 0
  call fastcc void @clear(ptr noundef %6)
  %7 = load i32, ptr addrspace(2) %2, align 4
  br label %8

8:                                                ; preds = %8, %4
  %9 = phi i32 [ 0, %4 ], [ %18, %8 ]
  %10 = zext i32 %9 to i64
  %11 = getelementptr inbounds float, ptr addrspace(1) %1, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4
  %13 = urem i32 %9, %7
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds [16 x float], ptr %5, i64 0, i64 %14
  %16 = load float, ptr %15, align 4
  %17 = fadd fast float %16, %12
  store float %17, ptr %15, align 4
    #dbg_value(i32 %9, !22, !DIExpression(), !21)
  %18 = add nuw nsw i32 %9, 1
  %19 = icmp eq i32 %18, %3
  br i1 %19, label %20, label %8

20:                                               ; preds = %8
  call void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) align 4 %0, ptr align 4 %5, i64 64, i1 false)
  tail call void @air.wg.barrier(i32 2, i32 1) #1
  call void @llvm.lifetime.end.p0(ptr %5)
  ret void
}

; Function Attrs: convergent nounwind
declare void @air.wg.barrier(i32, i32) local_unnamed_addr #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p1.p0.i64(ptr addrspace(1) noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #3

declare void @llvm.lifetime.start.i64(i64)

declare void @llvm.lifetime.end.i64(i64)

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #4

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #4

attributes #0 = { mustprogress nounwind "frame-pointer"="all" }
attributes #1 = { convergent nounwind }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!air.kernel = !{!4}
!air.version = !{!11}
!llvm.ident = !{!12}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Apple metal version 31001.667 (metalfe-31001.667)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "bucket_sum.metal", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 4}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{ptr @bucket_sum, !5, !6}
!5 = !{}
!6 = !{!7, !8, !9, !10}
!7 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!8 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"in"}
!9 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"buckets"}
!10 = !{i32 3, !"air.threads_per_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!11 = !{i32 2, i32 6, i32 0}
!12 = !{!"Apple metal version 31001.667 (metalfe-31001.667)"}
!13 = distinct !DISubprogram(name: "bucket_sum", scope: !1, file: !1, line: 3, type: !14, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !5)
!14 = !DISubroutineType(types: !15)
!15 = !{null}
!16 = !DILocalVariable(name: "acc", scope: !13, file: !1, line: 4, type: !17)
!17 = !DICompositeType(tag: DW_TAG_array_type, baseType: !18, size: 512, elements: !19)
!18 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!19 = !{!20}
!20 = !DISubrange(count: 16)
!21 = !DILocation(line: 4, column: 9, scope: !13)
!22 = !DILocalVariable(name: "i", scope: !13, file: !1, line: 6, type: !23)
!23 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
