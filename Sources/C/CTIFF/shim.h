#include <stdio.h>
#include <string.h>
#include <tiffio.h>

// TIFFGetField/TIFFSetField are variadic and libtiff reports errors through printf-style callbacks; Swift can call
// neither, so these wrappers give fixed signatures and collect the first error message per file.

typedef struct { char message[512]; } lstiff_errors;

static int lstiff_on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    lstiff_errors *e = (lstiff_errors *)user;
    if (e && e->message[0] == 0) vsnprintf(e->message, sizeof e->message, fmt, ap);
    return 1;
}

static int lstiff_on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;  // unknown tags and similar notes are not the user's problem
}

static inline TIFF *lstiff_open(const char *path, const char *mode, lstiff_errors *errors) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(options, lstiff_on_error, errors);
    TIFFOpenOptionsSetWarningHandlerExtR(options, lstiff_on_warning, NULL);
    TIFF *tif = TIFFOpenExt(path, mode, options);
    TIFFOpenOptionsFree(options);
    return tif;
}

static inline int lstiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetField(tif, tag, value);
}

static inline int lstiff_get_u16_defaulted(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

static inline int lstiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tif, tag, value);
}

static inline int lstiff_get_extra_samples(TIFF *tif, uint16_t *count, uint16_t **types) {
    return TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, count, types);
}

static inline int lstiff_get_icc(TIFF *tif, uint32_t *length, void **data) {
    return TIFFGetField(tif, TIFFTAG_ICCPROFILE, length, data);
}

static inline int lstiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) {
    return TIFFSetField(tif, tag, (int)value);
}

static inline int lstiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) {
    return TIFFSetField(tif, tag, value);
}

static inline int lstiff_set_alpha(TIFF *tif) {
    uint16_t type = EXTRASAMPLE_UNASSALPHA;
    return TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &type);
}

static inline int lstiff_set_icc(TIFF *tif, uint32_t length, const void *data) {
    return TIFFSetField(tif, TIFFTAG_ICCPROFILE, length, data);
}
