; Hand-written. Construct: function bodies that do not put `{` and `}` on
; lines of their own. LangRef's grammar has no line ends; LLVM's own tests
; (llvm/test/Assembler, llvm/test/Verifier) write `define void @f() { ret
; void }` and close bodies on the last instruction's line.
; Must produce: @empty with one `ret`; @inc with block `entry` and an `add`
; then a `ret` of %y, all on line 12; @tail with its `ret` on line 15 (the
; `}` on the same line); @indented with a `br` and a `ret` in 2 blocks (its
; `}` indented); @after read after them all.
; Must not produce: any diagnostic.
define void @empty() { ret void }

define i32 @inc(i32 %x) { entry: %y = add i32 %x, 1 ret i32 %y }

define void @tail() {
  ret void }

define void @indented() {
  br label %next
next:
  ret void
  }

define void @after() {
  ret void
}
