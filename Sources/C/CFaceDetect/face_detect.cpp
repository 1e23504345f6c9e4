// SwiftPM defines DEBUG in debug builds, which would turn on dlib's asserts and make the headers demand a libdlib
// built with them (its "inconsistent build configuration" link check). Debian's libdlib is a release build.
#define DLIB_DISABLE_ASSERTS
#include "face_detect.h"

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms/interpolation.h>

#include <cmath>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>

struct fd_detector {
    dlib::frontal_face_detector detector;
};

namespace {

void set_error(char *error, size_t size, const char *message) {
    if (error == nullptr || size == 0) return;
    std::strncpy(error, message, size - 1);
    error[size - 1] = '\0';
}

// Copies the caller's rows into dlib's own image type (the detector converts anything it is given to grey anyway).
void load_grey(dlib::array2d<unsigned char> &image, const uint8_t *pixels, long width, long height, int channels,
               size_t stride) {
    image.set_size(height, width);
    for (long y = 0; y < height; ++y) {
        const uint8_t *row = pixels + y * stride;
        unsigned char *out = &image[y][0];
        if (channels == 1) {
            std::memcpy(out, row, width);
        } else {
            // dlib's own rgb → grey: the plain mean of the three channels.
            for (long x = 0; x < width; ++x) {
                const uint8_t *p = row + x * channels;
                out[x] = static_cast<unsigned char>((p[0] + p[1] + p[2]) / 3);
            }
        }
    }
}

}  // namespace

extern "C" const unsigned char fd_serialized_model[];
extern "C" const size_t fd_serialized_model_size;

extern "C" fd_detector *fd_create(char *error, size_t error_size) {
    if (fd_detector *made = fd_create_serialized(fd_serialized_model, fd_serialized_model_size, error, error_size)) {
        return made;
    }
    return fd_create_compiled(error, error_size);
}

extern "C" fd_detector *fd_create_compiled(char *error, size_t error_size) {
    try {
        return new fd_detector{dlib::get_frontal_face_detector()};
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown C++ exception in dlib::get_frontal_face_detector");
    }
    return nullptr;
}

extern "C" fd_detector *fd_create_serialized(const uint8_t *data, size_t size, char *error, size_t error_size) {
    try {
        std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
        auto *made = new fd_detector{};
        try {
            dlib::deserialize(made->detector, in);
        } catch (...) {
            delete made;
            throw;
        }
        return made;
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown C++ exception while reading a serialized face detector");
    }
    return nullptr;
}

extern "C" size_t fd_serialize(const fd_detector *detector, uint8_t *out, size_t capacity) {
    try {
        std::ostringstream stream;
        dlib::serialize(detector->detector, stream);
        const std::string bytes = stream.str();
        if (out != nullptr && bytes.size() <= capacity) std::memcpy(out, bytes.data(), bytes.size());
        return bytes.size();
    } catch (...) {
        return 0;
    }
}

extern "C" fd_detector *fd_clone(const fd_detector *detector, char *error, size_t error_size) {
    try {
        return new fd_detector{detector->detector};
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown C++ exception while copying the face detector");
    }
    return nullptr;
}

extern "C" void fd_destroy(fd_detector *detector) { delete detector; }

extern "C" int fd_detect(fd_detector *detector, const uint8_t *pixels, int32_t width, int32_t height,
                         int32_t channels, size_t stride, int32_t upsample, double threshold, fd_face *faces,
                         int32_t capacity, char *error, size_t error_size) {
    if (detector == nullptr || pixels == nullptr || width <= 0 || height <= 0 || (channels != 1 && channels != 3) ||
        stride < static_cast<size_t>(width) * channels || upsample < 0) {
        set_error(error, error_size, "fd_detect: invalid arguments");
        return -1;
    }
    try {
        dlib::array2d<unsigned char> image;
        load_grey(image, pixels, width, height, channels, stride);
        for (int i = 0; i < upsample; ++i) dlib::pyramid_up(image);
        std::vector<dlib::rect_detection> found;
        detector->detector(image, found, threshold);
        // pyramid_up doubles each time; map boxes back to the caller's pixels.
        const double scale = 1.0 / static_cast<double>(1L << upsample);
        int32_t written = 0;
        for (const auto &d : found) {
            if (written >= capacity) break;
            fd_face &f = faces[written++];
            f.left = static_cast<int32_t>(std::lround(d.rect.left() * scale));
            f.top = static_cast<int32_t>(std::lround(d.rect.top() * scale));
            f.width = static_cast<int32_t>(std::lround(d.rect.width() * scale));
            f.height = static_cast<int32_t>(std::lround(d.rect.height() * scale));
            f.score = d.detection_confidence;
        }
        return static_cast<int>(found.size());
    } catch (const std::bad_alloc &) {
        set_error(error, error_size, "out of memory while detecting faces");
    } catch (const std::exception &e) {
        set_error(error, error_size, e.what());
    } catch (...) {
        set_error(error, error_size, "unknown C++ exception in dlib's face detector");
    }
    return -1;
}
