; Hand-written. Divisors read from device memory, told apart by the address:
; the same for every thread (uniform) or not. Shapes:
; - @expert_dispatch: kolinko's prepareExpertDispatchQ8
;   (../shared/corpus/kolinko__effort/default.metallib.extracted/
;   00005_prepareExpertDispatchQ8.ll lines 22-34; bucketMulQ8.metal:287
;   `v[i % rowsCount]`): `device const uint& rowsCount` loaded at its one
;   address, the divisor of a `urem` inside a loop over i.
; - @round_up: kolinko's roundUp (00007_roundUp.ll line 11; bucketMul.metal:29
;   `result[0] = (1 + result[0] / number) * number`): `number` read-only, the
;   dividend from `result`, which the kernel writes.
; - @rewritten: the divisor's buffer is written by the kernel
;   (`s[0] += gid; x / s[0]`, as kolinko's touch does to `bsScalar`): other
;   threads' writes may be seen, so it is not one value.
; - @per_thread: metal2vulkan's `in[gid + 8]` divisor
;   (../shared/corpus/imbushuo__metal2vulkan/kernel_divide_shapes.ll line 15).
; - @through_helper: a helper dividing by `*p`, called with `&b[gid]`: the
;   helper's load is at one address of its own, but its callers' index varies.
; MUST: divide-by-uniform on @expert_dispatch's urem (`rowsCount`, kind
;   memory, loop depth 1, "device scalar") and @round_up's udiv (`number`);
;   divide-by-varying on @rewritten's (`s`), @per_thread's (`in`) and the
;   helper's sdiv (`b`... named by the helper's parameter memory).
; MUST NOT: divide-by-uniform on @rewritten, @per_thread or @helper_div.
source_filename = "divide_device_uniform.metal"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024-n8:16:32"
target triple = "air64-apple-macosx15.0.0"

define void @expert_dispatch(float addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %0, float addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 addrspace(1)* nocapture noundef readonly align 4 dereferenceable(4) "air-buffer-no-alias" %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = load i32, i32 addrspace(1)* %2, align 4, !tbaa !30
  %6 = mul i32 %3, 16
  %7 = add i32 %6, 16
  br label %8

8:
  %9 = phi i32 [ %6, %4 ], [ %15, %8 ]
  %10 = urem i32 %9, %5
  %11 = zext i32 %10 to i64
  %12 = getelementptr inbounds float, float addrspace(1)* %0, i64 %11
  %13 = load float, float addrspace(1)* %12, align 4, !tbaa !34
  %14 = getelementptr inbounds float, float addrspace(1)* %1, i64 %11
  store float %13, float addrspace(1)* %14, align 4, !tbaa !34
  %15 = add i32 %9, 1
  %16 = icmp ult i32 %15, %7
  br i1 %16, label %8, label %17

17:
  ret void
}

define void @round_up(i32 addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef readonly align 4 dereferenceable(4) "air-buffer-no-alias" %1) local_unnamed_addr #0 {
  %3 = load i32, i32 addrspace(1)* %0, align 4, !tbaa !30
  %4 = load i32, i32 addrspace(1)* %1, align 4, !tbaa !30
  %5 = udiv i32 %3, %4
  %6 = add i32 %5, 1
  %7 = mul i32 %6, %4
  store i32 %7, i32 addrspace(1)* %0, align 4, !tbaa !30
  ret void
}

define void @rewritten(i32 addrspace(1)* nocapture noundef "air-buffer-no-alias" %0, i32 noundef %1) local_unnamed_addr #0 {
  %3 = load i32, i32 addrspace(1)* %0, align 4, !tbaa !30
  %4 = add i32 %3, %1
  store i32 %4, i32 addrspace(1)* %0, align 4, !tbaa !30
  %5 = load i32, i32 addrspace(1)* %0, align 4, !tbaa !30
  %6 = udiv i32 %1, %5
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 1
  store i32 %6, i32 addrspace(1)* %7, align 4, !tbaa !30
  ret void
}

define void @per_thread(i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %4
  %6 = load i32, i32 addrspace(1)* %5, align 4, !tbaa !30
  %7 = add i32 %2, 8
  %8 = zext i32 %7 to i64
  %9 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %8
  %10 = load i32, i32 addrspace(1)* %9, align 4, !tbaa !30
  %11 = udiv i32 %6, %10
  %12 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %4
  store i32 %11, i32 addrspace(1)* %12, align 4, !tbaa !30
  ret void
}

define internal fastcc i32 @helper_div(i32 addrspace(1)* nocapture readonly %0, i32 %1) unnamed_addr #1 {
  %3 = load i32, i32 addrspace(1)* %0, align 4, !tbaa !30
  %4 = sdiv i32 %1, %3
  ret i32 %4
}

define void @through_helper(i32 addrspace(1)* nocapture noundef readonly "air-buffer-no-alias" %0, i32 addrspace(1)* nocapture noundef writeonly "air-buffer-no-alias" %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = zext i32 %2 to i64
  %5 = getelementptr inbounds i32, i32 addrspace(1)* %0, i64 %4
  %6 = tail call fastcc i32 @helper_div(i32 addrspace(1)* %5, i32 %2)
  %7 = getelementptr inbounds i32, i32 addrspace(1)* %1, i64 %4
  store i32 %6, i32 addrspace(1)* %7, align 4, !tbaa !30
  ret void
}

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn "frame-pointer"="all" "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { mustprogress nofree norecurse nounwind willreturn }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!3}
!air.version = !{!4}
!air.language_version = !{!5}
!air.compile_options = !{!6, !7}
!air.kernel = !{!8, !14, !18, !21, !25}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 15, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!3 = !{!"Apple metal version 32023.620 (metalfe-32023.620)"}
!4 = !{i32 2, i32 7, i32 0}
!5 = !{!"Metal", i32 3, i32 2, i32 0}
!6 = !{!"air.compile.denorms_disable"}
!7 = !{!"air.compile.fast_math_enable"}
!8 = !{void (float addrspace(1)*, float addrspace(1)*, i32 addrspace(1)*, i32)* @expert_dispatch, !9, !10}
!9 = !{}
!10 = !{!11, !12, !13, !40}
!11 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"v"}
!12 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"float", !"air.arg_name", !"out"}
!13 = !{i32 2, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 7, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"rowsCount"}
!14 = !{void (i32 addrspace(1)*, i32 addrspace(1)*)* @round_up, !9, !15}
!15 = !{!16, !17}
!16 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"result"}
!17 = !{i32 1, !"air.buffer", !"air.buffer_size", i32 4, !"air.location_index", i32 2, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"number"}
!18 = !{void (i32 addrspace(1)*, i32)* @rewritten, !9, !19}
!19 = !{!20, !41}
!20 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read_write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"s"}
!21 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @per_thread, !9, !22}
!22 = !{!23, !24, !41}
!23 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"in"}
!24 = !{i32 1, !"air.buffer", !"air.location_index", i32 1, i32 1, !"air.write", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"uint", !"air.arg_name", !"out"}
!25 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32)* @through_helper, !9, !26}
!26 = !{!27, !24, !41}
!27 = !{i32 0, !"air.buffer", !"air.location_index", i32 0, i32 1, !"air.read", !"air.address_space", i32 1, !"air.arg_type_size", i32 4, !"air.arg_type_align_size", i32 4, !"air.arg_type_name", !"int", !"air.arg_name", !"b"}
!30 = !{!31, !31, i64 0}
!31 = !{!"int", !32, i64 0}
!32 = !{!"omnipotent char", !33, i64 0}
!33 = !{!"Simple C++ TBAA"}
!34 = !{!35, !35, i64 0}
!35 = !{!"float", !32, i64 0}
!40 = !{i32 3, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
!41 = !{i32 2, !"air.thread_position_in_grid", !"air.arg_type_name", !"uint", !"air.arg_name", !"gid"}
