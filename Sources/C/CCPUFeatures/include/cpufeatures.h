#ifndef LOOKSTUDIO_CPUFEATURES_H
#define LOOKSTUDIO_CPUFEATURES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Instruction sets the project's run-time-dispatched kernels use, as bits of `lscpu_features`.
enum {
    LSCPU_SSE41 = 1u << 0,
    LSCPU_AVX2 = 1u << 1,
    LSCPU_FMA = 1u << 2
};

/// The LSCPU_* instruction sets this processor runs (0 on other architectures); read once per process.
unsigned lscpu_features(void);

/// Whether the processor runs every instruction set in `mask`.
static inline int lscpu_has(unsigned mask) { return (lscpu_features() & mask) == mask; }

#ifdef __cplusplus
}
#endif

#endif
