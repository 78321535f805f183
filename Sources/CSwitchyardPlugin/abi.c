#include "switchyard_plugin.h"

/* The ABI version as a symbol-free constant for languages that cannot read macros. */
uint32_t sy_abi_version_compiled(void) { return SWITCHYARD_PLUGIN_ABI_VERSION; }
