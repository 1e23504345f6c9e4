/* PNG encoding on every core, the way pigz compresses: the filtered rows of a band are cut into blocks, each block
 * is deflated on its own thread as raw deflate with the previous 32 KiB of filtered data as its preset dictionary
 * and ends in a sync flush (an empty stored block, so it ends on a byte boundary); the blocks concatenate into one
 * deflate stream, and their Adler-32 checksums combine with adler32_combine. The image's last block ends the
 * stream. Filtering also runs in parallel (a row needs only the raw row above it). The result is one ordinary
 * zlib stream: any PNG reader decodes it. */
#include "pngdeflate.h"
#include "include/pngshim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum {
    WINDOW = 32768,
    /* Uncompressed bytes per block: pigz's 128 KiB keeps the flush and lost-context overhead well under 1 %. */
    BLOCK_BYTES = 1 << 18,
    MAX_THREADS = 64
};

typedef struct {
    uint8_t *data;     /* compressed bytes, with room for the zlib header before and the trailer after */
    size_t capacity;
    size_t length;
    uLong adler;
    size_t in_offset;  /* where the block starts in the band's filtered bytes */
    size_t in_length;
    int status;
} block;

struct lspng_deflater {
    size_t row_bytes;
    size_t filtered_bytes;     /* row_bytes + 1 filter-type byte */
    int pixel_bytes;
    int swap16;
    int filters;
    int level;
    int strategy;
    uint32_t height;
    uint32_t rows_done;
    int threads;
    uLong adler;               /* of everything emitted so far */
    uint8_t *prior_row;        /* the last raw row of the previous band (native order) */
    uint8_t *window;           /* the last WINDOW filtered bytes before this band */
    size_t window_length;
    uint8_t *filtered;         /* this band's filtered rows */
    size_t filtered_capacity;
    block *blocks;
    size_t block_capacity;
    uint8_t *scratch;          /* per thread: 2 byte-swapped rows, or a joined window */
    size_t scratch_stride;
};

lspng_deflater *lspng_deflater_create(size_t row_bytes, int pixel_bytes, int swap16, int filters, int level,
                                      int strategy, uint32_t height) {
    lspng_deflater *d = calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->row_bytes = row_bytes;
    d->filtered_bytes = row_bytes + 1;
    d->pixel_bytes = pixel_bytes;
    d->swap16 = swap16;
    d->filters = filters;
    d->level = level;
    d->strategy = strategy >= 0 ? strategy : (filters == LSPNG_FILTER_NONE ? Z_DEFAULT_STRATEGY : Z_FILTERED);
    d->height = height;
    d->adler = adler32(0, NULL, 0);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    d->threads = cores < 1 ? 1 : (cores > MAX_THREADS ? MAX_THREADS : (int)cores);
    d->prior_row = calloc(1, row_bytes);
    d->window = malloc(WINDOW);
    d->scratch_stride = 2 * row_bytes > WINDOW ? 2 * row_bytes : WINDOW;
    d->scratch = malloc((size_t)d->threads * d->scratch_stride);
    if (d->prior_row == NULL || d->window == NULL || d->scratch == NULL) {
        lspng_deflater_destroy(d);
        return NULL;
    }
    return d;
}

void lspng_deflater_destroy(lspng_deflater *d) {
    if (d == NULL) return;
    for (size_t i = 0; i < d->block_capacity; i++) free(d->blocks[i].data);
    free(d->blocks);
    free(d->prior_row);
    free(d->window);
    free(d->filtered);
    free(d->scratch);
    free(d);
}

/* ------------------------------------------------------------------ filtering */

/* Filtering runs in straight loops the compiler vectorises: no loop-carried dependency (encoding predicts from the
 * raw rows, not the output), a branch-free Paeth predictor, and an AVX2 clone picked at load time on CPUs that
 * have it (the target itself builds for baseline x86-64). */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
/* The clones' resolver runs while the dynamic loader relocates, before ThreadSanitizer's runtime is set up, and TSan
 * instruments it too: the test binary crashed in __tsan_func_entry before main (make test-tsan). */
#define LSPNG_NO_CLONES 1
#endif
#endif
#if defined(__x86_64__) && defined(__clang__) && !defined(LSPNG_NO_CLONES)
#define LSPNG_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LSPNG_CLONES
#endif

static inline int predict(int type, int a, int b, int c) {
    switch (type) {
    case 1: return a;
    case 2: return b;
    case 3: return (a + b) >> 1;
    case 4: {
        int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
        return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
    }
    default: return 0;
    }
}

/* One loop per filter type so each is a simple vectorisable body; `first` handles the leading pixel, whose left
 * neighbours are zero. `out` NULL measures only: libpng's cost, the sum of the filtered bytes read as signed
 * magnitudes. */
#define LSPNG_FILTER_LOOP(type)                                                                                   \
    do {                                                                                                          \
        for (size_t i = 0; i < first; i++) {                                                                      \
            uint8_t v = (uint8_t)(cur[i] - predict(type, 0, up[i], 0));                                           \
            if (out) out[i] = v;                                                                                  \
            sum += (uint32_t)abs((int8_t)v);                                                                      \
        }                                                                                                         \
        if (out) {                                                                                                \
            for (size_t i = first; i < n; i++)                                                                    \
                out[i] = (uint8_t)(cur[i] - predict(type, cur[i - bpp], up[i], up[i - bpp]));                     \
        } else {                                                                                                  \
            for (size_t base = first; base < n; base += (size_t)1 << 24) {                                         \
                size_t end = n - base > ((size_t)1 << 24) ? base + ((size_t)1 << 24) : n;                          \
                uint32_t part = 0;                                                                                \
                for (size_t i = base; i < end; i++)                                                               \
                    part += (uint32_t)abs((int8_t)(uint8_t)(cur[i] - predict(type, cur[i - bpp], up[i], up[i - bpp]))); \
                sum += part;                                                                                      \
            }                                                                                                     \
        }                                                                                                         \
    } while (0)

/* Filters (out non-NULL) or measures (out NULL) a row of `n` bytes with filter `type`; returns the cost when
 * measuring, summed in 32 bits over pieces of 2^24 bytes (fast vector lanes that cannot overflow). */
LSPNG_CLONES
static uint64_t filter_span(int type, const uint8_t *cur, const uint8_t *up, size_t n, size_t bpp, uint8_t *out) {
    uint64_t sum = 0;
    size_t first = bpp < n ? bpp : n;
    switch (type) {
    case 0: LSPNG_FILTER_LOOP(0); break;
    case 1: LSPNG_FILTER_LOOP(1); break;
    case 2: LSPNG_FILTER_LOOP(2); break;
    case 3: LSPNG_FILTER_LOOP(3); break;
    default: LSPNG_FILTER_LOOP(4); break;
    }
    return sum;
}

static void swap_row(const uint8_t *in, uint8_t *out, size_t n) {
    for (size_t i = 0; i + 1 < n; i += 2) {
        out[i] = in[i + 1];
        out[i + 1] = in[i];
    }
}

/* Filters one row into out[0] (type) and out[1…], choosing among the allowed filters by libpng's heuristic
 * (smallest signed-magnitude sum, earlier filter on a tie). `raw_up` is NULL for the image's first row. */
static void filter_row(const lspng_deflater *d, const uint8_t *raw, const uint8_t *raw_up, uint8_t *scratch,
                       uint8_t *out) {
    size_t n = d->row_bytes;
    const uint8_t *cur = raw, *up = raw_up;
    uint8_t *zero_or_swapped = scratch;
    uint8_t *cur_swapped = scratch + n;
    if (d->swap16) {
        swap_row(raw, cur_swapped, n);
        cur = cur_swapped;
        if (up != NULL) {
            swap_row(raw_up, zero_or_swapped, n);
            up = zero_or_swapped;
        }
    }
    if (up == NULL) {
        memset(zero_or_swapped, 0, n);
        up = zero_or_swapped;
    }
    static const int bits[5] = {LSPNG_FILTER_NONE, LSPNG_FILTER_SUB, LSPNG_FILTER_UP, LSPNG_FILTER_AVG,
                                LSPNG_FILTER_PAETH};
    int best = -1;
    uint64_t best_cost = UINT64_MAX;
    int allowed = 0;
    for (int t = 0; t < 5; t++) allowed += (d->filters & bits[t]) != 0;
    for (int t = 0; t < 5; t++) {
        if (!(d->filters & bits[t])) continue;
        if (allowed == 1) {
            best = t;
            break;
        }
        uint64_t c = filter_span(t, cur, up, n, (size_t)d->pixel_bytes, NULL);
        if (c < best_cost) {
            best_cost = c;
            best = t;
        }
    }
    out[0] = (uint8_t)best;
    filter_span(best, cur, up, n, (size_t)d->pixel_bytes, out + 1);
}

/* ------------------------------------------------------------------ parallel for */

typedef struct {
    lspng_deflater *d;
    const uint8_t *rows;
    uint32_t count;
    size_t block_count;
    int last_band;
    atomic_size_t next;
    int phase;  /* 0 filter, 1 deflate */
    int worker_count;
    atomic_int worker_id;
} job;

static void deflate_block(lspng_deflater *d, block *b, const uint8_t *dict, size_t dict_length, int first,
                          int last) {
    z_stream z;
    memset(&z, 0, sizeof z);
    b->status = -1;
    b->length = 0;
    if (deflateInit2(&z, d->level, Z_DEFLATED, -15, 8, d->strategy) != Z_OK) return;
    if (dict_length > 0 && deflateSetDictionary(&z, dict, (uInt)dict_length) != Z_OK) {
        deflateEnd(&z);
        return;
    }
    const uint8_t *in = d->filtered + b->in_offset;
    size_t needed = deflateBound(&z, b->in_length) + 64;
    if (b->capacity < needed) {
        free(b->data);
        b->data = malloc(needed);
        b->capacity = b->data != NULL ? needed : 0;
        if (b->data == NULL) {
            deflateEnd(&z);
            return;
        }
    }
    size_t head = 0;
    if (first) {
        /* zlib header: deflate, 32 KiB window, no preset dictionary, level hint as zlib itself writes it. */
        int hint = (d->strategy >= Z_HUFFMAN_ONLY || d->level < 2) ? 0 : d->level < 6 ? 1 : d->level == 6 ? 2 : 3;
        unsigned header = (0x78u << 8) | ((unsigned)hint << 6);
        header += 31 - header % 31;
        b->data[0] = (uint8_t)(header >> 8);
        b->data[1] = (uint8_t)header;
        head = 2;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)b->in_length;
    z.next_out = b->data + head;
    z.avail_out = (uInt)(b->capacity - head - 4);
    int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int complete = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0 && z.avail_out > 0);
    b->length = head + z.total_out;
    deflateEnd(&z);
    if (!complete) return;
    b->adler = adler32(adler32(0, NULL, 0), in, (uInt)b->in_length);
    b->status = 0;
}

static void *worker(void *arg) {
    job *j = arg;
    lspng_deflater *d = j->d;
    int id = atomic_fetch_add(&j->worker_id, 1);
    uint8_t *scratch = d->scratch + (size_t)id * d->scratch_stride;
    if (j->phase == 0) {
        for (;;) {
            size_t r = atomic_fetch_add(&j->next, 64);
            if (r >= j->count) break;
            size_t end = r + 64 < j->count ? r + 64 : j->count;
            for (size_t i = r; i < end; i++) {
                const uint8_t *raw = j->rows + i * d->row_bytes;
                const uint8_t *up = i > 0 ? raw - d->row_bytes : (d->rows_done > 0 ? d->prior_row : NULL);
                filter_row(d, raw, up, scratch, d->filtered + i * d->filtered_bytes);
            }
        }
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->block_count) break;
        block *b = &d->blocks[i];
        const uint8_t *dict;
        size_t dict_length;
        if (b->in_offset >= WINDOW) {
            dict = d->filtered + b->in_offset - WINDOW;
            dict_length = WINDOW;
        } else if (b->in_offset > 0) {
            /* The block's window straddles the band start: join the previous band's tail with this band's head. */
            size_t from_window = WINDOW - b->in_offset < d->window_length ? WINDOW - b->in_offset : d->window_length;
            uint8_t *joined = scratch;
            memcpy(joined, d->window + d->window_length - from_window, from_window);
            memcpy(joined + from_window, d->filtered, b->in_offset);
            dict = joined;
            dict_length = from_window + b->in_offset;
        } else {
            dict = d->window;
            dict_length = d->window_length;
        }
        deflate_block(d, b, dict, dict_length, d->rows_done == 0 && i == 0, j->last_band && i + 1 == j->block_count);
    }
    return NULL;
}

static void run_parallel(job *j, int workers) {
    pthread_t ids[MAX_THREADS];
    int started = 0;
    atomic_store(&j->next, 0);
    atomic_store(&j->worker_id, 0);
    for (int t = 1; t < workers; t++) {
        if (pthread_create(&ids[started], NULL, worker, j) == 0) started++;
    }
    worker(j);
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
}

int lspng_deflater_rows(lspng_deflater *d, const uint8_t *rows, uint32_t count, lspng_emit_fn emit, void *context,
                        char *message) {
    if (count == 0) return 0;
    size_t band = (size_t)count * d->filtered_bytes;
    if (d->filtered_capacity < band) {
        free(d->filtered);
        d->filtered = malloc(band);
        d->filtered_capacity = d->filtered != NULL ? band : 0;
        if (d->filtered == NULL) {
            snprintf(message, 256, "out of memory for %zu filtered bytes", band);
            return -1;
        }
    }
    size_t block_rows = BLOCK_BYTES / d->filtered_bytes;
    if (block_rows == 0) block_rows = 1;
    size_t block_count = (count + block_rows - 1) / block_rows;
    if (block_count > d->block_capacity) {
        block *grown = realloc(d->blocks, block_count * sizeof(block));
        if (grown == NULL) {
            snprintf(message, 256, "out of memory for deflate blocks");
            return -1;
        }
        memset(grown + d->block_capacity, 0, (block_count - d->block_capacity) * sizeof(block));
        d->blocks = grown;
        d->block_capacity = block_count;
    }
    for (size_t i = 0; i < block_count; i++) {
        size_t first = i * block_rows, end = first + block_rows < count ? first + block_rows : count;
        d->blocks[i].in_offset = first * d->filtered_bytes;
        d->blocks[i].in_length = (end - first) * d->filtered_bytes;
    }
    job j = {.d = d, .rows = rows, .count = count, .block_count = block_count,
             .last_band = d->rows_done + count == d->height, .phase = 0};
    size_t filter_tasks = (count + 63) / 64;
    run_parallel(&j, filter_tasks < (size_t)d->threads ? (int)filter_tasks : d->threads);
    j.phase = 1;
    run_parallel(&j, block_count < (size_t)d->threads ? (int)block_count : d->threads);
    for (size_t i = 0; i < block_count; i++) {
        if (d->blocks[i].status != 0) {
            snprintf(message, 256, "zlib could not compress the image data");
            return -1;
        }
    }
    /* Bookkeeping before emitting: emit may longjmp, and then the deflater is never used again anyway. */
    memcpy(d->prior_row, rows + (size_t)(count - 1) * d->row_bytes, d->row_bytes);
    if (band >= WINDOW) {
        memcpy(d->window, d->filtered + band - WINDOW, WINDOW);
        d->window_length = WINDOW;
    } else {
        size_t keep = WINDOW - band < d->window_length ? WINDOW - band : d->window_length;
        memmove(d->window, d->window + d->window_length - keep, keep);
        memcpy(d->window + keep, d->filtered, band);
        d->window_length = keep + band;
    }
    d->rows_done += count;
    for (size_t i = 0; i < block_count; i++) {
        block *b = &d->blocks[i];
        d->adler = adler32_combine(d->adler, b->adler, (z_off_t)b->in_length);
        if (j.last_band && i + 1 == block_count) {
            b->data[b->length++] = (uint8_t)(d->adler >> 24);
            b->data[b->length++] = (uint8_t)(d->adler >> 16);
            b->data[b->length++] = (uint8_t)(d->adler >> 8);
            b->data[b->length++] = (uint8_t)d->adler;
        }
        emit(context, b->data, b->length);
    }
    return 0;
}
