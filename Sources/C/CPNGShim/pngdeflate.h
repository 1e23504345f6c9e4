/* Internal to CPNGShim: PNG row filtering and deflate on every core (the pigz method). */
#ifndef LOOKSTUDIO_PNGDEFLATE_H
#define LOOKSTUDIO_PNGDEFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct lspng_deflater lspng_deflater;

/* Receives finished pieces of the zlib stream in order; may longjmp (libpng's error path), so the deflater keeps
 * every buffer it uses in its own struct and never leaks on that path. */
typedef void (*lspng_emit_fn)(void *context, const uint8_t *data, size_t length);

/* A deflater for an image of `height` rows of `row_bytes` bytes, `pixel_bytes` per pixel; `swap16` byte-swaps
 * native little-endian 16-bit samples to PNG's big-endian order. `filters` are LSPNG_FILTER_* bits, `strategy`
 * zlib's Z_* or -1 (Z_FILTERED when any filter but none may be used, as libpng does). NULL when out of memory. */
lspng_deflater *lspng_deflater_create(size_t row_bytes, int pixel_bytes, int swap16, int filters, int level,
                                      int strategy, uint32_t height);

/* Filters and compresses the next `count` rows and emits the compressed bytes; the stream's zlib header comes with
 * the first rows and the Adler-32 trailer with the last. Returns 0, or -1 (message in `message`, 256 bytes). */
int lspng_deflater_rows(lspng_deflater *d, const uint8_t *rows, uint32_t count, lspng_emit_fn emit, void *context,
                        char *message);

void lspng_deflater_destroy(lspng_deflater *d);

#endif
