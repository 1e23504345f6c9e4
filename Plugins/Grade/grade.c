/*
 * Grade plugin: the grading adjustments (point and hue curves, lift/gamma/gain, ASC CDL, channel mixer, split
 * tone) in C, on plugin ABI version 2. Each family lives in its own file with its parameters, description and
 * pixel function; this file lists them. Every adjustment returns its input bit for bit at its identity
 * parameters (for inputs within 0…1), clamps what it reads, allocates nothing in apply and keeps no state, so the
 * host may call it from several threads at once. Formulas: docs/ADJUSTMENTS.md.
 */
#include "grade_internal.h"

static const lookstudio_adjustment adjustments[] = {
    {"curve.rgb", "RGB Curves", "Curves", grade_curve_rgb_description, grade_curve_rgb_params,
     GRADE_CURVE_RGB_PARAMS, grade_apply_curve_rgb},
    {"curve.hue_hue", "Hue vs Hue", "Curves", grade_hue_hue_description, grade_hue_hue_params,
     GRADE_HUE_CURVE_PARAMS, grade_apply_hue_hue},
    {"curve.hue_sat", "Hue vs Saturation", "Curves", grade_hue_sat_description, grade_hue_sat_params,
     GRADE_HUE_CURVE_PARAMS, grade_apply_hue_sat},
    {"curve.hue_lum", "Hue vs Luminance", "Curves", grade_hue_lum_description, grade_hue_lum_params,
     GRADE_HUE_CURVE_PARAMS, grade_apply_hue_lum},
    {"curve.lum_sat", "Luminance vs Saturation", "Curves", grade_lum_sat_description, grade_lum_sat_params,
     GRADE_HUE_CURVE_PARAMS, grade_apply_lum_sat},
    {"grade.lift_gamma_gain", "Lift / Gamma / Gain", "Grade", grade_lift_gamma_gain_description,
     grade_lift_gamma_gain_params, GRADE_LIFT_GAMMA_GAIN_PARAMS, grade_apply_lift_gamma_gain},
    {"grade.cdl", "ASC CDL", "Grade", grade_cdl_description, grade_cdl_params, GRADE_CDL_PARAMS, grade_apply_cdl},
    {"color.channel_mixer", "Channel Mixer", "Color", grade_mixer_description, grade_mixer_params,
     GRADE_MIXER_PARAMS, grade_apply_mixer},
    {"color.split_tone", "Split Toning", "Color", grade_split_tone_description, grade_split_tone_params,
     GRADE_SPLIT_TONE_PARAMS, grade_apply_split_tone},
};

static const lookstudio_plugin plugin = {
    LOOKSTUDIO_PLUGIN_ABI_VERSION, "LookStudio Grade", "1.0.0", adjustments,
    sizeof(adjustments) / sizeof(adjustments[0]),
};

const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
