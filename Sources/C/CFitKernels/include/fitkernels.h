#ifndef LOOKSTUDIO_FITKERNELS_H
#define LOOKSTUDIO_FITKERNELS_H

#include <stddef.h>

/// out = A·x on rows [begin, end) of a stencil matrix (the look fit's normal equations): row i's `width`
/// coefficients coef[width·i + k] multiply the node at i + offsets[k]. `x` and `out` hold 4 doubles per node (red,
/// green, blue and a spare lane, as Swift's SIMD4<Double>); node i of x is at x + 4·i, and every node a row
/// reaches must be readable (the caller pads x with zeros). `vector` nonzero: the AVX2 + FMA kernel when the CPU
/// has both (else, and with 0, the portable one).
void lsfit_stencil_multiply(int vector, const double *coef, const ptrdiff_t *offsets, int width,
                            const double *x, double *out, size_t begin, size_t end);

/// Solves L·Lᵀ·u = y in place for `m` nodes of 4 doubles, L's lower triangle packed row by row (row i from
/// i·(i + 1)/2) in single precision; `vector` as above.
void lsfit_cholesky_solve(int vector, const float *factor, int m, double *u);

#endif
