; Hand-written for tests/suppress.rs. Shape: the debug-info modules of
; ../shared/corpus/kolinko__effort (DICompileUnit, DIFile, DISubprogram,
; DILocation), reduced to five divides by the `constant uint &n` argument
; (on five different dividends: a udiv/urem pair on the same operands
; would be one finding),
; each mapped by !dbg to a line of divides.metal beside this file.
; Must give, before suppressions, five divide-by-uniform findings on MSL
; lines 9, 11, 12, 13 and 14. After suppressions: line 9 (same-line comment)
; and line 11 (comment on the line before, by rule id) are silenced; line 12
; (no reason) and line 13 (no rule) stay and each adds a bad-suppression
; finding; line 14 stays.
source_filename = "divides.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

define void @divides(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 !dbg !30 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !dbg !31
  %5 = udiv i32 %2, %4, !dbg !32
  store i32 %5, i32 addrspace(1)* %0, align 4, !dbg !31
  %6 = add i32 %2, 4, !dbg !33
  %7 = urem i32 %6, %4, !dbg !33
  %8 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 1
  store i32 %7, i32 addrspace(1)* %8, align 4, !dbg !33
  %9 = add i32 %2, 1, !dbg !34
  %10 = udiv i32 %9, %4, !dbg !34
  %11 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 2
  store i32 %10, i32 addrspace(1)* %11, align 4, !dbg !34
  %12 = add i32 %2, 2, !dbg !35
  %13 = udiv i32 %12, %4, !dbg !35
  %14 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 3
  store i32 %13, i32 addrspace(1)* %14, align 4, !dbg !35
  %15 = add i32 %2, 3, !dbg !36
  %16 = udiv i32 %15, %4, !dbg !36
  %17 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 4
  store i32 %16, i32 addrspace(1)* %17, align 4, !dbg !36
  ret void, !dbg !37
}

attributes #0 = { convergent nounwind }

!llvm.dbg.cu = !{!0}
!air.kernel = !{!10}
!llvm.module.flags = !{!3}

!0 = distinct !DICompileUnit(language: DW_LANG_Metal, file: !1, producer: "Apple metal version 32023.620 (metalfe-32023.620)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "divides.metal", directory: "/Users/someone/project")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!10 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @divides, !11, !12}
!11 = !{}
!12 = !{!13, !14, !15}
!13 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!14 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!15 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !DISubroutineType(types: !21)
!21 = !{}
!30 = distinct !DISubprogram(name: "divides", scope: !1, file: !1, line: 6, type: !20, scopeLine: 8, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)
!31 = !DILocation(line: 9, column: 14, scope: !30)
!32 = !DILocation(line: 9, column: 18, scope: !30)
!33 = !DILocation(line: 11, column: 24, scope: !30)
!34 = !DILocation(line: 12, column: 24, scope: !30)
!35 = !DILocation(line: 13, column: 24, scope: !30)
!36 = !DILocation(line: 14, column: 24, scope: !30)
!37 = !DILocation(line: 15, column: 1, scope: !30)
