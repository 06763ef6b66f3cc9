// Hand-written for tests/suppress.rs: the MSL that divides.ll's debug info
// points at. Each divide below is by a `constant` argument.
#include <metal_stdlib>
using namespace metal;

kernel void divides(device uint *out [[buffer(0)]],
                    constant uint &n [[buffer(1)]],
                    uint gid [[thread_position_in_grid]]) {
    out[0] = gid / n; // air-scan: ignore[divide-by-uniform] n is a power of two, checked on the host
    // air-scan: ignore[AIR001] the grid is tiny here
    out[1] = (gid + 4) % n;
    out[2] = (gid + 1) / n; // air-scan: ignore[divide-by-uniform]
    out[3] = (gid + 2) / n; // air-scan: ignore because I said so
    out[4] = (gid + 3) / n;
}
