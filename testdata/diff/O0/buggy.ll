; Hand-written. Shape: seed ../shared/seeds/002_1a3b6f607dabf4d0.txt, kernel
; `buggy` (MSL in ../shared/seeds/metalbug_reproducer_kernels.metal) as
; `xcrun metal -O0 -S -emit-llvm` prints it: every local in an alloca, the
; ternaries as branches, and, in the true-branch of `cond ? *(data + ...) : 0`,
; the address computed as the seed's bug_O0.ll lines 108-121 compute it:
; `mul nsw i32 5, q'` -> `sub nsw i32 alu1, _` -> `shl i32 _, 3` -> sext ->
; `getelementptr inbounds i8` -> `load i8`. The fast_idiv quotient
; (`mul nsw i64 _, 1717986919`, `ashr i64 _, 33`) is computed before the branch,
; where the MSL declares `q`. Value numbers are ours. Its -O2 form is
; ../O2/buggy.ll.
; The diff O0/buggy.ll -> O2/buggy.ll MUST show: kernel `buggy` changed;
;   fused-shift-address-in-branch 0 -> 1, introduced in b on `mul i32 _,
;   536870907` in block %19 (conditional); the `load i8` from `data` on both
;   sides (here line 118, block %66, conditional); the fast_idiv (`mul nsw i64
;   _, 1717986919`, here line 95 in block %33, which no branch controls)
;   moved into conditional block %19; `mul nsw i32 5, _` and `sub` (lines
;   113-114) only in a, `mul i32 _, 536870907` only in b; fewer instructions,
;   allocas and thread-memory (as 0) loads and stores at -O2.
source_filename = "metalbug_reproducer.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define void @buggy(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i8 addrspace(1)* noundef "air-buffer-no-alias" %2, <3 x i32> noundef %3) #0 {
  %5 = alloca i32 addrspace(1)*, align 8
  %6 = alloca i32 addrspace(1)*, align 8
  %7 = alloca i8 addrspace(1)*, align 8
  %8 = alloca <3 x i32>, align 16
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i64, align 8
  %14 = alloca i32, align 4
  %15 = alloca i8, align 1
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i8, align 1
  store i32 addrspace(1)* %0, i32 addrspace(1)** %5, align 8
  store i32 addrspace(1)* %1, i32 addrspace(1)** %6, align 8
  store i8 addrspace(1)* %2, i8 addrspace(1)** %7, align 8
  store <3 x i32> %3, <3 x i32>* %8, align 16
  %19 = load <3 x i32>, <3 x i32>* %8, align 16
  %20 = extractelement <3 x i32> %19, i64 0
  store i32 %20, i32* %9, align 4
  %21 = load i32 addrspace(1)*, i32 addrspace(1)** %6, align 8
  %22 = load i32, i32* %9, align 4
  %23 = sext i32 %22 to i64
  %24 = getelementptr inbounds i32, i32 addrspace(1)* %21, i64 %23
  %25 = load i32, i32 addrspace(1)* %24, align 4
  store i32 %25, i32* %10, align 4
  %26 = load i32, i32* %10, align 4
  %27 = icmp slt i32 %26, 0
  br i1 %27, label %28, label %31

28:                                               ; preds = %4
  %29 = load i32, i32* %10, align 4
  %30 = add nsw i32 %29, 25
  br label %33

31:                                               ; preds = %4
  %32 = load i32, i32* %10, align 4
  br label %33

33:                                               ; preds = %31, %28
  %34 = phi i32 [ %30, %28 ], [ %32, %31 ]
  store i32 %34, i32* %11, align 4
  %35 = load i32, i32* %11, align 4
  %36 = add nsw i32 %35, 1
  store i32 %36, i32* %12, align 4
  %37 = load i32, i32* %11, align 4
  %38 = sext i32 %37 to i64
  %39 = add nsw i64 %38, 1
  store i64 %39, i64* %13, align 8
  %40 = load i64, i64* %13, align 8
  %41 = srem i64 %40, 5
  %42 = trunc i64 %41 to i32
  store i32 %42, i32* %14, align 4
  %43 = load i32, i32* %14, align 4
  %44 = icmp slt i32 %43, 2
  %45 = zext i1 %44 to i32
  %46 = load i32, i32* %11, align 4
  %47 = icmp sge i32 %46, 0
  %48 = zext i1 %47 to i32
  %49 = and i32 %45, %48
  %50 = load i32, i32* %11, align 4
  %51 = icmp slt i32 %50, 25
  %52 = zext i1 %51 to i32
  %53 = and i32 %49, %52
  %54 = icmp ne i32 %53, 0
  %55 = zext i1 %54 to i8
  store i8 %55, i8* %15, align 1
  %56 = load i32, i32* %12, align 4
  %57 = sext i32 %56 to i64
  %58 = mul nsw i64 %57, 1717986919
  %59 = ashr i64 %58, 33
  %60 = trunc i64 %59 to i32
  store i32 %60, i32* %16, align 4
  %61 = load i32, i32* %12, align 4
  %62 = icmp slt i32 %61, 0
  %63 = select i1 %62, i32 1, i32 0
  store i32 %63, i32* %17, align 4
  %64 = load i8, i8* %15, align 1
  %65 = trunc i8 %64 to i1
  br i1 %65, label %66, label %78

66:                                               ; preds = %33
  %67 = load i8 addrspace(1)*, i8 addrspace(1)** %7, align 8
  %68 = load i32, i32* %12, align 4
  %69 = load i32, i32* %16, align 4
  %70 = load i32, i32* %17, align 4
  %71 = add nsw i32 %69, %70
  %72 = mul nsw i32 5, %71
  %73 = sub nsw i32 %68, %72
  %74 = shl i32 %73, 3
  %75 = sext i32 %74 to i64
  %76 = getelementptr inbounds i8, i8 addrspace(1)* %67, i64 %75
  %77 = load i8, i8 addrspace(1)* %76, align 1
  br label %79

78:                                               ; preds = %33
  br label %79

79:                                               ; preds = %78, %66
  %80 = phi i8 [ %77, %66 ], [ 0, %78 ]
  store i8 %80, i8* %18, align 1
  %81 = load i8, i8* %18, align 1
  %82 = zext i8 %81 to i32
  %83 = load i32 addrspace(1)*, i32 addrspace(1)** %5, align 8
  %84 = load i32, i32* %9, align 4
  %85 = sext i32 %84 to i64
  %86 = getelementptr inbounds i32, i32 addrspace(1)* %83, i64 %85
  store i32 %82, i32 addrspace(1)* %86, align 4
  ret void
}

attributes #0 = { convergent mustprogress noinline norecurse nounwind optnone "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 0]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Apple metal version 32023.622 (metalfe-32023.622)"}
!4 = !{i32 2, i32 6, i32 0}
!5 = !{!"Metal", i32 3, i32 1, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.framebuffer_fetch_enable"}
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i8 addrspace(1)*, <3 x i32>)* @buggy, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"output"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"indices"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"data"}
!14 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"gid"}
