; Hand-written. 8-bit integer arithmetic. Shapes:
; - @uchar_blend: `uchar4 c = a * alpha + b;` on uchar4 pixels (image code's
;   usual shape) and a uchar counter `uchar k = k0 - 1`: `mul <4 x i8>`,
;   `add <4 x i8>`, `sub i8`.
; - @uchar_div: `uchar q = v / 3, r = v % 3`: `udiv i8`, `urem i8`.
; - @pack_nibbles: mistral.rs's q4_0 packing (../shared/corpus/
;   EricLBuehler__mistral.rs/mistralrs-quant/src/metal_kernels/kv_quant.metal
;   line 410, `y->qs[j] |= xi1 << 4`; 00006_quantize_4bit_kv_float.ll lines
;   72-74): `shl i8`, `or i8`; and effort's decodeQ8 unpacking
;   (kolinko__effort/default.metallib.extracted/00000_decodeQ8.ll lines
;   20-21): `lshr i8`, `and i8`. Bytes are the data format there.
; - @short_math: the same arithmetic on i16 (native).
; - @compiler_bytes: i8 operations LLVM makes of its own (issue 23): a
;   range check `c >= '1' && c <= '9'` InstCombine turns into
;   `add i8 (trunc x), -49` feeding only an `icmp`; `int` math narrowed
;   to i8 by `trunc` and extended back; a loop counter truncated to i8.
; MUST: exactly five findings, all byte-arithmetic (note): the mul, add and
;   sub of @uchar_blend, the udiv and urem of @uchar_div.
; MUST NOT: a finding in @pack_nibbles (shifts and bitwise operations),
;   @short_math (16-bit) or @compiler_bytes (none fed by an i8 load or
;   argument, none feeding a store).
source_filename = "byte_arithmetic.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress nounwind willreturn
define void @uchar_blend(<4 x i8> addrspace(1)* noundef "air-buffer-no-alias" %0, <4 x i8> addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i8 addrspace(2)* noundef "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = zext i32 %3 to i64
  %6 = getelementptr inbounds <4 x i8>, <4 x i8> addrspace(1)* %1, i64 %5
  %7 = load <4 x i8>, <4 x i8> addrspace(1)* %6, align 4, !tbaa !36
  %8 = load i8, i8 addrspace(2)* %2, align 1, !tbaa !36
  %9 = insertelement <4 x i8> poison, i8 %8, i64 0
  %10 = shufflevector <4 x i8> %9, <4 x i8> poison, <4 x i32> zeroinitializer
  %11 = mul <4 x i8> %7, %10
  %12 = getelementptr inbounds <4 x i8>, <4 x i8> addrspace(1)* %0, i64 %5
  %13 = load <4 x i8>, <4 x i8> addrspace(1)* %12, align 4, !tbaa !36
  %14 = add <4 x i8> %11, %13
  %15 = sub i8 %8, 1
  %16 = insertelement <4 x i8> %14, i8 %15, i64 3
  store <4 x i8> %16, <4 x i8> addrspace(1)* %12, align 4, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @uchar_div(i8 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds i8, i8 addrspace(1)* %0, i64 %3
  %5 = load i8, i8 addrspace(1)* %4, align 1, !tbaa !36
  %6 = udiv i8 %5, 3
  %7 = urem i8 %5, 3
  %8 = xor i8 %6, %7
  store i8 %8, i8 addrspace(1)* %4, align 1, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @pack_nibbles(i8 addrspace(1)* noundef "air-buffer-no-alias" %0, i8 addrspace(1)* noundef readonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds i8, i8 addrspace(1)* %1, i64 %4
  %6 = load i8, i8 addrspace(1)* %5, align 1, !tbaa !36
  %7 = lshr i8 %6, 3
  %8 = and i8 %7, 15
  %9 = shl i8 %8, 4
  %10 = or i8 %9, %8
  %11 = getelementptr inbounds i8, i8 addrspace(1)* %0, i64 %4
  store i8 %10, i8 addrspace(1)* %11, align 1, !tbaa !36
  ret void
}

; Function Attrs: convergent mustprogress nounwind willreturn
define void @short_math(i16 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = zext i32 %1 to i64
  %4 = getelementptr inbounds i16, i16 addrspace(1)* %0, i64 %3
  %5 = load i16, i16 addrspace(1)* %4, align 2, !tbaa !38
  %6 = mul i16 %5, 3
  %7 = add i16 %6, 1
  %8 = udiv i16 %7, 3
  store i16 %8, i16 addrspace(1)* %4, align 2, !tbaa !38
  ret void
}

define internal i32 @compiler_bytes(i32 %0, i32 %1) unnamed_addr #0 {
  %c = trunc i32 %0 to i8
  %off = add i8 %c, -49
  %digit = icmp ult i8 %off, 9
  %n = trunc i32 %1 to i8
  %n2 = mul i8 %n, 3
  %wide = zext i8 %n2 to i32
  br label %loop

loop:
  %k = phi i8 [ 0, %2 ], [ %k1, %loop ]
  %k1 = add i8 %k, 1
  %more = icmp ult i8 %k1, 16
  br i1 %more, label %loop, label %done

done:
  %d = zext i1 %digit to i32
  %r = add i32 %wide, %d
  ret i32 %r
}

attributes #0 = { convergent mustprogress nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !17, !21}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (<4 x i8> addrspace(1)*, <4 x i8> addrspace(1)*, i8 addrspace(2)*, i32)* @uchar_blend, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !20}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uchar4", !"air.arg_name", !"dst"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uchar4", !"air.arg_name", !"src"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 1, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 2, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"alpha"}
!14 = !{void (i8 addrspace(1)*, i32)* @uchar_div, !9, !15}
!15 = !{!16, !19}
!16 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"v"}
!17 = !{void (i8 addrspace(1)*, i8 addrspace(1)*, i32)* @pack_nibbles, !9, !18}
!18 = !{!16, !22, !23}
!19 = !{i32 1, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!20 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!21 = !{void (i16 addrspace(1)*, i32)* @short_math, !9, !24}
!22 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"packed"}
!23 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!24 = !{!25, !19}
!25 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 2, !"air.arg_type_align_size", i32 2, !"air.arg_type_name", !"ushort", !"air.arg_name", !"v"}
!36 = !{!37, !37, i64 0}
!37 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!38 = !{!39, !39, i64 0}
!39 = !{!"short", !37, i64 0}
