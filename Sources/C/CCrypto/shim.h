// OpenSSL's libcrypto (libssl-dev) for SHA-256: the maintained, SHA-NI/AVX2-accelerated digest the catalog hashes
// cube contents with. Only the one-shot EVP call is exposed, wrapped so Swift sees a plain C function.
#include <stddef.h>
#include <openssl/evp.h>

/// Writes the 32-byte SHA-256 digest of `count` bytes at `data` into `digest`; returns 1 on success, 0 on failure.
static inline int lookstudio_sha256(const void *data, size_t count, unsigned char *digest) {
    unsigned int length = 0;
    return EVP_Digest(data, count, digest, &length, EVP_sha256(), NULL) == 1 && length == 32;
}
