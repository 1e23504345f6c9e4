// One instruction set's kernels; included by lutkernels.c with KW (lanes), KNAME and KTARGET defined.
// Uses GCC/Clang vector extensions for the lane-wise grid walk, SSE intrinsics for the per-pixel blend.

typedef float KNAME(vf) __attribute__((vector_size(4 * KW)));
typedef int32_t KNAME(vi) __attribute__((vector_size(4 * KW)));

/// The grid walk of KW pixels: corner offsets (in entries) and weights, one array per quantity.
typedef struct {
    int32_t o0[KW], o1[KW], o2[KW], o3[KW];
    float f1[KW], f2[KW], f3[KW];
} KNAME(walk);

/// `m ? a : b` lane-wise, by masking.
__attribute__((target(KTARGET), always_inline)) static inline KNAME(vi)
KNAME(sel)(KNAME(vi) m, KNAME(vi) a, KNAME(vi) b) {
    return (a & m) | (b & ~m);
}

/// Orders each lane's fractions largest first with their grid steps (the scalar path's three compare-swaps) and
/// stores the walk c000 → cA → cB → c111.
__attribute__((target(KTARGET), always_inline)) static inline void
KNAME(order)(KNAME(walk) *w, KNAME(vi) cell, KNAME(vi) dr, KNAME(vi) dg, KNAME(vi) db,
             KNAME(vf) fr, KNAME(vf) fg, KNAME(vf) fb) {
    KNAME(vi) ifr = (KNAME(vi))fr, ifg = (KNAME(vi))fg, ifb = (KNAME(vi))fb;
    KNAME(vi) swap1 = fg > fr;
    KNAME(vi) f1a = KNAME(sel)(swap1, ifg, ifr), f2a = KNAME(sel)(swap1, ifr, ifg);
    KNAME(vi) s1a = KNAME(sel)(swap1, dg, dr), s2a = KNAME(sel)(swap1, dr, dg);
    KNAME(vi) swap2 = fb > (KNAME(vf))f2a;
    KNAME(vi) f2b = KNAME(sel)(swap2, ifb, f2a), f3 = KNAME(sel)(swap2, f2a, ifb);
    KNAME(vi) s2b = KNAME(sel)(swap2, db, s2a), s3 = KNAME(sel)(swap2, s2a, db);
    KNAME(vi) swap3 = (KNAME(vf))f2b > (KNAME(vf))f1a;
    KNAME(vi) f1 = KNAME(sel)(swap3, f2b, f1a), f2 = KNAME(sel)(swap3, f1a, f2b);
    KNAME(vi) s1 = KNAME(sel)(swap3, s2b, s1a), s2 = KNAME(sel)(swap3, s1a, s2b);
    KNAME(vi) o1 = cell + s1, o2 = o1 + s2, o3 = o2 + s3;
    memcpy(w->o0, &cell, sizeof cell);
    memcpy(w->o1, &o1, sizeof o1);
    memcpy(w->o2, &o2, sizeof o2);
    memcpy(w->o3, &o3, sizeof o3);
    memcpy(w->f1, &f1, sizeof f1);
    memcpy(w->f2, &f2, sizeof f2);
    memcpy(w->f3, &f3, sizeof f3);
}

/// Blends pixel k's corners, c000 + f1(ca − c000) + f2(cb − ca) + f3(c111 − cb) left to right: the float path.
__attribute__((target(KTARGET), always_inline)) static inline __m128
KNAME(blendf)(const float *table, const KNAME(walk) *w, int k) {
    __m128 c0 = _mm_loadu_ps(table + 4 * (size_t)w->o0[k]);
    __m128 ca = _mm_loadu_ps(table + 4 * (size_t)w->o1[k]);
    __m128 cb = _mm_loadu_ps(table + 4 * (size_t)w->o2[k]);
    __m128 c1 = _mm_loadu_ps(table + 4 * (size_t)w->o3[k]);
    __m128 o = _mm_add_ps(c0, _mm_mul_ps(_mm_set1_ps(w->f1[k]), _mm_sub_ps(ca, c0)));
    o = _mm_add_ps(o, _mm_mul_ps(_mm_set1_ps(w->f2[k]), _mm_sub_ps(cb, ca)));
    return _mm_add_ps(o, _mm_mul_ps(_mm_set1_ps(w->f3[k]), _mm_sub_ps(c1, cb)));
}

/// Blends pixel k's four corners and returns the rounded codes in the low bits of lanes 0…2.
__attribute__((target(KTARGET), always_inline)) static inline __m128i
KNAME(blend)(const float *table, const KNAME(walk) *w, int k, int clamp, __m128 top) {
    __m128 o = KNAME(blendf)(table, w, k);
    if (clamp) o = _mm_min_ps(_mm_max_ps(o, _mm_setzero_ps()), top);
    return _mm_castps_si128(_mm_add_ps(o, _mm_set1_ps(12582912.0f)));
}

#if KW == 8
/// Pixels k and k+1 at once, one per 128-bit half of a 256-bit register; same operations as `blend`.
__attribute__((target(KTARGET), always_inline)) static inline __m256i
KNAME(blend2)(const float *table, const KNAME(walk) *w, int k, int clamp, __m256 top) {
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
#define LSLUT_PAIR(o) _mm256_loadu2_m128(table + 4 * (size_t)(o)[k + 1], table + 4 * (size_t)(o)[k])
#define LSLUT_WEIGHTS(f) _mm256_permutevar8x32_ps(_mm256_castps128_ps256(_mm_castsi128_ps( \
        _mm_loadl_epi64((const __m128i *)((f) + k)))), spread)
    __m256 c0 = LSLUT_PAIR(w->o0), ca = LSLUT_PAIR(w->o1), cb = LSLUT_PAIR(w->o2), c1 = LSLUT_PAIR(w->o3);
    __m256 o = _mm256_add_ps(c0, _mm256_mul_ps(LSLUT_WEIGHTS(w->f1), _mm256_sub_ps(ca, c0)));
    o = _mm256_add_ps(o, _mm256_mul_ps(LSLUT_WEIGHTS(w->f2), _mm256_sub_ps(cb, ca)));
    o = _mm256_add_ps(o, _mm256_mul_ps(LSLUT_WEIGHTS(w->f3), _mm256_sub_ps(c1, cb)));
#undef LSLUT_PAIR
#undef LSLUT_WEIGHTS
    if (clamp) o = _mm256_min_ps(_mm256_max_ps(o, _mm256_setzero_ps()), top);
    return _mm256_castps_si256(_mm256_add_ps(o, _mm256_set1_ps(12582912.0f)));
}
#endif

/// Grid position of KW codes on one axis: cell index, step (0 at the top) and fraction.
__attribute__((target(KTARGET), always_inline)) static inline void
KNAME(axis)(KNAME(vf) x, int n, KNAME(vi) *i, KNAME(vi) *step, KNAME(vf) *f) {
    KNAME(vi) last = (KNAME(vi)){0} + (n - 1);
    KNAME(vi) t = __builtin_convertvector(x, KNAME(vi));
    KNAME(vi) m = t < last;
    *i = KNAME(sel)(m, t, last);
    *step = m & 1;
    *f = x - __builtin_convertvector(*i, KNAME(vf));
}

/// Stores the walk of KW pixels at grid positions (xr, xg, xb): each axis's cell, step and fraction, then the order.
__attribute__((target(KTARGET), always_inline)) static inline void
KNAME(locate)(KNAME(walk) *w, int n, KNAME(vf) xr, KNAME(vf) xg, KNAME(vf) xb) {
    KNAME(vi) ir, ig, ib, sr, sg, sb;
    KNAME(vf) fr, fg, fb;
    KNAME(axis)(xr, n, &ir, &sr, &fr);
    KNAME(axis)(xg, n, &ig, &sg, &fg);
    KNAME(axis)(xb, n, &ib, &sb, &fb);
    KNAME(vi) cell = ir + n * (ig + n * ib);
    KNAME(order)(w, cell, sr, sg * n, sb * (n * n), fr, fg, fb);
}

__attribute__((target(KTARGET))) static void
KNAME(lslut_run8)(const float *table, int n, const float *grid, uint8_t *p, size_t count, int ch, int clamp) {
    const __m128 top = _mm_set1_ps(255.0f);
    const __m128i pick = _mm_setr_epi8(0, 4, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
#if KW == 8
    const __m256 top2 = _mm256_set1_ps(255.0f);
    const __m256i pick2 = _mm256_broadcastsi128_si256(pick);
#endif
    float r[KW], g[KW], b[KW];
    KNAME(walk) w;
    size_t done = 0;
    while (done < count) {
        int lanes = count - done < KW ? (int)(count - done) : KW;
        /* Grid positions come from the per-code table (code · (N−1) / 255, as the scalar path builds it). */
        for (int k = 0; k < KW; k++) {
            const uint8_t *q = p + (size_t)(k < lanes ? k : 0) * ch;
            r[k] = grid[q[0]]; g[k] = grid[q[1]]; b[k] = grid[q[2]];
        }
        KNAME(vf) xr, xg, xb;
        memcpy(&xr, r, sizeof xr); memcpy(&xg, g, sizeof xg); memcpy(&xb, b, sizeof xb);
        KNAME(locate)(&w, n, xr, xg, xb);
        int k = 0;
#if KW == 8
        for (; k + 1 < lanes; k += 2) {
            __m256i bits = _mm256_shuffle_epi8(KNAME(blend2)(table, &w, k, clamp, top2), pick2);
            uint32_t v0 = (uint32_t)_mm256_extract_epi32(bits, 0), v1 = (uint32_t)_mm256_extract_epi32(bits, 4);
            memcpy(p, &v0, 2);
            p[2] = (uint8_t)(v0 >> 16);
            memcpy(p + ch, &v1, 2);
            p[ch + 2] = (uint8_t)(v1 >> 16);
            p += 2 * ch;
        }
#endif
        for (; k < lanes; k++) {
            __m128i bits = _mm_shuffle_epi8(KNAME(blend)(table, &w, k, clamp, top), pick);
            uint32_t v = (uint32_t)_mm_cvtsi128_si32(bits);
            memcpy(p, &v, 2);
            p[2] = (uint8_t)(v >> 16);
            p += ch;
        }
        done += (size_t)lanes;
    }
}

__attribute__((target(KTARGET))) static void
KNAME(lslut_run16)(const float *table, int n, uint16_t *p, size_t count, int ch, int clamp) {
    const __m128 top = _mm_set1_ps(65535.0f);
    const __m128i pick = _mm_setr_epi8(0, 1, 4, 5, 8, 9, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
#if KW == 8
    const __m256 top2 = _mm256_set1_ps(65535.0f);
    const __m256i pick2 = _mm256_broadcastsi128_si256(pick);
#endif
    const float scale = (float)(n - 1) / 65535.0f;
    int32_t r[KW], g[KW], b[KW];
    KNAME(walk) w;
    size_t done = 0;
    while (done < count) {
        int lanes = count - done < KW ? (int)(count - done) : KW;
        for (int k = 0; k < KW; k++) {
            const uint16_t *q = p + (size_t)(k < lanes ? k : 0) * ch;
            r[k] = q[0]; g[k] = q[1]; b[k] = q[2];
        }
        KNAME(vi) vr, vg, vb;
        memcpy(&vr, r, sizeof vr); memcpy(&vg, g, sizeof vg); memcpy(&vb, b, sizeof vb);
        // code · ((N−1)/65535), as the scalar 16-bit path computes it.
        KNAME(vf) xr = __builtin_convertvector(vr, KNAME(vf)) * scale;
        KNAME(vf) xg = __builtin_convertvector(vg, KNAME(vf)) * scale;
        KNAME(vf) xb = __builtin_convertvector(vb, KNAME(vf)) * scale;
        KNAME(locate)(&w, n, xr, xg, xb);
        int k = 0;
#if KW == 8
        for (; k + 1 < lanes; k += 2) {
            __m256i bits = _mm256_shuffle_epi8(KNAME(blend2)(table, &w, k, clamp, top2), pick2);
            uint64_t v0 = (uint64_t)_mm256_extract_epi64(bits, 0), v1 = (uint64_t)_mm256_extract_epi64(bits, 2);
            memcpy(p, &v0, 6);
            memcpy(p + ch, &v1, 6);
            p += 2 * ch;
        }
#endif
        for (; k < lanes; k++) {
            __m128i bits = _mm_shuffle_epi8(KNAME(blend)(table, &w, k, clamp, top), pick);
            uint64_t v = (uint64_t)_mm_cvtsi128_si64(bits);
            memcpy(p, &v, 6);
            p += ch;
        }
        done += (size_t)lanes;
    }
}

/// Grid position of KW float samples on one axis as LookCore's `CubeSampler.Cell.axis` computes it: clamped to
/// 0…1 (NaN to 0), times N−1, snapped to the nearest grid point when within four of its ulps.
__attribute__((target(KTARGET), always_inline)) static inline KNAME(vf)
KNAME(gridf)(KNAME(vf) v, float last) {
    KNAME(vf) zero = (KNAME(vf)){0}, one = zero + 1.0f;
    KNAME(vi) inside = v < one;
    KNAME(vi) positive = v > zero;
    KNAME(vi) clamped = KNAME(sel)(positive, KNAME(sel)(inside, (KNAME(vi))v, (KNAME(vi))one), (KNAME(vi))zero);
    KNAME(vf) x = (KNAME(vf))clamped * last;
    KNAME(vf) nearest = __builtin_convertvector(__builtin_convertvector(x + 0.5f, KNAME(vi)), KNAME(vf));
    // ulp(k) for a whole k ≥ 1 is 2^(exponent − 23); for 0 the least subnormal, as Swift's `Float.ulp`.
    KNAME(vi) bits = (KNAME(vi))nearest;
    KNAME(vi) ulp = KNAME(sel)(bits == 0, (KNAME(vi)){0} + 1, (bits & 0x7f800000) - (23 << 23));
    KNAME(vf) limit = (KNAME(vf))ulp * 4.0f;
    KNAME(vf) distance = (KNAME(vf))((KNAME(vi))(x - nearest) & 0x7fffffff);
    return (KNAME(vf))KNAME(sel)(distance <= limit, (KNAME(vi))nearest, (KNAME(vi))x);
}

__attribute__((target(KTARGET))) static void
KNAME(lslut_runf)(const float *table, int n, const float *in, float *out, uint8_t *codes, size_t count) {
    const float last = (float)(n - 1);
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), full = _mm_set1_ps(255.0f);
    const __m128 half = _mm_set1_ps(0.5f);
    float r[KW], g[KW], b[KW], o[4];
    KNAME(walk) w;
    size_t done = 0;
    while (done < count) {
        int lanes = count - done < KW ? (int)(count - done) : KW;
        for (int k = 0; k < KW; k++) {
            const float *q = in + 3 * (done + (size_t)(k < lanes ? k : 0));
            r[k] = q[0]; g[k] = q[1]; b[k] = q[2];
        }
        KNAME(vf) xr, xg, xb;
        memcpy(&xr, r, sizeof xr); memcpy(&xg, g, sizeof xg); memcpy(&xb, b, sizeof xb);
        KNAME(locate)(&w, n, KNAME(gridf)(xr, last), KNAME(gridf)(xg, last), KNAME(gridf)(xb, last));
        // Every input of the block was read above, so `out` may be `in`.
        for (int k = 0; k < lanes; k++) {
            __m128 v = KNAME(blendf)(table, &w, k);
            _mm_storeu_ps(o, v);
            memcpy(out + 3 * (done + (size_t)k), o, 3 * sizeof(float));
            if (codes) {
                /* min(max(v, 0), 1) · 255 + 0.5, truncated: 8-bit codes rounded to nearest. */
                __m128 c = _mm_add_ps(_mm_mul_ps(_mm_min_ps(_mm_max_ps(v, zero), one), full), half);
                __m128i q = _mm_cvttps_epi32(c);
                uint8_t *t = codes + 3 * (done + (size_t)k);
                t[0] = (uint8_t)_mm_cvtsi128_si32(q);
                t[1] = (uint8_t)_mm_extract_epi32(q, 1);
                t[2] = (uint8_t)_mm_extract_epi32(q, 2);
            }
        }
        done += (size_t)lanes;
    }
}
