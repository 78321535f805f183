/*
 * Reports the layout of the plugin ABI header it is compiled against: the constants, and the offset and
 * size of every field of `sy_plugin_table` and `sy_host_services`, as one line of text per item
 * (`<name> <value>` or `<struct>.<field> <offset> <size>`).
 *
 * `FrozenHeaderTests` builds it against the frozen header of `v1-first/` and compares each line with the
 * layout the host reads (the current header, as Swift imports it). Build with the header directory of
 * choice first on the include path:
 *     cc -shared -fPIC -I Tests/Fixtures/ABI/v1-first -o abi_layout.so Tests/Fixtures/ABI/abi_layout.c
 */
#include <stddef.h>
#include <stdio.h>

#include "switchyard_plugin.h"

#define FIELD(type, field) \
    used += snprintf(text + used, sizeof(text) - used, "%s.%s %zu %zu\n", #type, #field, offsetof(type, field), \
                     sizeof(((type *)0)->field))

/* The layout report, NUL-terminated; built once, never freed. */
__attribute__((visibility("default"))) const char *switchyard_abi_layout(void) {
    static char text[4096];
    size_t used = 0;
    used += snprintf(text + used, sizeof(text) - used, "SWITCHYARD_PLUGIN_ABI_VERSION %d\n",
                     SWITCHYARD_PLUGIN_ABI_VERSION);
    used += snprintf(text + used, sizeof(text) - used, "SWITCHYARD_PLUGIN_ENTRY_SYMBOL %s\n",
                     SWITCHYARD_PLUGIN_ENTRY_SYMBOL);
    used += snprintf(text + used, sizeof(text) - used, "SY_LOG_LEVELS %d %d %d %d %d %d\n", SY_LOG_TRACE,
                     SY_LOG_DEBUG, SY_LOG_INFO, SY_LOG_NOTICE, SY_LOG_WARNING, SY_LOG_ERROR);
    used += snprintf(text + used, sizeof(text) - used, "sizeof(sy_plugin_table) %zu\n", sizeof(sy_plugin_table));
    used += snprintf(text + used, sizeof(text) - used, "sizeof(sy_host_services) %zu\n", sizeof(sy_host_services));
    FIELD(sy_plugin_table, abi_version);
    FIELD(sy_plugin_table, struct_size);
    FIELD(sy_plugin_table, manifest_json);
    FIELD(sy_plugin_table, create);
    FIELD(sy_plugin_table, destroy);
    FIELD(sy_plugin_table, invoke);
    FIELD(sy_plugin_table, cancel);
    FIELD(sy_host_services, abi_version);
    FIELD(sy_host_services, struct_size);
    FIELD(sy_host_services, host_context);
    FIELD(sy_host_services, http_send);
    FIELD(sy_host_services, log);
    FIELD(sy_host_services, now_ms);
    return text;
}
