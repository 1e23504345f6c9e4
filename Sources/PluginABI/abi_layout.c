/*
 * Compile-time guards on the descriptor layout. Plugins built against an older copy of the header are read
 * field by field by the host, so a layout change that did not bump LOOKSTUDIO_PLUGIN_ABI_VERSION would make
 * the host misread them; these assertions fail the build instead. Update them together with the version.
 */
#include "lookstudio_plugin.h"

_Static_assert(LOOKSTUDIO_PLUGIN_ABI_VERSION == 1u, "update the layout checks below with the ABI version");
_Static_assert(offsetof(lookstudio_plugin, abi_version) == 0, "abi_version must stay the first field");
_Static_assert(offsetof(lookstudio_parameter, kind) == 3 * sizeof(void *), "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, identity_value) == 3 * sizeof(void *) + 16, "parameter layout changed");
_Static_assert(offsetof(lookstudio_adjustment, parameter_count) == 5 * sizeof(void *), "adjustment layout changed");
_Static_assert(offsetof(lookstudio_adjustment, apply) == 6 * sizeof(void *), "adjustment layout changed");
_Static_assert(offsetof(lookstudio_plugin, adjustment_count) == 4 * sizeof(void *), "plugin layout changed");

