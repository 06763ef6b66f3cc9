; Hand-written. Shape of the debug info, from:
;   ../shared/corpus/kolinko__effort/default.metallib.extracted/00001_bucketOutliersQ8.ll
;     (DICompileUnit DW_LANG_C_plus_plus_14, DISubprogram, DILocation with inlinedAt)
;   ../shared/corpus/kolinko__effort/default.metallib.extracted/00071_cojest.ll
;     (a function whose only location is on `ret void`)
;   ../shared/corpus/ziglana__grincel/default.metallib.extracted/00000_compute.opaque.ll
;     (#dbg_value records of LLVM 19+, DILocalVariable, DIBasicType, DIExpression)
; and LLVM LangRef syntax for DW_LANG_Metal and DIFile's `source:` (written by
; -frecord-sources). (`], !dbg` after a multi-line switch is in switch_dbg.ll.)
; Two compile units, as after linking a Metal file with a C++14 helper.
; Must produce: both compile units, two global-variable expressions, the
; DIFile with its source text, the subprograms, a three-level inlinedAt
; chain for !28 (innermost first: line 2931, 2933, 6), other nodes kept as
; generic specialized nodes, 4 debug records counted (not instructions),
; !dbg on each instruction.
; Must not produce: any diagnostic.
source_filename = "softmax"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@_ZL5scale = internal unnamed_addr addrspace(2) constant float 2.000000e+00, align 4, !dbg !60

; Function Attrs: mustprogress nofree nounwind willreturn memory(argmem: readwrite)
define void @softmax(ptr addrspace(1) noundef captures(none) "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 !dbg !10 {
entry:
    #dbg_value(ptr addrspace(1) %0, !20, !DIExpression(), !25)
    #dbg_value(i32 %1, !21, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !25)
  %2 = zext i32 %1 to i64, !dbg !26
  %3 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %2, !dbg !26
  %4 = load float, ptr addrspace(1) %3, align 4, !dbg !27, !tbaa !50
  %5 = tail call fast float @air.fast_exp2.f32(float %4) #2, !dbg !28
    #dbg_value(float %5, !22, !DIExpression(), !33)
  %cmp = icmp eq i32 %1, 0, !dbg !29
  br i1 %cmp, label %zero, label %done, !dbg !29

zero:                                             ; preds = %entry
    #dbg_value(float 0.000000e+00, !22, !DIExpression(), !30)
  store float 0.000000e+00, ptr addrspace(1) %3, align 4, !dbg !30, !tbaa !50
  br label %done, !dbg !30

done:                                             ; preds = %zero, %entry
  %6 = phi float [ %5, %entry ], [ 0.000000e+00, %zero ], !dbg !31
  store float %6, ptr addrspace(1) %3, align 4, !dbg !31, !tbaa !50
  ret void, !dbg !31
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none)
define void @cojest() local_unnamed_addr #1 !dbg !34 {
  ret void, !dbg !36
}

; Function Attrs: mustprogress nofree nosync nounwind willreturn memory(none)
declare float @air.fast_exp2.f32(float) local_unnamed_addr #1

attributes #0 = { mustprogress nofree nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) }
attributes #2 = { nounwind }

!llvm.dbg.cu = !{!0, !5}
!llvm.module.flags = !{!7, !8}
!llvm.ident = !{!9}

!0 = distinct !DICompileUnit(language: DW_LANG_Metal, file: !1, producer: "Apple metal version 32023.620 (metalfe-32023.620)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, imports: !2, globals: !64, splitDebugInlining: false, nameTableKind: None, sysroot: "/Applications/Xcode.app/Contents/Developer/Platforms/MacOSX.platform/Developer/SDKs/MacOSX15.5.sdk", sdk: "MacOSX15.5.sdk")
!1 = !DIFile(filename: "softmax.metal", directory: "/Users/dev/shaders", source: "#include <metal_stdlib>\0Ausing namespace metal;\0A\0Akernel void softmax(device float *x [[buffer(0)]],\0A                    uint tid [[thread_position_in_grid]]) {\0A    x[tid] = fast::exp2(x[tid]);\0A}\0A")
!2 = !{}
!5 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !6, producer: "Apple metal version 32023.155 (metalfe-32023.155)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!6 = !DIFile(filename: "helpers/convert.metal", directory: "/Users/dev/shaders", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef")
!7 = !{i32 7, !"Dwarf Version", i32 4}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!9 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!10 = distinct !DISubprogram(name: "softmax", scope: !1, file: !1, line: 4, type: !11, scopeLine: 5, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !19)
!11 = !DISubroutineType(types: !12)
!12 = !{null, !13, !14}
!13 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64, dwarfAddressSpace: 1)
!14 = !DIBasicType(name: "unsigned int", size: 32, encoding: DW_ATE_unsigned)
!15 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!16 = distinct !DISubprogram(name: "exp2", linkageName: "_ZN5metal4fast4exp2Ef", scope: !17, file: !17, line: 2930, type: !18, scopeLine: 2931, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!17 = !DIFile(filename: "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/metal/32023/lib/clang/32023.620/include/metal/metal_math", directory: "")
!18 = !DISubroutineType(types: !2)
!19 = !{!20, !21, !22}
!20 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 4, type: !13)
!21 = !DILocalVariable(name: "tid", arg: 2, scope: !10, file: !1, line: 5, type: !14)
!22 = !DILocalVariable(name: "e", scope: !23, file: !1, line: 6, type: !15)
!23 = distinct !DILexicalBlock(scope: !10, file: !1, line: 6, column: 5)
!24 = distinct !DISubprogram(name: "__metal_exp2", scope: !17, file: !17, line: 2925, type: !18, scopeLine: 2925, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!25 = !DILocation(line: 0, scope: !10)
!26 = !DILocation(line: 6, column: 20, scope: !23)
!27 = !DILocation(line: 6, column: 14, scope: !23)
!28 = !DILocation(line: 2931, column: 10, scope: !24, inlinedAt: !32)
!29 = !DILocation(line: 6, column: 5, scope: !10)
!30 = !DILocation(line: 6, column: 12, scope: !10)
!31 = !DILocation(line: 7, column: 1, scope: !10)
!32 = distinct !DILocation(line: 2933, column: 5, scope: !16, inlinedAt: !33)
!33 = !DILocation(line: 6, column: 23, scope: !23)
!34 = distinct !DISubprogram(name: "cojest", scope: !6, file: !6, line: 134, type: !18, scopeLine: 134, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, retainedNodes: !2)
!36 = !DILocation(line: 139, column: 1, scope: !34)
!50 = !{!51, !51, i64 0}
!51 = !{!"float", !52, i64 0}
!52 = !{!"omnipotent char", !53, i64 0}
!53 = !{!"Simple C++ TBAA"}
!60 = !DIGlobalVariableExpression(var: !61, expr: !DIExpression())
!61 = distinct !DIGlobalVariable(name: "scale", linkageName: "_ZL5scale", scope: !0, file: !1, line: 3, type: !15, isLocal: true, isDefinition: true)
!62 = !DIGlobalVariableExpression(var: !63, expr: !DIExpression(DW_OP_constu, 4, DW_OP_stack_value))
!63 = distinct !DIGlobalVariable(name: "lanes", scope: !0, file: !1, line: 2, type: !14, isLocal: true, isDefinition: true)
!64 = !{!60, !62}
