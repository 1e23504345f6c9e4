/*
 * A plugin built from the version 1 header (lookstudio_plugin.h in this folder): one float per parameter.
 * legacy.mix: v' = clamp01(v (1 + gain) + offset) per channel; gain and offset in this order, so a host that
 * swapped or dropped a float would show it.
 */
#include "lookstudio_plugin.h"

static void apply_mix(const float *in, float *out, size_t pixel_count, const float *params) {
    const double gain = 1.0 + (double)params[0], offset = params[1];
    for (size_t i = 0; i < 3 * pixel_count; i++) {
        out[i] = (float)lookstudio_clamp01(lookstudio_clamp01(in[i]) * gain + offset);
    }
}

static const lookstudio_parameter mix_params[] = {
    {"gain", "Gain", "Multiplier minus one.", LOOKSTUDIO_PARAM_SCALAR, -1.0f, 1.0f, 0.0f, 0.0f},
    {"offset", "Offset", "Added after the gain.", LOOKSTUDIO_PARAM_SCALAR, -0.5f, 0.5f, 0.1f, 0.0f},
};

static const lookstudio_adjustment adjustments[] = {
    {"legacy.mix", "Mix", "Legacy", "v' = v (1 + gain) + offset, clamped to 0-1.", mix_params, 2, apply_mix},
};

static const lookstudio_plugin plugin = {LOOKSTUDIO_PLUGIN_ABI_VERSION, "Legacy Mix", "1.0.0", adjustments, 1};

LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void) {
    return &plugin;
}
