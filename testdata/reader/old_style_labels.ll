; Hand-written. Construct: unnamed blocks as LLVM 6 and earlier printed them,
; their number in a comment, `; <label>:2`, not as a label `2:`.
; Must produce: @f with 3 blocks, unnamed entry, then "2" (line 10) and "3"
; (line 13); the phi's incoming blocks 2 and 0; a CFG with no missing label.
; Must not produce: any diagnostic.
define i32 @f(i32 %x) {
  %1 = icmp eq i32 %x, 0
  br i1 %1, label %2, label %3

; <label>:2:                                      ; preds = %0
  br label %3

; <label>:3:                                      ; preds = %2, %0
  %4 = phi i32 [ 1, %2 ], [ 0, %0 ]
  ret i32 %4
}
