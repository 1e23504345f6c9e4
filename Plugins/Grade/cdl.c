/*
 * grade.cdl — the ASC Color Decision List 1.2 transform (American Society of Cinematographers, "ASC CDL
 * Specification v1.2", 2009), in its two renderings as OpenColorIO names them (ops/cdl/CDLOpCPU.cpp):
 *
 *   asc       (OCIO's CDL_ASC, "v1.2_Fwd")   o = clamp01(v·slope + offset)^power, then saturation, then clamp01
 *   no-clamp  (OCIO's CDL_NO_CLAMP, the default for .cc/.cdl/.ccc files)   o = v·slope + offset; o^power only
 *             where o ≥ 0 (negatives pass through); saturation; no clamp anywhere
 *
 * Saturation uses Rec. 709 luma: Y = 0.2126 R + 0.7152 G + 0.0722 B, o' = Y + s·(o − Y), written here as
 * Y·(1 − s) + o·s so that s = 1 returns o exactly. Working space: whatever the values are (the CDL is defined on
 * the numbers it is given); LookStudio's are sRGB-encoded.
 */
#include "grade_internal.h"

/* no-clamp leaves values outside 0…1 as they are, up to this: the host refuses outputs beyond ±1024. */
static const double no_clamp_limit = 64.0;

static const float one3[] = {1.0f, 1.0f, 1.0f};
static const float zero3[] = {0.0f, 0.0f, 0.0f};
static const char *const styles[] = {"asc", "no-clamp"};

const lookstudio_parameter grade_cdl_params[GRADE_CDL_PARAMS] = {
    {.name = "slope", .display_name = "Slope",
     .description = "Per-channel multiplier, 0 to 10 (ASC CDL requires slope >= 0); 1 leaves the channel.",
     .kind = LOOKSTUDIO_PARAM_COLOR, .min = 0.0f, .max = 10.0f, .default_values = one3, .default_count = 3,
     .identity_values = one3, .identity_count = 3},
    {.name = "offset", .display_name = "Offset",
     .description = "Per-channel value added after the slope, -2 to 2; 0 leaves the channel.",
     .kind = LOOKSTUDIO_PARAM_COLOR, .min = -2.0f, .max = 2.0f, .default_values = zero3, .default_count = 3,
     .identity_values = zero3, .identity_count = 3},
    {.name = "power", .display_name = "Power",
     .description = "Per-channel exponent, 0.01 to 10 (ASC CDL requires power > 0); 1 leaves the channel.",
     .kind = LOOKSTUDIO_PARAM_COLOR, .min = 0.01f, .max = 10.0f, .default_values = one3, .default_count = 3,
     .identity_values = one3, .identity_count = 3},
    {.name = "saturation", .display_name = "Saturation",
     .description = "Distance from Rec. 709 luma, 0 (grey) to 10; 1 leaves the colour.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = 0.0f, .max = 10.0f, .default_value = 1.0f, .identity_value = 1.0f},
    {.name = "style", .display_name = "Style",
     .description = "asc: ASC CDL 1.2, clamped to 0-1 before the power and at the end; no-clamp: OpenColorIO's "
                    "default for CDL files, no clamps, power only on values >= 0.",
     .kind = LOOKSTUDIO_PARAM_CHOICE, .min = 0.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f,
     .choices = styles, .choice_count = 2},
};

const char grade_cdl_description[] =
    "ASC CDL 1.2 on the values as given (sRGB-encoded in LookStudio). Style asc (ASC CDL 1.2, OpenColorIO's "
    "CDL_ASC): o = clamp01(v*slope + offset)^power; Y = 0.2126 R + 0.7152 G + 0.0722 B; o' = clamp01(Y + "
    "saturation*(o - Y)). Style no-clamp (OpenColorIO's CDL_NO_CLAMP, its default for .cc, .cdl and .ccc files): "
    "o = v*slope + offset; o^power only where o >= 0, negatives passed through; the same saturation; no clamp "
    "(results are kept within +-64). Inputs are clamped to 0-1 first.";

void grade_apply_cdl(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    static const double one[3] = {1.0, 1.0, 1.0}, zero[3] = {0.0, 0.0, 0.0};
    double slope[3], offset[3], power[3];
    grade_color(&params[0], 0.0, 10.0, one, slope);
    grade_color(&params[1], -2.0, 2.0, zero, offset);
    grade_color(&params[2], 0.01, 10.0, one, power);
    const double saturation = grade_number(&params[3], 0.0, 10.0, 1.0);
    const int clamped = grade_number(&params[4], 0.0, 1.0, 0.0) < 0.5;
    for (size_t p = 0; p < pixel_count; p++) {
        double o[3];
        for (int c = 0; c < 3; c++) {
            const double v = lookstudio_clamp01(in[3 * p + c]) * slope[c] + offset[c];
            if (clamped) {
                const double base = lookstudio_clamp01(v);
                o[c] = power[c] == 1.0 ? base : pow(base, power[c]);
            } else {
                o[c] = (v < 0.0 || power[c] == 1.0) ? v : pow(v, power[c]);
            }
        }
        if (saturation != 1.0) {
            const double luma = GRADE_LUMA_R * o[0] + GRADE_LUMA_G * o[1] + GRADE_LUMA_B * o[2];
            for (int c = 0; c < 3; c++) o[c] = luma * (1.0 - saturation) + o[c] * saturation;
        }
        for (int c = 0; c < 3; c++) {
            const double kept = fmax(-no_clamp_limit, fmin(o[c], no_clamp_limit));
            out[3 * p + c] = (float)(clamped ? lookstudio_clamp01(o[c]) : kept);
        }
    }
}
