#include "jpegshim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#define LSJPEG_MESSAGE_SIZE 256

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[LSJPEG_MESSAGE_SIZE];
} error_manager;

static void on_error(j_common_ptr c) {
    error_manager *e = (error_manager *)c->err;
    (*c->err->format_message)(c, e->message);
    longjmp(e->jump, 1);
}

/* Level −1 is a warning about the data (corrupt or truncated); trace messages (≥ 1) are ignored. */
static void on_message(j_common_ptr c, int level) {
    if (level < 0) on_error(c);
}

/* ------------------------------------------------------------------ reader */

struct lsjpeg_reader {
    struct jpeg_decompress_struct cinfo;
    error_manager err;
    FILE *file;
    int created;
    int opened;
    int started;
    uint8_t *markers;
    size_t markers_size;
};

lsjpeg_reader *lsjpeg_reader_create(void) {
    return (lsjpeg_reader *)calloc(1, sizeof(lsjpeg_reader));
}

static int reader_fail(lsjpeg_reader *r, int status, const char *msg) {
    snprintf(r->err.message, sizeof r->err.message, "%s", msg);
    return status;
}

/* Copies the saved APP1/APP2 segments into one byte string that looks like the start of a JPEG. */
static int collect_markers(lsjpeg_reader *r) {
    size_t total = 2;
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m != NULL; m = m->next) total += 4 + m->data_length;
    r->markers = (uint8_t *)malloc(total);
    if (r->markers == NULL) return 0;
    uint8_t *p = r->markers;
    *p++ = 0xFF;
    *p++ = 0xD8;
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m != NULL; m = m->next) {
        size_t length = m->data_length + 2;
        *p++ = 0xFF;
        *p++ = (uint8_t)m->marker;
        *p++ = (uint8_t)(length >> 8);
        *p++ = (uint8_t)length;
        memcpy(p, m->data, m->data_length);
        p += m->data_length;
    }
    r->markers_size = total;
    return 1;
}

static int reader_open(lsjpeg_reader *r, const uint8_t *data, size_t size) {
    if (r->created) return reader_fail(r, LSJPEG_ERR_USAGE, "reader already used");
    r->cinfo.err = jpeg_std_error(&r->err.base);
    r->err.base.error_exit = on_error;
    r->err.base.emit_message = on_message;
    if (setjmp(r->err.jump)) return LSJPEG_ERR_LIBJPEG;
    jpeg_create_decompress(&r->cinfo);
    r->created = 1;
    if (r->file != NULL) {
        jpeg_stdio_src(&r->cinfo, r->file);
    } else {
        jpeg_mem_src(&r->cinfo, data, (unsigned long)size);
    }
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&r->cinfo, TRUE);
    if (!collect_markers(r)) return reader_fail(r, LSJPEG_ERR_NOMEM, "out of memory for the JPEG's metadata");
    r->opened = 1;
    return LSJPEG_OK;
}

int lsjpeg_reader_quant_table(const lsjpeg_reader *r, int index, uint16_t out[64]) {
    if (!r->opened || index < 0 || index >= NUM_QUANT_TBLS) return 0;
    const JQUANT_TBL *table = r->cinfo.quant_tbl_ptrs[index];
    if (table == NULL) return 0;
    for (int i = 0; i < DCTSIZE2; i++) out[i] = table->quantval[i];
    return 1;
}

int lsjpeg_reader_is_cmyk(const lsjpeg_reader *r) {
    return r->opened && (r->cinfo.jpeg_color_space == JCS_CMYK || r->cinfo.jpeg_color_space == JCS_YCCK);
}

int lsjpeg_reader_is_grey(const lsjpeg_reader *r) {
    return r->opened && r->cinfo.jpeg_color_space == JCS_GRAYSCALE;
}

int lsjpeg_reader_compression(const lsjpeg_reader *r, uint16_t tables[128], int *h, int *v) {
    if (!r->opened || r->cinfo.num_components != 3 || r->cinfo.jpeg_color_space != JCS_YCbCr) return 0;
    const jpeg_component_info *c = r->cinfo.comp_info;
    if (c[1].quant_tbl_no != c[2].quant_tbl_no || c[1].h_samp_factor != c[2].h_samp_factor ||
        c[1].v_samp_factor != c[2].v_samp_factor || c[1].h_samp_factor != 1 || c[1].v_samp_factor != 1) return 0;
    if (c[0].h_samp_factor < 1 || c[0].h_samp_factor > 2 || c[0].v_samp_factor < 1 || c[0].v_samp_factor > 2) {
        return 0;
    }
    if (!lsjpeg_reader_quant_table(r, c[0].quant_tbl_no, tables)) return 0;
    if (!lsjpeg_reader_quant_table(r, c[1].quant_tbl_no, tables + 64)) return 0;
    *h = c[0].h_samp_factor;
    *v = c[0].v_samp_factor;
    return 1;
}

int lsjpeg_reader_open_file(lsjpeg_reader *r, const char *path) {
    if (r->created || r->file != NULL) return reader_fail(r, LSJPEG_ERR_USAGE, "reader already used");
    r->file = fopen(path, "rb");
    if (r->file == NULL) return reader_fail(r, LSJPEG_ERR_OPEN, strerror(errno));
    return reader_open(r, NULL, 0);
}

int lsjpeg_reader_open_memory(lsjpeg_reader *r, const uint8_t *data, size_t size) {
    if (size == 0) return reader_fail(r, LSJPEG_ERR_LIBJPEG, "empty JPEG data");
    return reader_open(r, data, size);
}

void lsjpeg_reader_size(const lsjpeg_reader *r, uint32_t *width, uint32_t *height) {
    *width = r->opened ? r->cinfo.image_width : 0;
    *height = r->opened ? r->cinfo.image_height : 0;
}

const uint8_t *lsjpeg_reader_markers(const lsjpeg_reader *r, size_t *size) {
    *size = r->markers_size;
    return r->markers;
}

int lsjpeg_reader_start(lsjpeg_reader *r, int denominator, uint32_t *width, uint32_t *height) {
    if (!r->opened || r->started) return reader_fail(r, LSJPEG_ERR_USAGE, "start on a reader not open");
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        return reader_fail(r, LSJPEG_ERR_USAGE, "scale denominator must be 1, 2, 4 or 8");
    }
    if (setjmp(r->err.jump)) return LSJPEG_ERR_LIBJPEG;
    r->cinfo.out_color_space = JCS_RGB;
    r->cinfo.dct_method = JDCT_ISLOW;
    r->cinfo.scale_num = 1;
    r->cinfo.scale_denom = (unsigned)denominator;
    jpeg_start_decompress(&r->cinfo);
    if (r->cinfo.output_components != 3) {
        return reader_fail(r, LSJPEG_ERR_LIBJPEG, "the JPEG's colour space cannot be converted to RGB");
    }
    r->started = 1;
    *width = r->cinfo.output_width;
    *height = r->cinfo.output_height;
    return LSJPEG_OK;
}

int lsjpeg_reader_read_rows(lsjpeg_reader *r, uint8_t *dst, uint32_t count) {
    if (!r->started) return reader_fail(r, LSJPEG_ERR_USAGE, "read_rows before start");
    if (count > r->cinfo.output_height - r->cinfo.output_scanline) {
        return reader_fail(r, LSJPEG_ERR_USAGE, "more rows requested than the image has left");
    }
    if (setjmp(r->err.jump)) return LSJPEG_ERR_LIBJPEG;
    size_t stride = (size_t)r->cinfo.output_width * 3;
    uint32_t done = 0;
    while (done < count) {
        JSAMPROW rows[16];
        uint32_t n = count - done < 16 ? count - done : 16;
        for (uint32_t i = 0; i < n; i++) rows[i] = dst + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&r->cinfo, rows, n);
        if (got == 0) return reader_fail(r, LSJPEG_ERR_LIBJPEG, "the JPEG data ended early");
        done += got;
    }
    return LSJPEG_OK;
}

const char *lsjpeg_reader_message(const lsjpeg_reader *r) {
    return r->err.message;
}

void lsjpeg_reader_destroy(lsjpeg_reader *r) {
    if (r == NULL) return;
    /* jpeg_destroy cannot fail, but the error manager must point somewhere valid while it runs. */
    if (r->created && setjmp(r->err.jump) == 0) jpeg_destroy_decompress(&r->cinfo);
    if (r->file != NULL) fclose(r->file);
    free(r->markers);
    free(r);
}

/* ------------------------------------------------------------------ writer */

struct lsjpeg_writer {
    struct jpeg_compress_struct cinfo;
    error_manager err;
    FILE *file;
    unsigned char *memory;
    unsigned long memory_size;
    int created;
    int opened;
    int finished;
    int failed;
    int io_error;
    uint32_t rows_done;
};

lsjpeg_writer *lsjpeg_writer_create(void) {
    return (lsjpeg_writer *)calloc(1, sizeof(lsjpeg_writer));
}

static int writer_fail(lsjpeg_writer *w, int status, const char *msg) {
    snprintf(w->err.message, sizeof w->err.message, "%s", msg);
    if (status != LSJPEG_ERR_USAGE) w->failed = 1;
    return status;
}

static int writer_jumped(lsjpeg_writer *w) {
    w->failed = 1;
    if (w->file != NULL && ferror(w->file)) {
        snprintf(w->err.message, sizeof w->err.message, "%s", strerror(errno != 0 ? errno : EIO));
        return LSJPEG_ERR_WRITE;
    }
    return LSJPEG_ERR_LIBJPEG;
}

/* With `tables` (luma, chroma) the file's own quantisation and luma sampling `h`, `v`; else `quality`'s. */
static int writer_open(lsjpeg_writer *w, const char *path, uint32_t width, uint32_t height, int channels,
                       int quality, const uint16_t *tables, int h, int v, const uint8_t *icc, size_t icc_length) {
    if (w->created) return writer_fail(w, LSJPEG_ERR_USAGE, "writer already used");
    if (width == 0 || height == 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        return writer_fail(w, LSJPEG_ERR_USAGE, "JPEG width and height must be 1 to 65500");
    }
    if (channels != 3 && channels != 4) return writer_fail(w, LSJPEG_ERR_USAGE, "only RGB or RGBA can be written");
    if (path != NULL) {
        w->file = fopen(path, "wb");
        if (w->file == NULL) return writer_fail(w, LSJPEG_ERR_OPEN, strerror(errno));
    }
    w->cinfo.err = jpeg_std_error(&w->err.base);
    w->err.base.error_exit = on_error;
    w->err.base.emit_message = on_message;
    if (setjmp(w->err.jump)) return writer_jumped(w);
    jpeg_create_compress(&w->cinfo);
    w->created = 1;
    if (w->file != NULL) {
        jpeg_stdio_dest(&w->cinfo, w->file);
    } else {
        jpeg_mem_dest(&w->cinfo, &w->memory, &w->memory_size);
    }
    w->cinfo.image_width = width;
    w->cinfo.image_height = height;
    w->cinfo.input_components = channels;
    w->cinfo.in_color_space = channels == 4 ? JCS_EXT_RGBX : JCS_RGB;
    jpeg_set_defaults(&w->cinfo);
    w->cinfo.dct_method = JDCT_ISLOW;
    if (tables != NULL) {
        for (int t = 0; t < 2; t++) {
            unsigned int basic[DCTSIZE2];
            for (int i = 0; i < DCTSIZE2; i++) basic[i] = tables[64 * t + i];
            jpeg_add_quant_table(&w->cinfo, t, basic, 100, FALSE);
        }
        w->cinfo.comp_info[0].h_samp_factor = h;
        w->cinfo.comp_info[0].v_samp_factor = v;
    } else {
        jpeg_set_quality(&w->cinfo, quality, TRUE);
        /* Without a choice, ImageMagick's rule, as TurboJPEG was called before: full-resolution chroma at high
         * quality. */
        int sub = quality >= 90 ? 1 : 2;
        w->cinfo.comp_info[0].h_samp_factor = h > 0 ? h : sub;
        w->cinfo.comp_info[0].v_samp_factor = v > 0 ? v : sub;
    }
    for (int c = 1; c < 3; c++) {
        w->cinfo.comp_info[c].h_samp_factor = 1;
        w->cinfo.comp_info[c].v_samp_factor = 1;
    }
    jpeg_start_compress(&w->cinfo, TRUE);
    if (icc != NULL && icc_length > 0) jpeg_write_icc_profile(&w->cinfo, icc, (unsigned)icc_length);
    w->opened = 1;
    return LSJPEG_OK;
}

int lsjpeg_writer_open(lsjpeg_writer *w, const char *path, uint32_t width, uint32_t height, int channels,
                       int quality, int h, int v, const uint8_t *icc, size_t icc_length) {
    if (quality < 1 || quality > 100) return writer_fail(w, LSJPEG_ERR_USAGE, "quality must be 1 to 100");
    if (h < 0 || h > 2 || v < 0 || v > 2 || (h == 0) != (v == 0)) {
        return writer_fail(w, LSJPEG_ERR_USAGE, "sampling factors must be 1 or 2, or both 0");
    }
    return writer_open(w, path, width, height, channels, quality, NULL, h, v, icc, icc_length);
}

int lsjpeg_writer_open_tables(lsjpeg_writer *w, const char *path, uint32_t width, uint32_t height, int channels,
                              const uint16_t tables[128], int h, int v) {
    if (h < 1 || h > 2 || v < 1 || v > 2) return writer_fail(w, LSJPEG_ERR_USAGE, "sampling factors must be 1 or 2");
    for (int i = 0; i < 128; i++) {
        if (tables[i] == 0) return writer_fail(w, LSJPEG_ERR_USAGE, "a quantisation step of 0");
    }
    return writer_open(w, path, width, height, channels, 0, tables, h, v, NULL, 0);
}

int lsjpeg_writer_write_rows(lsjpeg_writer *w, const uint8_t *rows, uint32_t count) {
    if (w->failed) return LSJPEG_ERR_LIBJPEG;
    if (!w->opened || w->finished) return writer_fail(w, LSJPEG_ERR_USAGE, "write_rows on a writer not open");
    if (count > w->cinfo.image_height - w->rows_done) {
        return writer_fail(w, LSJPEG_ERR_USAGE, "more rows written than the image has");
    }
    if (setjmp(w->err.jump)) return writer_jumped(w);
    size_t stride = (size_t)w->cinfo.image_width * (size_t)w->cinfo.input_components;
    uint32_t done = 0;
    while (done < count) {
        JSAMPROW list[16];
        uint32_t n = count - done < 16 ? count - done : 16;
        /* libjpeg takes non-const rows but only reads them. */
        for (uint32_t i = 0; i < n; i++) list[i] = (JSAMPROW)(rows + (size_t)(done + i) * stride);
        done += jpeg_write_scanlines(&w->cinfo, list, n);
    }
    w->rows_done += count;
    return LSJPEG_OK;
}

int lsjpeg_writer_finish(lsjpeg_writer *w) {
    if (w->failed) return LSJPEG_ERR_LIBJPEG;
    if (!w->opened || w->finished) return writer_fail(w, LSJPEG_ERR_USAGE, "finish on a writer not open");
    if (w->rows_done != w->cinfo.image_height) {
        return writer_fail(w, LSJPEG_ERR_USAGE, "not every row was written");
    }
    if (setjmp(w->err.jump)) return writer_jumped(w);
    jpeg_finish_compress(&w->cinfo);
    if (w->file != NULL) {
        FILE *file = w->file;
        w->file = NULL;
        int flushed = fflush(file) == 0 && !ferror(file);
        if (fclose(file) != 0 || !flushed) return writer_fail(w, LSJPEG_ERR_WRITE, strerror(errno != 0 ? errno : EIO));
    }
    w->finished = 1;
    return LSJPEG_OK;
}

const uint8_t *lsjpeg_writer_data(const lsjpeg_writer *w, size_t *size) {
    *size = w->finished ? (size_t)w->memory_size : 0;
    return w->finished ? w->memory : NULL;
}

const char *lsjpeg_writer_message(const lsjpeg_writer *w) {
    return w->err.message;
}

void lsjpeg_writer_destroy(lsjpeg_writer *w) {
    if (w == NULL) return;
    if (w->created && setjmp(w->err.jump) == 0) jpeg_destroy_compress(&w->cinfo);
    if (w->file != NULL) fclose(w->file);
    free(w->memory);
    free(w);
}
