/*
 * The C API's own figures (scripts/bench-sdk.sh): a 24 MP 8-bit RGB apply through lookstudio_apply (best of 3,
 * all cores), and the cost of one call on a 1-pixel image — with the images made once, and made anew each call
 * as a binding that wraps each array does.
 *
 *   bench_calls CATALOG LOOK
 */
#include <lookstudio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static lookstudio_image *wrap(void *pixels, int64_t width, int64_t height) {
    lookstudio_image_desc d;
    lookstudio_image_desc_init(&d);
    d.channels = 3, d.bits = 8, d.width = width, d.height = height, d.stride = width * 3, d.pixels = pixels;
    lookstudio_image *image = NULL;
    lookstudio_image_create(&d, &image, NULL);
    return image;
}

/* Photo-like pixels: smooth gradients with ±8 codes of texture (as `lookstudio bench apply` makes them). */
static void photo_like(unsigned char *p, int width, int height) {
    unsigned int seed = 12345;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++, p += 3) {
            seed = seed * 1664525u + 1013904223u;
            int noise = (int)(seed >> 28) - 8;
            double fx = (double)x / width, fy = (double)y / height;
            int v[3] = {(int)(128 + 100 * sin(6 * fx + 2 * fy)), (int)(120 + 90 * sin(4 * fy + 3 * fx * fy)),
                        (int)(110 + 80 * cos(5 * fx - 2 * fy))};
            for (int c = 0; c < 3; c++) p[c] = (unsigned char)(v[c] + noise < 0 ? 0 : v[c] + noise > 255 ? 255 : v[c] + noise);
        }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: bench_calls CATALOG LOOK\n"); return 2; }
    lookstudio_engine_options options;
    lookstudio_engine_options_init(&options);
    options.catalog_path = argv[1];
    lookstudio_engine *engine;
    lookstudio_error *e = NULL;
    if (lookstudio_engine_open(&options, &engine, &e) != LOOKSTUDIO_OK) {
        fprintf(stderr, "%s\n", lookstudio_error_message(e));
        return 1;
    }
    lookstudio_params params;
    lookstudio_params_init(&params);
    params.look = argv[2];
    params.look_strength = 100;

    int width = 6000, height = 4000;
    unsigned char *big = malloc((size_t)width * height * 3), *out = malloc((size_t)width * height * 3);
    photo_like(big, width, height);
    lookstudio_image *in = wrap(big, width, height), *target = wrap(out, width, height);
    double best = 1e9;
    for (int i = 0; i < 4; i++) {
        double t = now();
        if (lookstudio_apply(engine, in, NULL, &params, target, &e) != LOOKSTUDIO_OK) {
            fprintf(stderr, "%s\n", lookstudio_error_message(e));
            return 1;
        }
        if (i > 0 && now() - t < best) best = now() - t;
    }
    printf("C API  lookstudio_apply 24 MP uint8 RGB, all cores, one output buffer reused: %.3f s, %.0f Mpix/s "
           "(best of 3)\n", best, width * height / 1e6 / best);
    lookstudio_image_free(in);
    lookstudio_image_free(target);

    unsigned char pixel[3] = {10, 120, 240}, result[3];
    lookstudio_image *one = wrap(pixel, 1, 1), *one_out = wrap(result, 1, 1);
    int calls = 100000;
    double t = now();
    for (int i = 0; i < calls; i++) lookstudio_apply(engine, one, NULL, &params, one_out, NULL);
    double reuse = (now() - t) / calls * 1e6;
    t = now();
    for (int i = 0; i < calls; i++) {
        lookstudio_image *a = wrap(pixel, 1, 1), *b = wrap(result, 1, 1);
        lookstudio_apply(engine, a, NULL, &params, b, NULL);
        lookstudio_image_free(a);
        lookstudio_image_free(b);
    }
    double fresh = (now() - t) / calls * 1e6;
    printf("C API  1-pixel apply: %.1f µs per call with images made once, %.1f µs making both images each call\n",
           reuse, fresh);
    lookstudio_engine_close(engine);
    return 0;
}
