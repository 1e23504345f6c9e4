// The one place the project asks the processor what it runs: the tetrahedral lookup kernels, the look fit's solver
// kernels and dlib's AVX2 face detector each dispatch on it. Asked once and kept, since the fit calls its kernels
// tens of thousands of times; a race between two first callers only computes the same answer twice.

#include "cpufeatures.h"

#include <stdatomic.h>

// Bit 31 marks the answer as read, so a processor with none of the sets is not asked again.
#define LSCPU_KNOWN (1u << 31)

static _Atomic unsigned known_features;

unsigned lscpu_features(void) {
    unsigned features = atomic_load_explicit(&known_features, memory_order_relaxed);
    if (features & LSCPU_KNOWN) return features & ~LSCPU_KNOWN;
    features = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1")) features |= LSCPU_SSE41;
    if (__builtin_cpu_supports("avx2")) features |= LSCPU_AVX2;
    if (__builtin_cpu_supports("fma")) features |= LSCPU_FMA;
#endif
    atomic_store_explicit(&known_features, features | LSCPU_KNOWN, memory_order_relaxed);
    return features;
}
