; Hand-written. Two places where LLVM syntax allows words a given reader may
; not know, written per LLVM LangRef (function attributes may be written
; inline in a definition's header, string attributes as "key"="value"; new
; instruction flags appear between the opcode and the type, as nneg,
; disjoint and samesign did in LLVM 18-20). Body shape: the small kernels of
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.opaque.ll
; Must produce: both functions with all their instructions; the flag-carrying
; `add` kept as an `add` with its two operands.
; Must not produce: any error diagnostic.
source_filename = "unknown_inline"
target triple = "air64-apple-macosx15.0.0"

define void @string_attr(ptr addrspace(1) noundef %0, i32 noundef %1) local_unnamed_addr "frobnicate-mode"="fast" "no-builtins" {
  %3 = add i32 %1, 1
  %4 = zext i32 %3 to i64
  %5 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %4
  store i32 %3, ptr addrspace(1) %5, align 4
  ret void
}

define void @new_flag(ptr addrspace(1) noundef %0, i32 noundef %1) local_unnamed_addr {
  %3 = add frobflag nsw i32 %1, 1
  %4 = zext i32 %3 to i64
  %5 = getelementptr inbounds i32, ptr addrspace(1) %0, i64 %4
  store i32 %3, ptr addrspace(1) %5, align 4
  ret void
}
