// Hand-written for tests/metal_inputs.rs. The stand-in xcrun those tests
// write "compiles" it by copying tile.O0.ll or tile.O2.ll (what a real
// compile gives is only checked on a Mac).
#include <metal_stdlib>
using namespace metal;

kernel void tile(device uint *out [[buffer(0)]],
                 constant uint &n [[buffer(1)]],
                 uint gid [[thread_position_in_grid]]) {
    out[gid] = gid / n + gid % n;
}
