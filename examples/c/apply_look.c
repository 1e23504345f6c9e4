/*
 * apply_look — a photo's pixels in memory through liblookstudio: a catalog look by GUID, or the correction after
 * one scene detection at several strengths. The PNG file is only how this example gets pixels; an app hands the
 * library whatever its own decoder made.
 *
 *   apply_look CATALOG IN.png LOOK STRENGTH OUT.png        as `lookstudio apply --look LOOK --strength STRENGTH`
 *   apply_look --correct CATALOG IN.png OUT S1 [S2 …]      detect once, then as `correct --strength S1,S2,…`,
 *                                                          writing OUT-sS1.png, OUT-sS2.png, …
 *
 * Build: cc apply_look.c $(pkg-config --cflags --libs lookstudio libpng) -o apply_look
 */
#include <lookstudio.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decoded PNG: RGB or RGBA, 8 or 16 bits (native-endian), rows back to back, and its ICC profile if any. */
typedef struct {
    png_uint_32 width, height;
    int channels, bits;
    unsigned char *pixels;
    unsigned char *icc;
    png_uint_32 icc_size;
} picture;

static int fail(const char *what, lookstudio_error *error) {
    fprintf(stderr, "apply_look: %s: %s\n", what, error ? lookstudio_error_message(error) : "failed");
    lookstudio_error_free(error);
    return 1;
}

static int read_png(const char *path, picture *p) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, NULL); fclose(file); return -1; }
    png_init_io(png, file);
    /* 16-bit samples arrive big-endian; the library takes them native-endian. */
    png_read_png(png, info, PNG_TRANSFORM_SWAP_ENDIAN, NULL);
    int type = png_get_color_type(png, info);
    p->width = png_get_image_width(png, info);
    p->height = png_get_image_height(png, info);
    p->bits = png_get_bit_depth(png, info);
    p->channels = type == PNG_COLOR_TYPE_RGB ? 3 : type == PNG_COLOR_TYPE_RGB_ALPHA ? 4 : 0;
    if (p->channels == 0 || (p->bits != 8 && p->bits != 16)) {
        fprintf(stderr, "apply_look: %s: this example reads 8- or 16-bit RGB or RGBA PNGs only\n", path);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(file);
        return -1;
    }
    size_t row = (size_t)p->width * p->channels * (p->bits / 8);
    png_bytepp rows = png_get_rows(png, info);
    p->pixels = malloc(row * p->height);
    for (png_uint_32 y = 0; y < p->height; y++) memcpy(p->pixels + y * row, rows[y], row);
    png_charp name;
    int compression;
    png_bytep profile;
    p->icc = NULL;
    p->icc_size = 0;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &p->icc_size) == PNG_INFO_iCCP) {
        p->icc = malloc(p->icc_size);
        memcpy(p->icc, profile, p->icc_size);
    }
    png_destroy_read_struct(&png, &info, NULL);
    fclose(file);
    return 0;
}

static int write_png(const char *path, const picture *p, const unsigned char *pixels) {
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    size_t row = (size_t)p->width * p->channels * (p->bits / 8);
    png_bytepp rows = malloc(sizeof(png_bytep) * p->height);
    if (setjmp(png_jmpbuf(png))) { png_destroy_write_struct(&png, &info); free(rows); fclose(file); return -1; }
    png_init_io(png, file);
    /* A profile libpng thinks dubious (an early sRGB profile, say) is written with a warning, not refused. */
    png_set_benign_errors(png, 1);
    png_set_IHDR(png, info, p->width, p->height, p->bits,
                 p->channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (p->icc) png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, p->icc, p->icc_size);
    for (png_uint_32 y = 0; y < p->height; y++) rows[y] = (png_bytep)pixels + y * row;
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_SWAP_ENDIAN, NULL);
    png_destroy_write_struct(&png, &info);
    free(rows);
    return fclose(file) == 0 ? 0 : -1;
}

/* An image over `pixels` shaped like `p` (the input carries its ICC profile; an output needs none). */
static lookstudio_status wrap(const picture *p, unsigned char *pixels, int with_icc, lookstudio_image **image,
                              lookstudio_error **error) {
    lookstudio_image_desc desc;
    lookstudio_image_desc_init(&desc);
    desc.channels = p->channels;
    desc.bits = p->bits;
    desc.width = p->width;
    desc.height = p->height;
    desc.stride = (int64_t)p->width * p->channels * (p->bits / 8);
    desc.pixels = pixels;
    desc.icc = with_icc ? p->icc : NULL;
    desc.icc_size = with_icc ? p->icc_size : 0;
    return lookstudio_image_create(&desc, image, error);
}

int main(int argc, char **argv) {
    int correct = argc > 1 && strcmp(argv[1], "--correct") == 0;
    char **arg = argv + correct;
    if ((!correct && argc != 6) || (correct && argc < 6)) {
        fprintf(stderr, "usage: apply_look CATALOG IN.png LOOK STRENGTH OUT.png\n"
                        "       apply_look --correct CATALOG IN.png OUT S1 [S2 …]\n");
        return 2;
    }
    picture p;
    if (read_png(arg[2], &p) != 0) { fprintf(stderr, "apply_look: cannot read %s\n", arg[2]); return 1; }

    lookstudio_error *error = NULL;
    lookstudio_engine_options options;
    lookstudio_engine_options_init(&options);
    options.catalog_path = arg[1];
    lookstudio_engine *engine;
    if (lookstudio_engine_open(&options, &engine, &error) != LOOKSTUDIO_OK) return fail("open", error);
    lookstudio_image *input;
    if (wrap(&p, p.pixels, 1, &input, &error) != LOOKSTUDIO_OK) return fail("input", error);

    int count = correct ? argc - 5 : 1;
    size_t bytes = (size_t)p.width * p.height * p.channels * (p.bits / 8);
    unsigned char **buffers = calloc(count, sizeof *buffers);
    lookstudio_image **outputs = calloc(count, sizeof *outputs);
    lookstudio_params *params = calloc(count, sizeof *params);
    for (int i = 0; i < count; i++) {
        buffers[i] = malloc(bytes);
        if (wrap(&p, buffers[i], 0, &outputs[i], &error) != LOOKSTUDIO_OK) return fail("output", error);
        lookstudio_params_init(&params[i]);
        if (correct) {
            params[i].strength = atof(arg[4 + i]);
        } else {
            params[i].look = arg[3];
            params[i].look_strength = atof(arg[4]);
        }
    }
    lookstudio_analysis *analysis = NULL;
    if (correct) {
        if (lookstudio_detect(engine, input, &analysis, &error) != LOOKSTUDIO_OK) return fail("detect", error);
        lookstudio_analysis_info info;
        info.struct_size = sizeof info;
        lookstudio_analysis_get(analysis, &info, NULL);
        printf("scene %d (%s), confidence %.2f, %zu faces\n", info.scene, info.scene_name, info.confidence,
               info.face_count);
    }
    if (lookstudio_apply_many(engine, input, analysis, params, outputs, count, &error) != LOOKSTUDIO_OK)
        return fail("apply", error);
    for (int i = 0; i < count; i++) {
        char path[4096];
        if (correct) snprintf(path, sizeof path, "%s-s%s.png", arg[3], arg[4 + i]);
        else snprintf(path, sizeof path, "%s", arg[5]);
        if (write_png(path, &p, buffers[i]) != 0) { fprintf(stderr, "apply_look: cannot write %s\n", path); return 1; }
        printf("wrote %s\n", path);
        lookstudio_image_free(outputs[i]);
        free(buffers[i]);
    }
    lookstudio_analysis_free(analysis);
    lookstudio_image_free(input);
    lookstudio_engine_close(engine);
    free(buffers);
    free(outputs);
    free(params);
    free(p.pixels);
    free(p.icc);
    return 0;
}
