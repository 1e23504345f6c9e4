#include "pngshim.h"
#include "pngdeflate.h"

#include <png.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LSPNG_MESSAGE_SIZE 256

/* libpng reports through these; the error pointer is the owner's message buffer. */
static void on_error(png_structp png, png_const_charp msg) {
    char *buffer = (char *)png_get_error_ptr(png);
    if (buffer != NULL) snprintf(buffer, LSPNG_MESSAGE_SIZE, "%s", msg);
    png_longjmp(png, 1);
}

/* Warnings (e.g. a known-bad sRGB profile) do not change the samples we return, so they are not printed; the last one
 * is kept in the owner's message buffer (read only after a failure, which overwrites it), so a reader can say why
 * libpng dropped an iCCP chunk. */
static void on_warning(png_structp png, png_const_charp msg) {
    char *buffer = (char *)png_get_error_ptr(png);
    if (buffer != NULL) snprintf(buffer, LSPNG_MESSAGE_SIZE, "%s", msg);
}

static int is_little_endian(void) {
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

/* Text chunks carry nothing we use. Each name is 4 letters plus its NUL. The colour chunks are read, but only as
 * metadata: libpng changes samples for them only when asked to (png_set_gamma, png_set_alpha_mode), which this shim
 * never does, so a cube PNG stays data. */
static const png_byte ignored_chunks[] = "tEXt\0zTXt\0iTXt";
static const int ignored_chunk_count = 3;

/* Which colour chunks the file itself holds. libpng's "valid" bits describe its colour model instead (an sRGB chunk
 * also makes gAMA and cHRM valid), so the reader watches the chunk headers go by to report only what is stored. */
enum {
    SEEN_iCCP = 1,
    SEEN_sRGB = 2,
    SEEN_gAMA = 4,
    SEEN_cHRM = 8
};

/* ---------------------------------------------------------------- reader */

struct lspng_reader {
    char message[LSPNG_MESSAGE_SIZE];
    png_structp png;
    png_infop info;
    FILE *file;
    uint8_t *memory;
    size_t memory_size;
    size_t memory_pos;
    lspng_info header;
    size_t row_bytes;
    uint32_t rows_done;
    uint8_t *whole;      /* interlaced images only */
    png_bytepp whole_rows;
    lspng_color color;
    char iccp_problem[LSPNG_MESSAGE_SIZE];
    int walking;         /* chunk headers are still being watched (until IDAT) */
    uint8_t chunk_head[8];
    int chunk_head_fill;
    uint64_t chunk_skip; /* data and CRC bytes left in the current chunk */
    unsigned seen;       /* SEEN_* bits */
    int opened;
    int started;
    int failed;
};

static int reader_fail(lspng_reader *r, int status, const char *msg) {
    snprintf(r->message, sizeof r->message, "%s", msg);
    if (status != LSPNG_ERR_USAGE) r->failed = 1;
    return status;
}

/* Follows the chunk layout (length, type, data, CRC) through the bytes libpng reads, which arrive in file order. */
static void watch_chunks(lspng_reader *r, const uint8_t *p, size_t n) {
    while (n > 0 && r->walking) {
        if (r->chunk_skip > 0) {
            size_t k = r->chunk_skip < n ? (size_t)r->chunk_skip : n;
            r->chunk_skip -= k;
            p += k;
            n -= k;
            continue;
        }
        r->chunk_head[r->chunk_head_fill++] = *p++;
        n--;
        if (r->chunk_head_fill < 8) continue;
        r->chunk_head_fill = 0;
        const uint8_t *h = r->chunk_head;
        const char *type = (const char *)h + 4;
        if (memcmp(type, "IDAT", 4) == 0) {
            r->walking = 0;
            break;
        }
        if (memcmp(type, "iCCP", 4) == 0) r->seen |= SEEN_iCCP;
        else if (memcmp(type, "sRGB", 4) == 0) r->seen |= SEEN_sRGB;
        else if (memcmp(type, "gAMA", 4) == 0) r->seen |= SEEN_gAMA;
        else if (memcmp(type, "cHRM", 4) == 0) r->seen |= SEEN_cHRM;
        uint32_t length = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3];
        r->chunk_skip = (uint64_t)length + 4;
    }
}

static void read_from_file(png_structp png, png_bytep out, size_t n) {
    lspng_reader *r = (lspng_reader *)png_get_io_ptr(png);
    if (fread(out, 1, n, r->file) != n) {
        png_error(png, ferror(r->file) ? "read error" : "unexpected end of file");
    }
    watch_chunks(r, out, n);
}

static void read_from_memory(png_structp png, png_bytep out, size_t n) {
    lspng_reader *r = (lspng_reader *)png_get_io_ptr(png);
    if (n > r->memory_size - r->memory_pos) png_error(png, "unexpected end of data");
    memcpy(out, r->memory + r->memory_pos, n);
    r->memory_pos += n;
    watch_chunks(r, out, n);
}

lspng_reader *lspng_reader_create(void) {
    return (lspng_reader *)calloc(1, sizeof(lspng_reader));
}

/* Reports the colour chunks the file holds and libpng accepted; a chunk libpng refused (a malformed profile, a gAMA
 * contradicting sRGB) was only warned about while reading and is simply absent here. */
static void reader_collect_color(lspng_reader *r) {
    lspng_color *c = &r->color;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if ((r->seen & SEEN_iCCP) != 0
        && png_get_iCCP(r->png, r->info, &name, &compression, &profile, &length) != 0
        && name != NULL && profile != NULL && length > 0) {
        c->has_iccp = 1;
        c->iccp_name = name;
        c->iccp_profile = profile;
        c->iccp_length = length;
    } else if ((r->seen & SEEN_iCCP) != 0) {
        /* libpng refused the profile (too long, damaged, inconsistent) and only warned: say so, with its reason. */
        snprintf(r->iccp_problem, sizeof r->iccp_problem, "%s", r->message[0] != 0 ? r->message : "refused");
        c->iccp_problem = r->iccp_problem;
    }
    int intent = 0;
    if ((r->seen & SEEN_sRGB) != 0 && png_get_sRGB(r->png, r->info, &intent) != 0) {
        c->has_srgb = 1;
        c->srgb_intent = intent;
    }
    png_fixed_point gamma = 0;
    if ((r->seen & SEEN_gAMA) != 0 && png_get_gAMA_fixed(r->png, r->info, &gamma) != 0) {
        c->has_gama = 1;
        c->gama = gamma;
    }
    png_fixed_point x[8];
    if ((r->seen & SEEN_cHRM) != 0
        && png_get_cHRM_fixed(r->png, r->info, &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7]) != 0) {
        c->has_chrm = 1;
        for (int i = 0; i < 8; i++) c->chrm[i] = x[i];
    }
}

/* Reads IHDR and the chunks up to the image data; the signature has already been consumed and checked. */
static int reader_read_header(lspng_reader *r, png_rw_ptr read_fn) {
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r->message, on_error, on_warning);
    if (r->png == NULL) return reader_fail(r, LSPNG_ERR_NOMEM, "cannot create a libpng reader");
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL) return reader_fail(r, LSPNG_ERR_NOMEM, "cannot create a libpng info structure");
    if (setjmp(png_jmpbuf(r->png))) {
        r->failed = 1;
        return LSPNG_ERR_LIBPNG;
    }
    png_set_read_fn(r->png, r, read_fn);
    png_set_sig_bytes(r->png, 8);
    /* Metadata must never fail an image: libpng's complaints about colour chunks become warnings (its default for
     * reading, made explicit). */
    png_set_benign_errors(r->png, 1);
    r->walking = 1;
    /* The caller's pixel limit is the guard against huge images; libpng's own 1M×1M default would refuse wide
     * but legitimate panoramas. */
    png_set_user_limits(r->png, 0x7fffffff, 0x7fffffff);
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks, ignored_chunk_count);
    png_read_info(r->png, r->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(r->png, r->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    int has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0;
    r->header.width = width;
    r->header.height = height;
    r->header.source_bit_depth = bit_depth;
    r->header.source_color_type = color_type;
    r->header.has_trns = has_trns && !has_alpha;
    r->header.interlaced = interlace != PNG_INTERLACE_NONE;
    r->header.channels = (has_alpha || r->header.has_trns) ? 4 : 3;
    r->header.depth = bit_depth == 16 ? 16 : 8;
    reader_collect_color(r);
    r->opened = 1;
    return LSPNG_OK;
}

static int signature_ok(const uint8_t *bytes, size_t n) {
    return n >= 8 && png_sig_cmp(bytes, 0, 8) == 0;
}

int lspng_reader_open_file(lspng_reader *r, const char *path) {
    if (r->opened || r->failed) return reader_fail(r, LSPNG_ERR_USAGE, "reader already used");
    r->file = fopen(path, "rb");
    if (r->file == NULL) return reader_fail(r, LSPNG_ERR_OPEN, strerror(errno));
    uint8_t signature[8];
    size_t got = fread(signature, 1, 8, r->file);
    if (!signature_ok(signature, got)) {
        if (got < 8 && ferror(r->file)) return reader_fail(r, LSPNG_ERR_OPEN, strerror(errno));
        return reader_fail(r, LSPNG_ERR_NOT_PNG, "not a PNG file");
    }
    return reader_read_header(r, read_from_file);
}

int lspng_reader_open_memory(lspng_reader *r, const uint8_t *data, size_t size) {
    if (r->opened || r->failed) return reader_fail(r, LSPNG_ERR_USAGE, "reader already used");
    if (!signature_ok(data, size)) return reader_fail(r, LSPNG_ERR_NOT_PNG, "not a PNG file");
    r->memory = (uint8_t *)malloc(size);
    if (r->memory == NULL) return reader_fail(r, LSPNG_ERR_NOMEM, "out of memory copying the PNG data");
    memcpy(r->memory, data, size);
    r->memory_size = size;
    r->memory_pos = 8;
    return reader_read_header(r, read_from_memory);
}

lspng_info lspng_reader_info(const lspng_reader *r) {
    return r->header;
}

lspng_color lspng_reader_color(const lspng_reader *r) {
    return r->color;
}

int lspng_reader_start(lspng_reader *r) {
    if (!r->opened || r->started) return reader_fail(r, LSPNG_ERR_USAGE, "start needs a freshly opened reader");
    if (r->failed) return LSPNG_ERR_LIBPNG;
    if (setjmp(png_jmpbuf(r->png))) {
        r->failed = 1;
        return LSPNG_ERR_LIBPNG;
    }
    int color_type = r->header.source_color_type;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && r->header.source_bit_depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if (r->header.has_trns) png_set_tRNS_to_alpha(r->png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(r->png);
    if (r->header.depth == 16 && is_little_endian()) png_set_swap(r->png);
    if (r->header.interlaced) (void)png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    r->row_bytes = png_get_rowbytes(r->png, r->info);
    if (png_get_channels(r->png, r->info) != r->header.channels
        || png_get_bit_depth(r->png, r->info) != r->header.depth) {
        return reader_fail(r, LSPNG_ERR_LIBPNG, "libpng did not convert the image to RGB(A) as requested");
    }
    r->started = 1;
    return LSPNG_OK;
}

size_t lspng_reader_row_bytes(const lspng_reader *r) {
    return r->row_bytes;
}

int lspng_reader_read_rows(lspng_reader *r, void *dst, uint32_t count) {
    if (r->failed) return LSPNG_ERR_LIBPNG;
    if (!r->started) return reader_fail(r, LSPNG_ERR_USAGE, "read_rows before start");
    if (count > r->header.height - r->rows_done) return reader_fail(r, LSPNG_ERR_USAGE, "more rows requested than remain");
    if (setjmp(png_jmpbuf(r->png))) {
        r->failed = 1;
        return LSPNG_ERR_LIBPNG;
    }
    if (r->header.interlaced) {
        if (r->whole == NULL) {
            uint32_t height = r->header.height;
            if (r->row_bytes > SIZE_MAX / height) return reader_fail(r, LSPNG_ERR_NOMEM, "image too large for memory");
            r->whole = (uint8_t *)malloc(r->row_bytes * height);
            r->whole_rows = (png_bytepp)malloc(sizeof(png_bytep) * height);
            if (r->whole == NULL || r->whole_rows == NULL) {
                return reader_fail(r, LSPNG_ERR_NOMEM, "out of memory decoding an interlaced image");
            }
            for (uint32_t y = 0; y < height; y++) r->whole_rows[y] = r->whole + (size_t)y * r->row_bytes;
            png_read_image(r->png, r->whole_rows);
        }
        memcpy(dst, r->whole + (size_t)r->rows_done * r->row_bytes, (size_t)count * r->row_bytes);
    } else {
        png_bytep out = (png_bytep)dst;
        for (uint32_t i = 0; i < count; i++) png_read_row(r->png, out + (size_t)i * r->row_bytes, NULL);
    }
    /* The chunks after the last row (IEND, trailing text) are not read: they cannot change the pixels, and a file
     * whose trailer was cut off still holds a complete image. */
    r->rows_done += count;
    return LSPNG_OK;
}

const char *lspng_reader_message(const lspng_reader *r) {
    return r->message;
}

void lspng_reader_destroy(lspng_reader *r) {
    if (r == NULL) return;
    if (r->png != NULL) png_destroy_read_struct(&r->png, r->info != NULL ? &r->info : NULL, NULL);
    if (r->file != NULL) fclose(r->file);
    free(r->memory);
    free(r->whole);
    free(r->whole_rows);
    free(r);
}

/* ---------------------------------------------------------------- writer */

struct lspng_writer {
    char message[LSPNG_MESSAGE_SIZE];
    png_structp png;
    png_infop info;
    FILE *file;
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    lspng_write_params params;
    lspng_deflater *deflater;  /* filters and deflates the image data on every core; libpng writes the rest */
    size_t row_bytes;
    uint32_t rows_done;
    int io_errno;       /* set when the failure came from the file system, not libpng */
    int out_of_memory;
    int opened;
    int finished;
    int failed;
};

static int writer_fail(lspng_writer *w, int status, const char *msg) {
    snprintf(w->message, sizeof w->message, "%s", msg);
    if (status != LSPNG_ERR_USAGE) w->failed = 1;
    return status;
}

/* After a longjmp: tell file-system and memory failures apart from libpng's own. */
static int writer_jumped(lspng_writer *w) {
    w->failed = 1;
    if (w->io_errno != 0) {
        snprintf(w->message, sizeof w->message, "%s", strerror(w->io_errno));
        return LSPNG_ERR_WRITE;
    }
    return w->out_of_memory ? LSPNG_ERR_NOMEM : LSPNG_ERR_LIBPNG;
}

static void write_to_file(png_structp png, png_bytep data, size_t n) {
    lspng_writer *w = (lspng_writer *)png_get_io_ptr(png);
    if (fwrite(data, 1, n, w->file) != n) {
        w->io_errno = errno != 0 ? errno : EIO;
        png_error(png, "write failed");
    }
}

static void flush_file(png_structp png) {
    lspng_writer *w = (lspng_writer *)png_get_io_ptr(png);
    if (fflush(w->file) != 0) {
        w->io_errno = errno != 0 ? errno : EIO;
        png_error(png, "flush failed");
    }
}

static void write_to_memory(png_structp png, png_bytep data, size_t n) {
    lspng_writer *w = (lspng_writer *)png_get_io_ptr(png);
    if (n > w->capacity - w->size) {
        size_t capacity = w->capacity < 4096 ? 4096 : w->capacity;
        while (capacity - w->size < n) {
            if (capacity > SIZE_MAX / 2) {
                w->out_of_memory = 1;
                png_error(png, "out of memory");
            }
            capacity *= 2;
        }
        uint8_t *grown = (uint8_t *)realloc(w->buffer, capacity);
        if (grown == NULL) {
            w->out_of_memory = 1;
            png_error(png, "out of memory");
        }
        w->buffer = grown;
        w->capacity = capacity;
    }
    memcpy(w->buffer + w->size, data, n);
    w->size += n;
}

static void flush_memory(png_structp png) {
    (void)png;
}

lspng_writer *lspng_writer_create(void) {
    return (lspng_writer *)calloc(1, sizeof(lspng_writer));
}

/* Hands the colour chunks to libpng, which checks each against the others and drops any it refuses. The order puts
 * sRGB first so that a gAMA or cHRM is judged against it, and the profile last (libpng writes iCCP instead of sRGB
 * when it has both, as the PNG specification asks). */
/* Whether libpng takes `c`'s profile for an image of the writer's shape. A profile libpng refuses marks its whole
 * colour description invalid, which would drop sRGB, gAMA and cHRM with it, so it is tried on a scratch writer. */
static int writer_profile_acceptable(const lspng_writer *w, const lspng_color *c) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    if (png == NULL) return 0;
    png_infop info = png_create_info_struct(png);
    volatile int ok = 0;
    if (info != NULL && setjmp(png_jmpbuf(png)) == 0) {
        png_set_benign_errors(png, 1);
        png_set_IHDR(png, info, 1, 1, w->params.depth,
                     w->params.channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_set_iCCP(png, info, c->iccp_name, PNG_COMPRESSION_TYPE_BASE, c->iccp_profile, c->iccp_length);
        ok = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
    }
    png_destroy_write_struct(&png, info != NULL ? &info : NULL);
    return ok;
}

static void writer_set_color(lspng_writer *w, const lspng_color *c) {
    if (c->has_srgb && c->srgb_intent >= 0 && c->srgb_intent < PNG_sRGB_INTENT_LAST) {
        png_set_sRGB(w->png, w->info, c->srgb_intent);
    }
    if (c->has_gama && c->gama > 0) png_set_gAMA_fixed(w->png, w->info, c->gama);
    if (c->has_chrm) {
        const int32_t *x = c->chrm;
        png_set_cHRM_fixed(w->png, w->info, x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
    }
    if (c->has_iccp && c->iccp_name != NULL && c->iccp_profile != NULL && c->iccp_length > 0
        && writer_profile_acceptable(w, c)) {
        png_set_iCCP(w->png, w->info, c->iccp_name, PNG_COMPRESSION_TYPE_BASE, c->iccp_profile, c->iccp_length);
    }
}

static int writer_start(lspng_writer *w, png_rw_ptr write_fn, png_flush_ptr flush_fn, const lspng_color *color) {
    lspng_write_params p = w->params;
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w->message, on_error, on_warning);
    if (w->png == NULL) return writer_fail(w, LSPNG_ERR_NOMEM, "cannot create a libpng writer");
    w->info = png_create_info_struct(w->png);
    if (w->info == NULL) return writer_fail(w, LSPNG_ERR_NOMEM, "cannot create a libpng info structure");
    if (setjmp(png_jmpbuf(w->png))) return writer_jumped(w);
    png_set_write_fn(w->png, w, write_fn, flush_fn);
    png_set_user_limits(w->png, 0x7fffffff, 0x7fffffff);
    png_set_IHDR(w->png, w->info, p.width, p.height, p.depth,
                 p.channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color != NULL) {
        /* A refused colour chunk is a warning, not a failed image. */
        png_set_benign_errors(w->png, 1);
        writer_set_color(w, color);
    }
    png_write_info(w->png, w->info);
    w->row_bytes = (size_t)p.width * (size_t)p.channels * (size_t)(p.depth / 8);
    /* libpng has no way to take image data compressed elsewhere, so it writes the signature, IHDR and the colour
     * chunks, and the IDAT chunks carry our own parallel deflate stream through png_write_chunk. */
    w->deflater = lspng_deflater_create(w->row_bytes, p.channels * (p.depth / 8), p.depth == 16 && is_little_endian(),
                                        p.filters, p.compression_level, p.strategy, p.height);
    if (w->deflater == NULL) return writer_fail(w, LSPNG_ERR_NOMEM, "cannot allocate the PNG deflater");
    w->opened = 1;
    return LSPNG_OK;
}

/* Back to a freshly opened state after a failed header, for a second attempt. */
static void writer_reset(lspng_writer *w) {
    if (w->png != NULL) png_destroy_write_struct(&w->png, w->info != NULL ? &w->info : NULL);
    w->png = NULL;
    w->info = NULL;
    lspng_deflater_destroy(w->deflater);
    w->deflater = NULL;
    if (w->file != NULL) fclose(w->file);
    w->file = NULL;
    w->size = 0;
    w->failed = 0;
    w->message[0] = 0;
}

static int params_valid(lspng_writer *w, lspng_write_params p) {
    if (p.width == 0 || p.height == 0 || p.width > 0x7fffffff || p.height > 0x7fffffff) {
        writer_fail(w, LSPNG_ERR_USAGE, "width and height must be 1 to 2147483647");
        return 0;
    }
    if ((p.channels != 3 && p.channels != 4) || (p.depth != 8 && p.depth != 16)) {
        writer_fail(w, LSPNG_ERR_USAGE, "only RGB or RGBA at 8 or 16 bits can be written");
        return 0;
    }
    if (p.compression_level < 0 || p.compression_level > 9) {
        writer_fail(w, LSPNG_ERR_USAGE, "compression level must be 0 to 9");
        return 0;
    }
    if ((p.filters & LSPNG_FILTER_ALL) == 0 || (p.filters & ~LSPNG_FILTER_ALL) != 0) {
        writer_fail(w, LSPNG_ERR_USAGE, "filters must be a non-empty set of PNG filters");
        return 0;
    }
    return 1;
}

int lspng_writer_open_file(lspng_writer *w, const char *path, lspng_write_params params) {
    if (w->opened || w->failed) return writer_fail(w, LSPNG_ERR_USAGE, "writer already used");
    if (!params_valid(w, params)) return LSPNG_ERR_USAGE;
    w->params = params;
    w->params.color = NULL; /* the caller's chunks are needed only while opening */
    w->file = fopen(path, "wb");
    if (w->file == NULL) return writer_fail(w, LSPNG_ERR_OPEN, strerror(errno));
    int status = writer_start(w, write_to_file, flush_file, params.color);
    if (status != LSPNG_ERR_LIBPNG || params.color == NULL) return status;
    /* libpng stopped on something in the colour chunks it did not merely warn about: start over without them. */
    writer_reset(w);
    w->file = fopen(path, "wb");
    if (w->file == NULL) return writer_fail(w, LSPNG_ERR_OPEN, strerror(errno));
    return writer_start(w, write_to_file, flush_file, NULL);
}

int lspng_writer_open_memory(lspng_writer *w, lspng_write_params params) {
    if (w->opened || w->failed) return writer_fail(w, LSPNG_ERR_USAGE, "writer already used");
    if (!params_valid(w, params)) return LSPNG_ERR_USAGE;
    w->params = params;
    w->params.color = NULL;
    int status = writer_start(w, write_to_memory, flush_memory, params.color);
    if (status != LSPNG_ERR_LIBPNG || params.color == NULL) return status;
    writer_reset(w);
    return writer_start(w, write_to_memory, flush_memory, NULL);
}

/* One IDAT chunk per compressed block; libpng adds the length and CRC and reports write failures by longjmp. */
static void emit_idat(void *context, const uint8_t *data, size_t length) {
    lspng_writer *w = (lspng_writer *)context;
    if (length > 0) png_write_chunk(w->png, (png_const_bytep)"IDAT", data, length);
}

int lspng_writer_write_rows(lspng_writer *w, const void *rows, uint32_t count) {
    if (w->failed) return LSPNG_ERR_LIBPNG;
    if (!w->opened || w->finished) return writer_fail(w, LSPNG_ERR_USAGE, "write_rows on a writer that is not open");
    if (count > w->params.height - w->rows_done) {
        return writer_fail(w, LSPNG_ERR_USAGE, "more rows written than the image has");
    }
    if (setjmp(png_jmpbuf(w->png))) return writer_jumped(w);
    if (lspng_deflater_rows(w->deflater, (const uint8_t *)rows, count, emit_idat, w, w->message) != 0) {
        w->failed = 1;
        return LSPNG_ERR_NOMEM;
    }
    w->rows_done += count;
    return LSPNG_OK;
}

int lspng_writer_finish(lspng_writer *w) {
    if (w->failed) return LSPNG_ERR_LIBPNG;
    if (!w->opened || w->finished) return writer_fail(w, LSPNG_ERR_USAGE, "finish on a writer that is not open");
    if (w->rows_done != w->params.height) {
        char msg[LSPNG_MESSAGE_SIZE];
        snprintf(msg, sizeof msg, "only %u of %u rows were written", w->rows_done, w->params.height);
        return writer_fail(w, LSPNG_ERR_USAGE, msg);
    }
    if (setjmp(png_jmpbuf(w->png))) return writer_jumped(w);
    png_write_chunk(w->png, (png_const_bytep)"IEND", NULL, 0);
    if (w->file != NULL) {
        FILE *file = w->file;
        w->file = NULL;
        if (fclose(file) != 0) return writer_fail(w, LSPNG_ERR_WRITE, strerror(errno));
    }
    w->finished = 1;
    return LSPNG_OK;
}

const uint8_t *lspng_writer_data(const lspng_writer *w, size_t *size) {
    if (!w->finished || w->file != NULL) {
        *size = 0;
        return NULL;
    }
    *size = w->size;
    return w->buffer;
}

const char *lspng_writer_message(const lspng_writer *w) {
    return w->message;
}

void lspng_writer_destroy(lspng_writer *w) {
    if (w == NULL) return;
    if (w->png != NULL) png_destroy_write_struct(&w->png, w->info != NULL ? &w->info : NULL);
    if (w->file != NULL) fclose(w->file);
    lspng_deflater_destroy(w->deflater);
    free(w->buffer);
    free(w);
}
