// SwiftPM defines DEBUG in debug builds, which would turn on dlib's asserts and make the headers demand a libdlib
// built with them (its "inconsistent build configuration" link check). Debian's libdlib is a release build.
#define DLIB_DISABLE_ASSERTS
#include "face_detect.h"
#include "variants.h"

#include "cpufeatures.h"

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms/interpolation.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#define FD_VARIANT fd_baseline
#include "detector_body.h"
#undef FD_VARIANT

fd_baseline::Detector *fd_baseline::create_compiled() { return new Detector{dlib::get_frontal_face_detector()}; }

// One of the two is set: the variant the detector was made for.
struct fd_detector {
    fd_baseline::Detector *baseline = nullptr;
#ifdef FD_HAVE_AVX2_VARIANT
    fd_avx2::Detector *avx2 = nullptr;
#endif
};

namespace {

void set_error(char *error, size_t size, const char *message) {
    if (error == nullptr || size == 0) return;
    std::strncpy(error, message, size - 1);
    error[size - 1] = '\0';
}

bool processor_has_avx2() {
#ifdef FD_HAVE_AVX2_VARIANT
    return lscpu_has(LSCPU_AVX2);
#else
    return false;
#endif
}

// Calls `work`, turning any exception into a message in `error` and the value `failed`.
template <typename Result, typename Work>
Result guarded(char *error, size_t error_size, const char *what, Result failed, const Work &work) {
    try {
        return work();
    } catch (const std::bad_alloc &) {
        set_error(error, error_size, "out of memory in dlib's face detector");
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, what);
    }
    return failed;
}

// Reads a serialized detector into the variant `instructions` asks for (automatic: AVX2 where the processor has it).
fd_detector *make(int32_t instructions, const uint8_t *data, size_t size, char *error, size_t error_size,
                  const char *what) {
    if (instructions != FD_INSTRUCTIONS_AUTOMATIC && instructions != FD_INSTRUCTIONS_BASELINE &&
        instructions != FD_INSTRUCTIONS_AVX2) {
        set_error(error, error_size, "unknown instruction set for the face detector");
        return nullptr;
    }
    const bool use_avx2 = instructions == FD_INSTRUCTIONS_AVX2 ||
                          (instructions == FD_INSTRUCTIONS_AUTOMATIC && processor_has_avx2());
    if (use_avx2 && !processor_has_avx2()) {
        set_error(error, error_size, "this processor has no AVX2, which that face detector needs");
        return nullptr;
    }
    return guarded<fd_detector *>(error, error_size, what, nullptr, [&] {
        auto made = std::make_unique<fd_detector>();
#ifdef FD_HAVE_AVX2_VARIANT
        if (use_avx2) {
            made->avx2 = fd_avx2::create_serialized(data, size);
            return made.release();
        }
#endif
        made->baseline = fd_baseline::create_serialized(data, size);
        return made.release();
    });
}

}  // namespace

extern "C" const unsigned char fd_serialized_model[];
extern "C" const size_t fd_serialized_model_size;

extern "C" fd_detector *fd_create(char *error, size_t error_size) {
    if (fd_detector *made = fd_create_for(FD_INSTRUCTIONS_AUTOMATIC, error, error_size)) return made;
    return fd_create_compiled(error, error_size);
}

extern "C" fd_detector *fd_create_for(int32_t instructions, char *error, size_t error_size) {
    return make(instructions, fd_serialized_model, fd_serialized_model_size, error, error_size,
                "unknown C++ exception while reading the shipped face detector");
}

extern "C" fd_detector *fd_create_compiled(char *error, size_t error_size) {
    const char *what = "unknown C++ exception in dlib::get_frontal_face_detector";
    auto made = std::unique_ptr<fd_detector>(guarded<fd_detector *>(error, error_size, what, nullptr, [] {
        auto compiled = std::make_unique<fd_detector>();
        compiled->baseline = fd_baseline::create_compiled();
        return compiled.release();
    }));
    if (!made || !processor_has_avx2()) return made.release();
    // libdlib's decompression cannot be called from the AVX2 build (variants.h): it reads the model's serialization.
    std::vector<uint8_t> bytes(fd_serialize(made.get(), nullptr, 0));
    if (bytes.empty() || fd_serialize(made.get(), bytes.data(), bytes.size()) != bytes.size()) {
        set_error(error, error_size, "cannot serialize dlib's compiled-in face detector");
        return nullptr;
    }
    fd_destroy(made.release());
    return make(FD_INSTRUCTIONS_AVX2, bytes.data(), bytes.size(), error, error_size, what);
}

extern "C" fd_detector *fd_create_serialized(const uint8_t *data, size_t size, char *error, size_t error_size) {
    return make(FD_INSTRUCTIONS_AUTOMATIC, data, size, error, error_size,
                "unknown C++ exception while reading a serialized face detector");
}

extern "C" int32_t fd_instructions(const fd_detector *detector) {
#ifdef FD_HAVE_AVX2_VARIANT
    if (detector != nullptr && detector->avx2 != nullptr) return FD_INSTRUCTIONS_AVX2;
#endif
    return FD_INSTRUCTIONS_BASELINE;
}

extern "C" size_t fd_serialize(const fd_detector *detector, uint8_t *out, size_t capacity) {
    return guarded<size_t>(nullptr, 0, "", 0, [&] {
#ifdef FD_HAVE_AVX2_VARIANT
        if (detector->avx2 != nullptr) return fd_avx2::serialize(detector->avx2, out, capacity);
#endif
        return fd_baseline::serialize(detector->baseline, out, capacity);
    });
}

extern "C" fd_detector *fd_clone(const fd_detector *detector, char *error, size_t error_size) {
    return guarded<fd_detector *>(error, error_size, "unknown C++ exception while copying the face detector",
                                  nullptr, [&] {
        auto made = std::make_unique<fd_detector>();
#ifdef FD_HAVE_AVX2_VARIANT
        if (detector->avx2 != nullptr) {
            made->avx2 = fd_avx2::clone(detector->avx2);
            return made.release();
        }
#endif
        made->baseline = fd_baseline::clone(detector->baseline);
        return made.release();
    });
}

extern "C" void fd_destroy(fd_detector *detector) {
    if (detector == nullptr) return;
#ifdef FD_HAVE_AVX2_VARIANT
    if (detector->avx2 != nullptr) fd_avx2::destroy(detector->avx2);
#endif
    if (detector->baseline != nullptr) fd_baseline::destroy(detector->baseline);
    delete detector;
}

extern "C" int fd_detect(fd_detector *detector, const uint8_t *pixels, int32_t width, int32_t height,
                         int32_t channels, size_t stride, int32_t upsample, double threshold, int32_t threads,
                         fd_face *faces, int32_t capacity, char *error, size_t error_size) {
    if (detector == nullptr || pixels == nullptr || width <= 0 || height <= 0 || (channels != 1 && channels != 3) ||
        stride < static_cast<size_t>(width) * channels || upsample < 0 || threads < 0) {
        set_error(error, error_size, "fd_detect: invalid arguments");
        return -1;
    }
    return guarded<int>(error, error_size, "unknown C++ exception in dlib's face detector", -1, [&] {
#ifdef FD_HAVE_AVX2_VARIANT
        if (detector->avx2 != nullptr) {
            return fd_avx2::detect(detector->avx2, pixels, width, height, channels, stride, upsample, threshold,
                                   threads, faces, capacity);
        }
#endif
        return fd_baseline::detect(detector->baseline, pixels, width, height, channels, stride, upsample, threshold,
                                   threads, faces, capacity);
    });
}
