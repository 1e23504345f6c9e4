#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

// libwebp's version-checked initialisers are static inline macros-in-disguise; these give Swift plain calls.

static inline int lswebp_features(const uint8_t *data, size_t size, WebPBitstreamFeatures *features) {
    return WebPGetFeatures(data, size, features) == VP8_STATUS_OK;
}

static inline int lswebp_config(WebPConfig *config, float quality, int lossless) {
    if (!WebPConfigInit(config)) return 0;
    config->quality = quality;
    config->lossless = lossless;
    // Lossless must give back every RGB value, even under transparent alpha.
    config->exact = lossless;
    if (lossless) config->method = 4;
    return WebPValidateConfig(config);
}

static inline int lswebp_picture(WebPPicture *picture) { return WebPPictureInit(picture); }

static inline WebPMux *lswebp_mux_new(void) { return WebPMuxNew(); }

static inline WebPMux *lswebp_mux_create(const uint8_t *data, size_t size) {
    WebPData d = { data, size };
    return WebPMuxCreate(&d, 0);
}
