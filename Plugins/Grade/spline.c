/*
 * The curves' interpolation: monotone piecewise cubic Hermite with Fritsch–Carlson tangents (F. N. Fritsch and
 * R. E. Carlson, "Monotone Piecewise Cubic Interpolation", SIAM J. Numer. Anal. 17(2), 1980).
 *
 * Why this one: a natural cubic spline through a curve's points overshoots (a point pulled up makes a dip beside
 * it, and a tone curve then crosses itself), which is the artefact Photoshop-style curves are known for. With
 * Fritsch–Carlson tangents each piece is monotone between its two points, so the curve never leaves the range of
 * the two points around it, flat stays flat, and a monotone set of points gives a monotone curve; the curve is
 * still C1 (value and slope continuous). A periodic curve (hue) is the same with the points wrapped around, so it
 * joins itself at 0°/360° with the same value and slope.
 */
#include "grade_internal.h"

static double clamp_to(double v, double lo, double hi) {
    return v > lo ? (v < hi ? v : hi) : lo;
}

/* Copies the usable points of `values` into `s`; returns how many. */
static size_t load_points(grade_spline *s, const float *values, size_t count, const grade_curve_range *range) {
    if (values == NULL) return 0;
    size_t available = count / 2;
    if (available > LOOKSTUDIO_MAX_CURVE_POINTS) available = LOOKSTUDIO_MAX_CURVE_POINTS;
    size_t n = 0;
    for (size_t i = 0; i < available; i++) {
        const double x = values[2 * i], y = values[2 * i + 1];
        if (!isfinite(x)) continue;
        const double cx = clamp_to(x, range->x_min, range->x_max);
        // A periodic curve's x_max is x_min again, which the first point already holds.
        if (range->periodic && cx >= range->x_max) continue;
        if (n > 0 && !(cx > s->x[n - 1])) continue;
        s->x[n] = cx;
        s->y[n] = clamp_to(y, range->y_min, range->y_max);
        n++;
    }
    return n;
}

/* Tangents: the mean of the neighbouring secants, 0 at a local extremum, then limited segment by segment. */
static void fritsch_carlson(grade_spline *s) {
    const size_t n = s->n;
    const size_t segments = s->periodic ? n : n - 1;
    if (segments == 0) {
        s->m[0] = 0.0;
        return;
    }
    double d[LOOKSTUDIO_MAX_CURVE_POINTS];
    for (size_t k = 0; k < segments; k++) {
        d[k] = (s->y[k + 1] - s->y[k]) / (s->x[k + 1] - s->x[k]);
    }
    for (size_t k = 0; k < n; k++) {
        if (!s->periodic && k == 0) {
            s->m[k] = d[0];
        } else if (!s->periodic && k == n - 1) {
            s->m[k] = d[k - 1];
        } else {
            const double before = d[(k + segments - 1) % segments], after = d[k % segments];
            s->m[k] = before * after > 0.0 ? 0.5 * (before + after) : 0.0;
        }
    }
    // Fritsch–Carlson's sufficient condition for a monotone piece: α² + β² ≤ 9, with α, β the end tangents
    // over the secant. Limiting only ever shrinks a tangent, so pieces checked earlier stay monotone.
    for (size_t k = 0; k < segments; k++) {
        const size_t next = (k + 1) % n;
        if (d[k] == 0.0) {
            s->m[k] = 0.0;
            s->m[next] = 0.0;
            continue;
        }
        const double alpha = s->m[k] / d[k], beta = s->m[next] / d[k];
        const double h = alpha * alpha + beta * beta;
        if (h > 9.0) {
            const double tau = 3.0 / sqrt(h);
            s->m[k] = tau * alpha * d[k];
            s->m[next] = tau * beta * d[k];
        }
    }
    if (s->periodic) s->m[n] = s->m[0];
}

void grade_spline_prepare(grade_spline *s, const lookstudio_value *value, const grade_curve_range *range,
                          const float *fallback, size_t fallback_count) {
    s->periodic = range->periodic;
    s->period = range->x_max - range->x_min;
    const size_t needed = range->periodic ? 1 : 2;
    s->n = value != NULL ? load_points(s, value->values, value->count, range) : 0;
    if (s->n < needed) s->n = load_points(s, fallback, fallback_count, range);
    if (s->n == 0) {
        s->x[0] = range->x_min;
        s->y[0] = range->y_min;
        s->n = 1;
    }
    if (s->periodic) {
        s->x[s->n] = s->x[0] + s->period;
        s->y[s->n] = s->y[0];
    }
    fritsch_carlson(s);
}

/* Piece k at x (x within its two points), clamped to the two points' range against rounding. */
static double piece(const grade_spline *s, size_t k, double x) {
    const double x0 = s->x[k], x1 = s->x[k + 1], y0 = s->y[k], y1 = s->y[k + 1];
    const double h = x1 - x0, d = (y1 - y0) / h;
    double y;
    if (s->m[k] == d && s->m[k + 1] == d) {
        // A straight piece is evaluated as a line, so points on the diagonal give y = x exactly.
        y = y0 + d * (x - x0);
    } else {
        const double t = (x - x0) / h, t2 = t * t, t3 = t2 * t;
        y = (2.0 * t3 - 3.0 * t2 + 1.0) * y0 + (t3 - 2.0 * t2 + t) * h * s->m[k] + (3.0 * t2 - 2.0 * t3) * y1
          + (t3 - t2) * h * s->m[k + 1];
    }
    return y0 < y1 ? clamp_to(y, y0, y1) : clamp_to(y, y1, y0);
}

double grade_spline_eval(const grade_spline *s, double x) {
    size_t lo = 0, hi;
    if (s->periodic) {
        if (s->n == 1) return s->y[0];
        double u = x - s->x[0];
        if (u < 0.0 || u >= s->period) u = fmod(u, s->period);
        if (u < 0.0) u += s->period;
        x = s->x[0] + u;
        hi = s->n;
    } else {
        if (!(x > s->x[0])) return s->y[0];
        if (x >= s->x[s->n - 1]) return s->y[s->n - 1];
        hi = s->n - 1;
    }
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (x < s->x[mid]) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return piece(s, lo, x);
}

int grade_spline_is_constant(const grade_spline *s, double y) {
    for (size_t k = 0; k < s->n; k++) {
        if (s->y[k] != y) return 0;
    }
    return 1;
}

int grade_spline_is_diagonal(const grade_spline *s) {
    if (s->periodic || s->n < 2 || s->x[0] != 0.0 || s->x[s->n - 1] != 1.0) return 0;
    for (size_t k = 0; k < s->n; k++) {
        if (s->y[k] != s->x[k]) return 0;
    }
    return 1;
}
