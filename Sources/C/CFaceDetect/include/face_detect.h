// A C interface over dlib's frontal face detector (HOG features + linear SVM, compiled into libdlib).
#ifndef LOOKSTUDIO_FACE_DETECT_H
#define LOOKSTUDIO_FACE_DETECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An opaque detector. One detector must not be used by two threads at once (dlib's detector keeps the last
/// image's feature pyramid inside itself); clone it for each thread.
typedef struct fd_detector fd_detector;

/// One detection: a box in the pixels of the buffer given to fd_detect, and dlib's SVM score (above the
/// requested threshold; higher is surer).
typedef struct fd_face {
    int32_t left, top, width, height;
    double score;
} fd_face;

/// The instructions a detector's HOG features and filters run on: the x86-64 baseline dlib is built for, or AVX2
/// (x86-64 processors since 2013; eight floats at a time). The two find the same faces; their scores may differ in
/// the last bits, as sums taken in another order do. Automatic picks AVX2 where the processor has it.
enum {
    FD_INSTRUCTIONS_AUTOMATIC = 0,
    FD_INSTRUCTIONS_BASELINE = 1,
    FD_INSTRUCTIONS_AVX2 = 2,
};

/// Builds dlib's frontal face detector for the instructions the processor has. Returns NULL on failure with a
/// message in `error` (if not NULL).
fd_detector *fd_create(char *error, size_t error_size);

/// Builds the detector for the given FD_INSTRUCTIONS_* (NULL, with a message, for AVX2 on a processor without it).
fd_detector *fd_create_for(int32_t instructions, char *error, size_t error_size);

/// The FD_INSTRUCTIONS_* a detector runs on (baseline or AVX2; its clones run on the same).
int32_t fd_instructions(const fd_detector *detector);

/// Builds the detector from the copy compiled into libdlib, which dlib decompresses (1.5 s of CPU); fd_create
/// reads the same model from its shipped serialization (serialized_model.cpp) and falls back to this.
fd_detector *fd_create_compiled(char *error, size_t error_size);

/// Reads a detector dlib serialized (uncompressed; far faster than fd_create's decompression). NULL on failure.
fd_detector *fd_create_serialized(const uint8_t *data, size_t size, char *error, size_t error_size);

/// Serializes a detector into `out` when it fits in `capacity`; returns the size it needs (0 on failure).
size_t fd_serialize(const fd_detector *detector, uint8_t *out, size_t capacity);

/// An independent copy of `detector` for another thread. Returns NULL on failure.
fd_detector *fd_clone(const fd_detector *detector, char *error, size_t error_size);

/// Frees a detector (NULL is fine).
void fd_destroy(fd_detector *detector);

/// Detects faces in an 8-bit image with `channels` 1 (grey) or 3 (RGB), rows `stride` bytes apart.
/// The image is upsampled `upsample` times (0 or more, each doubling the size) so faces smaller than the
/// detector's 80-pixel window are found. `threads` 0 runs dlib's own detector; 1 or more runs the same steps with
/// the pyramid levels and filter scans shared by that many threads (the same detections). Writes up to `capacity`
/// faces, best first, with score ≥ `threshold`, and returns how many were found in all (may exceed `capacity`),
/// or −1 on failure with a message in `error`.
int fd_detect(fd_detector *detector, const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
              size_t stride, int32_t upsample, double threshold, int32_t threads, fd_face *faces, int32_t capacity,
              char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
