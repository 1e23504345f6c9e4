#ifndef LOOKSTUDIO_PNGSHIM_H
#define LOOKSTUDIO_PNGSHIM_H

/* A small C layer over libpng's classic API for ImageIO.
 *
 * libpng reports errors with longjmp, which must never unwind through Swift frames, so every call into libpng
 * happens here under setjmp; failures come back as a status code plus the message libpng gave.
 * Samples are returned exactly as stored: the colour chunks (iCCP, sRGB, gAMA, cHRM) are read and written as
 * metadata only, never applied (a cube PNG is data).
 * 16-bit samples are delivered and accepted in the machine's native byte order. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Outcome of a shim call; anything but LSPNG_OK comes with a message from lspng_*_message. */
typedef enum {
    LSPNG_OK = 0,
    LSPNG_ERR_OPEN = 1,     /* the file could not be opened or created (message: strerror) */
    LSPNG_ERR_NOT_PNG = 2,  /* the data does not start with the PNG signature */
    LSPNG_ERR_LIBPNG = 3,   /* libpng stopped: corrupt or truncated data (message: libpng's text) */
    LSPNG_ERR_NOMEM = 4,    /* an allocation failed */
    LSPNG_ERR_USAGE = 5,    /* the caller asked for something out of order or out of range */
    LSPNG_ERR_WRITE = 6     /* writing or closing the output failed (message: strerror) */
} lspng_status;

/* Header facts, known before any pixel memory is allocated. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int source_bit_depth;   /* 1, 2, 4, 8 or 16 as stored */
    int source_color_type;  /* PNG_COLOR_TYPE_* as stored */
    int has_trns;           /* a tRNS chunk is present (becomes alpha) */
    int interlaced;         /* Adam7 */
    int channels;           /* after conversion: 3 (RGB) or 4 (RGBA) */
    int depth;              /* after conversion: 8 or 16 */
} lspng_info;

/* The colour-description chunks of a PNG, as metadata. On reading, a chunk is reported only when the file holds it
 * and libpng accepted it; on writing, a chunk libpng refuses (a profile it deems invalid, a gAMA contradicting sRGB)
 * is dropped and the image is written without it. Pointers belong to the reader (valid until it is destroyed) or,
 * when writing, to the caller for the duration of the open call. */
typedef struct {
    int has_iccp;
    const char *iccp_name;           /* Latin-1 keyword, 1…79 bytes */
    const uint8_t *iccp_profile;     /* the decompressed ICC profile */
    uint32_t iccp_length;
    const char *iccp_problem;        /* reading: an iCCP chunk libpng refused, with its warning; else NULL */
    int has_srgb;
    int srgb_intent;                 /* 0 perceptual, 1 relative colorimetric, 2 saturation, 3 absolute */
    int has_gama;
    int32_t gama;                    /* gamma × 100000, as stored */
    int has_chrm;
    int32_t chrm[8];                 /* white x, y; red x, y; green x, y; blue x, y; each × 100000 */
} lspng_color;

typedef struct lspng_reader lspng_reader;
typedef struct lspng_writer lspng_writer;

/* --- Reading --- */

/* A reader with nothing open; NULL only when memory is exhausted. */
lspng_reader *lspng_reader_create(void);
/* Opens a file and reads the header (signature, IHDR and the chunks before the image data). */
int lspng_reader_open_file(lspng_reader *r, const char *path);
/* Same from memory; the bytes are copied, so the caller's buffer may go away. */
int lspng_reader_open_memory(lspng_reader *r, const uint8_t *data, size_t size);
/* Header facts; valid after a successful open. */
lspng_info lspng_reader_info(const lspng_reader *r);
/* The colour chunks found before the image data; valid after a successful open. */
lspng_color lspng_reader_color(const lspng_reader *r);
/* Sets up the conversions (palette/grey to RGB, tRNS to alpha, low depths to 8, native 16-bit order).
 * Call after checking the header's size; this is where row buffers are allocated. */
int lspng_reader_start(lspng_reader *r);
/* Bytes in one converted row (width · channels · depth/8); valid after start. */
size_t lspng_reader_row_bytes(const lspng_reader *r);
/* Reads the next `count` rows into `dst` (count · row_bytes bytes). An interlaced image is decoded whole on the
 * first call, since Adam7 spreads every row across seven passes. */
int lspng_reader_read_rows(lspng_reader *r, void *dst, uint32_t count);
/* The message for the last failure (empty when none). */
const char *lspng_reader_message(const lspng_reader *r);
/* Closes the file and frees everything; NULL is allowed. */
void lspng_reader_destroy(lspng_reader *r);

/* --- Writing --- */

/* Filter choices for lspng_write_params.filters (libpng's PNG_FILTER_* bits). */
enum {
    LSPNG_FILTER_NONE = 0x08,
    LSPNG_FILTER_SUB = 0x10,
    LSPNG_FILTER_UP = 0x20,
    LSPNG_FILTER_AVG = 0x40,
    LSPNG_FILTER_PAETH = 0x80,
    LSPNG_FILTER_ALL = 0xF8
};

/* What to write and how hard to compress it. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int channels;           /* 3 or 4 */
    int depth;              /* 8 or 16 */
    int compression_level;  /* zlib 0…9 */
    int filters;            /* LSPNG_FILTER_* bits */
    int strategy;           /* zlib Z_* strategy, or -1 for libpng's choice */
    const lspng_color *color; /* colour chunks to write before the image data, or NULL */
} lspng_write_params;

/* A writer with nothing open; NULL only when memory is exhausted. */
lspng_writer *lspng_writer_create(void);
/* Creates (truncates) `path` and writes the header. */
int lspng_writer_open_file(lspng_writer *w, const char *path, lspng_write_params params);
/* Writes into a growing memory buffer; fetch it with lspng_writer_data after finish. */
int lspng_writer_open_memory(lspng_writer *w, lspng_write_params params);
/* Appends `count` rows of width · channels · depth/8 bytes each, contiguous in `rows`. */
int lspng_writer_write_rows(lspng_writer *w, const void *rows, uint32_t count);
/* Writes the end of the image and closes the file; every row must have been written. */
int lspng_writer_finish(lspng_writer *w);
/* The encoded bytes of a memory writer after finish (NULL otherwise). */
const uint8_t *lspng_writer_data(const lspng_writer *w, size_t *size);
/* The message for the last failure (empty when none). */
const char *lspng_writer_message(const lspng_writer *w);
/* Closes the file (without removing it) and frees everything; NULL is allowed. */
void lspng_writer_destroy(lspng_writer *w);

#ifdef __cplusplus
}
#endif

#endif
