#ifndef LOOKSTUDIO_METADATA_H
#define LOOKSTUDIO_METADATA_H

/* Carries EXIF (maker notes included where the container holds them), XMP and IPTC from one image file to another
 * with exiv2, after the pixels are written, and fixes what processing changed. A C interface over C++ so Swift
 * never sees exiv2's types or exceptions (like CFaceDetect over dlib). */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int strip_all;          /* write no metadata from the source at all */
    int strip_gps;          /* drop EXIF GPSInfo and XMP exif:GPS* */
    int width, height;      /* the written image's size: EXIF PixelX/YDimension, XMP exif:PixelX/YDimension */
    int color_space;        /* EXIF ColorSpace to write: 1 (sRGB), 65535 (uncalibrated), 0 to keep the source's */
    const char *software;   /* EXIF Software and XMP xmp:CreatorTool; NULL keeps the source's */
} lsmeta_options;

typedef enum {
    LSMETA_OK = 0,
    LSMETA_ERR_SOURCE = 1,      /* the source's metadata could not be read (message: exiv2's) */
    LSMETA_ERR_TARGET = 2,      /* the target could not be written (message: exiv2's) */
    LSMETA_UNSUPPORTED = 3      /* exiv2 cannot write this target format (HEIF, AVIF) */
} lsmeta_status;

/* Copies the source's metadata into `target` (rewriting it in place) per `options`; the orientation written is 1
 * (the pixels were turned upright). On failure `message` (NUL-terminated, at most `message_size` bytes) says why. */
int lsmeta_copy(const char *source, const char *target, const lsmeta_options *options, char *message,
                size_t message_size);

/* When and with what a photo was taken, for splitting a card into shoots. Empty strings where a tag is absent. */
typedef struct {
    char time[32];          /* EXIF DateTimeOriginal, else DateTimeDigitized: "YYYY:MM:DD HH:MM:SS", camera local */
    char subseconds[16];    /* the matching SubSecTimeOriginal / SubSecTimeDigitized digits */
    char camera[192];       /* EXIF Make, Model and BodySerialNumber, joined by single spaces */
} lsmeta_capture;

/* Reads `path`'s capture time and camera into `capture`. Returns LSMETA_OK (tags absent included) or
 * LSMETA_ERR_SOURCE with `message` saying why the file's metadata could not be read. */
int lsmeta_read_capture(const char *path, lsmeta_capture *capture, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
