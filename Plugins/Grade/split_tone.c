/*
 * color.split_tone — Lightroom-style split toning (Split Toning / Color Grading's shadows and highlights with a
 * balance) on sRGB-encoded values:
 *
 *     Y = 0.2126 R + 0.7152 G + 0.0722 B                    the pixel's luma
 *     u = Y^(4^(−balance))                                  how much of a highlight it is (balance moves the split)
 *     e = 4·Y·(1 − Y)                                       black and white stay neutral, midtones take most
 *     t(h) = the HSV colour of hue h at S = V = 1, d(h) = t(h) − Y(t(h))   a tint that adds no luma
 *     v' = clamp01(v + e·((1 − u)·shadow_amount·d(shadow_hue) + u·highlight_amount·d(highlight_hue)))
 *
 * Lightroom publishes no formula; this keeps what its controls promise: each amount 0 leaves the image, the tint
 * does not change the luma (before clipping), pure black and white are untouched, and balance +1 gives nearly
 * every tone to the highlight tint (u = Y^0.25), −1 to the shadow tint (u = Y^4).
 */
#include "grade_internal.h"

const lookstudio_parameter grade_split_tone_params[GRADE_SPLIT_TONE_PARAMS] = {
    {.name = "shadow_hue", .display_name = "Shadow Hue",
     .description = "Hue of the shadow tint in degrees: 0 red, 60 yellow, 120 green, 180 cyan, 240 blue.",
     .kind = LOOKSTUDIO_PARAM_ANGLE, .min = 0.0f, .max = 360.0f, .default_value = 220.0f, .identity_value = 220.0f},
    {.name = "shadow_amount", .display_name = "Shadow Amount",
     .description = "Strength of the shadow tint, 0 (none) to 1.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = 0.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
    {.name = "highlight_hue", .display_name = "Highlight Hue",
     .description = "Hue of the highlight tint in degrees: 0 red, 30 orange, 60 yellow, 240 blue.",
     .kind = LOOKSTUDIO_PARAM_ANGLE, .min = 0.0f, .max = 360.0f, .default_value = 40.0f, .identity_value = 40.0f},
    {.name = "highlight_amount", .display_name = "Highlight Amount",
     .description = "Strength of the highlight tint, 0 (none) to 1.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = 0.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
    {.name = "balance", .display_name = "Balance",
     .description = "-1 gives most tones to the shadow tint, +1 to the highlight tint; 0 splits at the midtones.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = -1.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
};

const char grade_split_tone_description[] =
    "Lightroom-style split toning on sRGB-encoded values. Y = Rec. 709 luma; u = Y^(4^-balance); e = 4Y(1 - Y); "
    "d(h) = t(h) - Y(t(h)) with t(h) the HSV colour of hue h at full saturation and value (a tint adding no luma); "
    "v' = clamp01(v + e*((1 - u)*shadow_amount*d(shadow_hue) + u*highlight_amount*d(highlight_hue))). Black and "
    "white stay neutral; amounts 0 leave the image unchanged.";

/* The zero-luma tint of `hue`: the HSV colour at S = V = 1 minus its own luma. */
static void tint(double hue, double d[3]) {
    double rgb[3];
    for (int c = 0; c < 3; c++) {
        const double k = fmod(5.0 - 2.0 * c + hue / 60.0 + 6.0, 6.0);
        rgb[c] = 1.0 - fmax(0.0, fmin(fmin(k, 4.0 - k), 1.0));
    }
    const double luma = GRADE_LUMA_R * rgb[0] + GRADE_LUMA_G * rgb[1] + GRADE_LUMA_B * rgb[2];
    for (int c = 0; c < 3; c++) d[c] = rgb[c] - luma;
}

void grade_apply_split_tone(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    const double shadow_amount = grade_number(&params[1], 0.0, 1.0, 0.0);
    const double highlight_amount = grade_number(&params[3], 0.0, 1.0, 0.0);
    const double exponent = pow(4.0, -grade_number(&params[4], -1.0, 1.0, 0.0));
    double shadow[3], highlight[3];
    tint(grade_number(&params[0], 0.0, 360.0, 220.0), shadow);
    tint(grade_number(&params[2], 0.0, 360.0, 40.0), highlight);
    for (int c = 0; c < 3; c++) {
        shadow[c] *= shadow_amount;
        highlight[c] *= highlight_amount;
    }
    const int active = shadow_amount != 0.0 || highlight_amount != 0.0;
    for (size_t p = 0; p < pixel_count; p++) {
        const double v[3] = {lookstudio_clamp01(in[3 * p]), lookstudio_clamp01(in[3 * p + 1]),
                             lookstudio_clamp01(in[3 * p + 2])};
        if (!active) {
            for (int c = 0; c < 3; c++) out[3 * p + c] = (float)v[c];
            continue;
        }
        const double luma = GRADE_LUMA_R * v[0] + GRADE_LUMA_G * v[1] + GRADE_LUMA_B * v[2];
        const double u = pow(luma, exponent), e = 4.0 * luma * (1.0 - luma);
        for (int c = 0; c < 3; c++) {
            out[3 * p + c] = (float)lookstudio_clamp01(v[c] + e * ((1.0 - u) * shadow[c] + u * highlight[c]));
        }
    }
}
