/*
 * lookstudio_plugin.h — the whole contract between LookStudio and a plugin.
 *
 * A plugin is a shared library (.so on Linux, .dylib on macOS) that exports one C function,
 *
 *     const lookstudio_plugin *lookstudio_plugin_entry(void);
 *
 * returning a pointer to a descriptor that stays valid, unchanged, for as long as the library is loaded (a
 * `static const` object is the natural choice). The descriptor lists the plugin's adjustments; each adjustment
 * has parameters and an `apply` function that maps interleaved RGB floats to interleaved RGB floats.
 *
 * Colour convention: unless an adjustment says otherwise, values are sRGB-encoded (the numbers stored in an
 * 8- or 16-bit image, scaled to 0…1). An adjustment that works in linear light converts on the way in and out
 * (see lookstudio_srgb_decode / lookstudio_srgb_encode below) and says so in its description.
 *
 * Adjustments must be pointwise: the output colour of a pixel depends only on that pixel's input colour and
 * the parameters. That is what lets LookStudio bake a chain of adjustments into one 3D cube.
 *
 * Strings: every string is NUL-terminated UTF-8 without control characters (no newline, tab or ESC). Ids, names,
 * display names, categories and versions are at most 256 bytes; descriptions at most 4096 bytes. The host reads
 * no further than that and refuses the plugin, naming the field, when a string breaks a rule. Counts are size_t
 * and read unsigned: a pointer that is NULL while its count is not 0 is refused.
 *
 * ABI versioning: LOOKSTUDIO_PLUGIN_ABI_VERSION is bumped whenever the layout or meaning of anything below
 * changes (a field added, removed, reordered or reinterpreted). The host loads only plugins whose descriptor
 * carries exactly the version it was built with and refuses the others with a message naming both versions.
 * `abi_version` is the first field of `lookstudio_plugin` in every version, so a host can always read it.
 *
 * Build a plugin:  cc -shared -fPIC -O2 -I<dir with this header> my_plugin.c -o my_plugin.so -lm
 * Install it:      put the .so in a folder named by --plugin-dir or $LOOKSTUDIO_PLUGIN_PATH, or next to the
 *                  `lookstudio` executable. See docs/PLUGINS.md.
 */
#ifndef LOOKSTUDIO_PLUGIN_H
#define LOOKSTUDIO_PLUGIN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes. Put it in lookstudio_plugin.abi_version. */
#define LOOKSTUDIO_PLUGIN_ABI_VERSION 1u

/* The name of the exported entry function, for hosts that look it up with dlsym. */
#define LOOKSTUDIO_PLUGIN_ENTRY_SYMBOL "lookstudio_plugin_entry"

/* Marks the entry function as exported even when the plugin is compiled with -fvisibility=hidden. */
#if defined(_WIN32)
#define LOOKSTUDIO_PLUGIN_EXPORT __declspec(dllexport)
#else
#define LOOKSTUDIO_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/*
 * What a parameter's number means. It decides how LookStudio shows and documents the value; the host passes
 * every kind to `apply` as a float.
 *   LOOKSTUDIO_PARAM_SCALAR  a plain number; the parameter's description names its unit (stops, amount, …).
 *   LOOKSTUDIO_PARAM_ANGLE   degrees.
 *   LOOKSTUDIO_PARAM_KELVIN  kelvin (a colour temperature or a shift of one).
 *   LOOKSTUDIO_PARAM_BOOL    0 (off) or 1 (on); min must be 0 and max 1, default and identity 0 or 1.
 */
enum {
    LOOKSTUDIO_PARAM_SCALAR = 0,
    LOOKSTUDIO_PARAM_ANGLE = 1,
    LOOKSTUDIO_PARAM_KELVIN = 2,
    LOOKSTUDIO_PARAM_BOOL = 3
};

/* One parameter of an adjustment. */
typedef struct lookstudio_parameter {
    /* Name used in recipes and on the command line: lowercase letters, digits and '_', starting with a letter
     * ("amount", "stops", "filter_hue"). Unique within its adjustment. Must not be NULL. */
    const char *name;
    /* Short label for people ("Exposure"). Must not be NULL or empty. */
    const char *display_name;
    /* One sentence with the unit and direction ("Stops of exposure; +1 doubles the light."). May be NULL. */
    const char *description;
    /* One of the LOOKSTUDIO_PARAM_* values. */
    int32_t kind;
    /* Smallest accepted value. Finite. */
    float min;
    /* Largest accepted value. Finite, >= min. */
    float max;
    /* Value used when a recipe does not give this parameter. min <= default_value <= max. */
    float default_value;
    /* Value at which this parameter has no effect. min <= identity_value <= max. With every parameter at its
     * identity value the adjustment must return its input unchanged (to within float rounding). A parameter
     * that has no neutral value of its own (a filter colour, say) uses its default, and another parameter
     * (an amount) provides the identity. */
    float identity_value;
} lookstudio_parameter;

/*
 * Maps `pixel_count` RGB pixels from `in` to `out`, both interleaved (r0 g0 b0 r1 g1 b1 …, 3·pixel_count
 * floats). `params` holds one float per parameter, in the order of the adjustment's `parameters` array, each
 * already checked by the host to lie within min…max (NULL when the adjustment has no parameters).
 *
 * `out` may be the same pointer as `in` (in-place); read a pixel's three values before writing any of them.
 * The buffers never overlap otherwise. Inputs are normally within 0…1; an adjustment should clamp what it
 * reads rather than produce NaN. The function must be reentrant: the host may call it from several threads at
 * once on different buffers, and it must not keep the pointers after returning.
 */
typedef void (*lookstudio_apply_fn)(const float *in, float *out, size_t pixel_count, const float *params);

/* One adjustment a plugin offers. */
typedef struct lookstudio_adjustment {
    /* Unique id of the form "domain.name": two parts separated by one '.', each lowercase letters, digits and
     * '_' starting with a letter ("tone.contrast", "acme.cross_process"). Unique across all loaded plugins;
     * use your own domain to avoid clashes. Must not be NULL. */
    const char *id;
    /* Name for people ("Contrast"). Must not be NULL or empty. */
    const char *display_name;
    /* Group for listings ("Tone", "White Balance", "Color", "Blend", …). Must not be NULL or empty. */
    const char *category;
    /* What it does, its formula's idea and its working space (sRGB-encoded or linear). May be NULL. */
    const char *description;
    /* The parameters, `parameter_count` of them (at most 32). May be NULL when parameter_count is 0. */
    const lookstudio_parameter *parameters;
    /* Number of entries in `parameters`. */
    size_t parameter_count;
    /* The pixel function. Must not be NULL. */
    lookstudio_apply_fn apply;
} lookstudio_adjustment;

/* What lookstudio_plugin_entry returns. */
typedef struct lookstudio_plugin {
    /* Always LOOKSTUDIO_PLUGIN_ABI_VERSION. Stays the first field in every ABI version. */
    uint32_t abi_version;
    /* The plugin's name ("Acme Looks"). Must not be NULL or empty. */
    const char *name;
    /* The plugin's own version, free-form ("1.2.0"). Must not be NULL. */
    const char *version;
    /* The adjustments, `adjustment_count` of them (1 to 1024). Must not be NULL. */
    const lookstudio_adjustment *adjustments;
    /* Number of entries in `adjustments`. */
    size_t adjustment_count;
} lookstudio_plugin;

/* The type of the entry function. */
typedef const lookstudio_plugin *(*lookstudio_plugin_entry_fn)(void);

/* Every plugin defines this function and exports it with C linkage. */
LOOKSTUDIO_PLUGIN_EXPORT const lookstudio_plugin *lookstudio_plugin_entry(void);

/*
 * Conveniences, not part of the binary interface: the sRGB transfer functions (IEC 61966-2-1) for adjustments
 * that work in linear light. Double precision keeps an encode/decode round trip exact at float precision.
 * They call pow(), so link with -lm.
 */
static inline double lookstudio_srgb_decode(double v) {
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static inline double lookstudio_srgb_encode(double v) {
    return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1.0 / 2.4) - 0.055;
}

/* Clamps to 0…1; NaN becomes 0 so that a bad value never spreads through a baked cube. */
static inline double lookstudio_clamp01(double v) {
    return v > 0.0 ? (v < 1.0 ? v : 1.0) : 0.0;
}

#ifdef __cplusplus
}
#endif

#endif /* LOOKSTUDIO_PLUGIN_H */
