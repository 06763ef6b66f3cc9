; Hand-written for tests/metal_inputs.rs: what the stand-in xcrun gives for
; tile.metal at -O0 (the shape of an -O2 module, kept small; a real -O0
; module spills through allocas). Two divide-by-uniform findings in @tile:
; the udiv at tile.metal:10:20 and the urem at 10:30.
source_filename = "tile.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

define void @tile(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(2)* noundef "air-buffer-no-alias" %1, i32 noundef %2) #0 !dbg !30 {
  %4 = load i32, i32 addrspace(2)* %1, align 4, !dbg !40
  %5 = udiv i32 %2, %4, !dbg !41
  %6 = urem i32 %2, %4, !dbg !42
  %7 = add i32 %5, %6, !dbg !43
  %8 = zext i32 %2 to i64, !dbg !43
  %9 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %8, !dbg !43
  store i32 %7, i32 addrspace(1)* %9, align 4, !dbg !43
  ret void, !dbg !44
}

attributes #0 = { convergent nounwind }

!llvm.dbg.cu = !{!0}
!air.kernel = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_Metal, file: !1, producer: "Apple metal version 32023.620 (metalfe-32023.620)", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "tile.metal", directory: "/nowhere")
!10 = !{void (i32 addrspace(1)*, i32 addrspace(2)*, i32)* @tile, !11, !12}
!11 = !{}
!12 = !{!13, !14, !15}
!13 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!14 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"n"}
!15 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !DISubroutineType(types: !21)
!21 = !{}
!30 = distinct !DISubprogram(name: "tile", scope: !1, file: !1, line: 7, type: !20, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !21)
!40 = !DILocation(line: 10, column: 24, scope: !30)
!41 = !DILocation(line: 10, column: 20, scope: !30)
!42 = !DILocation(line: 10, column: 30, scope: !30)
!43 = !DILocation(line: 10, column: 14, scope: !30)
!44 = !DILocation(line: 11, column: 1, scope: !30)
