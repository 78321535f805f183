/*
 * The Switchyard provider-plugin ABI.
 *
 * A plugin is a shared object that exports one symbol, `switchyard_plugin_entry`, returning a pointer
 * to a constant `sy_plugin_table`. Everything crosses the boundary as UTF-8 JSON with a completion
 * callback, so a plugin may be written in any language that can export a C symbol. JSON Schemas
 * (draft 2020-12) of the manifest, of every flow's request and reply and of the host services'
 * messages are in `../schema/` beside this header; `Plugins/Examples/c-echo` is a complete plugin in
 * plain C.
 *
 * Loading.
 *  - A new or changed file is first opened in a disposable, restricted scanner process (no file
 *    writes, no network, no new programs): the entry function and the plugin's initialisers
 *    (constructors) run there. Only a file the policy accepts is opened again to serve calls (in a
 *    worker process, or in the server when the operator trusts it). Initialisers and the entry function
 *    must therefore be free of side effects: they may run several times, in several processes.
 *  - `switchyard_plugin_entry` is called with no lock held, from any thread; it returns the same
 *    constant table every time. The table and every string it points to (the manifest) stay valid
 *    and unchanged for as long as the image is mapped; the host never frees them.
 *  - The host checks `abi_version` before reading anything else in the table and refuses a mismatch.
 *    The manifest's `abiVersion` must match too.
 *
 * Versioning by `struct_size` (both tables).
 *  - A table is append-only: new entries are only ever added at the end, and `struct_size` is the
 *    size of the table as its author compiled it (`sizeof` of the struct in the header used).
 *  - The host reads only the entries within the plugin's `struct_size`: a smaller table (an older
 *    plugin) lacks the later entries, which the host treats as "not supported"; a larger table (a
 *    newer plugin) has entries the host does not know, which it ignores. The smallest table accepted
 *    ends with `invoke`: `create`, `destroy` and `invoke` are required, `cancel` may be absent (outside
 *    `struct_size`) or NULL.
 *  - The same rule holds for `sy_host_services` on the plugin's side: a plugin must read only the
 *    services within the host's `struct_size` (treating later ones as absent) and must accept a larger
 *    table. Every host of ABI version 1 provides `http_send`, `log` and `now_ms`; `log_level` came
 *    later, so a plugin treats it as absent when it lies outside the host's `struct_size` or is NULL.
 *
 * Buffers and strings.
 *  - Every JSON buffer is UTF-8, passed as a pointer and a length in bytes (the length excludes any
 *    terminator); the host also NUL-terminates every buffer it passes, so `json[length] == '\0'`.
 *    A plugin must pass exact lengths; it need not NUL-terminate buffers it passes to a completion or
 *    to `http_send`. Strings passed without a length (`method`, `message`, `metadata_json`, the
 *    manifest) are NUL-terminated.
 *  - Whoever passes a buffer owns it. The receiver may read it only during the call (for a completion:
 *    during the callback) and must copy what it keeps: the request of `invoke` is valid until `invoke`
 *    returns, the `method` string too; the JSON given to a completion until the completion returns.
 *  - The manifest, returned by the table, must stay valid for the life of the image.
 *
 * Threads and calls.
 *  - `create` and `destroy` are never called concurrently with each other for one instance;
 *    `destroy` is called only when no call of the instance is in flight (every completion was called).
 *  - `invoke` and `cancel` may be called from any host thread, concurrently, for different calls of
 *    the same instance; `invoke` must return promptly (it starts the work; it must not wait for the
 *    provider). `cancel(call_id)` is only ever called after `invoke(call_id)` returned.
 *  - A completion may be called from any thread, including inside `invoke` itself, exactly once per
 *    call; after it the call is over and its `completion_context` must not be used again.
 *  - Host services (`http_send`, `log`, `now_ms`) may be called from any thread, concurrently, while
 *    the instance exists. `http_send`'s completion is called exactly once, possibly on another thread,
 *    possibly before `http_send` returns.
 *
 * Cancellation.
 *  - `cancel(call_id)` asks the plugin to stop work on a call in flight (the host's deadline passed or
 *    the caller went away). The plugin must still call that call's completion exactly once: with its
 *    real result if it already had one, otherwise with the error reply
 *    `{"error":{"code":"cancelled","message":"…"}}`. `cancel` for a call already completed, or an
 *    unknown `call_id`, does nothing. When `cancel` is NULL or absent the host cannot ask the plugin
 *    to stop a call.
 *
 * Network and secrets.
 *  - A plugin never performs network I/O itself: it asks the host through `sy_host_services.http_send`
 *    (the host owns timeouts, TLS, egress rules and redaction). It never logs secrets: metadata values
 *    given to `log` are logged as they are.
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

/**
 * Called exactly once with the JSON result of an asynchronous call. `json` (NUL-terminated when the
 * host calls it) is valid only during the callback.
 */
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
     * Sends an HTTP request described by `request_json` (schema `outbound-request.json`), valid during
     * this call only. The completion receives an `OutboundResult` JSON (`outbound-result.json`), once,
     * from any thread.
     */
    void (*http_send)(void *host_context, const char *request_json, size_t request_length,
                      sy_completion_fn completion, void *completion_context);
    /**
     * Logs a NUL-terminated message; `metadata_json` is NULL or a NUL-terminated flat JSON object of
     * string values (`log-metadata.json`). Both are read during the call only.
     */
    void (*log)(void *host_context, int32_t level, const char *message, const char *metadata_json);
    /** Milliseconds since the Unix epoch, from the host's (possibly injected) clock. */
    int64_t (*now_ms)(void *host_context);
    /**
     * Optional (NULL, or outside an older host's `struct_size`): the lowest level (`SY_LOG_*`) the host
     * records. A plugin may skip building log lines below it; the host drops them anyway.
     */
    int32_t (*log_level)(void *host_context);
} sy_host_services;

/** The constant table a plugin exports. */
typedef struct sy_plugin_table {
    uint32_t abi_version;
    uint32_t struct_size;
    /** NUL-terminated JSON manifest (`manifest.json`), valid for the life of the image. */
    const char *manifest_json;
    /**
     * Creates an instance bound to the given host services. `host` (and its table) stays valid until
     * `destroy` of that instance returns; the plugin may keep the pointer or copy the table. Returns
     * NULL on failure.
     */
    void *(*create)(const sy_host_services *host);
    /** Destroys an instance. The host calls it only when no call of the instance is in flight. */
    void (*destroy)(void *instance);
    /**
     * Starts the call `call_id` (unique per instance) of `method` (a flow name, NUL-terminated) with
     * `request_json` (`{"account": …, "request": …}`, schema `flows/<flow>.request.json`), both valid
     * until `invoke` returns. Returns promptly; the completion receives a `PluginReply` JSON
     * (`{"result": …}` per `flows/<flow>.reply.json`, or `{"error": {"code", "message"}}`) exactly once.
     */
    void (*invoke)(void *instance, uint64_t call_id, const char *method, const char *request_json,
                   size_t request_length, sy_completion_fn completion, void *completion_context);
    /**
     * Optional (may be NULL or outside `struct_size`). Asks the plugin to stop work on `call_id`; the
     * call's completion is still called exactly once, with the error code `cancelled` unless a result
     * was already there. Called only after `invoke` for that call returned.
     */
    void (*cancel)(void *instance, uint64_t call_id);
} sy_plugin_table;

/** The signature of the exported entry symbol. */
typedef const sy_plugin_table *(*sy_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* SWITCHYARD_PLUGIN_H */
