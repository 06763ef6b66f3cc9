// Hand-written for tests/source_mapping.rs: the MSL inlined.ll's debug info
// names. `tile_of` is inlined into `rows`, which is inlined into the kernel.
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
