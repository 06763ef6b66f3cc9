; Hand-written. Construct: array types of up to 2^64-1 elements (LangRef,
; "Array Type": the size is any 64-bit unsigned integer), in a typed-pointer
; declaration and a global, as `llvm-dis` prints an extern array of unknown
; size cast to the largest type.
; Must produce: @g of type [18446744073709551615 x i8]; @f with a parameter
; of a pointer to it.
; Must not produce: any diagnostic.
@g = external global [18446744073709551615 x i8]

declare void @f([18446744073709551615 x i8]*)
