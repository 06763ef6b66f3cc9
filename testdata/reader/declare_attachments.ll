; Hand-written. Construct: a declaration with a metadata attachment before its
; return type, `declare !dbg !3 void @g()`, which LLVM 16 and later print for
; declarations when compiled with -g (the declaration's DISubprogram).
; Must produce: @g, a declaration, with the attachment dbg -> 3; @h after it.
; Must not produce: any diagnostic.
declare !dbg !3 void @g()

declare void @h(i32)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!5}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Apple metal version 32023.620", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kernels.metal", directory: "/tmp")
!2 = !DISubroutineType(types: !4)
!3 = !DISubprogram(name: "g", scope: !1, file: !1, line: 3, type: !2, spFlags: DISPFlagOptimized)
!4 = !{null}
!5 = !{i32 2, !"Debug Info Version", i32 3}
