// Vector tetrahedral kernels, one per instruction set, chosen at run time (the OpenColorIO way): the target builds
// without global -mavx2, each kernel carries its own target attribute.
//
// Arithmetic mirrors LookCore's scalar CubeApplier operation for operation (same grid position formula, the same
// branch-free ordering of the fractions, c000 + f1(ca − c000) + f2(cb − ca) + f3(c111 − cb) summed left to right,
// no fused multiply-add, rounding by adding 1.5·2²³), so both paths give bit-identical codes.
#pragma clang fp contract(off)

#include "lutkernels.h"

#include "cpufeatures.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>

#define LSLUT_BLOCK 8

// Per block of pixels the grid walk is computed W lanes at a time (structure of arrays): cell offsets of the four
// corners and the three weights. The corners are then read one pixel at a time as 4-float rows and blended in one
// 128-bit register, which needs no gathers (slow on many cores) and no transposes.
#define KW 8
#define KNAME(x) x##_avx2
#define KTARGET "avx2"
#include "lutkernel_body.h"
#undef KW
#undef KNAME
#undef KTARGET

#define KW 4
#define KNAME(x) x##_sse41
#define KTARGET "sse4.1"
#include "lutkernel_body.h"
#undef KW
#undef KNAME
#undef KTARGET

/* Runs kernel `run` for the instruction set `level` names, when this CPU has it; -1 (the caller's scalar loop)
 * otherwise. */
#define LSLUT_DISPATCH(run, ...)                                                                                   \
    do {                                                                                                           \
        if (level == LSLUT_AVX2 && lscpu_has(LSCPU_AVX2)) { run##_avx2(__VA_ARGS__); return 0; }                  \
        if (level == LSLUT_SSE41 && lscpu_has(LSCPU_SSE41)) { run##_sse41(__VA_ARGS__); return 0; }               \
        return -1;                                                                                                 \
    } while (0)

int lslut_best_level(void) {
    if (lscpu_has(LSCPU_AVX2)) return LSLUT_AVX2;
    if (lscpu_has(LSCPU_SSE41)) return LSLUT_SSE41;
    return LSLUT_SCALAR;
}

int lslut_apply8(int level, const float *table, int n, uint8_t *pixels, size_t count, int channels, int clamp) {
    if (channels != 3 && channels != 4) return -1;
    /* Each code's grid position, (code · (N−1)) / 255 in float: the scalar path's formula, computed once. */
    float grid[256];
    for (int c = 0; c < 256; c++) grid[c] = (float)c * (float)(n - 1) / 255.0f;
    LSLUT_DISPATCH(lslut_run8, table, n, grid, pixels, count, channels, clamp);
}

int lslut_apply16(int level, const float *table, int n, uint16_t *pixels, size_t count, int channels, int clamp) {
    if (channels != 3 && channels != 4) return -1;
    LSLUT_DISPATCH(lslut_run16, table, n, pixels, count, channels, clamp);
}

int lslut_applyf(int level, const float *table, int n, const float *in, float *out, uint8_t *codes,
                 size_t count) {
    LSLUT_DISPATCH(lslut_runf, table, n, in, out, codes, count);
}

#else

int lslut_best_level(void) { return LSLUT_SCALAR; }

int lslut_apply8(int level, const float *table, int n, uint8_t *pixels, size_t count, int channels, int clamp) {
    (void)level; (void)table; (void)n; (void)pixels; (void)count; (void)channels; (void)clamp;
    return -1;
}

int lslut_apply16(int level, const float *table, int n, uint16_t *pixels, size_t count, int channels, int clamp) {
    (void)level; (void)table; (void)n; (void)pixels; (void)count; (void)channels; (void)clamp;
    return -1;
}

int lslut_applyf(int level, const float *table, int n, const float *in, float *out, uint8_t *codes,
                 size_t count) {
    (void)level; (void)table; (void)n; (void)in; (void)out; (void)codes; (void)count;
    return -1;
}

#endif
