; Hand-written. Construct: function-pointer types where an instruction or a
; header has a type first: `ret void (i32)* @sink`, a `personality` with a
; bitcast of a function and one with a function type (typed pointers, as LLVM
; 14 prints C++ code with exceptions; LangRef, "Functions").
; Must produce: @getf's `ret` with one operand, @sink, of a pointer type;
; @q's `ret` of null; @p and @q read with their personality.
; Must not produce: any diagnostic.
define void (i32)* @getf() {
  ret void (i32)* @sink
}

declare void @sink(i32)

declare i32 @__gxx_personality_v0(...)

define void @p() personality i8* bitcast (i32 (...)* @__gxx_personality_v0 to i8*) {
  ret void
}

define void ()* @q() personality i32 (...)* @__gxx_personality_v0 {
  ret void ()* null
}
