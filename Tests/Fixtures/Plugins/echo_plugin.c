/*
 * A test plugin written in C against the Switchyard plugin ABI.
 *
 *  - authorize: asks the host to send one HTTP request, then answers `authorized` with
 *    providerStatus "host-ok" when the host reported a response (proving host services work);
 *  - sync: answers `succeeded` at once, with the plugin version as providerStatus;
 *  - refund: parks the call (logging "refund parked") until the host cancels it, then answers the error `cancelled`;
 *  - anything else: the error `not_supported`.
 *
 * Build knobs: FIXTURE_ABI (ABI version in the table and manifest), FIXTURE_ID, FIXTURE_VERSION,
 * FIXTURE_BAD_MANIFEST (a manifest that is not JSON), FIXTURE_NO_ENTRY (no entry symbol).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switchyard_plugin.h"

#ifndef FIXTURE_ABI
#define FIXTURE_ABI SWITCHYARD_PLUGIN_ABI_VERSION
#endif
#ifndef FIXTURE_ID
#define FIXTURE_ID "echo"
#endif
#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "1.0.0"
#endif

#define FIXTURE_STR2(x) #x
#define FIXTURE_STR(x) FIXTURE_STR2(x)

#ifdef FIXTURE_BAD_MANIFEST
static const char manifest[] = "{this is not json";
#else
static const char manifest[] =
    "{\"id\":\"" FIXTURE_ID "\",\"version\":\"" FIXTURE_VERSION "\",\"provider\":\"Echo\","
    "\"abiVersion\":" FIXTURE_STR(FIXTURE_ABI) ",\"flows\":[\"authorize\",\"sync\",\"refund\"],"
    "\"methods\":[\"card\"],\"countries\":[],\"currencies\":[],\"honoursIdempotencyKey\":false,"
    "\"usesAccessToken\":false,\"credentials\":[{\"name\":\"api_key\",\"secret\":true,\"required\":true}]}";
#endif

typedef struct {
    sy_host_services host;
    pthread_mutex_t lock;
    int parked;
    uint64_t parked_id;
    sy_completion_fn parked_completion;
    void *parked_context;
} echo_instance;

typedef struct {
    sy_completion_fn completion;
    void *context;
} pending_call;

static void complete(sy_completion_fn completion, void *context, const char *json) {
    completion(context, json, strlen(json));
}

static void *echo_create(const sy_host_services *host) {
    if (host == NULL || host->abi_version != SWITCHYARD_PLUGIN_ABI_VERSION ||
        host->struct_size < sizeof(sy_host_services)) {
        return NULL;
    }
    echo_instance *instance = calloc(1, sizeof(echo_instance));
    if (instance == NULL) return NULL;
    instance->host = *host;
    pthread_mutex_init(&instance->lock, NULL);
    if (instance->host.log != NULL) {
        instance->host.log(instance->host.host_context, SY_LOG_INFO, "echo created", "{\"fixture.version\":\"" FIXTURE_VERSION "\"}");
    }
    return instance;
}

static void echo_destroy(void *pointer) {
    echo_instance *instance = pointer;
    if (instance == NULL) return;
    pthread_mutex_destroy(&instance->lock);
    free(instance);
}

static void on_http_done(void *context, const char *json, size_t length) {
    pending_call *call = context;
    (void)length;
    if (json != NULL && strstr(json, "\"kind\":\"response\"") != NULL) {
        complete(call->completion, call->context,
                 "{\"result\":{\"kind\":\"authorized\",\"providerPaymentId\":\"echo-" FIXTURE_VERSION
                 "\",\"providerStatus\":\"host-ok\"}}");
    } else {
        complete(call->completion, call->context,
                 "{\"result\":{\"kind\":\"unknown\",\"providerStatus\":\"host-failed\"}}");
    }
    free(call);
}

static void echo_invoke(void *pointer, uint64_t call_id, const char *method, const char *request_json,
                        size_t request_length, sy_completion_fn completion, void *completion_context) {
    echo_instance *instance = pointer;
    (void)request_json;
    (void)request_length;
    if (strcmp(method, "authorize") == 0) {
        pending_call *call = malloc(sizeof(pending_call));
        call->completion = completion;
        call->context = completion_context;
        static const char request[] =
            "{\"method\":\"POST\",\"url\":\"http://127.0.0.1:9/echo\",\"headers\":[{\"name\":\"Authorization\","
            "\"value\":\"Bearer fixture-secret\"}],\"redactHeaders\":[]}";
        instance->host.http_send(instance->host.host_context, request, strlen(request), on_http_done, call);
    } else if (strcmp(method, "sync") == 0) {
        complete(completion, completion_context,
                 "{\"result\":{\"kind\":\"succeeded\",\"providerStatus\":\"v" FIXTURE_VERSION "\"}}");
    } else if (strcmp(method, "refund") == 0) {
        pthread_mutex_lock(&instance->lock);
        int busy = instance->parked;
        if (!busy) {
            instance->parked = 1;
            instance->parked_id = call_id;
            instance->parked_completion = completion;
            instance->parked_context = completion_context;
        }
        pthread_mutex_unlock(&instance->lock);
        if (busy) {
            complete(completion, completion_context, "{\"error\":{\"code\":\"busy\",\"message\":\"one refund at a time\"}}");
        } else if (instance->host.log != NULL) {
            /* Tests await this line: the call is parked. */
            instance->host.log(instance->host.host_context, SY_LOG_INFO, "refund parked", "{}");
        }
    } else {
        complete(completion, completion_context, "{\"error\":{\"code\":\"not_supported\",\"message\":\"unknown method\"}}");
    }
}

static void echo_cancel(void *pointer, uint64_t call_id) {
    echo_instance *instance = pointer;
    sy_completion_fn completion = NULL;
    void *context = NULL;
    pthread_mutex_lock(&instance->lock);
    if (instance->parked && instance->parked_id == call_id) {
        instance->parked = 0;
        completion = instance->parked_completion;
        context = instance->parked_context;
    }
    pthread_mutex_unlock(&instance->lock);
    if (completion != NULL) {
        complete(completion, context, "{\"error\":{\"code\":\"cancelled\",\"message\":\"cancelled\"}}");
    }
}

static const sy_plugin_table echo_table = {
    .abi_version = FIXTURE_ABI,
    .struct_size = sizeof(sy_plugin_table),
    .manifest_json = manifest,
    .create = echo_create,
    .destroy = echo_destroy,
    .invoke = echo_invoke,
    .cancel = echo_cancel,
};

#ifndef FIXTURE_NO_ENTRY
__attribute__((visibility("default"))) const sy_plugin_table *switchyard_plugin_entry(void) { return &echo_table; }
#else
__attribute__((visibility("default"))) const sy_plugin_table *fixture_not_the_entry(void) { return &echo_table; }
#endif
