/*
 * Bad input through the C API: every call below is wrong in one way and must return the documented status with a
 * message that names the problem — never crash, never succeed. Run by scripts/check-sdk.sh.
 *
 *   abi_check CATALOG
 */
#include <lookstudio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

/* Checks one call's status and the error it stored in `*slot` (read here, after the call: argument evaluation
   order would not guarantee that); frees the error. */
static void expect(const char *what, lookstudio_status status, lookstudio_error **slot, lookstudio_status wanted,
                   const char *needle) {
    lookstudio_error *error = *slot;
    *slot = NULL;
    const char *message = lookstudio_error_message(error);
    int ok = status == wanted && error != NULL && lookstudio_error_status(error) == wanted && message[0] != '\0'
             && (needle == NULL || strstr(message, needle) != NULL);
    printf("%s %-44s status %d: %s\n", ok ? "ok  " : "FAIL", what, status, message);
    failures += !ok;
    lookstudio_error_free(error);
}

static void image_desc(lookstudio_image_desc *d, void *pixels, int64_t width, int64_t height) {
    lookstudio_image_desc_init(d);
    d->channels = 3;
    d->bits = 8;
    d->width = width;
    d->height = height;
    d->stride = width * 3;
    d->pixels = pixels;
}

static void bad_images(void) {
    static unsigned char pixels[4096];
    lookstudio_image *image = NULL;
    lookstudio_error *e = NULL;
    lookstudio_image_desc d;
    image_desc(&d, pixels, 0, 4);
    expect("width 0", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "width 0");
    image_desc(&d, pixels, 4, -2);
    expect("height -2", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "height -2");
    image_desc(&d, pixels, 8, 4);
    d.stride = 23;
    expect("stride smaller than a row", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "stride 23");
    image_desc(&d, NULL, 4, 4);
    expect("pixels NULL", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "NULL");
    image_desc(&d, pixels, 4, 4);
    d.channels = 2;
    expect("2 channels", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "channels");
    image_desc(&d, pixels, 4, 4);
    d.bits = 12;
    expect("12 bits", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "12 bits");
    image_desc(&d, pixels, 4, 4);
    d.struct_size = 8;
    expect("struct_size too small", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "struct_size");
    image_desc(&d, pixels, 4, 4);
    d.icc = pixels;
    d.icc_size = 300;
    expect("damaged ICC profile", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "ICC");
    image_desc(&d, pixels, 4, 4);
    d.icc_size = 10;
    expect("icc NULL with a size", lookstudio_image_create(&d, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "icc");
    image_desc(&d, pixels, INT64_MAX / 2, 4);
    d.stride = INT64_MAX;
    expect("sizes past the address space", lookstudio_image_create(&d, &image, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "fit");
    expect("desc NULL", lookstudio_image_create(NULL, &image, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "NULL");
    image_desc(&d, pixels, 4, 4);
    expect("out pointer NULL", lookstudio_image_create(&d, NULL, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT, "NULL");
    if (image != NULL) { printf("FAIL an image was made\n"); failures++; }
}

static void bad_calls(lookstudio_engine *engine) {
    static unsigned char pixels[4 * 4 * 3], other[8 * 4 * 3];
    lookstudio_error *e = NULL;
    lookstudio_image_desc d;
    lookstudio_image *input, *wide;
    image_desc(&d, pixels, 4, 4);
    lookstudio_image_create(&d, &input, NULL);
    image_desc(&d, other, 8, 4);
    lookstudio_image_create(&d, &wide, NULL);
    lookstudio_params p;
    lookstudio_params_init(&p);
    p.look = "no-such-look";
    expect("unknown GUID", lookstudio_apply(engine, input, NULL, &p, input, &e), &e, LOOKSTUDIO_NOT_FOUND,
           "no-such-look");
    lookstudio_params_init(&p);
    p.look = "Cyanotype";
    p.look_strength = 250;
    expect("look strength 250", lookstudio_apply(engine, input, NULL, &p, input, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "250");
    p.look_strength = 100;
    p.output_space = 9;
    expect("output space 9", lookstudio_apply(engine, input, NULL, &p, input, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "output_space");
    p.output_space = LOOKSTUDIO_OUTPUT_KEEP;
    p.auto_correct = LOOKSTUDIO_AUTO_ON;
    expect("auto on without analysis", lookstudio_apply(engine, input, NULL, &p, input, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "analysis");
    p.auto_correct = LOOKSTUDIO_AUTO_OFF;
    expect("output of another size", lookstudio_apply(engine, input, NULL, &p, wide, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "must match");
    expect("engine NULL", lookstudio_apply(NULL, input, NULL, &p, input, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "engine");
    expect("params NULL", lookstudio_apply(engine, input, NULL, NULL, input, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "lookstudio_params");
    expect("an image passed as the engine", lookstudio_apply((lookstudio_engine *)input, input, NULL, &p, input, &e),
           &e, LOOKSTUDIO_INVALID_ARGUMENT, "not a live lookstudio_engine");
    float cube[24];
    expect("cube count wrong", lookstudio_cube(engine, NULL, NULL, &p, 3, cube, 24, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "81");
    expect("cube size 1", lookstudio_cube(engine, NULL, NULL, &p, 1, cube, 3, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "size 1");
    lookstudio_looks *looks = NULL;
    expect("look reference NULL", lookstudio_look_find(engine, NULL, &looks, &e), &e, LOOKSTUDIO_INVALID_ARGUMENT,
           "reference");
    lookstudio_looks_list(engine, NULL, &looks, NULL);
    lookstudio_look_info info;
    info.struct_size = sizeof info;
    expect("look index past the end", lookstudio_looks_get(looks, 100000, &info, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "100000");
    lookstudio_looks_free(looks);
    lookstudio_analysis *analysis = NULL;
    expect("detect a missing file", lookstudio_detect_file(engine, "/nonexistent/photo.png", &analysis, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "/nonexistent/photo.png");
    /* Without an error pointer the status alone reports the failure. */
    lookstudio_status alone = lookstudio_apply(engine, NULL, NULL, &p, input, NULL);
    if (alone != LOOKSTUDIO_INVALID_ARGUMENT) { printf("FAIL status without error pointer: %d\n", alone); failures++; }
    lookstudio_image_free(input);
    lookstudio_image_free(wide);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: abi_check CATALOG\n"); return 2; }
    if (lookstudio_abi_version() != LOOKSTUDIO_ABI_VERSION) { printf("FAIL ABI version\n"); return 1; }
    lookstudio_error *e = NULL;
    lookstudio_engine *engine = NULL;
    lookstudio_engine_options options;
    lookstudio_engine_options_init(&options);
    options.catalog_path = "/dev/null/not-a-folder/catalog.sqlite";
    expect("catalog in a path that cannot exist", lookstudio_engine_open(&options, &engine, &e), &e,
           LOOKSTUDIO_INVALID_ARGUMENT, "not-a-folder");
    char damaged[4096];
    snprintf(damaged, sizeof damaged, "%s.damaged", argv[1]);
    FILE *f = fopen(damaged, "wb");
    for (int i = 0; i < 4096; i++) fputc(i * 7, f);
    fclose(f);
    options.catalog_path = damaged;
    expect("damaged catalog", lookstudio_engine_open(&options, &engine, &e), &e, LOOKSTUDIO_CATALOG_BROKEN, "damaged");
    remove(damaged);
    bad_images();
    options.catalog_path = argv[1];
    if (lookstudio_engine_open(&options, &engine, &e) != LOOKSTUDIO_OK) {
        printf("FAIL open %s: %s\n", argv[1], lookstudio_error_message(e));
        return 1;
    }
    bad_calls(engine);
    /* The free functions take NULL, and an error's accessors take NULL. */
    lookstudio_image_free(NULL);
    lookstudio_analysis_free(NULL);
    lookstudio_looks_free(NULL);
    lookstudio_error_free(NULL);
    if (lookstudio_error_message(NULL)[0] != '\0' || lookstudio_error_status(NULL) != LOOKSTUDIO_INVALID_ARGUMENT) {
        printf("FAIL NULL error accessors\n");
        failures++;
    }
    lookstudio_engine_close(engine);
    lookstudio_engine_close(NULL);
    printf("abi_check: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
