/*
 * The Switchyard provider-plugin ABI.
 *
 * A plugin is a shared object that exports one symbol, `switchyard_plugin_entry`, returning a pointer
 * to a constant `sy_plugin_table`. Everything crosses the boundary as UTF-8 JSON with a completion
 * callback, so a plugin may be written in any language that can export a C symbol.
 *
 * Rules:
 *  - The host checks `abi_version` before any other call and refuses a mismatch.
 *  - The table is append-only; `struct_size` tells the host which entries exist.
 *  - A plugin never performs network I/O itself: it asks the host through `sy_host_services.http_send`.
 *  - Completions may be called from any thread, exactly once per call.
 *  - The buffers passed to a completion are only valid during that callback.
 */
#ifndef SWITCHYARD_PLUGIN_H
#define SWITCHYARD_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version compiled into a plugin. Bump on any breaking change to the structs below. */
#define SWITCHYARD_PLUGIN_ABI_VERSION 1

/** The name of the one symbol a plugin exports. */
#define SWITCHYARD_PLUGIN_ENTRY_SYMBOL "switchyard_plugin_entry"

/** Called exactly once with the JSON result of an asynchronous call. */
typedef void (*sy_completion_fn)(void *completion_context, const char *json, size_t json_length);

/** Log levels understood by the host's `log` service. */
enum {
    SY_LOG_TRACE = 0,
    SY_LOG_DEBUG = 1,
    SY_LOG_INFO = 2,
    SY_LOG_NOTICE = 3,
    SY_LOG_WARNING = 4,
    SY_LOG_ERROR = 5,
};

/** Services the host offers to a plugin instance; passed to `create`. */
typedef struct sy_host_services {
    uint32_t abi_version;
    uint32_t struct_size;
    /** Opaque host state; pass it back as the first argument of every service. */
    void *host_context;
    /**
     * Sends an HTTP request described by `request_json` (see ProviderKit's `OutboundRequest`).
     * The completion receives an `OutboundResult` JSON.
     */
    void (*http_send)(void *host_context, const char *request_json, size_t request_length,
                      sy_completion_fn completion, void *completion_context);
    /** Logs a message; `metadata_json` is a flat JSON object of string values, or NULL. */
    void (*log)(void *host_context, int32_t level, const char *message, const char *metadata_json);
    /** Milliseconds since the Unix epoch, from the host's (possibly injected) clock. */
    int64_t (*now_ms)(void *host_context);
} sy_host_services;

/** The constant table a plugin exports. */
typedef struct sy_plugin_table {
    uint32_t abi_version;
    uint32_t struct_size;
    /** NUL-terminated JSON manifest (see ProviderKit's `PluginManifest`). */
    const char *manifest_json;
    /** Creates an instance bound to the given host services. Returns NULL on failure. */
    void *(*create)(const sy_host_services *host);
    /** Destroys an instance. No call may be in flight. */
    void (*destroy)(void *instance);
    /**
     * Starts the call `call_id` of `method` (a flow name) with `request_json`.
     * The completion receives a `PluginReply` JSON.
     */
    void (*invoke)(void *instance, uint64_t call_id, const char *method, const char *request_json,
                   size_t request_length, sy_completion_fn completion, void *completion_context);
    /** Asks the plugin to stop work on `call_id`; its completion is still called once. */
    void (*cancel)(void *instance, uint64_t call_id);
} sy_plugin_table;

/** The signature of the exported entry symbol. */
typedef const sy_plugin_table *(*sy_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* SWITCHYARD_PLUGIN_H */
