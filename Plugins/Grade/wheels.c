/*
 * grade.lift_gamma_gain — the three colour wheels of a primary grade, on sRGB-encoded values, per channel c:
 *
 *     L_c = lift_master + lift_c        G_c = max(0, gain_master + gain_c)        g_c = gamma_master + gamma_c
 *     v'  = clamp01(G_c·v + L_c·(1 − v)) ^ (2^(−g_c))
 *
 * Black goes to L_c, white to G_c, and the straight line between is bent by a power that keeps both ends. This is
 * the lift/gamma/gain of Resolve's primary wheels as its manual describes them (lift moves the blacks with white
 * held, gain scales with black held, gamma bends the midtones; Resolve does not publish its exact maths), and
 * exactly Nuke's Grade node with blackpoint 0, whitepoint 1, multiply 1, offset 0 and gamma 2^g. The gamma
 * wheel's unit is log2 of that exponent, so +1 and −1 are symmetric (v^0.5 and v^2) and 0 is neutral. ASC CDL
 * differs: its offset adds to every level (white moves too) and its slope scales about black, so a lift of L
 * equals slope 1 − L with offset L.
 */
#include "grade_internal.h"

static const float zero3[] = {0.0f, 0.0f, 0.0f};

#define WHEEL(NAME, LABEL, WHAT)                                                                                   \
    {.name = NAME, .display_name = LABEL, .description = WHAT, .kind = LOOKSTUDIO_PARAM_COLOR, .min = -1.0f,      \
     .max = 1.0f, .default_values = zero3, .default_count = 3, .identity_values = zero3, .identity_count = 3,     \
     .flags = LOOKSTUDIO_FLAG_WHEEL}

const lookstudio_parameter grade_lift_gamma_gain_params[GRADE_LIFT_GAMMA_GAIN_PARAMS] = {
    WHEEL("lift", "Lift", "RGB offset added to lift_master: where black goes per channel, white held; -1 to 1."),
    WHEEL("gamma", "Gamma", "RGB offset added to gamma_master: the exponent is 2^-(gamma_master + gamma_c); -1 to 1."),
    WHEEL("gain", "Gain", "RGB offset added to gain_master: where white goes per channel, black held; -1 to 1."),
    {.name = "lift_master", .display_name = "Lift Master",
     .description = "Black level for all channels: 0 keeps black, 0.1 lifts it to 0.1, -0.1 crushes the shadows.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = -1.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
    {.name = "gamma_master", .display_name = "Gamma Master",
     .description = "Midtones for all channels: v^(2^-gamma); +1 is v^0.5 (brighter), -1 is v^2 (darker), 0 none.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = -1.0f, .max = 1.0f, .default_value = 0.0f, .identity_value = 0.0f},
    {.name = "gain_master", .display_name = "Gain Master",
     .description = "White level for all channels, a multiplier about black: 1 keeps white, 0.9 dims it to 0.9.",
     .kind = LOOKSTUDIO_PARAM_SCALAR, .min = 0.0f, .max = 4.0f, .default_value = 1.0f, .identity_value = 1.0f},
};

const char grade_lift_gamma_gain_description[] =
    "Primary wheels on sRGB-encoded values, per channel c: L = lift_master + lift_c, G = max(0, gain_master + "
    "gain_c), g = gamma_master + gamma_c; v' = clamp01(G*v + L*(1 - v))^(2^-g). Black goes to L, white to G, gamma "
    "bends the midtones keeping both ends. Resolve's primaries as its manual describes them (its exact maths is not "
    "published); identical to Nuke's Grade node with blackpoint 0, whitepoint 1 and gamma 2^g. Unlike ASC CDL, "
    "lift leaves white where it is (CDL's offset moves every level).";

void grade_apply_lift_gamma_gain(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    static const double zero[3] = {0.0, 0.0, 0.0};
    double lift[3], gamma[3], gain[3];
    grade_color(&params[0], -1.0, 1.0, zero, lift);
    grade_color(&params[1], -1.0, 1.0, zero, gamma);
    grade_color(&params[2], -1.0, 1.0, zero, gain);
    const double lift_master = grade_number(&params[3], -1.0, 1.0, 0.0);
    const double gamma_master = grade_number(&params[4], -1.0, 1.0, 0.0);
    const double gain_master = grade_number(&params[5], 0.0, 4.0, 1.0);
    double black[3], white[3], exponent[3];
    for (int c = 0; c < 3; c++) {
        black[c] = lift_master + lift[c];
        white[c] = fmax(0.0, gain_master + gain[c]);
        exponent[c] = exp2(-(gamma_master + gamma[c]));
    }
    for (size_t p = 0; p < pixel_count; p++) {
        const double v[3] = {lookstudio_clamp01(in[3 * p]), lookstudio_clamp01(in[3 * p + 1]),
                             lookstudio_clamp01(in[3 * p + 2])};
        for (int c = 0; c < 3; c++) {
            const double level = lookstudio_clamp01(white[c] * v[c] + black[c] * (1.0 - v[c]));
            out[3 * p + c] = (float)(exponent[c] == 1.0 ? level : pow(level, exponent[c]));
        }
    }
}
