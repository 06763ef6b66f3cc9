; Hand-written. Construct: ThinLTO summary entries, `^N = kind: (...)`, which
; `llvm-dis` prints after the module for bitcode made with `opt
; -module-summary` or `clang -flto=thin` (LangRef, "Module Summaries"),
; including one written over two lines and one with a plain value.
; Must produce: @f with its `ret`; the summary entries skipped.
; Must not produce: any diagnostic.
source_filename = "t.c"

define void @f() {
  ret void
}

^0 = module: (path: "t.o", hash: (0, 0, 0, 0, 0))
^1 = gv: (name: "f", summaries: (function: (module: ^0, flags: (linkage: external, visibility: default, notEligibleToImport: 0, live: 0, dsoLocal: 0, canAutoHide: 0),
    insts: 1))) ; guid = 14740650423002898831
^2 = flags: 8
^3 = blockcount: 1
