; Hand-written. Shape: the opaque-pointer kernel of
;   ../shared/corpus/ziglana__grincel/default.metallib.extracted/00000_compute.opaque.ll
; with attributes and keywords no LLVM knows (frobnicate...), standing for the
; ones a newer llvm-dis will print: each is a bare word, a word with a balanced
; bracketed argument (nested brackets included), or a "key"="value" string.
; Must produce: every global, function and instruction of the module, with the
; unknown text kept in the attribute spans; at most a warning for the unknown
; instruction `frobinst`.
; Must not produce: any error diagnostic, in the module or in a body.
source_filename = "unknown_attrs"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

@counter = internal frobnicate_gv(1) addrspace(1) global i32 0, frobnicate_tail(2, (3)), align 4

; Function Attrs: nounwind frobnicate_fn(7)
define void @compute(ptr addrspace(1) noundef frobnicate(1, (2, 3)) captures(none) "air-buffer-no-alias" %0, ptr addrspace(1) noundef writeonly captures(none) "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 frobnicate_fn quux(mode: fast, [1, 2]) {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds i8, ptr addrspace(1) %0, i64 %4
  %6 = load i8, ptr addrspace(1) %5, align 1
  %7 = tail call frobnicate_ret(9) i8 @helper(i8 frobnicate(1, (2, 3)) noundef %6) #1 frobnicate_site
  %8 = frobinst i8 %7, (1, (2)), [3]
  %9 = getelementptr inbounds i8, ptr addrspace(1) %1, i64 %4
  store i8 %7, ptr addrspace(1) %9, align 1
  ret void
}

declare i8 @helper(i8 frobnicate_decl(4)) local_unnamed_addr #1 frobnicate_decl_fn(5)

attributes #0 = { mustprogress nofree nounwind willreturn memory(argmem: readwrite) frobnicate_group(1, (2, 3)) "air-frobnicate"="on" "frame-pointer"="all" }
attributes #1 = { nounwind frobnicate_only }

!llvm.ident = !{!0}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
