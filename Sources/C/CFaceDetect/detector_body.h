// The detector's C++ side, compiled once per instruction set (variants.h): face_detect.cpp includes it in
// namespace fd_baseline, face_detect_avx2.cpp in namespace fd_avx2 with every function built for AVX2. Included
// after dlib's headers, with FD_VARIANT naming the namespace; no include guard on purpose.

namespace FD_VARIANT {

struct Detector {
    dlib::frontal_face_detector detector;
};

namespace {

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

using scanner_type = dlib::frontal_face_detector::image_scanner_type;
using pyramid_type = dlib::pyramid_down<6>;

// Runs `work(item)` for items 0..<count on `threads` threads (the caller's included), each taking the next item.
// An exception in any thread (dlib's bad_alloc, say) stops the others at their next item and is rethrown here, on
// the caller's thread, where fd_detect turns it into an error; one escaping a helper thread would end the process.
template <typename Work>
void share(int count, int threads, const Work &work) {
    std::atomic<int> next{0};
    std::mutex lock;
    std::exception_ptr failure;
    auto run = [&] {
        try {
            for (int i = next++; i < count; i = next++) work(i);
        } catch (...) {
            std::lock_guard<std::mutex> guard(lock);
            if (!failure) failure = std::current_exception();
            next = count;
        }
    };
    std::vector<std::thread> helpers;
    try {
        for (int t = 1; t < std::min(threads, count); ++t) helpers.emplace_back(run);
    } catch (...) {
        // No more threads to be had: those started and this one do the work.
    }
    run();
    for (auto &h : helpers) h.join();
    if (failure) std::rethrow_exception(failure);
}

// dlib's object_detector::operator() for the frontal detector, with the HOG pyramid's levels and the (filter,
// level) scans shared between threads. Every step calls the dlib function the serial detector calls, on the same
// inputs, so the detections are the same; only the work is spread (docs/SCENES.md, "Speed").
std::vector<dlib::rect_detection> detect_parallel(const dlib::frontal_face_detector &detector,
                                                  const dlib::array2d<unsigned char> &image, double adjust,
                                                  int threads) {
    const scanner_type &scanner = detector.get_scanner();
    const unsigned long fhog_height = scanner.get_fhog_window_height();
    const unsigned long fhog_width = scanner.get_fhog_window_width();
    const int cell = static_cast<int>(scanner.get_cell_size());
    const long padding = static_cast<long>(scanner.get_padding());
    const auto &fe = scanner.get_feature_extractor();

    // The level count of impl::create_fhog_pyramid, and its images (each the previous one pyramid_down).
    pyramid_type pyr;
    unsigned long levels = 0;
    dlib::rectangle rect = dlib::get_rect(image);
    do {
        rect = pyr.rect_down(rect);
        ++levels;
    } while (rect.width() >= static_cast<long>(scanner.get_min_pyramid_layer_width()) &&
             rect.height() >= static_cast<long>(scanner.get_min_pyramid_layer_height()) &&
             levels < scanner.get_max_pyramid_levels());
    std::vector<dlib::array2d<unsigned char>> smaller(levels > 1 ? levels - 1 : 0);
    for (unsigned long l = 1; l < levels; ++l) pyr(l == 1 ? image : smaller[l - 2], smaller[l - 1]);
    std::vector<dlib::array<dlib::array2d<float>>> feats(levels);
    share(static_cast<int>(levels), threads, [&](int l) {
        fe(l == 0 ? image : smaller[l - 1], feats[l], cell, static_cast<int>(fhog_height),
           static_cast<int>(fhog_width));
    });

    const unsigned long filters = detector.num_detectors();
    std::vector<scanner_type::fhog_filterbank> banks;
    std::vector<double> thresholds;
    for (unsigned long i = 0; i < filters; ++i) {
        const auto &w = detector.get_w(i);
        banks.push_back(scanner.build_fhog_filterbank(w));
        thresholds.push_back(w(scanner.get_num_dimensions()));
    }
    // Scans ordered largest level first so the long ones start early.
    const int scans = static_cast<int>(filters * levels);
    std::vector<std::vector<dlib::rect_detection>> found(scans);
    share(scans, threads, [&](int k) {
        const unsigned long l = static_cast<unsigned long>(k) / filters, i = static_cast<unsigned long>(k) % filters;
        dlib::array2d<float> saliency;
        const dlib::rectangle area = dlib::impl::apply_filters_to_fhog(banks[i], feats[l], saliency);
        const double cut = thresholds[i] + adjust;
        for (long r = area.top(); r <= area.bottom(); ++r) {
            for (long c = area.left(); c <= area.right(); ++c) {
                if (saliency[r][c] < cut) continue;
                dlib::rectangle box = fe.feats_to_image(
                    dlib::centered_rect(dlib::point(c, r), fhog_width - 2 * padding, fhog_height - 2 * padding),
                    cell, static_cast<int>(fhog_height), static_cast<int>(fhog_width));
                box = pyr.rect_up(box, l);
                dlib::rect_detection d;
                d.detection_confidence = saliency[r][c] - thresholds[i];
                d.weight_index = i;
                d.rect = box;
                found[k].push_back(d);
            }
        }
    });

    // object_detector's non-maximum suppression: best first, a box overlapping any kept one drops.
    std::vector<dlib::rect_detection> all;
    for (auto &f : found) all.insert(all.end(), f.begin(), f.end());
    std::stable_sort(all.begin(), all.end(), [](const dlib::rect_detection &a, const dlib::rect_detection &b) {
        return a.detection_confidence > b.detection_confidence;
    });
    const dlib::test_box_overlap overlaps = detector.get_overlap_tester();
    std::vector<dlib::rect_detection> kept;
    for (const auto &d : all) {
        bool drop = false;
        for (const auto &k : kept) {
            if (overlaps(k.rect, d.rect)) {
                drop = true;
                break;
            }
        }
        if (!drop) kept.push_back(d);
    }
    return kept;
}

}  // namespace

Detector *create_serialized(const uint8_t *data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
    auto made = std::make_unique<Detector>();
    dlib::deserialize(made->detector, in);
    return made.release();
}

size_t serialize(const Detector *detector, uint8_t *out, size_t capacity) {
    std::ostringstream stream;
    dlib::serialize(detector->detector, stream);
    const std::string bytes = stream.str();
    if (out != nullptr && bytes.size() <= capacity) std::memcpy(out, bytes.data(), bytes.size());
    return bytes.size();
}

Detector *clone(const Detector *detector) { return new Detector{detector->detector}; }

void destroy(Detector *detector) { delete detector; }

int detect(Detector *detector, const uint8_t *pixels, int32_t width, int32_t height, int32_t channels,
           size_t stride, int32_t upsample, double threshold, int32_t threads, fd_face *faces, int32_t capacity) {
    dlib::array2d<unsigned char> image;
    load_grey(image, pixels, width, height, channels, stride);
    for (int i = 0; i < upsample; ++i) dlib::pyramid_up(image);
    std::vector<dlib::rect_detection> found;
    if (threads == 0) {
        detector->detector(image, found, threshold);
    } else {
        found = detect_parallel(detector->detector, image, threshold, threads);
    }
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
}

}  // namespace FD_VARIANT
