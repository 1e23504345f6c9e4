#ifndef LOOKSTUDIO_FITKERNELS_H
#define LOOKSTUDIO_FITKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// out = A·x on rows [begin, end) of a stencil matrix (the look fit's normal equations): row i's `width`
/// coefficients coef[width·i + k] multiply the node at i + offsets[k]. `x` and `out` hold 4 doubles per node (red,
/// green, blue and a spare lane, as Swift's SIMD4<Double>); node i of x is at x + 4·i, and every node a row
/// reaches must be readable (the caller pads x with zeros). `vector` nonzero: the AVX2 + FMA kernel when the CPU
/// has both (else, and with 0, the portable one).
void lsfit_stencil_multiply(int vector, const double *coef, const ptrdiff_t *offsets, int width,
                            const double *x, double *out, size_t begin, size_t end);

/// Solves L·Lᵀ·u = y in place for `m` nodes of 4 doubles, L lower triangular with `band` entries left of its
/// diagonal, in single precision, stored by rows of band + 1: L[i][j] at (band + 1)·i + band − i + j for
/// i − band ≤ j ≤ i (the places left of column 0 unused); `vector` as above.
void lsfit_cholesky_solve(int vector, const float *factor, int m, int band, double *u);

/// One binning pass over a pair (LookExtractor.BinningPass): what each pixel is read from and weighed by.
typedef struct {
    /// The before image and the after image as fitted, RGB floats.
    const float *before, *after;
    /// The JPEG model's after image as stored and S(P) as 8-bit codes, or NULL (the prediction then comes from
    /// `lsfit_bin`'s `predicted`).
    const float *edited;
    const uint8_t *squeezed;
    /// ω of the JPEG model.
    float relaxation;
    /// Nonzero: weigh pixels by Tukey's biweight of their residual against the prediction, cut at √cutoff2.
    int weighted;
    float cutoff2;
    /// A vignette's gain 1 + a·r² + b·r⁴ the after image is divided by, when `has_gain`.
    int has_gain;
    float gain_a, gain_b;
    /// Spatial weights, `cell_rows` × `cell_columns` row-major, or NULL; `column_cells` maps each column to its
    /// cell column.
    const float *cell_weights;
    const long *column_cells;
    long cell_columns, cell_rows;
    long width, height;
    /// Bins per axis, and every `hold_out_stride`-th pixel (phase stride / 2) left out.
    long bins, hold_out_stride;
} lsfit_binning;

/// Adds pixels [lo, hi) into `sums` (per colour bin of the before colour: Σw, Σw·before (3), Σw·after (3) and the
/// pixel count). `predicted`, when not NULL, holds the fit's prediction of pixels lo…hi − 1 (RGB floats).
void lsfit_bin(const lsfit_binning *pass, size_t lo, size_t hi, const float *predicted, double *sums);

#endif
