/*
 * The colour model of the hue and luminance curves: Oklab (Björn Ottosson, 2020, https://bottosson.github.io/posts/
 * oklab/) on linear sRGB, with chroma C = √(a² + b²) and hue h = atan2(b, a).
 *
 * Why Oklab rather than HSL/HSV on encoded values: its hue is close to perceived hue (a blue turned towards
 * magenta does not drift purple-grey as in HSL), its L is close to perceived lightness (a yellow and a blue at the
 * same L look equally light, which HSL's lightness does not give), and scaling chroma keeps hue. The costs: a cube
 * root and a power per channel, and a change may leave the sRGB gamut, which grade_encode_oklab maps back.
 */
#include "grade_internal.h"

/* Ottosson's matrices for linear sRGB: M1 (RGB → LMS), M2 (cube-rooted LMS → Lab) and their inverses. */
static const double rgb_to_lms[3][3] = {{0.4122214708, 0.5363325363, 0.0514459929},
                                        {0.2119034982, 0.6806995451, 0.1073969566},
                                        {0.0883024619, 0.2817188376, 0.6299787005}};
static const double lms_to_lab[3][3] = {{0.2104542553, 0.7936177850, -0.0040720468},
                                        {1.9779984951, -2.4285922050, 0.4505937099},
                                        {0.0259040371, 0.7827717662, -0.8086757660}};
static const double lab_to_lms[3][3] = {{1.0, 0.3963377774, 0.2158037573},
                                        {1.0, -0.1055613458, -0.0638541728},
                                        {1.0, -0.0894841775, -1.2914855480}};
static const double lms_to_rgb[3][3] = {{4.0767416621, -3.3077115913, 0.2309699292},
                                        {-1.2684380046, 2.6097574011, -0.3413193965},
                                        {-0.0041960863, -0.7034186147, 1.7076147010}};

static void multiply(const double m[3][3], const double v[3], double out[3]) {
    for (int r = 0; r < 3; r++) out[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
}

grade_lab grade_oklab_from_linear(const double rgb[3]) {
    double lms[3], lab[3];
    multiply(rgb_to_lms, rgb, lms);
    for (int i = 0; i < 3; i++) lms[i] = cbrt(lms[i]);
    multiply(lms_to_lab, lms, lab);
    const grade_lab result = {lab[0], lab[1], lab[2]};
    return result;
}

void grade_linear_from_oklab(grade_lab lab, double rgb[3]) {
    const double v[3] = {lab.L, lab.a, lab.b};
    double lms[3];
    multiply(lab_to_lms, v, lms);
    for (int i = 0; i < 3; i++) lms[i] = lms[i] * lms[i] * lms[i];
    multiply(lms_to_rgb, lms, rgb);
}

static double degrees_0_360(double radians) {
    double d = radians * (180.0 / 3.14159265358979323846);
    if (d < 0.0) d += 360.0;
    return d >= 360.0 ? d - 360.0 : d;
}

void grade_hue_scale_init(grade_hue_scale *scale) {
    // Red, yellow, green, cyan, blue, magenta: the six places an HSV wheel puts at 0°, 60°, … 300°.
    static const double corners[6][3] = {{1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 1, 1}, {0, 0, 1}, {1, 0, 1}};
    for (int i = 0; i < 6; i++) {
        const grade_lab lab = grade_oklab_from_linear(corners[i]);
        scale->anchor[i] = degrees_0_360(atan2(lab.b, lab.a));
    }
    scale->anchor[6] = scale->anchor[0] + 360.0;
}

double grade_hue_from_oklab(const grade_hue_scale *scale, double oklab_degrees) {
    double h = oklab_degrees;
    if (h < scale->anchor[0]) h += 360.0;
    int i = 0;
    while (i < 5 && h >= scale->anchor[i + 1]) i++;
    const double x = 60.0 * i + 60.0 * (h - scale->anchor[i]) / (scale->anchor[i + 1] - scale->anchor[i]);
    return x >= 360.0 ? x - 360.0 : x;
}

double grade_oklab_from_hue(const grade_hue_scale *scale, double hue_degrees) {
    double x = fmod(hue_degrees, 360.0);
    if (x < 0.0) x += 360.0;
    int i = (int)(x / 60.0);
    if (i > 5) i = 5;
    const double h = scale->anchor[i] + (x - 60.0 * i) / 60.0 * (scale->anchor[i + 1] - scale->anchor[i]);
    return h >= 360.0 ? h - 360.0 : h;
}

double grade_chroma_weight(double chroma) {
    const double t = lookstudio_clamp01((chroma - 0.002) / (0.04 - 0.002));
    return t * t * (3.0 - 2.0 * t);
}

/*
 * Gamut mapping: an out-of-gamut colour moves, in linear sRGB, along the straight line to the grey of its own
 * luminance Y (Rec. 709 weights on linear values) until it fits: c' = Y + t·(c − Y), t the largest in 0…1 that
 * keeps every channel within 0…1. Luminance is kept exactly and hue closely, and since the sRGB gamut is a cube
 * in linear RGB (convex), t varies continuously with the colour. A search for the largest chroma at constant
 * Oklab L and hue was tried first: the gamut's slices in Oklab are not convex (near blue a ray grazes a face,
 * dips 1e-4 outside and comes back), so the chroma it finds jumps between neighbouring colours (32 codes at 8
 * bits, measured), which a cube would show as a seam.
 */
void grade_encode_oklab(grade_lab lab, float out[3]) {
    lab.L = lookstudio_clamp01(lab.L);
    double rgb[3];
    grade_linear_from_oklab(lab, rgb);
    const double y = lookstudio_clamp01(GRADE_LUMA_R * rgb[0] + GRADE_LUMA_G * rgb[1] + GRADE_LUMA_B * rgb[2]);
    double t = 1.0;
    for (int c = 0; c < 3; c++) {
        if (rgb[c] < 0.0 && y - rgb[c] > 0.0) t = fmin(t, y / (y - rgb[c]));
        if (rgb[c] > 1.0 && rgb[c] - y > 0.0) t = fmin(t, (1.0 - y) / (rgb[c] - y));
    }
    for (int c = 0; c < 3; c++) {
        const double fitted = t == 1.0 ? rgb[c] : y + t * (rgb[c] - y);
        out[c] = (float)lookstudio_srgb_encode(lookstudio_clamp01(fitted));
    }
}
