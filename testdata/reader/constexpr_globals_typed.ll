; Hand-written. Construct: the typed-pointer twins of constexpr_globals.ll, as
; LLVM 14 and Apple's AIR print them (LangRef of LLVM 14, "Constant
; Expressions"): `bitcast`, `addrspacecast` of a `getelementptr`, a GEP on a
; bitcast of `null`, and an alias that is a bitcast.
; Must produce: 4 globals; @b's initializer an addrspacecast of a GEP, @c's a
; bitcast, @al's a bitcast of @b.
; Must not produce: any diagnostic.
@a = addrspace(3) global [4 x i32] zeroinitializer
@b = global i32* addrspacecast (i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @a, i64 0, i64 2) to i32*)
@c = global i8* bitcast (i32* getelementptr ([4 x i32], [4 x i32]* bitcast (i8* null to [4 x i32]*), i64 0, i64 1) to i8*)
@al = alias i8, i8* bitcast (i32** @b to i8*)
