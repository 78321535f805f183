/*
 * A minimal test plugin for the checks made before a plugin is accepted: it answers `sync` with
 * `succeeded` (providerStatus "probe-<id>") and nothing else.
 *
 * Build knobs:
 *  - FIXTURE_ID: the manifest's id (default "probe");
 *  - FIXTURE_CRASH_IN_ENTRY: the entry function dereferences NULL (SIGSEGV);
 *  - FIXTURE_HANG_IN_ENTRY: the entry function never returns;
 *  - FIXTURE_MARKER_FILE="path": a constructor (run by dlopen, before any check) creates that file;
 *  - FIXTURE_SMALL_TABLE: the table ends after `invoke` (struct_size excludes `cancel`, whose slot holds
 *    a pointer the host must never call);
 *  - FIXTURE_LARGE_TABLE: the table has two more entries than this header knows;
 *  - FIXTURE_STRUCT_SIZE=n: the table claims to be n bytes.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "switchyard_plugin.h"

#ifndef FIXTURE_ID
#define FIXTURE_ID "probe"
#endif

#define PROBE_STR2(x) #x
#define PROBE_STR(x) PROBE_STR2(x)

static const char manifest[] =
    "{\"id\":\"" FIXTURE_ID "\",\"version\":\"1.0.0\",\"provider\":\"Probe\","
    "\"abiVersion\":" PROBE_STR(SWITCHYARD_PLUGIN_ABI_VERSION) ",\"flows\":[\"sync\"],"
    "\"methods\":[\"card\"],\"countries\":[],\"currencies\":[],\"honoursIdempotencyKey\":false,"
    "\"usesAccessToken\":false,\"credentials\":[]}";

#ifdef FIXTURE_MARKER_FILE
__attribute__((constructor)) static void probe_constructor(void) {
    int fd = open(FIXTURE_MARKER_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) {
        (void)write(fd, "constructor ran\n", 16);
        close(fd);
    }
}
#endif

static void *probe_create(const sy_host_services *host) {
    if (host == NULL || host->abi_version != SWITCHYARD_PLUGIN_ABI_VERSION) return NULL;
    return calloc(1, 1);
}

static void probe_destroy(void *instance) { free(instance); }

static void probe_invoke(void *instance, uint64_t call_id, const char *method, const char *request_json,
                         size_t request_length, sy_completion_fn completion, void *completion_context) {
    (void)instance;
    (void)call_id;
    (void)request_json;
    (void)request_length;
    const char *reply = strcmp(method, "sync") == 0
                            ? "{\"result\":{\"kind\":\"succeeded\",\"providerStatus\":\"probe-" FIXTURE_ID "\"}}"
                            : "{\"error\":{\"code\":\"not_supported\",\"message\":\"unknown method\"}}";
    completion(completion_context, reply, strlen(reply));
}

__attribute__((unused)) static void probe_cancel(void *instance, uint64_t call_id) {
    (void)instance;
    (void)call_id;
}

#if defined(FIXTURE_LARGE_TABLE)
/* A table from a newer header: two entries this host does not know. */
typedef struct {
    sy_plugin_table known;
    void (*future_entry)(void *instance);
    uint64_t future_flags;
} probe_large_table;

static const probe_large_table probe_table_storage = {
    .known = {
        .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
        .struct_size = sizeof(probe_large_table),
        .manifest_json = manifest,
        .create = probe_create,
        .destroy = probe_destroy,
        .invoke = probe_invoke,
        .cancel = probe_cancel,
    },
    .future_entry = NULL,
    .future_flags = 0xffffffffffffffffULL,
};
#define PROBE_TABLE (&probe_table_storage.known)
#else
static const sy_plugin_table probe_table_storage = {
    .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
#if defined(FIXTURE_SMALL_TABLE)
    /* A table from an older header that ended with `invoke`; the slot after it is not the plugin's. */
    .struct_size = offsetof(sy_plugin_table, cancel),
    .cancel = (void (*)(void *, uint64_t))(uintptr_t)0x1,
#elif defined(FIXTURE_STRUCT_SIZE)
    .struct_size = FIXTURE_STRUCT_SIZE,
    .cancel = probe_cancel,
#else
    .struct_size = sizeof(sy_plugin_table),
    .cancel = probe_cancel,
#endif
    .manifest_json = manifest,
    .create = probe_create,
    .destroy = probe_destroy,
    .invoke = probe_invoke,
};
#define PROBE_TABLE (&probe_table_storage)
#endif

__attribute__((visibility("default"))) const sy_plugin_table *switchyard_plugin_entry(void) {
#if defined(FIXTURE_CRASH_IN_ENTRY)
    volatile int *nowhere = NULL;
    *nowhere = 42;
#elif defined(FIXTURE_HANG_IN_ENTRY)
    for (;;) pause();
#endif
    return PROBE_TABLE;
}
