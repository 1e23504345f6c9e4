// The look fit's solver kernels: conjugate gradients spend their time in the stencil product and the coarse
// level's triangular solves, both on 4-lane vectors of doubles. Swift's SIMD4<Double> compiles to pairs of SSE2
// operations without fused multiply-adds on the x86-64 baseline, so each kernel has an AVX2 + FMA version chosen at
// run time (on CCPUFeatures' answer, as CLUTKernels and the face detector choose), and a portable one the compiler
// vectorises as it can.

#include "fitkernels.h"

#include "cpufeatures.h"

// Row i of a band factor (`lsfit_cholesky_solve`), indexed by column: row[k] is L[i][k] for k from
// band_start(i, band) to i.
static inline const float *band_row(const float *factor, int i, int band) {
    return factor + (size_t)(i + 1) * (size_t)band;
}

static inline int band_start(int i, int band) { return i > band ? i - band : 0; }

#if defined(__x86_64__)
#include <immintrin.h>

// Three running sums per row: a single one would wait on each multiply-add before the next.
__attribute__((target("avx2,fma")))
static void stencil_multiply_avx2(const double *coef, const ptrdiff_t *offsets, int width, const double *x,
                                  double *out, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
        const double *row = coef + (size_t)width * i;
        const double *centre = x + 4 * i;
        __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd();
        int k = 0;
        for (; k + 3 <= width; k += 3) {
            a0 = _mm256_fmadd_pd(_mm256_broadcast_sd(row + k), _mm256_loadu_pd(centre + 4 * offsets[k]), a0);
            a1 = _mm256_fmadd_pd(_mm256_broadcast_sd(row + k + 1), _mm256_loadu_pd(centre + 4 * offsets[k + 1]), a1);
            a2 = _mm256_fmadd_pd(_mm256_broadcast_sd(row + k + 2), _mm256_loadu_pd(centre + 4 * offsets[k + 2]), a2);
        }
        for (; k < width; k++) {
            a0 = _mm256_fmadd_pd(_mm256_broadcast_sd(row + k), _mm256_loadu_pd(centre + 4 * offsets[k]), a0);
        }
        _mm256_storeu_pd(out + 4 * i, _mm256_add_pd(_mm256_add_pd(a0, a1), a2));
    }
}

// Forward: four running sums over the row; back: column by column, so L is read along its rows both ways.
__attribute__((target("avx2,fma")))
static void cholesky_solve_avx2(const float *factor, int m, int band, double *u) {
    for (int i = 0; i < m; i++) {
        const float *row = band_row(factor, i, band);
        __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(),
                s3 = _mm256_setzero_pd();
        int k = band_start(i, band);
        for (; k + 4 <= i; k += 4) {
            s0 = _mm256_fmadd_pd(_mm256_set1_pd(row[k]), _mm256_loadu_pd(u + 4 * k), s0);
            s1 = _mm256_fmadd_pd(_mm256_set1_pd(row[k + 1]), _mm256_loadu_pd(u + 4 * (k + 1)), s1);
            s2 = _mm256_fmadd_pd(_mm256_set1_pd(row[k + 2]), _mm256_loadu_pd(u + 4 * (k + 2)), s2);
            s3 = _mm256_fmadd_pd(_mm256_set1_pd(row[k + 3]), _mm256_loadu_pd(u + 4 * (k + 3)), s3);
        }
        for (; k < i; k++) s0 = _mm256_fmadd_pd(_mm256_set1_pd(row[k]), _mm256_loadu_pd(u + 4 * k), s0);
        __m256d sum = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
        _mm256_storeu_pd(u + 4 * i, _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(u + 4 * i), sum),
                                                  _mm256_set1_pd(row[i])));
    }
    for (int i = m - 1; i >= 0; i--) {
        const float *row = band_row(factor, i, band);
        __m256d value = _mm256_div_pd(_mm256_loadu_pd(u + 4 * i), _mm256_set1_pd(row[i]));
        _mm256_storeu_pd(u + 4 * i, value);
        for (int k = band_start(i, band); k < i; k++) {
            _mm256_storeu_pd(u + 4 * k, _mm256_fnmadd_pd(_mm256_set1_pd(row[k]), value, _mm256_loadu_pd(u + 4 * k)));
        }
    }
}
#endif

static void stencil_multiply_portable(const double *coef, const ptrdiff_t *offsets, int width, const double *x,
                                      double *out, size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
        const double *row = coef + (size_t)width * i;
        const double *centre = x + 4 * i;
        double a[4] = {0, 0, 0, 0};
        for (int k = 0; k < width; k++) {
            const double *node = centre + 4 * offsets[k];
            for (int c = 0; c < 4; c++) a[c] += row[k] * node[c];
        }
        for (int c = 0; c < 4; c++) out[4 * i + c] = a[c];
    }
}

static void cholesky_solve_portable(const float *factor, int m, int band, double *u) {
    for (int i = 0; i < m; i++) {
        const float *row = band_row(factor, i, band);
        double s[4] = {0, 0, 0, 0};
        for (int k = band_start(i, band); k < i; k++) {
            for (int c = 0; c < 4; c++) s[c] += row[k] * u[4 * k + c];
        }
        for (int c = 0; c < 4; c++) u[4 * i + c] = (u[4 * i + c] - s[c]) / row[i];
    }
    for (int i = m - 1; i >= 0; i--) {
        const float *row = band_row(factor, i, band);
        double value[4];
        for (int c = 0; c < 4; c++) value[c] = u[4 * i + c] /= row[i];
        for (int k = band_start(i, band); k < i; k++) {
            for (int c = 0; c < 4; c++) u[4 * k + c] -= row[k] * value[c];
        }
    }
}

void lsfit_stencil_multiply(int vector, const double *coef, const ptrdiff_t *offsets, int width,
                            const double *x, double *out, size_t begin, size_t end) {
#if defined(__x86_64__)
    if (vector && lscpu_has(LSCPU_AVX2 | LSCPU_FMA)) {
        stencil_multiply_avx2(coef, offsets, width, x, out, begin, end);
        return;
    }
#endif
    stencil_multiply_portable(coef, offsets, width, x, out, begin, end);
}

void lsfit_cholesky_solve(int vector, const float *factor, int m, int band, double *u) {
#if defined(__x86_64__)
    if (vector && lscpu_has(LSCPU_AVX2 | LSCPU_FMA)) {
        cholesky_solve_avx2(factor, m, band, u);
        return;
    }
#endif
    cholesky_solve_portable(factor, m, band, u);
}

// Compiled at the baseline: the pass is bound by its per-pixel arithmetic and branches rather than by wide vectors,
// and written out in C it runs without the overflow and range checks Swift puts on each index and conversion.
void lsfit_bin(const lsfit_binning *pass, size_t lo, size_t hi, const float *predicted, double *sums) {
    const float *before = pass->before, *after = pass->after, *edited = pass->edited;
    const uint8_t *squeezed = pass->squeezed;
    const float code = 1.0f / 255.0f, omega = pass->relaxation, c2 = pass->cutoff2;
    const float inverse_c2 = c2 > 0 ? 1 / c2 : 0;
    const float scale = (float)pass->bins, top = scale - 1;
    const long width = pass->width, height = pass->height, bins = pass->bins, stride = pass->hold_out_stride;
    const long held_phase = stride / 2;
    const float cx = (float)(width - 1) / 2, cy = (float)(height - 1) / 2;
    const float radius2 = cx * cx + cy * cy + 1e-6f;
    long phase = stride > 1 ? (long)(lo % (size_t)stride) : 1;
    long x = (long)(lo % (size_t)width), y = (long)(lo / (size_t)width);
    long row_cell = pass->cell_weights ? (y * pass->cell_rows / height) * pass->cell_columns : 0;
    for (size_t i = lo; i < hi; i++) {
        int held = phase == held_phase;
        if (stride > 1 && ++phase == stride) phase = 0;
        // This pixel's column, row and spatial cell row, before they move on to the next pixel's.
        long column = x, cell_row = row_cell;
        float gy = (float)y;
        if (++x == width) {
            x = 0;
            y++;
            if (pass->cell_weights) row_cell = (y * pass->cell_rows / height) * pass->cell_columns;
        }
        if (held) continue;
        const float *b = before + 3 * i, *s = after + 3 * i;
        float tx = s[0], ty = s[1], tz = s[2];
        if (pass->has_gain) {  // RadialGain.factor, operation for operation
            float dx = (float)column - cx, dy = gy - cy;
            float r2 = (dx * dx + dy * dy) / radius2;
            float g = 1 + pass->gain_a * r2 + pass->gain_b * r2 * r2;
            tx /= g;
            ty /= g;
            tz /= g;
        }
        float w = 1;
        if (pass->weighted) {
            float px, py, pz;
            if (squeezed) {
                const float *e = edited + 3 * i;
                const uint8_t *q = squeezed + 3 * i;
                px = s[0] - omega * (e[0] - (float)q[0] * code);
                py = s[1] - omega * (e[1] - (float)q[1] * code);
                pz = s[2] - omega * (e[2] - (float)q[2] * code);
            } else {
                const float *p = predicted + 3 * (i - lo);
                px = p[0];
                py = p[1];
                pz = p[2];
            }
            float rx = tx - px, ry = ty - py, rz = tz - pz;
            float e2 = rx * rx + ry * ry + rz * rz;
            if (e2 >= c2) continue;
            float u = 1 - e2 * inverse_c2;
            w = u * u;
        }
        if (pass->cell_weights) {
            w *= pass->cell_weights[cell_row + pass->column_cells[column]];
            if (w == 0) continue;
        }
        float qx = b[0] * scale, qy = b[1] * scale, qz = b[2] * scale;
        long bin = (long)(qx > 0 ? (qx < top ? qx : top) : 0)
            + bins * ((long)(qy > 0 ? (qy < top ? qy : top) : 0) + bins * (long)(qz > 0 ? (qz < top ? qz : top) : 0));
        double *a = sums + 8 * bin, wd = w;
        a[0] += wd;
        a[1] += wd * b[0];
        a[2] += wd * b[1];
        a[3] += wd * b[2];
        a[4] += wd * tx;
        a[5] += wd * ty;
        a[6] += wd * tz;
        a[7] += 1;
    }
}
