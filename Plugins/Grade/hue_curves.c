/*
 * Hue curves (hue → hue shift, saturation gain, luminance change) and the luminance → saturation curve, in Oklab
 * (oklab.c says why). The curve's x is the pixel's hue on an HSV-like scale (red 0°, yellow 60°, green 120°,
 * cyan 180°, blue 240°, magenta 300°, Oklab hue interpolated linearly between them), so a point at 60° acts on
 * yellows and a shift of +60° turns a red into the Oklab hue of yellow, as a colourist expects from Resolve's
 * hue curves; the change itself is made in Oklab, at constant perceived lightness.
 *
 * Near-neutral pixels have no meaningful hue: every change is weighted by grade_chroma_weight(C), 0 for greys, so
 * greys stay exactly grey and no hue seam shows in them.
 */
#include "grade_internal.h"

enum curve_kind { HUE_SHIFT, HUE_SATURATION, HUE_LUMINANCE, LUMINANCE_SATURATION };

/* Six points at red, yellow, green, cyan, blue, magenta: a handle for each, as Resolve's hue curves start. */
static const float hue_shift_identity[] = {0, 0, 60, 0, 120, 0, 180, 0, 240, 0, 300, 0};
static const float hue_gain_identity[] = {0, 1, 60, 1, 120, 1, 180, 1, 240, 1, 300, 1};
static const float lum_gain_identity[] = {0, 1, 1, 1};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const grade_curve_range hue_shift_range = {0.0, 360.0, -180.0, 180.0, 1};
static const grade_curve_range hue_gain_range = {0.0, 360.0, 0.0, 2.0, 1};
static const grade_curve_range hue_stops_range = {0.0, 360.0, -2.0, 2.0, 1};
static const grade_curve_range lum_gain_range = {0.0, 1.0, 0.0, 2.0, 0};

/* The changed Oklab colour of one pixel, or 0 when the pixel is left as it is. */
static int change(enum curve_kind kind, const grade_spline *curve, const grade_hue_scale *scale, grade_lab *lab) {
    const double chroma = sqrt(lab->a * lab->a + lab->b * lab->b);
    const double weight = grade_chroma_weight(chroma);
    if (weight == 0.0) return 0;
    if (kind == LUMINANCE_SATURATION) {
        const double k = 1.0 + (grade_spline_eval(curve, lab->L) - 1.0) * weight;
        lab->a *= k;
        lab->b *= k;
        return k != 1.0;
    }
    const double hue = grade_hue_from_oklab(scale, atan2(lab->b, lab->a) * (180.0 / 3.14159265358979323846));
    const double y = grade_spline_eval(curve, hue);
    if (kind == HUE_SHIFT) {
        const double shift = y * weight;
        const double h = grade_oklab_from_hue(scale, hue + shift) * (3.14159265358979323846 / 180.0);
        lab->a = chroma * cos(h);
        lab->b = chroma * sin(h);
        return shift != 0.0;
    }
    if (kind == HUE_SATURATION) {
        const double k = 1.0 + (y - 1.0) * weight;
        lab->a *= k;
        lab->b *= k;
        return k != 1.0;
    }
    // L is close to the cube root of luminance, so scaling it by 2^(stops/3) scales luminance by about 2^stops.
    const double stops = y * weight;
    lab->L *= exp2(stops / 3.0);
    return stops != 0.0;
}

static void apply_curve(enum curve_kind kind, const float *in, float *out, size_t pixel_count,
                        const lookstudio_value *value, const grade_curve_range *range, const float *identity,
                        size_t identity_count) {
    grade_spline curve;
    grade_spline_prepare(&curve, value, range, identity, identity_count);
    const double neutral = identity[1];
    const int is_identity = grade_spline_is_constant(&curve, neutral);
    grade_hue_scale scale;
    grade_hue_scale_init(&scale);
    for (size_t p = 0; p < pixel_count; p++) {
        const float r = (float)lookstudio_clamp01(in[3 * p]), g = (float)lookstudio_clamp01(in[3 * p + 1]),
                    b = (float)lookstudio_clamp01(in[3 * p + 2]);
        float result[3] = {r, g, b};
        if (!is_identity) {
            const double lin[3] = {lookstudio_srgb_decode(r), lookstudio_srgb_decode(g), lookstudio_srgb_decode(b)};
            grade_lab lab = grade_oklab_from_linear(lin);
            if (change(kind, &curve, &scale, &lab)) grade_encode_oklab(lab, result);
        }
        out[3 * p] = result[0];
        out[3 * p + 1] = result[1];
        out[3 * p + 2] = result[2];
    }
}

void grade_apply_hue_hue(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    apply_curve(HUE_SHIFT, in, out, pixel_count, &params[0], &hue_shift_range, hue_shift_identity,
                COUNT(hue_shift_identity));
}

void grade_apply_hue_sat(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    apply_curve(HUE_SATURATION, in, out, pixel_count, &params[0], &hue_gain_range, hue_gain_identity,
                COUNT(hue_gain_identity));
}

void grade_apply_hue_lum(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    apply_curve(HUE_LUMINANCE, in, out, pixel_count, &params[0], &hue_stops_range, hue_shift_identity,
                COUNT(hue_shift_identity));
}

void grade_apply_lum_sat(const float *in, float *out, size_t pixel_count, const lookstudio_value *params) {
    apply_curve(LUMINANCE_SATURATION, in, out, pixel_count, &params[0], &lum_gain_range, lum_gain_identity,
                COUNT(lum_gain_identity));
}

#define HUE_X "x: hue in degrees on an HSV-like wheel (0 red, 60 yellow, 120 green, 180 cyan, 240 blue, 300 magenta)"

const lookstudio_parameter grade_hue_hue_params[GRADE_HUE_CURVE_PARAMS] = {
    {.name = "shift", .display_name = "Hue vs Hue",
     .description = HUE_X "; y: degrees the hue turns on the same scale, -180 to 180 (+ turns red towards yellow).",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = -180.0f, .max = 180.0f, .default_values = hue_shift_identity,
     .default_count = COUNT(hue_shift_identity), .identity_values = hue_shift_identity,
     .identity_count = COUNT(hue_shift_identity), .x_min = 0.0f, .x_max = 360.0f,
     .max_points = LOOKSTUDIO_MAX_CURVE_POINTS, .flags = LOOKSTUDIO_FLAG_PERIODIC},
};

const lookstudio_parameter grade_hue_sat_params[GRADE_HUE_CURVE_PARAMS] = {
    {.name = "gain", .display_name = "Hue vs Saturation",
     .description = HUE_X "; y: chroma gain, 0 (grey) to 2, 1 leaves the colour.",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = 0.0f, .max = 2.0f, .default_values = hue_gain_identity,
     .default_count = COUNT(hue_gain_identity), .identity_values = hue_gain_identity,
     .identity_count = COUNT(hue_gain_identity), .x_min = 0.0f, .x_max = 360.0f,
     .max_points = LOOKSTUDIO_MAX_CURVE_POINTS, .flags = LOOKSTUDIO_FLAG_PERIODIC},
};

const lookstudio_parameter grade_hue_lum_params[GRADE_HUE_CURVE_PARAMS] = {
    {.name = "stops", .display_name = "Hue vs Luminance",
     .description = HUE_X "; y: luminance change in stops, -2 to 2 (+1 about doubles that hue's luminance).",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = -2.0f, .max = 2.0f, .default_values = hue_shift_identity,
     .default_count = COUNT(hue_shift_identity), .identity_values = hue_shift_identity,
     .identity_count = COUNT(hue_shift_identity), .x_min = 0.0f, .x_max = 360.0f,
     .max_points = LOOKSTUDIO_MAX_CURVE_POINTS, .flags = LOOKSTUDIO_FLAG_PERIODIC},
};

const lookstudio_parameter grade_lum_sat_params[GRADE_HUE_CURVE_PARAMS] = {
    {.name = "gain", .display_name = "Luminance vs Saturation",
     .description = "x: Oklab lightness L, 0 black to 1 white (18% grey is 0.57); y: chroma gain, 0 to 2.",
     .kind = LOOKSTUDIO_PARAM_CURVE, .min = 0.0f, .max = 2.0f, .default_values = lum_gain_identity,
     .default_count = COUNT(lum_gain_identity), .identity_values = lum_gain_identity,
     .identity_count = COUNT(lum_gain_identity), .x_min = 0.0f, .x_max = 1.0f,
     .max_points = LOOKSTUDIO_MAX_CURVE_POINTS, .flags = 0},
};

#define OKLAB_NOTE                                                                                                \
    " Works in Oklab on linear sRGB (perceptual hue and lightness; HSL on encoded values would be cheaper but "   \
    "shifts lightness with hue). The change is weighted by w = smoothstep over Oklab chroma 0.002 to 0.04, so "   \
    "greys are returned unchanged; a result outside sRGB moves in linear RGB towards the grey of its own "        \
    "luminance until it fits. "                                                                                  \
    "The curve is monotone cubic (Fritsch-Carlson)"

const char grade_hue_hue_description[] =
    "Turns each hue by the curve's value at that hue: h' = h + w * shift(h), on the HSV-like hue scale." OKLAB_NOTE
    ", periodic: it joins itself at 0/360 degrees in value and slope.";
const char grade_hue_sat_description[] =
    "Scales chroma by the curve's value at the pixel's hue: C' = C * (1 + w * (gain(h) - 1))." OKLAB_NOTE
    ", periodic: it joins itself at 0/360 degrees in value and slope.";
const char grade_hue_lum_description[] =
    "Brightens or darkens each hue: L' = L * 2^(w * stops(h) / 3), about stops(h) stops of luminance." OKLAB_NOTE
    ", periodic: it joins itself at 0/360 degrees in value and slope.";
const char grade_lum_sat_description[] =
    "Scales chroma by the curve's value at the pixel's lightness: C' = C * (1 + w * (gain(L) - 1)), L the Oklab "
    "lightness." OKLAB_NOTE ", flat beyond its first and last points.";
