; Hand-written. Construct: a module of comments only: llvm-as reads it as an
; empty module (LangRef: comments run from `;` to the line end).
; Must produce: a module that reads `ok` with 0 kernels.
; Must not produce: any diagnostic; "not LLVM IR text".
