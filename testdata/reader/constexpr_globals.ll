; Hand-written. Construct: globals and aliases initialised by constant
; expressions (LangRef, "Constant Expressions", "Aliases", "IFuncs"):
; `addrspacecast`, `getelementptr` (nested, with `inbounds nuw` and
; `inrange`), `ptrtoint`, a struct of constant expressions, aliases with
; linkage of a global in another address space, an ifunc. Opaque pointers,
; as LLVM 17 and later print.
; Must produce: 13 globals; @b's initializer an addrspacecast of @a, @c's a
; GEP with 3 operands, @al's an addrspacecast of a GEP, @d's a ptrtoint, @s's
; a struct of an addrspacecast and a ptrtoint.
; Must not produce: any diagnostic.
%T = type { i32, [4 x float] }

@a = addrspace(3) global [4 x i32] zeroinitializer
@b = global ptr addrspacecast (ptr addrspace(3) @a to ptr)
@c = global ptr addrspace(3) getelementptr inbounds ([4 x i32], ptr addrspace(3) @a, i64 0, i64 2)
@al = alias i32, ptr addrspacecast (ptr addrspace(3) getelementptr ([4 x i32], ptr addrspace(3) @a, i64 0, i64 1) to ptr)
@al2 = internal alias [4 x i32], ptr addrspace(3) @a
@d = global i64 ptrtoint (ptr @b to i64)
@g = addrspace(1) global %T zeroinitializer
@al3 = dso_local alias i32, ptr addrspace(1) getelementptr inbounds (%T, ptr addrspace(1) @g, i32 0, i32 0)
@e = global ptr addrspacecast (ptr addrspace(1) getelementptr inbounds nuw (i8, ptr addrspace(1) @g, i64 4) to ptr)
@s = global { ptr, i64 } { ptr addrspacecast (ptr addrspace(1) @g to ptr), i64 ptrtoint (ptr addrspace(1) @g to i64) }
@r = global ptr getelementptr inrange(-4, 12) (i8, ptr @e, i64 4)
@k = thread_local(initialexec) global i32 0
@i = ifunc void (), ptr @resolver

define ptr @resolver() {
  ret ptr null
}
