; Hand-written for tests/metal_inputs.rs: inlined.metal at -O0, where the
; helpers are calls (kept small: no allocas). One divide-by-uniform in
; @tile_of at inlined.metal:7:14, reached from kernel @inlined.
source_filename = "inlined.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

define void @inlined(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) #0 !dbg !30 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !dbg !40
  %5 = call i32 @rows(i32 %2, i32 %4), !dbg !41
  %6 = zext i32 %2 to i64, !dbg !41
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %6, !dbg !41
  store i32 %5, i32 addrspace(1)* %7, align 4, !dbg !41
  ret void, !dbg !44
}

define internal i32 @rows(i32 noundef %0, i32 noundef %1) #0 !dbg !31 {
  %3 = call i32 @tile_of(i32 %0, i32 %1), !dbg !45
  %4 = add i32 %3, 1, !dbg !46
  ret i32 %4, !dbg !46
}

define internal i32 @tile_of(i32 noundef %0, i32 noundef %1) #0 !dbg !32 {
  %3 = udiv i32 %0, %1, !dbg !47
  ret i32 %3, !dbg !48
}

attributes #0 = { convergent nounwind }

!llvm.dbg.cu = !{!0}
!air.kernel = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_Metal, file: !1, producer: "Apple metal version 32023.620 (metalfe-32023.620)", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "inlined.metal", directory: "/nowhere")
!10 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @inlined, !11, !12}
!11 = !{}
!12 = !{!13, !14, !15}
!13 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!14 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!15 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !DISubroutineType(types: !21)
!21 = !{}
!30 = distinct !DISubprogram(name: "inlined", scope: !1, file: !1, line: 14, type: !20, scopeLine: 16, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)
!31 = distinct !DISubprogram(name: "rows", scope: !1, file: !1, line: 10, type: !20, scopeLine: 10, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)
!32 = distinct !DISubprogram(name: "tile_of", scope: !1, file: !1, line: 6, type: !20, scopeLine: 6, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)
!40 = !DILocation(line: 17, column: 26, scope: !30)
!41 = !DILocation(line: 17, column: 16, scope: !30)
!44 = !DILocation(line: 18, column: 1, scope: !30)
!45 = !DILocation(line: 11, column: 12, scope: !31)
!46 = !DILocation(line: 11, column: 26, scope: !31)
!47 = !DILocation(line: 7, column: 14, scope: !32)
!48 = !DILocation(line: 7, column: 5, scope: !32)
