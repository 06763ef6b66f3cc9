; Hand-written. Construct: entities and instructions written over several
; lines. LLVM's lexer ignores line ends (LangRef: "whitespace is not
; significant" between tokens), and hand-formatted IR in LLVM's own tests and
; IR written by other tools put one parameter per line in a `define`, split
; calls, phis and GEPs, and put `, align N` or `#N` on a line of their own.
; Kernel shape: the opaque-pointer kernels of
;   ../shared/corpus/kolinko__effort/default.metallib.extracted/00031_softmax_add32.opaque.ll
; Must produce: every entity and instruction read as if it were on one line:
; @scale with 3 parameters (names a, n, s), 4 blocks and the instructions on
; the lines of their first token (28, 31, 33, 35, 39, 41, 43, 46, 48);
; @g with its initializer; the struct type; the declaration's #1.
; Must not produce: any diagnostic.
%struct.Pair = type {
  float,
  i32
}

@g = internal addrspace(2) constant [2 x i32]
  [i32 1, i32 2], align 4

define void @scale(
    ptr addrspace(1) noundef "air-buffer-no-alias" %a,
    i32 noundef %n,
    float %s)
  local_unnamed_addr #0
{
entry:
  %p = getelementptr inbounds float,
         ptr addrspace(1) %a,
         i32 %n
  %v = load float, ptr addrspace(1) %p
         , align 4
  %c = icmp
         ult i32 %n, 7
  br i1 %c,
     label %then, label %done

then:
  %r = call float @mix(float %v,
                       float %s)
  store float %r,
        ptr addrspace(1) %p, align 4
  br label %done

done:
  %x = phi i32 [ 0, %entry ],
               [ 1, %then ]
  ret void
}

declare float @mix(float, float)
  #1

attributes #0 = { nounwind }
attributes #1 = {
  nounwind
  willreturn
}
