/*
 * Tone plugin: exposure, brightness, contrast, gamma, highlights, shadows and levels.
 *
 * Every adjustment here acts on each channel on its own, so `out` may alias `in` element by element.
 * Working space: sRGB-encoded values, except exposure, which scales linear light. Inputs are clamped to 0…1
 * and so are outputs. Arithmetic is in double so that identity parameters return the input bit for bit.
 * The formulas are repeated in docs/ADJUSTMENTS.md.
 */
#include "lookstudio_plugin.h"

/* Fast sRGB transfer functions shared with the white balance plugin. */
#include "../Shared/fast_srgb.h"

/* The sRGB encoding of 18% linear reflectance, the photographic mid-grey that contrast pivots around. */
static const double mid_grey = 0.46135612950044164;

/*
 * tone.exposure — linear light: lin' = lin · 2^stops, then re-encoded. +1 stop doubles the light, as a camera
 * exposure change would. Monotonic in the input and in `stops`.
 */
static void apply_exposure(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    if (params[0].values[0] == 0.0f) {
        for (size_t i = 0; i < 3 * pixel_count; i++) out[i] = (float)lookstudio_clamp01(in[i]);
        return;
    }
    const float gain = (float)exp2((double)params[0].values[0]);
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        const float lin = fast_srgb_decode((float)lookstudio_clamp01(in[i])) * gain;
        out[i] = fast_srgb_encode((float)lookstudio_clamp01(lin));
    }
}

/* tone.brightness — sRGB-encoded: v' = v + amount, as Core Image's CIColorControls brightness. */
static void apply_brightness(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double amount = params[0].values[0];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        out[i] = (float)lookstudio_clamp01(lookstudio_clamp01(in[i]) + amount);
    }
}

/*
 * tone.contrast — sRGB-encoded: v' = m + (v − m)·(1 + amount) with m = 0.4614 (18% grey encoded).
 * amount −1 flattens everything to mid-grey, +1 doubles the slope. Monotonic for every amount in range.
 */
static void apply_contrast(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double slope = 1.0 + (double)params[0].values[0];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        out[i] = (float)lookstudio_clamp01(mid_grey + (lookstudio_clamp01(in[i]) - mid_grey) * slope);
    }
}

/* tone.gamma — sRGB-encoded: v' = v^(1/gamma); gamma above 1 lifts the midtones, black and white stay put. */
static void apply_gamma(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double exponent = 1.0 / (double)params[0].values[0];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        out[i] = (float)pow(lookstudio_clamp01(in[i]), exponent);
    }
}

/*
 * tone.highlights — sRGB-encoded: v' = v + amount·v²·(1 − v). The bump peaks at v = 2/3 (±0.148 at
 * amount ±1) and vanishes at black and white; its slope stays within [−1, 1/3], so the curve is monotonic.
 */
static void apply_highlights(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double amount = params[0].values[0];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        const double v = lookstudio_clamp01(in[i]);
        out[i] = (float)lookstudio_clamp01(v + amount * v * v * (1.0 - v));
    }
}

/* tone.shadows — sRGB-encoded: v' = v + amount·v·(1 − v)², the mirror image of highlights (peak at 1/3). */
static void apply_shadows(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double amount = params[0].values[0];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        const double v = lookstudio_clamp01(in[i]);
        out[i] = (float)lookstudio_clamp01(v + amount * v * (1.0 - v) * (1.0 - v));
    }
}

/* tone.levels — sRGB-encoded: v' = (v − black) / (white − black), clamped; the ranges keep white > black. */
static void apply_levels(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double black = params[0].values[0];
    const double scale = 1.0 / ((double)params[1].values[0] - black);
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        out[i] = (float)lookstudio_clamp01((lookstudio_clamp01(in[i]) - black) * scale);
    }
}

static const lookstudio_parameter exposure_params[] = {
    {"stops", "Stops", "Exposure change in stops; +1 doubles the light, -1 halves it.",
     LOOKSTUDIO_PARAM_SCALAR, -5.0f, 5.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter brightness_params[] = {
    {"amount", "Amount", "Offset added to every sRGB-encoded channel; -1 is black, +1 is white.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter contrast_params[] = {
    {"amount", "Amount", "Slope change around mid-grey: -1 flat grey, 0 unchanged, +1 twice the slope.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter gamma_params[] = {
    {"gamma", "Gamma", "Output is input^(1/gamma); above 1 brightens the midtones, below 1 darkens them.",
     LOOKSTUDIO_PARAM_SCALAR, 0.2f, 5.0f, 1.0f, 1.0f},
};
static const lookstudio_parameter highlights_params[] = {
    {"amount", "Amount", "Lift (+) or pull down (-) the light tones; at most 0.148 at v = 2/3.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter shadows_params[] = {
    {"amount", "Amount", "Lift (+) or deepen (-) the dark tones; at most 0.148 at v = 1/3.",
     LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
};
static const lookstudio_parameter levels_params[] = {
    {"black", "Black Point", "sRGB-encoded input value that becomes black.",
     LOOKSTUDIO_PARAM_SCALAR, 0.0f, 0.45f, 0.0f, 0.0f},
    {"white", "White Point", "sRGB-encoded input value that becomes white.",
     LOOKSTUDIO_PARAM_SCALAR, 0.55f, 1.0f, 1.0f, 1.0f},
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const lookstudio_adjustment adjustments[] = {
    {"tone.exposure", "Exposure", "Tone",
     "Scales linear light by 2^stops (decode sRGB, multiply, re-encode, clamp to 0-1).",
     exposure_params, COUNT(exposure_params), apply_exposure},
    {"tone.brightness", "Brightness", "Tone",
     "Adds amount to each sRGB-encoded channel and clamps to 0-1 (Core Image brightness).",
     brightness_params, COUNT(brightness_params), apply_brightness},
    {"tone.contrast", "Contrast", "Tone",
     "sRGB-encoded: v' = m + (v - m)(1 + amount) around mid-grey m = 0.4614 (18% linear), clamped to 0-1.",
     contrast_params, COUNT(contrast_params), apply_contrast},
    {"tone.gamma", "Gamma", "Tone",
     "sRGB-encoded: v' = v^(1/gamma); black and white stay fixed.",
     gamma_params, COUNT(gamma_params), apply_gamma},
    {"tone.highlights", "Highlights", "Tone",
     "sRGB-encoded: v' = v + amount v^2 (1 - v); moves the light tones, keeps black and white, stays monotonic.",
     highlights_params, COUNT(highlights_params), apply_highlights},
    {"tone.shadows", "Shadows", "Tone",
     "sRGB-encoded: v' = v + amount v (1 - v)^2; moves the dark tones, keeps black and white, stays monotonic.",
     shadows_params, COUNT(shadows_params), apply_shadows},
    {"tone.levels", "Levels", "Tone",
     "sRGB-encoded: v' = (v - black) / (white - black), clamped to 0-1.",
     levels_params, COUNT(levels_params), apply_levels},
};

static const lookstudio_plugin plugin = {
    LOOKSTUDIO_PLUGIN_ABI_VERSION, "LookStudio Tone", "1.0.0", adjustments, COUNT(adjustments),
};

const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
