/*
 * White balance plugin: temperature and tint, both as per-channel gains in linear light (von Kries scaling in
 * linear sRGB). Pixels are decoded from sRGB, multiplied, re-encoded and clamped to 0…1. The gains are
 * normalised so that their Rec. 709 luminance is 1: a white balance change recolours without brightening.
 * The formulas are repeated in docs/ADJUSTMENTS.md.
 */
#include "lookstudio_plugin.h"

/* Fast sRGB transfer functions shared with the tone plugin. */
#include "../Shared/fast_srgb.h"

/* Rec. 709 / sRGB luminance weights of linear R, G, B. */
static const double luma[3] = {0.2126, 0.7152, 0.0722};

/* The kelvin value that a zero shift stands for: D65, the sRGB white. */
static const double d65_kelvin = 6504.0;

/*
 * Chromaticity of a Planckian radiator at `kelvin` (1667…25000 K), from the cubic fit of Kim et al. (2002,
 * US patent 7,024,034), accurate to about 1e-3 in xy.
 */
static void planckian_xy(double kelvin, double *x, double *y) {
    const double t = kelvin, t2 = t * t, t3 = t2 * t;
    double xc;
    if (t <= 4000.0) {
        xc = -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910;
    } else {
        xc = -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390;
    }
    const double x2 = xc * xc, x3 = x2 * xc;
    if (t <= 2222.0) {
        *y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * xc - 0.20219683;
    } else if (t <= 4000.0) {
        *y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * xc - 0.16748867;
    } else {
        *y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * xc - 0.37001483;
    }
    *x = xc;
}

/* Linear sRGB of the light at `kelvin` with luminance Y = 1 (xyY → XYZ → sRGB primaries, D65). */
static void white_rgb(double kelvin, double rgb[3]) {
    double x, y;
    planckian_xy(kelvin, &x, &y);
    const double X = x / y, Y = 1.0, Z = (1.0 - x - y) / y;
    rgb[0] = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
    rgb[1] = -0.9692660 * X + 1.8760108 * Y + 0.0415560 * Z;
    rgb[2] = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
}

/* Scales the gains so that a grey keeps its luminance. */
static void normalise(double gains[3]) {
    const double y = luma[0] * gains[0] + luma[1] * gains[1] + luma[2] * gains[2];
    for (int c = 0; c < 3; c++) {
        gains[c] /= y;
    }
}

static void apply_gains(const float *in, float *out, size_t pixel_count, const double gains[3]) {
    /* Gains within rounding of 1 (shift 0: the locus on both sides, then a luma sum of 1 ± 1 ulp) are exact. */
    if (fabs(gains[0] - 1.0) < 1e-12 && fabs(gains[1] - 1.0) < 1e-12 && fabs(gains[2] - 1.0) < 1e-12) {
        for (size_t i = 0; i < 3 * pixel_count; i++) out[i] = (float)lookstudio_clamp01(in[i]);
        return;
    }
    const float g[3] = {(float)gains[0], (float)gains[1], (float)gains[2]};
    for (size_t p = 0; p < pixel_count; p++) {
        for (int c = 0; c < 3; c++) {
            const float lin = fast_srgb_decode((float)lookstudio_clamp01(in[3 * p + c])) * g[c];
            out[3 * p + c] = fast_srgb_encode((float)lookstudio_clamp01(lin));
        }
    }
}

/*
 * wb.temperature — the scene light is taken to be a Planckian radiator at 6504 K + shift, and is corrected to
 * the same locus's 6504 K point: gain_c = white(6504)_c / white(6504 + shift)_c. A positive shift says the light
 * was bluer than D65, so the correction warms the picture (as a raw converter's temperature slider does).
 * Using the locus on both sides makes shift 0 exactly neutral although D65 lies slightly off the locus.
 */
static void apply_temperature(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    double reference[3], light[3], gains[3];
    white_rgb(d65_kelvin, reference);
    white_rgb(d65_kelvin + (double)params[0].values[0], light);
    for (int c = 0; c < 3; c++) {
        gains[c] = reference[c] / light[c];
    }
    normalise(gains);
    apply_gains(in, out, pixel_count, gains);
}

/*
 * wb.tint — the green–magenta axis that temperature leaves alone: green gain 2^(−amount/2) against red and
 * blue, so +1 is magenta (green × 0.707) and −1 is green (× 1.414), then luminance-normalised.
 */
static void apply_tint(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    double gains[3] = {1.0, exp2(-0.5 * (double)params[0].values[0]), 1.0};
    normalise(gains);
    apply_gains(in, out, pixel_count, gains);
}

static const lookstudio_parameter temperature_params[] = {
    {"shift", "Temperature Shift",
     "Kelvin added to D65 (6504 K) as the light to correct for; + warms the picture, - cools it.",
     LOOKSTUDIO_PARAM_KELVIN, -3000.0f, 6000.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter tint_params[] = {
    {"amount", "Tint", "Green-magenta balance: +1 magenta (green gain 0.707), -1 green (green gain 1.414).",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};

static const lookstudio_adjustment adjustments[] = {
    {"wb.temperature", "Temperature", "White Balance",
     "Linear light: von Kries gains white(6504 K) / white(6504 K + shift) on the Planckian locus, "
     "luminance-normalised, clamped to 0-1.",
     temperature_params, sizeof(temperature_params) / sizeof(temperature_params[0]), apply_temperature},
    {"wb.tint", "Tint", "White Balance",
     "Linear light: gains (1, 2^(-amount/2), 1), luminance-normalised, clamped to 0-1.",
     tint_params, sizeof(tint_params) / sizeof(tint_params[0]), apply_tint},
};

static const lookstudio_plugin plugin = {
    LOOKSTUDIO_PLUGIN_ABI_VERSION, "LookStudio White Balance", "1.0.0", adjustments,
    sizeof(adjustments) / sizeof(adjustments[0]),
};

const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
