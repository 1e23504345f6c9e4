/*
 * Compile-time guards on the layouts lookstudio.h promises (ABI version 1, 64-bit platforms). A program built
 * against an older copy of the header passes structs of its size, so a field that moved would be misread; these
 * assertions fail the build instead. New fields go at the end of a struct, with an assertion here.
 */
#include <stddef.h>
#include "lookstudio.h"

#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert(LOOKSTUDIO_ABI_VERSION == 1, "update the layout checks below with the ABI version");
_Static_assert(sizeof(lookstudio_engine_options) == 24, "engine options layout changed");
_Static_assert(offsetof(lookstudio_image_desc, width) == 16, "image description layout changed");
_Static_assert(offsetof(lookstudio_image_desc, pixels) == 40, "image description layout changed");
_Static_assert(sizeof(lookstudio_image_desc) == 64, "image description layout changed");
_Static_assert(offsetof(lookstudio_look_info, guid) == 16, "look info layout changed");
_Static_assert(sizeof(lookstudio_look_info) == 64, "look info layout changed");
_Static_assert(sizeof(lookstudio_face) == 40, "face layout changed");
_Static_assert(offsetof(lookstudio_analysis_info, confidence) == 8, "analysis info layout changed");
_Static_assert(sizeof(lookstudio_analysis_info) == 48, "analysis info layout changed");
_Static_assert(offsetof(lookstudio_params, look) == 8, "params layout changed");
_Static_assert(offsetof(lookstudio_params, look_strength) == 24, "params layout changed");
_Static_assert(offsetof(lookstudio_params, vibrance) == 88, "params layout changed");
_Static_assert(offsetof(lookstudio_params, recipe) == 112, "params layout changed");
_Static_assert(sizeof(lookstudio_params) == 120, "params layout changed");
#endif
