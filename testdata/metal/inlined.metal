// Hand-written for tests/metal_inputs.rs (a copy of testdata/source/inlined.metal):
// `tile_of` is a helper at -O0 (inlined.O0.ll) and inlined at -O2 (inlined.O2.ll).
#include <metal_stdlib>
using namespace metal;

static uint tile_of(uint i, uint n) {
    return i / n;
}

static uint rows(uint i, uint n) {
    return tile_of(i, n) + 1;
}

kernel void inlined(device uint *out [[buffer(0)]],
                    constant uint &n [[buffer(1)]],
                    uint gid [[thread_position_in_grid]]) {
    out[gid] = rows(gid, n);
}
