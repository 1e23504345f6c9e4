/*
 * One engine, eight threads, eight looks: each thread applies a different look (and now and then detects, lists
 * the looks and reads a cube) until the time is up; every output must equal the one a single thread rendered
 * before. Run by scripts/check-sdk.sh (a few seconds), `make test-sdk-threads` (30 s) and under ThreadSanitizer by
 * `make test-sdk-tsan`.
 *
 *   threads CATALOG SECONDS
 */
#include <lookstudio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define THREADS 8
#define WIDTH 256
#define HEIGHT 192
#define BYTES (WIDTH * HEIGHT * 3)

static lookstudio_engine *engine;
static lookstudio_image *input;
static lookstudio_params params[THREADS];
static unsigned char pixels[BYTES], expected[THREADS][BYTES];
static char analysis_json[1 << 16];
static double deadline;

typedef struct { long renders, mismatches, errors; } tally;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int render(int look, unsigned char *out, lookstudio_error **e) {
    lookstudio_image_desc d;
    lookstudio_image_desc_init(&d);
    d.channels = 3, d.bits = 8, d.width = WIDTH, d.height = HEIGHT, d.stride = WIDTH * 3, d.pixels = out;
    lookstudio_image *target;
    if (lookstudio_image_create(&d, &target, e) != LOOKSTUDIO_OK) return -1;
    lookstudio_status status = lookstudio_apply(engine, input, NULL, &params[look], target, e);
    lookstudio_image_free(target);
    return status == LOOKSTUDIO_OK ? 0 : -1;
}

/* A detection on this thread, compared with the one made before the threads started. */
static int detect_matches(void) {
    lookstudio_analysis *analysis;
    if (lookstudio_detect(engine, input, &analysis, NULL) != LOOKSTUDIO_OK) return 0;
    lookstudio_analysis_info info;
    info.struct_size = sizeof info;
    lookstudio_analysis_get(analysis, &info, NULL);
    int same = strcmp(info.json, analysis_json) == 0;
    lookstudio_analysis_free(analysis);
    return same;
}

static void *work(void *arg) {
    int thread = (int)(long)arg;
    tally *t = calloc(1, sizeof *t);
    unsigned char *out = malloc(BYTES);
    float cube[9 * 9 * 9 * 3];
    for (long round = 0; now() < deadline; round++) {
        int look = (thread + round) % THREADS;
        lookstudio_error *e = NULL;
        if (render(look, out, &e) != 0) {
            if (t->errors++ == 0) fprintf(stderr, "thread %d: %s\n", thread, lookstudio_error_message(e));
            lookstudio_error_free(e);
        } else if (memcmp(out, expected[look], BYTES) != 0) {
            t->mismatches++;
        }
        t->renders++;
        if (round % 8 == 7) {
            lookstudio_looks *looks;
            if (lookstudio_looks_list(engine, NULL, &looks, NULL) != LOOKSTUDIO_OK) t->errors++;
            lookstudio_looks_free(looks);
            if (lookstudio_cube(engine, NULL, NULL, &params[look], 9, cube, 9 * 9 * 9 * 3, NULL) != LOOKSTUDIO_OK)
                t->errors++;
        }
        if (round % 32 == 31 && !detect_matches()) t->mismatches++;
    }
    free(out);
    return t;
}

/* A photo-like test image: gradients with a little texture. */
static void make_pixels(void) {
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x < WIDTH; x++) {
            unsigned char *p = pixels + (y * WIDTH + x) * 3;
            p[0] = (unsigned char)(x * 255 / (WIDTH - 1));
            p[1] = (unsigned char)(y * 255 / (HEIGHT - 1));
            p[2] = (unsigned char)((x * 7 + y * 13) % 256);
        }
}

static int setup(const char *catalog) {
    lookstudio_error *e = NULL;
    lookstudio_engine_options options;
    lookstudio_engine_options_init(&options);
    options.catalog_path = catalog;
    if (lookstudio_engine_open(&options, &engine, &e) != LOOKSTUDIO_OK) goto failed;
    make_pixels();
    lookstudio_image_desc d;
    lookstudio_image_desc_init(&d);
    d.channels = 3, d.bits = 8, d.width = WIDTH, d.height = HEIGHT, d.stride = WIDTH * 3, d.pixels = pixels;
    if (lookstudio_image_create(&d, &input, &e) != LOOKSTUDIO_OK) goto failed;
    lookstudio_looks *looks;
    if (lookstudio_looks_list(engine, NULL, &looks, &e) != LOOKSTUDIO_OK) goto failed;
    if (lookstudio_looks_count(looks) < THREADS) {
        fprintf(stderr, "threads: the catalog needs %d looks, it has %zu\n", THREADS, lookstudio_looks_count(looks));
        return -1;
    }
    static char guids[THREADS][64];
    for (int i = 0; i < THREADS; i++) {
        lookstudio_look_info info;
        info.struct_size = sizeof info;
        lookstudio_looks_get(looks, i, &info, NULL);
        snprintf(guids[i], sizeof guids[i], "%s", info.guid);
        lookstudio_params_init(&params[i]);
        params[i].look = guids[i];
        params[i].look_strength = 40 + 20 * i;
        if (render(i, expected[i], &e) != 0) goto failed;
    }
    lookstudio_looks_free(looks);
    lookstudio_analysis *analysis;
    if (lookstudio_detect(engine, input, &analysis, &e) != LOOKSTUDIO_OK) goto failed;
    lookstudio_analysis_info info;
    info.struct_size = sizeof info;
    lookstudio_analysis_get(analysis, &info, NULL);
    snprintf(analysis_json, sizeof analysis_json, "%s", info.json);
    lookstudio_analysis_free(analysis);
    return 0;
failed:
    fprintf(stderr, "threads: %s\n", lookstudio_error_message(e));
    lookstudio_error_free(e);
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: threads CATALOG SECONDS\n"); return 2; }
    if (setup(argv[1]) != 0) return 1;
    double seconds = atof(argv[2]);
    deadline = now() + seconds;
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, work, (void *)i);
    tally total = {0, 0, 0};
    for (int i = 0; i < THREADS; i++) {
        tally *t;
        pthread_join(threads[i], (void **)&t);
        total.renders += t->renders, total.mismatches += t->mismatches, total.errors += t->errors;
        free(t);
    }
    printf("threads: %d threads, %.0f s, %ld renders, %ld mismatches, %ld errors\n", THREADS, seconds, total.renders,
           total.mismatches, total.errors);
    lookstudio_image_free(input);
    lookstudio_engine_close(engine);
    return total.mismatches == 0 && total.errors == 0 && total.renders >= THREADS ? 0 : 1;
}
