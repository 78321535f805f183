/*
 * A plugin that breaks the ABI's contract on purpose, for `switchyard plugins check` to name each fault:
 *  - it logs its secret credential and puts it in an error message and an outbound URL;
 *  - any answer of the provider is a success (a 503, an unreadable body), a failure to send a decline;
 *  - it completes an authorize twice, and never completes a cancelled call;
 *  - it also sends a request outside the account's base URL;
 *  - it says the provider honours an idempotency key and sends none;
 *  - it accepts every notification, and its sync reply does not match the schema.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switchyard_plugin.h"

static const char manifest[] =
    "{\"id\":\"broken\",\"version\":\"0.0.1\",\"provider\":\"Broken\",\"abiVersion\":1,"
    "\"flows\":[\"authorize\",\"sync\",\"notification\"],\"methods\":[\"card\"],\"countries\":[],\"currencies\":[\"EUR\"],"
    "\"honoursIdempotencyKey\":true,\"usesAccessToken\":false,"
    "\"credentials\":[{\"name\":\"api_key\",\"secret\":true,\"required\":true}]}";

typedef struct broken_call {
    sy_completion_fn completion;
    void *context;
    int authorize;
} broken_call;

static sy_host_services host_services;

static void reply(sy_completion_fn completion, void *context, const char *json) { completion(context, json, strlen(json)); }

static void *broken_create(const sy_host_services *host) {
    if (host == NULL || host->struct_size < sizeof(sy_host_services)) return NULL;
    host_services = *host;
    return &host_services;
}

static void broken_destroy(void *instance) { (void)instance; }

static char *string_value(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof(pattern), "\"%s\":\"", key);
    const char *start = strstr(json, pattern);
    if (start == NULL) return NULL;
    start += strlen(pattern);
    const char *end = strchr(start, '"');
    if (end == NULL) return NULL;
    char *value = calloc(1, (size_t)(end - start) + 1);
    if (value != NULL) memcpy(value, start, (size_t)(end - start));
    return value;
}

static void on_result(void *context, const char *json, size_t length) {
    broken_call *call = context;
    (void)length;
    if (strstr(json, "\"kind\":\"notSent\"") != NULL) {
        reply(call->completion, call->context, "{\"result\":{\"kind\":\"declined\",\"code\":\"refused\",\"message\":\"no\"}}");
    } else {
        reply(call->completion, call->context, "{\"result\":{\"kind\":\"succeeded\",\"providerPaymentId\":\"b-1\"}}");
        /* The second completion of the same call. */
        if (call->authorize) {
            reply(call->completion, call->context, "{\"result\":{\"kind\":\"succeeded\",\"providerPaymentId\":\"b-1\"}}");
        }
    }
    free(call);
}

static void ignore_result(void *context, const char *json, size_t length) {
    (void)context;
    (void)json;
    (void)length;
}

static void broken_invoke(void *instance, uint64_t call_id, const char *method, const char *request_json,
                          size_t request_length, sy_completion_fn completion, void *context) {
    (void)instance;
    (void)call_id;
    (void)request_length;
    if (strcmp(method, "notification") == 0) {
        reply(completion, context,
              "{\"result\":{\"verified\":true,\"reply\":{\"status\":200,\"headers\":[],\"body\":\"ok\"},"
              "\"events\":[{\"subject\":\"payment\",\"reference\":\"any\",\"outcome\":{\"kind\":\"succeeded\"}}]}}");
        return;
    }
    char *base_url = string_value(request_json, "baseURL");
    char *api_key = string_value(request_json, "api_key");
    if (base_url == NULL || api_key == NULL) {
        reply(completion, context, "{\"error\":{\"code\":\"bad_request\",\"message\":\"no account\"}}");
        free(base_url);
        free(api_key);
        return;
    }
    char line[512];
    snprintf(line, sizeof(line), "{\"broken.key\":\"%s\"}", api_key);
    host_services.log(host_services.host_context, SY_LOG_INFO, "calling the provider", line);
    if (strcmp(method, "sync") == 0) {
        /* amount must be an integer: the schema refuses this reply. */
        char result[512];
        snprintf(result, sizeof(result), "{\"result\":{\"kind\":\"unknown\",\"amount\":\"12\",\"message\":\"key %s\"}}",
                 api_key);
        reply(completion, context, result);
        free(base_url);
        free(api_key);
        return;
    }
    broken_call *call = calloc(1, sizeof(broken_call));
    call->completion = completion;
    call->context = context;
    call->authorize = 1;
    char request[1024];
    snprintf(request, sizeof(request), "{\"method\":\"POST\",\"url\":\"%s/pay?key=%s\",\"headers\":[],\"redactHeaders\":[]}",
             base_url, api_key);
    host_services.http_send(host_services.host_context, request, strlen(request), on_result, call);
    const char *stray = "{\"method\":\"GET\",\"url\":\"http://127.0.0.1:9/elsewhere\",\"headers\":[],\"redactHeaders\":[]}";
    host_services.http_send(host_services.host_context, stray, strlen(stray), ignore_result, NULL);
    free(base_url);
    free(api_key);
}

/* Asked to cancel, it does nothing: the call stays open until its HTTP result. */
static void broken_cancel(void *instance, uint64_t call_id) {
    (void)instance;
    (void)call_id;
}

static const sy_plugin_table broken_table = {
    .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(sy_plugin_table),
    .manifest_json = manifest,
    .create = broken_create,
    .destroy = broken_destroy,
    .invoke = broken_invoke,
    .cancel = broken_cancel,
};

const sy_plugin_table *switchyard_plugin_entry(void) { return &broken_table; }
