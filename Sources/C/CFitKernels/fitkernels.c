// The look fit's solver kernels: conjugate gradients spend their time in the stencil product and the coarse
// level's triangular solves, both on 4-lane vectors of doubles. Swift's SIMD4<Double> compiles to pairs of SSE2
// operations without fused multiply-adds on the x86-64 baseline, so each kernel has an AVX2 + FMA version chosen at
// run time (as CLUTKernels does), and a portable one the compiler vectorises as it can.

#include "fitkernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

static int has_avx2_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

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
static void cholesky_solve_avx2(const float *factor, int m, double *u) {
    for (int i = 0; i < m; i++) {
        const float *row = factor + (size_t)i * (i + 1) / 2;
        __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(),
                s3 = _mm256_setzero_pd();
        int k = 0;
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
        const float *row = factor + (size_t)i * (i + 1) / 2;
        __m256d value = _mm256_div_pd(_mm256_loadu_pd(u + 4 * i), _mm256_set1_pd(row[i]));
        _mm256_storeu_pd(u + 4 * i, value);
        for (int k = 0; k < i; k++) {
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

static void cholesky_solve_portable(const float *factor, int m, double *u) {
    for (int i = 0; i < m; i++) {
        const float *row = factor + (size_t)i * (i + 1) / 2;
        double s[4] = {0, 0, 0, 0};
        for (int k = 0; k < i; k++) {
            for (int c = 0; c < 4; c++) s[c] += row[k] * u[4 * k + c];
        }
        for (int c = 0; c < 4; c++) u[4 * i + c] = (u[4 * i + c] - s[c]) / row[i];
    }
    for (int i = m - 1; i >= 0; i--) {
        const float *row = factor + (size_t)i * (i + 1) / 2;
        double value[4];
        for (int c = 0; c < 4; c++) value[c] = u[4 * i + c] /= row[i];
        for (int k = 0; k < i; k++) {
            for (int c = 0; c < 4; c++) u[4 * k + c] -= row[k] * value[c];
        }
    }
}

void lsfit_stencil_multiply(int vector, const double *coef, const ptrdiff_t *offsets, int width,
                            const double *x, double *out, size_t begin, size_t end) {
#if defined(__x86_64__)
    if (vector && has_avx2_fma()) {
        stencil_multiply_avx2(coef, offsets, width, x, out, begin, end);
        return;
    }
#endif
    stencil_multiply_portable(coef, offsets, width, x, out, begin, end);
}

void lsfit_cholesky_solve(int vector, const float *factor, int m, double *u) {
#if defined(__x86_64__)
    if (vector && has_avx2_fma()) {
        cholesky_solve_avx2(factor, m, u);
        return;
    }
#endif
    cholesky_solve_portable(factor, m, u);
}
