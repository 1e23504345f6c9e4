/* cdef:begin — the declarations the Python package reads (python/lookstudio/_cdef.h is this block). */

#define LOOKSTUDIO_ABI_VERSION 1

/* What a call returned. */
typedef int32_t lookstudio_status;
enum {
    LOOKSTUDIO_OK = 0,
    /* The call was wrong: a NULL, a size, a stride, a value out of range, an unusable ICC profile. */
    LOOKSTUDIO_INVALID_ARGUMENT = 1,
    /* No look with this GUID, GUID prefix or name (or no such scene, version or file). */
    LOOKSTUDIO_NOT_FOUND = 2,
    /* The catalog is busy (locked past the timeout) or the disk is full: the call may be retried. */
    LOOKSTUDIO_UNAVAILABLE = 3,
    /* The catalog cannot be used until it is repaired: not a catalog, damaged, or from a newer LookStudio. */
    LOOKSTUDIO_CATALOG_BROKEN = 4,
    /* Anything else: an image the engine could not process, an I/O error. The message says what. */
    LOOKSTUDIO_FAILED = 5
};

/* Automatic correction (lookstudio_params.auto_correct). */
enum {
    LOOKSTUDIO_AUTO_SCENE = -1, /* the detected scene's preset decides (the default, as `correct`) */
    LOOKSTUDIO_AUTO_OFF = 0,
    LOOKSTUDIO_AUTO_ON = 1
};

/* Output colour (lookstudio_params.output_space): the space the output pixels are encoded in. */
enum {
    LOOKSTUDIO_OUTPUT_KEEP = 0, /* the input's own space (its ICC profile; sRGB when it has none) */
    LOOKSTUDIO_OUTPUT_SRGB = 1,
    LOOKSTUDIO_OUTPUT_DISPLAY_P3 = 2,
    LOOKSTUDIO_OUTPUT_ADOBE_RGB = 3,
    LOOKSTUDIO_OUTPUT_REC2020 = 4
};

/* Out-of-gamut colours (lookstudio_params.intent). */
enum {
    LOOKSTUDIO_INTENT_RELATIVE = 0,  /* relative colorimetric, clipped */
    LOOKSTUDIO_INTENT_PERCEPTUAL = 1 /* where the profile has a perceptual table */
};

/* Cube interpolation (lookstudio_params.interpolation). */
enum {
    LOOKSTUDIO_TETRAHEDRAL = 0,
    LOOKSTUDIO_TRILINEAR = 1
};

/* The look strength that means "the default": 100 for a named look, the scene's strength for a scene's look. */
enum { LOOKSTUDIO_DEFAULT_STRENGTH = -1 };

typedef struct lookstudio_engine lookstudio_engine;
typedef struct lookstudio_image lookstudio_image;
typedef struct lookstudio_analysis lookstudio_analysis;
typedef struct lookstudio_looks lookstudio_looks;
typedef struct lookstudio_error lookstudio_error;

/* ---- Versions ---------------------------------------------------------------------------------------------- */

/* The ABI version of the loaded library: compare with LOOKSTUDIO_ABI_VERSION. */
uint32_t lookstudio_abi_version(void);
/* The library's version text ("1.0.0"), static. */
const char *lookstudio_version(void);

/* ---- Errors ------------------------------------------------------------------------------------------------ */

/* The status of an error (never LOOKSTUDIO_OK); LOOKSTUDIO_INVALID_ARGUMENT for NULL. */
lookstudio_status lookstudio_error_status(const lookstudio_error *error);
/* The message, UTF-8, valid until the error is freed; "" for NULL. */
const char *lookstudio_error_message(const lookstudio_error *error);
void lookstudio_error_free(lookstudio_error *error);

/* ---- Engine ------------------------------------------------------------------------------------------------ */

typedef struct lookstudio_engine_options {
    uint32_t struct_size;
    /* The catalog file; NULL: $LOOKSTUDIO_CATALOG, else the XDG default, as the command line. A catalog that does
       not exist is created and seeded with the shipped looks. */
    const char *catalog_path;
    /* Extra plugin folders, colon-separated, searched before $LOOKSTUDIO_PLUGIN_PATH and the library's own
       plugins (PREFIX/lib/lookstudio/plugins); NULL: none. Plugins are loaded only when a call needs them. */
    const char *plugin_dirs;
} lookstudio_engine_options;

/* Fills `options` with the defaults and its struct_size. */
void lookstudio_engine_options_init(lookstudio_engine_options *options);
/* Opens an engine; `options` NULL means the defaults. The catalog is opened read-only (created first when it does
   not exist). */
lookstudio_status lookstudio_engine_open(const lookstudio_engine_options *options, lookstudio_engine **engine,
                                         lookstudio_error **error);
/* Closes an engine; no call on it may be running. NULL is allowed. */
void lookstudio_engine_close(lookstudio_engine *engine);

/* ---- Images ------------------------------------------------------------------------------------------------ */

typedef struct lookstudio_image_desc {
    uint32_t struct_size;
    int32_t channels;   /* 3 (RGB) or 4 (RGBA; alpha passes through unchanged) */
    int32_t bits;       /* 8 (uint8_t samples) or 16 (native-endian uint16_t samples, 2-byte aligned) */
    int32_t reserved;   /* 0 */
    int64_t width;      /* pixels per row, > 0 */
    int64_t height;     /* rows, > 0 */
    int64_t stride;     /* bytes from the start of one row to the next, >= width * channels * bits / 8 */
    void *pixels;       /* the first row; borrowed, not copied: keep it valid while the image is used */
    const uint8_t *icc; /* the pixels' ICC profile (copied); NULL: untagged, read as sRGB */
    size_t icc_size;
} lookstudio_image_desc;

/* Fills `desc` with zeros and its struct_size. */
void lookstudio_image_desc_init(lookstudio_image_desc *desc);
/* Wraps caller memory as an image after checking the description (and parsing the ICC profile). */
lookstudio_status lookstudio_image_create(const lookstudio_image_desc *desc, lookstudio_image **image,
                                          lookstudio_error **error);
void lookstudio_image_free(lookstudio_image *image);

/* ---- Looks ------------------------------------------------------------------------------------------------- */

typedef struct lookstudio_look_info {
    uint32_t struct_size;
    int32_t cube_size;         /* entries per axis */
    int32_t version;           /* the look's version number */
    int32_t reserved;
    const char *guid;          /* every string and array here lives as long as the list */
    const char *name;
    const char *description;
    const char *working_space; /* the space the look was authored in ("srgb", "display-p3", an ICC's name) */
    const char *const *tags;
    size_t tag_count;
} lookstudio_look_info;

/* The catalog's looks by name; `tag` NULL: all. */
lookstudio_status lookstudio_looks_list(lookstudio_engine *engine, const char *tag, lookstudio_looks **looks,
                                        lookstudio_error **error);
/* One look by GUID, GUID prefix, name or name@N (a list of one); LOOKSTUDIO_NOT_FOUND when there is none. */
lookstudio_status lookstudio_look_find(lookstudio_engine *engine, const char *reference, lookstudio_looks **looks,
                                       lookstudio_error **error);
size_t lookstudio_looks_count(const lookstudio_looks *looks);
/* Fills `info` (its struct_size set by the caller) with look `index`. */
lookstudio_status lookstudio_looks_get(const lookstudio_looks *looks, size_t index, lookstudio_look_info *info,
                                       lookstudio_error **error);
void lookstudio_looks_free(lookstudio_looks *looks);

/* ---- Analysis: detect once --------------------------------------------------------------------------------- */

typedef struct lookstudio_face {
    int64_t x, y, width, height; /* in the image's pixels; a box may reach past its edges */
    double score;
} lookstudio_face;

typedef struct lookstudio_analysis_info {
    uint32_t struct_size;
    int32_t scene;                /* scene label: 1 general, 8 product, 9 people, 60 low light, 91 underwater, … */
    double confidence;            /* 0…1; a scene's look is applied from 0.75 on */
    const char *scene_name;       /* the strings and the face array live as long as the analysis */
    const lookstudio_face *faces; /* best first */
    size_t face_count;
    const char *json;             /* the `lookstudio detect --json` object: statistics, faces, correction plan */
} lookstudio_analysis_info;

/* Analyses an image: scene, confidence, faces and the automatic correction's measurements. */
lookstudio_status lookstudio_detect(lookstudio_engine *engine, const lookstudio_image *image,
                                    lookstudio_analysis **analysis, lookstudio_error **error);
/* Analyses an image file exactly as `lookstudio detect` and `correct` do (a JPEG through its reduced decode). */
lookstudio_status lookstudio_detect_file(lookstudio_engine *engine, const char *path, lookstudio_analysis **analysis,
                                         lookstudio_error **error);
/* Fills `info` (its struct_size set by the caller). */
lookstudio_status lookstudio_analysis_get(const lookstudio_analysis *analysis, lookstudio_analysis_info *info,
                                          lookstudio_error **error);
void lookstudio_analysis_free(lookstudio_analysis *analysis);

/* ---- Parameters: a plain value the caller owns and copies -------------------------------------------------- */

typedef struct lookstudio_params {
    uint32_t struct_size;
    int32_t auto_correct;   /* LOOKSTUDIO_AUTO_SCENE (default), _OFF or _ON; needs an analysis unless off */
    /* The creative look: GUID, GUID prefix, name or name@N, borrowed for the call. NULL or "": with an analysis
       the detected scene's default look (as `correct`), without one no look. */
    const char *look;
    int32_t no_look;        /* 1: no creative look, not even the scene's (`correct --no-look`) */
    int32_t output_space;   /* LOOKSTUDIO_OUTPUT_KEEP (default), … */
    double look_strength;   /* 0…200 percent; LOOKSTUDIO_DEFAULT_STRENGTH (default): 100, or the scene's */
    double strength;        /* overall strength against the input, 0…100 percent (default 100) */
    double look_contrast;   /* −100…100 (default 0) */
    double look_saturation; /* −100…100 (default 0) */
    /* The automatic correction's stages, percent of the engine's choice, 0…200 (default 100 each). */
    double exposure, levels, white_balance, contrast, vibrance;
    int32_t intent;         /* LOOKSTUDIO_INTENT_RELATIVE (default) or _PERCEPTUAL */
    int32_t interpolation;  /* LOOKSTUDIO_TETRAHEDRAL (default) or _TRILINEAR */
    int32_t threads;        /* cores this call uses; 0 (default): all */
    int32_t reserved;
    /* Pre-look adjustments: a recipe file (YAML, docs/RECIPES.md) composed with the plugins the engine finds, as
       `correct --recipe`; borrowed for the call. NULL (default): none. */
    const char *recipe;
} lookstudio_params;

/* Fills `params` with the defaults and its struct_size. */
void lookstudio_params_init(lookstudio_params *params);

/* ---- Apply many -------------------------------------------------------------------------------------------- */

/* Renders `input` into `output` (same width, height, channels and bits; the same memory renders in place).
   `analysis` NULL: the look alone, as `lookstudio apply --look L --strength look_strength`; else the correction,
   as `lookstudio correct`: automatic correction, look and strengths from `params`. */
lookstudio_status lookstudio_apply(lookstudio_engine *engine, const lookstudio_image *input,
                                   const lookstudio_analysis *analysis, const lookstudio_params *params,
                                   lookstudio_image *output, lookstudio_error **error);
/* lookstudio_apply for `count` parameter sets into `count` outputs (one analysis, many strengths). */
lookstudio_status lookstudio_apply_many(lookstudio_engine *engine, const lookstudio_image *input,
                                        const lookstudio_analysis *analysis, const lookstudio_params *params,
                                        lookstudio_image *const *outputs, size_t count, lookstudio_error **error);
/* The one cube lookstudio_apply uses for `image` (NULL: an untagged sRGB image) and these parameters, resampled
   to `size` points per axis (2…256): `values` receives size³ RGB triples of floats (`count` = size³·3), red
   fastest — index ((b·size + g)·size + r)·3 + channel — mapping input code values 0…1 to output code values. */
lookstudio_status lookstudio_cube(lookstudio_engine *engine, const lookstudio_image *image,
                                  const lookstudio_analysis *analysis, const lookstudio_params *params, int32_t size,
                                  float *values, size_t count, lookstudio_error **error);

/* cdef:end */
