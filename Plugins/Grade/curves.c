/*
 * curve.rgb — point curves on the sRGB-encoded values, as Photoshop's and Lightroom's point curves: the master
 * (RGB) curve first, then each channel's own curve. Interpolation is spline.c's monotone cubic.
 */
#include "grade_internal.h"

static const float diagonal[] = {0.0f, 0.0f, 1.0f, 1.0f};
static const grade_curve_range tone_range = {0.0, 1.0, 0.0, 1.0, 0};

#define TONE_CURVE(NAME, LABEL, WHAT)                                                                             \
    {.name = NAME, .display_name = LABEL,                                                                         \
     .description = WHAT " Points (x, y) in 0-1 on sRGB-encoded values; [[0,0],[1,1]] changes nothing.",         \
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = 0.0f, .max = 1.0f, .default_values = diagonal, .default_count = 4,   \
     .identity_values = diagonal, .identity_count = 4, .x_min = 0.0f, .x_max = 1.0f,                              \
     .max_points = LOOKSTUDIO_MAX_CURVE_POINTS, .flags = 0}

const lookstudio_parameter grade_curve_rgb_params[GRADE_CURVE_RGB_PARAMS] = {
    TONE_CURVE("master", "RGB", "Applied to all three channels, before the channel curves."),
    TONE_CURVE("red", "Red", "Applied to red after the master curve."),
    TONE_CURVE("green", "Green", "Applied to green after the master curve."),
    TONE_CURVE("blue", "Blue", "Applied to blue after the master curve."),
};

const char grade_curve_rgb_description[] =
    "Point curves on the sRGB-encoded values, as in Photoshop and Lightroom: c' = channel_c(master(c)) for each of "
    "R, G, B. Each curve is a monotone cubic Hermite spline through its points with Fritsch-Carlson tangents: it "
    "never overshoots (between two points it stays within their two y values; a monotone set of points gives a "
    "monotone curve) and is flat beyond its first and last points. Up to 64 points per curve.";

void grade_apply_curve_rgb(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    grade_spline curves[GRADE_CURVE_RGB_PARAMS];
    int active[GRADE_CURVE_RGB_PARAMS];
    for (int i = 0; i < GRADE_CURVE_RGB_PARAMS; i++) {
        grade_spline_prepare(&curves[i], &params[i], &tone_range, diagonal, 4);
        active[i] = !grade_spline_is_diagonal(&curves[i]);
    }
    for (size_t p = 0; p < pixel_count; p++) {
        double v[3] = {lookstudio_clamp01(in[3 * p]), lookstudio_clamp01(in[3 * p + 1]),
                       lookstudio_clamp01(in[3 * p + 2])};
        for (int c = 0; c < 3; c++) {
            if (active[0]) v[c] = grade_spline_eval(&curves[0], v[c]);
            if (active[c + 1]) v[c] = grade_spline_eval(&curves[c + 1], v[c]);
            out[3 * p + c] = (float)v[c];
        }
    }
}
