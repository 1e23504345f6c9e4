#ifndef LOOKSTUDIO_LUTKERNELS_H
#define LOOKSTUDIO_LUTKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// Instruction sets the tetrahedral kernels exist for, best last.
typedef enum {
    LSLUT_SCALAR = 0,
    LSLUT_SSE41 = 1,
    LSLUT_AVX2 = 2
} lslut_level;

/// The best level this CPU runs (LSLUT_SCALAR on non-x86 machines: the caller keeps its own scalar loop).
int lslut_best_level(void);

/// Tetrahedral lookup of `count` interleaved 8-bit pixels in place (`channels` 3 or 4; alpha untouched).
/// `table` holds n³ entries of 4 floats (RGB and padding), red fastest, pre-scaled to 0…255; `clamp` nonzero clamps
/// results to 0…255 (needed only when entries leave that range). Returns 0, or -1 when `level` is not available.
int lslut_apply8(int level, const float *table, int n, uint8_t *pixels, size_t count, int channels, int clamp);

/// The same for native-endian 16-bit pixels, with `table` pre-scaled to 0…65535.
int lslut_apply16(int level, const float *table, int n, uint16_t *pixels, size_t count, int channels, int clamp);

/// Tetrahedral lookup of `count` interleaved RGB float triples from `in` to `out` (which may be `in`): inputs
/// clamped to 0…1 (NaN to 0) and snapped to grid points within four ulps, `table` n³ entries of 4 floats, unscaled,
/// results unclamped — LookCore's `BatchSampler` arithmetic, bit for bit. `codes`, when not NULL, also receives
/// each result as an 8-bit code (clamped to 0…1, times 255, plus 0.5, truncated). Returns 0, or -1 when `level` is
/// not available.
int lslut_applyf(int level, const float *table, int n, const float *in, float *out, uint8_t *codes, size_t count);

#endif
