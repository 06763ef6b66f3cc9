; Hand-written. Construct: a module with named types and nothing else (a
; header file's worth of IR, as `llvm-extract` or `llvm-link` of nothing
; leave; LangRef, "Structure Types").
; Must produce: a module that reads `ok` with 0 kernels and 2 struct types.
; Must not produce: any diagnostic; "not LLVM IR text".
%struct.Pair = type { float, i32 }
%struct.Opaque = type opaque
