; Hand-written for tests/bitcode_native.rs, which assembles it with
; llvm-as-14 at test time and holds `air-scan dis` of the bitcode to
; llvm-dis-14's text of it, line for line. Shape: one node of each
; debug-info kind the native reader decodes (LangRef's "Specialized
; Metadata" section), with the values LLVM 14's AsmWriter leaves out or
; spells apart: zero lines, columns, sizes and offsets; null and empty
; strings (a DIFile's directory is printed even then); DWARF names LLVM 14
; knows and one it does not (language 38); splitDebugInlining false and
; true; spFlags 0; two-bit flag groups; a named entry block. Valid debug
; info (llvm-dis-14 drops invalid debug info whole). No kernel: it must
; trigger no rule.
source_filename = "debug-info"

@g = global i32 0, !dbg !30
@h = global i32 0, !dbg !32

define i32 @f(i32 %a) #0 !dbg !10 {
entry:
  call void @llvm.dbg.value(metadata i32 %a, metadata !20, metadata !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_unsigned, DW_OP_stack_value)), !dbg !25
  call void @llvm.dbg.label(metadata !23), !dbg !26
  br label %loop, !llvm.loop !27
loop:
  ret i32 %a, !dbg !28
}

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.label(metadata)

!llvm.module.flags = !{!99}
!llvm.dbg.cu = !{!0, !40, !41, !42}
!named = !{!50, !51, !52, !53, !54, !55, !56, !57, !58, !59, !60, !61, !62, !63, !64, !65, !66, !67, !68, !69, !70, !71, !72, !73, !74, !75}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "p", isOptimized: false, flags: "-O2", runtimeVersion: 2, splitDebugFilename: "x.dwo", emissionKind: FullDebug, enums: !2, retainedTypes: !2, globals: !33, imports: !2, dwoId: 7, splitDebugInlining: false, debugInfoForProfiling: true, nameTableKind: GNU, rangesBaseAddress: true, sysroot: "/", sdk: "S")
!1 = !DIFile(filename: "a.metal", directory: "")
!2 = !{}
!3 = !DIFile(filename: "b.h", directory: "/d", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef", source: "int x;")
!10 = distinct !DISubprogram(name: "f", linkageName: "_Z1f", scope: !1, file: !1, line: 0, type: !11, scopeLine: 0, thisAdjustment: -8, flags: DIFlagPrototyped | DIFlagArtificial, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, templateParams: !2, retainedNodes: !2, thrownTypes: !2, annotations: !2)
!11 = !DISubroutineType(cc: DW_CC_normal, types: !12)
!12 = !{!13, !13}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !DILocalVariable(name: "a", arg: 1, scope: !10, file: !1, line: 3, type: !13, flags: DIFlagArtificial, align: 32, annotations: !2)
!21 = !DILocalVariable(name: "b", scope: !22, file: !1, type: !13)
!22 = distinct !DILexicalBlock(scope: !10, file: !1, line: 4)
!23 = !DILabel(scope: !10, name: "L", file: !1, line: 0)
!25 = !DILocation(line: 3, scope: !10)
!26 = !DILocation(line: 0, column: 7, scope: !22, inlinedAt: !29)
!27 = distinct !{!27, !28, !29}
!28 = !DILocation(line: 5, column: 0, scope: !10, isImplicitCode: true)
!29 = distinct !DILocation(line: 9, column: 2, scope: !10)
!30 = !DIGlobalVariableExpression(var: !31, expr: !DIExpression())
!31 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !1, line: 2, type: !13, isLocal: false, isDefinition: true, align: 64)
!32 = !DIGlobalVariableExpression(var: !34, expr: !DIExpression(DW_OP_constu, 3, DW_OP_stack_value))
!33 = !{!30, !32}
!34 = distinct !DIGlobalVariable(name: "h", linkageName: "_h", scope: null, type: !13, isLocal: true, isDefinition: false)
!40 = distinct !DICompileUnit(language: 0, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: NoDebug, nameTableKind: None)
!41 = distinct !DICompileUnit(language: 38, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, nameTableKind: Default, splitDebugInlining: true)
!42 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, nameTableKind: None)
!50 = !DISubrange(count: 12, lowerBound: 0)
!51 = !DISubrange(count: !21, lowerBound: -2, stride: 4)
!52 = !DIEnumerator(name: "e", value: -5)
!53 = !DIEnumerator(name: "u", value: 18446744073709551615, isUnsigned: true)
!54 = !DIEnumerator(name: "", value: 0)
!55 = !DIBasicType(tag: DW_TAG_unspecified_type, name: "decltype(nullptr)")
!56 = !DIBasicType(name: "b", size: 8, align: 8, encoding: DW_ATE_boolean, flags: DIFlagBigEndian)
!57 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64, dwarfAddressSpace: 0)
!58 = !DIDerivedType(tag: DW_TAG_member, name: "m", scope: !59, file: !1, line: 3, baseType: !13, size: 32, align: 32, offset: 64, flags: DIFlagPublic | DIFlagBitField, extraData: i64 0, annotations: !2)
!59 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", scope: !1, file: !1, line: 2, size: 128, flags: DIFlagTypePassByValue, elements: !{!58}, runtimeLang: DW_LANG_C, vtableHolder: !59, templateParams: !2, identifier: "_ZTS1S")
!60 = !DICompositeType(tag: DW_TAG_array_type, baseType: !13, size: 96, elements: !{!50}, dataLocation: !21, associated: !21, allocated: !21, rank: i64 2, annotations: !2)
!61 = !DICompositeType(tag: DW_TAG_variant_part, baseType: !13, discriminator: !58)
!62 = !DISubroutineType(flags: DIFlagLValueReference, types: null)
!63 = distinct !DISubprogram(name: "v", scope: !59, file: !1, line: 7, type: !11, scopeLine: 8, containingType: !59, virtualIndex: 0, flags: DIFlagPublic, spFlags: DISPFlagPureVirtual | DISPFlagDefinition, unit: !0, declaration: !64)
!64 = !DISubprogram(name: "d", scope: !59, spFlags: 0)
!65 = !DILexicalBlockFile(scope: !22, file: !3, discriminator: 0)
!66 = !DINamespace(scope: null, exportSymbols: true)
!67 = !DINamespace(name: "ns", scope: !1)
!68 = !DITemplateTypeParameter(name: "T", type: !13, defaulted: true)
!69 = !DITemplateTypeParameter(type: null)
!70 = !DITemplateValueParameter(name: "N", type: !13, value: i32 3)
!71 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_parameter_pack, name: "P", defaulted: true, value: !2)
!72 = !DIImportedEntity(tag: DW_TAG_imported_declaration, name: "i", scope: !0, entity: !67, file: !1, line: 4, elements: !2)
!73 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !67, entity: !74)
!74 = !DIModule(scope: null, name: "M", configMacros: "-DX", includePath: "/i", apinotes: "a.apinotes", file: !1, line: 3, isDecl: true)
!75 = !DIModule(scope: !74, name: "N")
!99 = !{i32 2, !"Debug Info Version", i32 3}

attributes #0 = { nounwind "b"="1" "a" }
