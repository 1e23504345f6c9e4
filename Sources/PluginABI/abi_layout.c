/*
 * Compile-time guards on the descriptor layouts. Plugins built against an older copy of the header are read
 * field by field by the host, so a layout change that did not bump LOOKSTUDIO_PLUGIN_ABI_VERSION would make
 * the host misread them; these assertions fail the build instead. Update them together with the version.
 */
#include "lookstudio_plugin.h"
#include "lookstudio_plugin_v1.h"

#define P sizeof(void *)

_Static_assert(LOOKSTUDIO_PLUGIN_ABI_VERSION == 2u, "update the layout checks below with the ABI version");
_Static_assert(offsetof(lookstudio_plugin, abi_version) == 0, "abi_version must stay the first field");
_Static_assert(offsetof(lookstudio_parameter, kind) == 3 * P, "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, identity_value) == 3 * P + 16, "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, default_values) == 3 * P + 24, "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, x_min) == 7 * P + 24, "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, max_points) == 7 * P + 32, "parameter layout changed");
_Static_assert(offsetof(lookstudio_parameter, choices) == 8 * P + 40, "parameter layout changed");
_Static_assert(sizeof(lookstudio_value) == 2 * P, "value layout changed");
_Static_assert(offsetof(lookstudio_adjustment, parameter_count) == 5 * P, "adjustment layout changed");
_Static_assert(offsetof(lookstudio_adjustment, apply) == 6 * P, "adjustment layout changed");
_Static_assert(offsetof(lookstudio_plugin, adjustment_count) == 4 * P, "plugin layout changed");

/* Version 1, frozen: the host reads v1 plugins with these layouts. */
_Static_assert(offsetof(lookstudio_plugin_v1, abi_version) == 0, "v1 layout must not change");
_Static_assert(offsetof(lookstudio_parameter_v1, identity_value) == 3 * P + 16, "v1 layout must not change");
_Static_assert(sizeof(lookstudio_parameter_v1) == 3 * P + 24, "v1 layout must not change");
_Static_assert(offsetof(lookstudio_adjustment_v1, apply) == 6 * P, "v1 layout must not change");
_Static_assert(offsetof(lookstudio_plugin_v1, adjustment_count) == 4 * P, "v1 layout must not change");
