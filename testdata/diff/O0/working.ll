; Hand-written. Shape: seed ../shared/seeds/002_1a3b6f607dabf4d0.txt, kernel
; `working` (MSL in ../shared/seeds/metalbug_reproducer_kernels.metal) as
; `xcrun metal -O0 -S -emit-llvm` prints it, in the same -O0 style as
; ./buggy.ll: every local in an alloca, ternaries as branches. `remainder =
; alu1 - 5 * (q + alu4)` is computed and stored before the branch (`mul nsw
; i32 5, _`, `sub nsw i32`), and the true-branch only loads it, shifts it by 3
; and loads `data[remainder << 3]`, as the seed's "How the passing kernel
; avoids the bug" describes. Value numbers are ours. Its -O2 form is
; ../O2/working.ll.
; The diff O0/working.ll -> O2/working.ll MUST show: kernel `working` changed
;   (fewer instructions, allocas and thread-memory loads and stores at -O2),
;   and no finding introduced or removed: no fused-shift-address-in-branch on
;   either side, because -O2 keeps `mul i32 _, -5` before the branch.
source_filename = "metalbug_reproducer.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

; Function Attrs: convergent mustprogress noinline norecurse nounwind optnone
define void @working(i32 addrspace(1)* noundef "air-buffer-no-alias" %0, i32 addrspace(1)* noundef "air-buffer-no-alias" %1, i8 addrspace(1)* noundef "air-buffer-no-alias" %2, <3 x i32> noundef %3) #0 {
  %5 = alloca i32 addrspace(1)*, align 8
  %6 = alloca i32 addrspace(1)*, align 8
  %7 = alloca i8 addrspace(1)*, align 8
  %8 = alloca <3 x i32>, align 16
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i8, align 1
  %17 = alloca i8, align 1
  store i32 addrspace(1)* %0, i32 addrspace(1)** %5, align 8
  store i32 addrspace(1)* %1, i32 addrspace(1)** %6, align 8
  store i8 addrspace(1)* %2, i8 addrspace(1)** %7, align 8
  store <3 x i32> %3, <3 x i32>* %8, align 16
  %18 = load <3 x i32>, <3 x i32>* %8, align 16
  %19 = extractelement <3 x i32> %18, i64 0
  store i32 %19, i32* %9, align 4
  %20 = load i32 addrspace(1)*, i32 addrspace(1)** %6, align 8
  %21 = load i32, i32* %9, align 4
  %22 = sext i32 %21 to i64
  %23 = getelementptr inbounds i32, i32 addrspace(1)* %20, i64 %22
  %24 = load i32, i32 addrspace(1)* %23, align 4
  store i32 %24, i32* %10, align 4
  %25 = load i32, i32* %10, align 4
  %26 = icmp slt i32 %25, 0
  br i1 %26, label %27, label %30

27:                                               ; preds = %4
  %28 = load i32, i32* %10, align 4
  %29 = add nsw i32 %28, 25
  br label %32

30:                                               ; preds = %4
  %31 = load i32, i32* %10, align 4
  br label %32

32:                                               ; preds = %30, %27
  %33 = phi i32 [ %29, %27 ], [ %31, %30 ]
  store i32 %33, i32* %11, align 4
  %34 = load i32, i32* %11, align 4
  %35 = add nsw i32 %34, 1
  store i32 %35, i32* %12, align 4
  %36 = load i32, i32* %12, align 4
  %37 = sext i32 %36 to i64
  %38 = mul nsw i64 %37, 1717986919
  %39 = ashr i64 %38, 33
  %40 = trunc i64 %39 to i32
  store i32 %40, i32* %13, align 4
  %41 = load i32, i32* %12, align 4
  %42 = icmp slt i32 %41, 0
  %43 = select i1 %42, i32 1, i32 0
  store i32 %43, i32* %14, align 4
  %44 = load i32, i32* %12, align 4
  %45 = load i32, i32* %13, align 4
  %46 = load i32, i32* %14, align 4
  %47 = add nsw i32 %45, %46
  %48 = mul nsw i32 5, %47
  %49 = sub nsw i32 %44, %48
  store i32 %49, i32* %15, align 4
  %50 = load i32, i32* %15, align 4
  %51 = icmp slt i32 %50, 2
  %52 = zext i1 %51 to i32
  %53 = load i32, i32* %11, align 4
  %54 = icmp sge i32 %53, 0
  %55 = zext i1 %54 to i32
  %56 = and i32 %52, %55
  %57 = load i32, i32* %11, align 4
  %58 = icmp slt i32 %57, 25
  %59 = zext i1 %58 to i32
  %60 = and i32 %56, %59
  %61 = icmp ne i32 %60, 0
  %62 = zext i1 %61 to i8
  store i8 %62, i8* %16, align 1
  %63 = load i8, i8* %16, align 1
  %64 = trunc i8 %63 to i1
  br i1 %64, label %65, label %72

65:                                               ; preds = %32
  %66 = load i8 addrspace(1)*, i8 addrspace(1)** %7, align 8
  %67 = load i32, i32* %15, align 4
  %68 = shl i32 %67, 3
  %69 = sext i32 %68 to i64
  %70 = getelementptr inbounds i8, i8 addrspace(1)* %66, i64 %69
  %71 = load i8, i8 addrspace(1)* %70, align 1
  br label %73

72:                                               ; preds = %32
  br label %73

73:                                               ; preds = %72, %65
  %74 = phi i8 [ %71, %65 ], [ 0, %72 ]
  store i8 %74, i8* %17, align 1
  %75 = load i8, i8* %17, align 1
  %76 = zext i8 %75 to i32
  %77 = load i32 addrspace(1)*, i32 addrspace(1)** %5, align 8
  %78 = load i32, i32* %9, align 4
  %79 = sext i32 %78 to i64
  %80 = getelementptr inbounds i32, i32 addrspace(1)* %77, i64 %79
  store i32 %76, i32 addrspace(1)* %80, align 4
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
!8 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i8 addrspace(1)*, <3 x i32>)* @working, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !14}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"output"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"indices"}
!13 = !{i32 2, !"air.buffer", !"air.location_index", i32 2, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 1, !"air.arg_type_align_size", i32 1, !"air.arg_type_name", !"uchar", !"air.arg_name", !"data"}
!14 = !{i32 3, !"air.threadgroup_position_in_grid", !"air.arg_type_name", !"uint3", !"air.arg_name", !"gid"}
