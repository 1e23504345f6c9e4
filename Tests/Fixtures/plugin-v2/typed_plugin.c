/*
 * A version 2 plugin with every typed parameter kind, for the host's tests (written for this project).
 *
 * typed.echo writes what it received into its output: for each parameter, its count, then its floats, from the
 * first float of the buffer on (the rest is the input), so a test reads back exactly what reached `apply`.
 * typed.grade is a small grade: a master curve (piecewise linear), a slope per channel, and a choice to clamp or
 * not: v' = curve(v) * slope_c, clamped to 0-1 unless style is no-clamp.
 */
#include "lookstudio_plugin.h"

static void apply_echo(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

static const float diagonal[] = {0.0f, 0.0f, 1.0f, 1.0f};
static const float unit[] = {1.0f, 1.0f, 1.0f};
static const float flat_hue[] = {0.0f, 0.0f};
static const float warm[] = {0.9f, 0.5f, 0.1f};
static const char *const modes[] = {"first", "no-clamp", "third"};
static const char *const styles[] = {"clamp", "no-clamp"};

static const lookstudio_parameter echo_params[] = {
    {.name = "curve", .display_name = "Curve", .description = "A tone curve.", .kind = LOOKSTUDIO_PARAM_CURVE,
     .min = 0.0f, .max = 1.0f, .default_values = diagonal, .default_count = 4, .identity_values = diagonal,
     .identity_count = 4, .x_min = 0.0f, .x_max = 1.0f, .max_points = 8},
    {.name = "tint", .display_name = "Tint", .description = "A colour.", .kind = LOOKSTUDIO_PARAM_COLOR,
     .min = 0.0f, .max = 2.0f, .default_values = warm, .default_count = 3, .identity_values = unit,
     .identity_count = 3, .flags = LOOKSTUDIO_FLAG_WHEEL},
    {.name = "mode", .display_name = "Mode", .description = "A choice.", .kind = LOOKSTUDIO_PARAM_CHOICE,
     .min = 0.0f, .max = 2.0f, .default_value = 1.0f, .identity_value = 0.0f, .choices = modes, .choice_count = 3},
    {.name = "hue", .display_name = "Hue Curve", .description = "A periodic curve over hue degrees.",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = -1.0f, .max = 1.0f, .default_values = flat_hue, .default_count = 2,
     .identity_values = flat_hue, .identity_count = 2, .x_min = 0.0f, .x_max = 360.0f, .max_points = 16,
     .flags = LOOKSTUDIO_FLAG_PERIODIC},
    {"amount", "Amount", "A scalar.", LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.25f, 0.0f},
};

static const lookstudio_parameter grade_params[] = {
    {.name = "master", .display_name = "Master Curve", .description = "Piecewise-linear curve on each channel.",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = 0.0f, .max = 1.0f, .default_values = diagonal, .default_count = 4,
     .identity_values = diagonal, .identity_count = 4, .x_min = 0.0f, .x_max = 1.0f, .max_points = 16},
    {.name = "slope", .display_name = "Slope", .description = "Gain per channel after the curve.",
     .kind = LOOKSTUDIO_PARAM_COLOR, .min = 0.0f, .max = 4.0f, .default_values = unit, .default_count = 3,
     .identity_values = unit, .identity_count = 3},
    {.name = "style", .display_name = "Style", .description = "Clamp the result to 0-1, or not.",
     .kind = LOOKSTUDIO_PARAM_CHOICE, .min = 0.0f, .max = 1.0f, .choices = styles, .choice_count = 2},
};

/* The curve through the points at x: linear between neighbours, flat beyond the ends. */
static double curve_at(const float *points, size_t n, double x) {
    if (x <= points[0]) return points[1];
    for (size_t i = 1; i < n; i++) {
        if (x <= points[2 * i]) {
            const double x0 = points[2 * i - 2], y0 = points[2 * i - 1], x1 = points[2 * i], y1 = points[2 * i + 1];
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        }
    }
    return points[2 * n - 1];
}

static void apply_grade(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const float *points = params[0].values, *slope = params[1].values;
    const size_t n = params[0].count / 2;
    const int clamp = params[2].values[0] == 0.0f;
    for (size_t p = 0; p < pixel_count; p++) {
        for (int c = 0; c < 3; c++) {
            const double v = curve_at(points, n, lookstudio_clamp01(in[3 * p + c])) * slope[c];
            out[3 * p + c] = (float)(clamp ? lookstudio_clamp01(v) : v);
        }
    }
}

static void apply_echo(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const size_t total = 3 * pixel_count;
    for (size_t i = 0; i < total; i++) out[i] = in[i];
    size_t next = 0;
    for (size_t k = 0; k < sizeof(echo_params) / sizeof(echo_params[0]); k++) {
        if (next < total) out[next++] = (float)params[k].count;
        for (size_t i = 0; i < params[k].count && next < total; i++) out[next++] = params[k].values[i];
    }
}

static const lookstudio_adjustment adjustments[] = {
    {"typed.echo", "Echo", "Test", "Writes its parameter values into the output.", echo_params,
     sizeof(echo_params) / sizeof(echo_params[0]), apply_echo},
    {"typed.grade", "Grade", "Test", "sRGB-encoded: v' = curve(v) slope_c, clamped unless no-clamp.", grade_params,
     sizeof(grade_params) / sizeof(grade_params[0]), apply_grade},
};

static const lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Typed", "2.0.0", adjustments, 2};

LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
