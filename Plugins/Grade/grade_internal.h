/*
 * Shared by the grading plugin's files; not part of the plugin ABI. Each family file (curves.c, hue_curves.c,
 * wheels.c, cdl.c, mixer.c, split_tone.c) defines its parameters, description and pixel function; grade.c lists
 * them in the one descriptor the host reads. Counts are macros because C cannot take the size of an array
 * defined in another file.
 */
#ifndef LOOKSTUDIO_GRADE_INTERNAL_H
#define LOOKSTUDIO_GRADE_INTERNAL_H

#include "lookstudio_plugin.h"

/* ---- Curves: monotone cubic Hermite with Fritsch–Carlson tangents (spline.c) ---- */

/*
 * A curve prepared for evaluation: at most LOOKSTUDIO_MAX_CURVE_POINTS points, plus one wrapped copy of the
 * first point for a periodic curve. Lives on the caller's stack (about 1.6 kB): apply allocates nothing.
 */
typedef struct grade_spline {
    size_t n;
    int periodic;
    double period;
    double x[LOOKSTUDIO_MAX_CURVE_POINTS + 1];
    double y[LOOKSTUDIO_MAX_CURVE_POINTS + 1];
    double m[LOOKSTUDIO_MAX_CURVE_POINTS + 1];
} grade_spline;

/* Ranges a curve's points are clamped to; a periodic curve repeats every x_max − x_min. */
typedef struct grade_curve_range {
    double x_min, x_max, y_min, y_max;
    int periodic;
} grade_curve_range;

/*
 * Prepares `value` (x0 y0 x1 y1 …) for evaluation. Points are clamped to `range`; a point whose x is not
 * greater than the previous one, or not finite, is skipped. When fewer usable points remain than the curve
 * needs (2, or 1 when periodic), `fallback` (the parameter's identity points) is used instead.
 */
void grade_spline_prepare(grade_spline *s, const lookstudio_value *value, const grade_curve_range *range,
                          const float *fallback, size_t fallback_count);

/* The curve at x: flat beyond the end points, or wrapped for a periodic curve. */
double grade_spline_eval(const grade_spline *s, double x);

/* True when every point's y is `y` (the curve is that constant everywhere). */
int grade_spline_is_constant(const grade_spline *s, double y);

/* True when the curve is the diagonal y = x over 0…1 (points on it, first at 0, last at 1). */
int grade_spline_is_diagonal(const grade_spline *s);

/* ---- Oklab and the hue scale of the hue curves (oklab.c) ---- */

typedef struct grade_lab {
    double L, a, b;
} grade_lab;

/* Linear sRGB → Oklab and back (Björn Ottosson, "A perceptual color space for image processing", 2020). */
grade_lab grade_oklab_from_linear(const double rgb[3]);
void grade_linear_from_oklab(grade_lab lab, double rgb[3]);

/*
 * The Oklab hue angles (degrees, 0…360) of the sRGB red, yellow, green, cyan, blue and magenta, computed once per
 * apply call, and the hue scale between them: red 0°, yellow 60°, … magenta 300°, as an HSV wheel places them,
 * interpolated linearly in Oklab hue between those anchors.
 */
typedef struct grade_hue_scale {
    double anchor[7];
} grade_hue_scale;

void grade_hue_scale_init(grade_hue_scale *scale);
double grade_hue_from_oklab(const grade_hue_scale *scale, double oklab_degrees);
double grade_oklab_from_hue(const grade_hue_scale *scale, double hue_degrees);

/*
 * The weight of a hue-dependent change at Oklab chroma C: 0 up to 0.002 (greys and near-greys, whose hue is
 * noise), smoothstep to 1 at 0.04 (a muted colour), 1 above.
 */
double grade_chroma_weight(double chroma);

/*
 * Encodes an Oklab colour into sRGB 0…1: L is clamped to 0…1, and a colour outside the sRGB gamut moves in linear
 * RGB towards the grey of its own luminance until it fits (luminance kept, hue nearly).
 */
void grade_encode_oklab(grade_lab lab, float out[3]);

/* ---- Adjustments ---- */

#define GRADE_CURVE_RGB_PARAMS 4
extern const lookstudio_parameter grade_curve_rgb_params[GRADE_CURVE_RGB_PARAMS];
extern const char grade_curve_rgb_description[];
void grade_apply_curve_rgb(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

#define GRADE_HUE_CURVE_PARAMS 1
extern const lookstudio_parameter grade_hue_hue_params[GRADE_HUE_CURVE_PARAMS];
extern const lookstudio_parameter grade_hue_sat_params[GRADE_HUE_CURVE_PARAMS];
extern const lookstudio_parameter grade_hue_lum_params[GRADE_HUE_CURVE_PARAMS];
extern const lookstudio_parameter grade_lum_sat_params[GRADE_HUE_CURVE_PARAMS];
extern const char grade_hue_hue_description[];
extern const char grade_hue_sat_description[];
extern const char grade_hue_lum_description[];
extern const char grade_lum_sat_description[];
void grade_apply_hue_hue(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);
void grade_apply_hue_sat(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);
void grade_apply_hue_lum(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);
void grade_apply_lum_sat(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

#define GRADE_LIFT_GAMMA_GAIN_PARAMS 6
extern const lookstudio_parameter grade_lift_gamma_gain_params[GRADE_LIFT_GAMMA_GAIN_PARAMS];
extern const char grade_lift_gamma_gain_description[];
void grade_apply_lift_gamma_gain(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

#define GRADE_CDL_PARAMS 5
extern const lookstudio_parameter grade_cdl_params[GRADE_CDL_PARAMS];
extern const char grade_cdl_description[];
void grade_apply_cdl(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

#define GRADE_MIXER_PARAMS 4
extern const lookstudio_parameter grade_mixer_params[GRADE_MIXER_PARAMS];
extern const char grade_mixer_description[];
void grade_apply_mixer(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

#define GRADE_SPLIT_TONE_PARAMS 5
extern const lookstudio_parameter grade_split_tone_params[GRADE_SPLIT_TONE_PARAMS];
extern const char grade_split_tone_description[];
void grade_apply_split_tone(const float *in, float *out, size_t pixel_count, const lookstudio_value *params);

/* ---- Small helpers ---- */

/* A parameter's single number (scalar, angle, bool, choice), `fallback` when the value holds none or NaN. */
static inline double grade_number(const lookstudio_value *value, double lo, double hi, double fallback) {
    if (value->values == NULL || value->count < 1) return fallback;
    const double v = value->values[0];
    if (!(v == v)) return fallback;
    return v < lo ? lo : (v > hi ? hi : v);
}

/* A colour parameter's three numbers, clamped to lo…hi, `fallback` when the value does not hold three. */
static inline void grade_color(const lookstudio_value *value, double lo, double hi, const double fallback[3],
                               double rgb[3]) {
    for (int c = 0; c < 3; c++) {
        const double v = (value->values != NULL && value->count >= 3) ? value->values[c] : fallback[c];
        rgb[c] = !(v == v) ? fallback[c] : (v < lo ? lo : (v > hi ? hi : v));
    }
}

/* Rec. 709 luma weights, used by ASC CDL's saturation and every luma below. */
#define GRADE_LUMA_R 0.2126
#define GRADE_LUMA_G 0.7152
#define GRADE_LUMA_B 0.0722

#endif /* LOOKSTUDIO_GRADE_INTERNAL_H */
