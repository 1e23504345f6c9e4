// The face detector built for AVX2 (variants.h). Only dlib's code and the detector's own are: the standard
// library's headers are read first, so its templates keep the baseline's instructions wherever they are
// instantiated — their out-of-line copies are merged by the linker with face_detect.cpp's, and a processor without
// AVX2 may run them. dlib's namespace is renamed to dlib_avx2 here for the same reason: its header templates are
// instantiated in both files, and the renaming keeps the two builds apart under different names.
#if defined(__x86_64__)

#define DLIB_DISABLE_ASSERTS
#include "face_detect.h"
#include "variants.h"

// Every standard header dlib's detector headers include (g++ -H on them), then the intrinsics, whose functions
// carry their own target attributes.
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <complex>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <exception>
#include <forward_list>
#include <fstream>
#include <functional>
#include <future>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <queue>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#include <sys/time.h>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>
#include <cpuid.h>
#include <immintrin.h>

// dlib picks its SIMD types from these (simd_check.h) rather than from the compiler's -m flags.
#define DLIB_HAVE_SSE2
#define DLIB_HAVE_SSE3
#define DLIB_HAVE_SSE41
#define DLIB_HAVE_AVX
#define DLIB_HAVE_AVX2

#define dlib dlib_avx2

// dlib's geometry, before the switch: full_object_detection.h defines a static point that is constructed when the
// program starts, on any processor, so its constructor must not be built for AVX2.
#include <dlib/geometry.h>
#include <dlib/image_processing/full_object_detection.h>

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms/interpolation.h>

#define FD_VARIANT fd_avx2
#include "detector_body.h"
#undef FD_VARIANT
#undef dlib

#pragma clang attribute pop

#endif
