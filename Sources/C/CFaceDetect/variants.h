// The detector is compiled twice: for the x86-64 baseline Debian builds dlib for (face_detect.cpp, namespace
// fd_baseline) and, on x86-64, for AVX2 (face_detect_avx2.cpp, namespace fd_avx2), whose eight-wide filters and
// HOG features take the whole analysis of a 24 MP photo from 0.16 to 0.14 s (docs/SCENES.md). fd_create picks one
// by the processor it runs on. Each namespace declares the same functions; they throw dlib's or the standard library's
// exceptions, which the C interface turns into messages.
#ifndef LOOKSTUDIO_FACE_DETECT_VARIANTS_H
#define LOOKSTUDIO_FACE_DETECT_VARIANTS_H

#include "face_detect.h"

#define FD_DECLARE_VARIANT(NS)                                                                                     \
    namespace NS {                                                                                                 \
    struct Detector;                                                                                               \
    Detector *create_serialized(const uint8_t *data, size_t size);                                                 \
    size_t serialize(const Detector *detector, uint8_t *out, size_t capacity);                                     \
    Detector *clone(const Detector *detector);                                                                     \
    void destroy(Detector *detector);                                                                              \
    int detect(Detector *detector, const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,         \
               size_t stride, int32_t upsample, double threshold, int32_t threads, fd_face *faces,                 \
               int32_t capacity);                                                                                  \
    }

FD_DECLARE_VARIANT(fd_baseline)
namespace fd_baseline {
// dlib's model as libdlib compiles it in (decompressed from base64 by functions of libdlib's, so the AVX2 build
// reads it through its serialization).
Detector *create_compiled();
}
#if defined(__x86_64__)
#define FD_HAVE_AVX2_VARIANT 1
FD_DECLARE_VARIANT(fd_avx2)
#endif

#endif
