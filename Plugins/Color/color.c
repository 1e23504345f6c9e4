/*
 * Colour plugin: saturation, vibrance, hue rotation and black-and-white through a coloured filter.
 *
 * These mix the three channels of a pixel, so each loop reads r, g, b before writing (in-place safe).
 * Working space: sRGB-encoded, except the black-and-white mix, which weighs linear light as a filter on a lens
 * would. Inputs and outputs are clamped to 0…1. The formulas are repeated in docs/ADJUSTMENTS.md.
 */
#include "lookstudio_plugin.h"

/* Rec. 709 / sRGB luma weights. */
static const double wr = 0.2126, wg = 0.7152, wb = 0.0722;

static const double pi = 3.14159265358979323846;

/* Exact at both ends: t = 0 gives a, t = 1 gives b, with no rounding residue. */
static inline double mix(double a, double b, double t) {
    return a * (1.0 - t) + b * t;
}

/* color.saturation — sRGB-encoded: c' = Y + (c − Y)·(1 + amount), Y the Rec. 709 luma (Core Image's model). */
static void apply_saturation(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double k = 1.0 + (double)params[0].values[0];
    for (size_t p = 0; p < pixel_count; p++) {
        const double r = lookstudio_clamp01(in[3 * p]), g = lookstudio_clamp01(in[3 * p + 1]),
                     b = lookstudio_clamp01(in[3 * p + 2]);
        const double y = wr * r + wg * g + wb * b;
        out[3 * p] = (float)lookstudio_clamp01(y + (r - y) * k);
        out[3 * p + 1] = (float)lookstudio_clamp01(y + (g - y) * k);
        out[3 * p + 2] = (float)lookstudio_clamp01(y + (b - y) * k);
    }
}

/*
 * color.vibrance — sRGB-encoded: like saturation with k = 1 + amount·(1 − s), s = max − min of the pixel, so
 * muted colours move most and already vivid ones (skin, sunsets) least.
 */
static void apply_vibrance(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double amount = params[0].values[0];
    for (size_t p = 0; p < pixel_count; p++) {
        const double r = lookstudio_clamp01(in[3 * p]), g = lookstudio_clamp01(in[3 * p + 1]),
                     b = lookstudio_clamp01(in[3 * p + 2]);
        const double hi = fmax(r, fmax(g, b)), lo = fmin(r, fmin(g, b));
        const double k = 1.0 + amount * (1.0 - (hi - lo));
        const double y = wr * r + wg * g + wb * b;
        out[3 * p] = (float)lookstudio_clamp01(y + (r - y) * k);
        out[3 * p + 1] = (float)lookstudio_clamp01(y + (g - y) * k);
        out[3 * p + 2] = (float)lookstudio_clamp01(y + (b - y) * k);
    }
}

/*
 * color.hue — sRGB-encoded: rotation by `angle` about the grey axis (1,1,1)/√3 (Rodrigues' formula), so greys
 * stay put and a positive angle turns red towards yellow, green towards cyan.
 */
static void apply_hue(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double theta = (double)params[0].values[0] * pi / 180.0;
    const double c = cos(theta), s = sin(theta) / sqrt(3.0), t = (1.0 - c) / 3.0;
    const double diag = c + t, plus = t + s, minus = t - s;
    for (size_t p = 0; p < pixel_count; p++) {
        const double r = lookstudio_clamp01(in[3 * p]), g = lookstudio_clamp01(in[3 * p + 1]),
                     b = lookstudio_clamp01(in[3 * p + 2]);
        out[3 * p] = (float)lookstudio_clamp01(diag * r + minus * g + plus * b);
        out[3 * p + 1] = (float)lookstudio_clamp01(plus * r + diag * g + minus * b);
        out[3 * p + 2] = (float)lookstudio_clamp01(minus * r + plus * g + diag * b);
    }
}

/* The fully saturated colour of `hue` degrees (0 red, 60 yellow, 120 green, 240 blue), as HSV with S = V = 1. */
static void hue_rgb(double hue, double rgb[3]) {
    for (int c = 0; c < 3; c++) {
        const double k = fmod(5.0 - 2.0 * c + hue / 60.0 + 6.0, 6.0);
        rgb[c] = 1.0 - fmax(0.0, fmin(fmin(k, 4.0 - k), 1.0));
    }
}

/*
 * color.black_white — the film photographer's coloured filter: each linear channel passes with transmission
 * (1 − strength) + strength·filter_c, the luminance weights are multiplied by it and renormalised to sum 1,
 * grey = Σ w_c·lin_c is encoded back to sRGB, and the result is mixed with the input by `amount`
 * (1: R = G = B exactly). A red filter darkens blue skies, a green one lightens foliage.
 */
static void apply_black_white(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    double filter[3];
    hue_rgb((double)params[0].values[0], filter);
    const double strength = params[1].values[0], amount = params[2].values[0];
    double w[3] = {wr, wg, wb};
    double sum = 0.0;
    for (int c = 0; c < 3; c++) {
        w[c] *= (1.0 - strength) + strength * filter[c];
        sum += w[c];
    }
    for (int c = 0; c < 3; c++) {
        w[c] /= sum;
    }
    for (size_t p = 0; p < pixel_count; p++) {
        const double r = lookstudio_clamp01(in[3 * p]), g = lookstudio_clamp01(in[3 * p + 1]),
                     b = lookstudio_clamp01(in[3 * p + 2]);
        const double lin = w[0] * lookstudio_srgb_decode(r) + w[1] * lookstudio_srgb_decode(g)
                         + w[2] * lookstudio_srgb_decode(b);
        const double grey = lookstudio_srgb_encode(lookstudio_clamp01(lin));
        out[3 * p] = (float)mix(r, grey, amount);
        out[3 * p + 1] = (float)mix(g, grey, amount);
        out[3 * p + 2] = (float)mix(b, grey, amount);
    }
}

static const lookstudio_parameter amount_params[] = {
    {"amount", "Amount", "-1 removes all colour, 0 leaves it, +1 doubles its distance from grey.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter vibrance_params[] = {
    {"amount", "Amount", "Like saturation, weighted towards muted colours; -1 to +1.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter hue_params[] = {
    {"angle", "Hue Angle", "Degrees of rotation around the grey axis; + turns red towards yellow.",
     LOOKSTUDIO_PARAM_ANGLE, -180.0f, 180.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter black_white_params[] = {
    {"filter_hue", "Filter Hue", "Hue of the filter in degrees: 0 red, 30 orange, 60 yellow, 120 green, 240 blue.",
     LOOKSTUDIO_PARAM_ANGLE, 0.0f, 360.0f, 60.0f, 60.0f},
    {"filter_strength", "Filter Strength", "0 no filter (plain luminance), 1 the full filter colour.",
     LOOKSTUDIO_PARAM_SCALAR, 0.0f, 1.0f, 0.5f, 0.0f},
    {"amount", "Amount", "0 keeps the colour picture, 1 is fully black and white.",
     LOOKSTUDIO_PARAM_SCALAR, 0.0f, 1.0f, 1.0f, 0.0f},
};

static const lookstudio_adjustment adjustments[] = {
    {"color.saturation", "Saturation", "Color",
     "sRGB-encoded: c' = Y + (c - Y)(1 + amount), Y = 0.2126 R + 0.7152 G + 0.0722 B; clamped to 0-1.",
     amount_params, 1, apply_saturation},
    {"color.vibrance", "Vibrance", "Color",
     "sRGB-encoded: saturation with k = 1 + amount (1 - (max - min)); muted colours move most.",
     vibrance_params, 1, apply_vibrance},
    {"color.hue", "Hue", "Color",
     "sRGB-encoded: rotation by angle degrees about the grey axis (Rodrigues); greys unchanged.",
     hue_params, 1, apply_hue},
    {"color.black_white", "Black & White", "Color",
     "Linear-light mix of R, G, B through a coloured filter, re-encoded, blended with the input by amount.",
     black_white_params, 3, apply_black_white},
};

static const lookstudio_plugin plugin = {
    LOOKSTUDIO_PLUGIN_ABI_VERSION, "LookStudio Color", "1.0.0", adjustments,
    sizeof(adjustments) / sizeof(adjustments[0]),
};

const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
