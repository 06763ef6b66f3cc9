; Hand-written. Construct: a module with only a comdat (LangRef, "Comdats").
; Must produce: a module that reads `ok` with 0 kernels.
; Must not produce: any diagnostic; "not LLVM IR text".
$pair = comdat any
