#ifndef LOOKSTUDIO_JPEGSHIM_H
#define LOOKSTUDIO_JPEGSHIM_H

/* A small C layer over libjpeg-turbo's scanline API (jpeglib.h) for ImageIO: JPEG read and written band by band.
 *
 * libjpeg reports errors through error_exit, which by default calls exit(); here it longjmps back to the shim call
 * under setjmp (Swift frames are never crossed) and the call returns a status with libjpeg's message. Warnings
 * (a premature end of data, a damaged segment) count as failures: the pixels would be partly grey. */

#include <stddef.h>
#include <stdint.h>

typedef enum {
    LSJPEG_OK = 0,
    LSJPEG_ERR_OPEN = 1,     /* the file could not be opened or created (message: strerror) */
    LSJPEG_ERR_LIBJPEG = 2,  /* libjpeg stopped or warned: corrupt or truncated data (message: libjpeg's text) */
    LSJPEG_ERR_NOMEM = 3,
    LSJPEG_ERR_USAGE = 4,    /* calls out of order or parameters out of range */
    LSJPEG_ERR_WRITE = 5     /* writing or closing the output failed (message: strerror) */
} lsjpeg_status;

typedef struct lsjpeg_reader lsjpeg_reader;
typedef struct lsjpeg_writer lsjpeg_writer;

lsjpeg_reader *lsjpeg_reader_create(void);
/* Opens a file and reads the header and the segments before the first scan. */
int lsjpeg_reader_open_file(lsjpeg_reader *r, const char *path);
/* Same from memory; the bytes must stay valid until the reader is destroyed. */
int lsjpeg_reader_open_memory(lsjpeg_reader *r, const uint8_t *data, size_t size);
/* Stored size; valid after open. */
void lsjpeg_reader_size(const lsjpeg_reader *r, uint32_t *width, uint32_t *height);
/* The APP1 and APP2 segments as JPEG bytes (SOI, then FF En LL LL payload each), for JPEGMarkers to parse;
 * the pointer belongs to the reader. */
const uint8_t *lsjpeg_reader_markers(const lsjpeg_reader *r, size_t *size);
/* Starts decoding to 8-bit RGB at 1/denominator size (1, 2, 4 or 8, DCT-scaled) and reports the output size. */
int lsjpeg_reader_start(lsjpeg_reader *r, int denominator, uint32_t *width, uint32_t *height);
/* Decodes the next `count` rows into `dst` (count · width · 3 bytes). */
int lsjpeg_reader_read_rows(lsjpeg_reader *r, uint8_t *dst, uint32_t count);
/* Copies quantisation table `index` (0…3) in natural order into `out`; 1 when the file defines it, else 0. */
int lsjpeg_reader_quant_table(const lsjpeg_reader *r, int index, uint16_t out[64]);
/* The file's compression, to put other pixels through the same loss: 1 for a three-component YCbCr file whose
 * chroma components share one table and are sampled once per luma block group; then `tables` receives the luma and
 * chroma quantisation tables (natural order) and `h`, `v` the luma's sampling factors (1 or 2: 4:4:4 … 4:2:0).
 * 0 for any other layout. */
int lsjpeg_reader_compression(const lsjpeg_reader *r, uint16_t tables[128], int *h, int *v);
/* 1 when the file holds CMYK or YCCK (print) data, which libjpeg-turbo cannot convert to RGB. */
int lsjpeg_reader_is_cmyk(const lsjpeg_reader *r);
/* 1 when the file holds one grey component (delivered as RGB like any other). */
int lsjpeg_reader_is_grey(const lsjpeg_reader *r);
const char *lsjpeg_reader_message(const lsjpeg_reader *r);
void lsjpeg_reader_destroy(lsjpeg_reader *r);

lsjpeg_writer *lsjpeg_writer_create(void);
/* Creates `path` (or, with path NULL, a memory buffer) and writes the header and the ICC profile's APP2 segments
 * (none when `icc` is NULL). Quality 1…100; luma sampling factors `h`, `v` over the chroma's (1, 1: 4:4:4; 2, 1:
 * 4:2:2; 2, 2: 4:2:0), or 0, 0 for 4:4:4 chroma at quality ≥ 90 and 4:2:0 below; accurate DCT. */
int lsjpeg_writer_open(lsjpeg_writer *w, const char *path, uint32_t width, uint32_t height, int channels,
                       int quality, int h, int v, const uint8_t *icc, size_t icc_length);
/* As lsjpeg_writer_open with a file's own quantisation tables (luma, chroma; natural order) and luma sampling
 * factors (as lsjpeg_reader_compression gives them) instead of a quality; no ICC profile. */
int lsjpeg_writer_open_tables(lsjpeg_writer *w, const char *path, uint32_t width, uint32_t height, int channels,
                              const uint16_t tables[128], int h, int v);
/* Appends `count` rows of width · channels bytes (RGB, or RGBX whose fourth byte is ignored). */
int lsjpeg_writer_write_rows(lsjpeg_writer *w, const uint8_t *rows, uint32_t count);
/* Completes the image and closes the file; every row must have been written. */
int lsjpeg_writer_finish(lsjpeg_writer *w);
/* The encoded bytes of a memory writer after finish. */
const uint8_t *lsjpeg_writer_data(const lsjpeg_writer *w, size_t *size);
const char *lsjpeg_writer_message(const lsjpeg_writer *w);
void lsjpeg_writer_destroy(lsjpeg_writer *w);

#endif
