/*
 * color.channel_mixer — each output channel a weighted sum of the input R, G, B, on the sRGB-encoded values, as
 * Photoshop's Channel Mixer and Resolve's RGB Mixer compute it (so a cube built here matches a PNG identity cube
 * edited with Photoshop's mixer). darktable's channel mixer mixes linear light instead; on encoded values a
 * 50/50 mix of red and green is darker than the same mix of light, which is the behaviour those editors' users
 * know.
 *
 * preserve_luminance adds the same amount to all three channels so that the Rec. 709 luma of the result equals
 * the input's: o' = o + (Y(in) − Y(o)). An additive correction keeps the mix's colour differences as they are,
 * where a ratio Y(in)/Y(o) would explode for mixes that make a colour black.
 */
#include "grade_internal.h"

static const float red_row[] = {1.0f, 0.0f, 0.0f};
static const float green_row[] = {0.0f, 1.0f, 0.0f};
static const float blue_row[] = {0.0f, 0.0f, 1.0f};

#define ROW(NAME, LABEL, ROW_VALUES, WHAT)                                                                        \
    {.name = NAME, .display_name = LABEL, .description = WHAT, .kind = LOOKSTUDIO_PARAM_COLOR, .min = -2.0f,      \
     .max = 2.0f, .default_values = ROW_VALUES, .default_count = 3, .identity_values = ROW_VALUES,               \
     .identity_count = 3}

const lookstudio_parameter grade_mixer_params[GRADE_MIXER_PARAMS] = {
    ROW("red", "Red Output", red_row, "Weights of input R, G, B in the output red, -2 to 2 each; 1, 0, 0 keeps it."),
    ROW("green", "Green Output", green_row,
        "Weights of input R, G, B in the output green, -2 to 2 each; 0, 1, 0 keeps it."),
    ROW("blue", "Blue Output", blue_row,
        "Weights of input R, G, B in the output blue, -2 to 2 each; 0, 0, 1 keeps it."),
    {.name = "preserve_luminance", .display_name = "Preserve Luminance",
     .description = "1: shift the result so its Rec. 709 luma equals the input's; 0: off.",
     .kind = LOOKSTUDIO_PARAM_BOOL, .min = 0.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
};

const char grade_mixer_description[] =
    "Channel mixer on the sRGB-encoded values, as Photoshop's Channel Mixer and Resolve's RGB Mixer: R' = red.r*R + "
    "red.g*G + red.b*B, and likewise G' from the green row and B' from the blue row. With preserve_luminance, "
    "o' = o + (Y(in) - Y(o)), Y = 0.2126 R + 0.7152 G + 0.0722 B, so the luma is kept and the colour changes. "
    "Clamped to 0-1. (darktable's channel mixer works on linear light instead.)";

void grade_apply_mixer(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    static const double identity[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double m[3][3];
    for (int row = 0; row < 3; row++) grade_color(&params[row], -2.0, 2.0, identity[row], m[row]);
    const int preserve = grade_number(&params[3], 0.0, 1.0, 0.0) >= 0.5;
    for (size_t p = 0; p < pixel_count; p++) {
        const double v[3] = {lookstudio_clamp01(in[3 * p]), lookstudio_clamp01(in[3 * p + 1]),
                             lookstudio_clamp01(in[3 * p + 2])};
        double o[3];
        for (int row = 0; row < 3; row++) o[row] = m[row][0] * v[0] + m[row][1] * v[1] + m[row][2] * v[2];
        if (preserve) {
            const double shift = (GRADE_LUMA_R * v[0] + GRADE_LUMA_G * v[1] + GRADE_LUMA_B * v[2])
                               - (GRADE_LUMA_R * o[0] + GRADE_LUMA_G * o[1] + GRADE_LUMA_B * o[2]);
            for (int c = 0; c < 3; c++) o[c] += shift;
        }
        for (int c = 0; c < 3; c++) out[3 * p + c] = (float)lookstudio_clamp01(o[c]);
    }
}
