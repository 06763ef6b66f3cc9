; Hand-written. Construct: a module with only module-level inline asm
; (LangRef, "Module-Level Inline Assembly").
; Must produce: a module that reads `ok` with 0 kernels.
; Must not produce: any diagnostic; "not LLVM IR text".
module asm "nop"
