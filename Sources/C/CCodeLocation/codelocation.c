#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include "codelocation.h"

const char *lscode_image_path(void) {
    Dl_info info;
    if (dladdr((const void *)&lscode_image_path, &info) != 0 && info.dli_fname != NULL && info.dli_fname[0] != '\0') {
        return info.dli_fname;
    }
    return NULL;
}
