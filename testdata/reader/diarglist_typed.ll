; Hand-written. Shape: what the native bitcode reader prints for
; ../shared/corpus/ziglana__grincel/vanity.air (typed pointers, as llvm-dis-14
; prints them): a dbg.value whose location is a DIArgList of a typed pointer
; and an i64, with DW_OP_mul in its expression (LangRef, "DIArgList").
; Must read with no diagnostic; the call and the GEP after it are read.
source_filename = "diarglist"

%struct.KeyPair = type { [36 x i32] }

define void @f(%struct.KeyPair addrspace(1)* %0, i32 %1) !dbg !3 {
  %3 = zext i32 %1 to i64
  call void @llvm.dbg.value(metadata !DIArgList(%struct.KeyPair addrspace(1)* %0, i64 %3), metadata !8, metadata !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_constu, 144, DW_OP_mul, DW_OP_plus, DW_OP_stack_value)), !dbg !9
  %4 = getelementptr inbounds %struct.KeyPair, %struct.KeyPair addrspace(1)* %0, i64 %3, i32 0, i64 0
  ret void
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "vanity.metal", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !7)
!4 = !DISubroutineType(types: !5)
!5 = !{null, !6}
!6 = !DIBasicType(name: "uint", size: 32, encoding: DW_ATE_unsigned)
!7 = !{!8}
!8 = !DILocalVariable(name: "p", scope: !3, file: !1, line: 2, type: !6)
!9 = !DILocation(line: 2, column: 3, scope: !3)
