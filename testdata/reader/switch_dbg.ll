; Hand-written. A multi-line `switch` as in
;   ../shared/corpus/EricLBuehler__mistral.rs/mcandle/mcandle-metal-kernels/src/libMetalFlashAttention.metallib.extracted/00003_attention.opaque.ll
; (`switch i32 %44, label %91 [` ... `]`), in a module built with -g as
;   ../shared/corpus/kolinko__effort/default.metallib.extracted/00001_bucketOutliersQ8.ll
; is. LLVM's AsmWriter prints an instruction's attachments after the whole
; instruction, so a switch's `!dbg` follows the closing bracket: `  ], !dbg !9`.
; Must produce: the switch with its condition, default and two cases, and
; `dbg == Some(9)`; the blocks after it.
; Must not produce: any diagnostic.
source_filename = "switch_dbg"
target triple = "air64-apple-macosx15.0.0"

define void @pick(ptr addrspace(1) noundef %0, i32 noundef %1) local_unnamed_addr !dbg !5 {
entry:
  switch i32 %1, label %done [
    i32 3, label %three
    i32 16, label %sixteen
  ], !dbg !9

three:                                            ; preds = %entry
  store i32 3, ptr addrspace(1) %0, align 4, !dbg !10
  br label %done, !dbg !10

sixteen:                                          ; preds = %entry
  store i32 16, ptr addrspace(1) %0, align 4, !dbg !10
  br label %done, !dbg !10

done:                                             ; preds = %sixteen, %three, %entry
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "Apple metal version 32023.155 (metalfe-32023.155)", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "pick.metal", directory: "/Users/dev/shaders")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "pick", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !2)
!6 = !DISubroutineType(types: !2)
!9 = !DILocation(line: 4, column: 5, scope: !5)
!10 = !DILocation(line: 5, column: 9, scope: !5)
