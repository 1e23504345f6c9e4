/*
 * lookstudio_plugin_v1.h — version 1 of the plugin descriptor, as the host reads it. Plugin authors include
 * lookstudio_plugin.h (version 2) only; this file lets the host load plugins built from the version 1 header
 * unchanged: it reads their descriptors with these layouts and calls their `apply` with one float per parameter.
 * Never edit these structures: they are what version 1 plugins were compiled against.
 */
#ifndef LOOKSTUDIO_PLUGIN_V1_H
#define LOOKSTUDIO_PLUGIN_V1_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOKSTUDIO_PLUGIN_ABI_VERSION_1 1u

/* A version 1 parameter: a number of kind scalar, angle, kelvin or bool; version 2 kept these fields and added
 * its own after `identity_value`. */
typedef struct lookstudio_parameter_v1 {
    const char *name, *display_name, *description;
    int32_t kind;
    float min, max, default_value, identity_value;
} lookstudio_parameter_v1;

/* A version 1 pixel function: one float per parameter. */
typedef void (*lookstudio_apply_fn_v1)(const float *in, float *out, size_t pixel_count, const float *params);

/* Version 2 kept these fields, in this order, with these meanings (see lookstudio_plugin.h); only the types of
 * `parameters` and `apply` changed. */
typedef struct lookstudio_adjustment_v1 {
    const char *id, *display_name, *category, *description;
    const lookstudio_parameter_v1 *parameters;
    size_t parameter_count;
    lookstudio_apply_fn_v1 apply;
} lookstudio_adjustment_v1;

/* As version 2's lookstudio_plugin but for the type of `adjustments`. */
typedef struct lookstudio_plugin_v1 {
    uint32_t abi_version;
    const char *name, *version;
    const lookstudio_adjustment_v1 *adjustments;
    size_t adjustment_count;
} lookstudio_plugin_v1;

#ifdef __cplusplus
}
#endif

#endif /* LOOKSTUDIO_PLUGIN_V1_H */
