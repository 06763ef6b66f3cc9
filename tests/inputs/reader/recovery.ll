; Hand-written. Shape: the fast-div kernel IR quoted in
;   ../shared/seeds/002_1a3b6f607dabf4d0.txt (`mul i32 %x, 536870907`, `shl`,
;   `sext`, `getelementptr inbounds i8, i8 addrspace(1)*`), typed pointers as in
;   ../shared/corpus/Iito__spindll/mlx.metallib.extracted/00063_depthwise_conv_1d_float32.ll
; with damage:
;   @buggy has one garbage line in the middle of a block (line 23);
;   @cut has one instruction cut short at the end of its line (line 35).
; Must produce: for @buggy exactly one error, on line 23, and every other
; instruction of @buggy; for @cut exactly one error, on line 35, and the
; instructions after it; @working and the metadata read clean.
; Must not produce: module-level diagnostics; errors on any other line.
source_filename = "metalbug_reproducer"
target triple = "air64-apple-macosx15.0.0"

define void @buggy(i8 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = add nsw i32 %1, 1
  %4 = sext i32 %3 to i64
  %5 = mul nsw i64 %4, 1717986919
  %6 = lshr i64 %5, 33
  %7 = trunc i64 %6 to i32
  %8 = mul i32 %7, 536870907
  %9 = add i32 %8, %3
  %10 = add i32 %9, ?? %8 garbage ##
  %11 = shl i32 %9, 3
  %12 = sext i32 %11 to i64
  %13 = getelementptr inbounds i8, i8 addrspace(1)* %0, i64 %12
  %14 = load i8, i8 addrspace(1)* %13, align 1
  store i8 %14, i8 addrspace(1)* %0, align 1
  ret void
}

define void @cut(i8 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = add nsw i32 %1, 1
  %4 = sext i32 %3 to i64
  %5 = getelementptr inbounds i8, i8 addrspace(1)* %0, i64
  %6 = load i8, i8 addrspace(1)* %0, align 1
  store i8 %6, i8 addrspace(1)* %0, align 1
  ret void
}

define void @working(i8 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = mul i32 %1, -5
  %4 = shl i32 %3, 3
  %5 = sext i32 %4 to i64
  %6 = getelementptr inbounds i8, i8 addrspace(1)* %0, i64 %5
  %7 = load i8, i8 addrspace(1)* %6, align 1
  store i8 %7, i8 addrspace(1)* %0, align 1
  ret void
}

attributes #0 = { mustprogress nounwind "frame-pointer"="all" }

!llvm.ident = !{!0}

!0 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
