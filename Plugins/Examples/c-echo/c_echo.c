/*
 * c-echo: a Switchyard provider plugin in plain C, showing the whole plugin ABI contract
 * (Sources/CSwitchyardPlugin/include/switchyard_plugin.h).
 *
 *  - authorize: POSTs to the account's base URL through the host's `http_send`, with the account's
 *    `api_key` credential as a bearer token (named in `redactHeaders`, so the host never logs it).
 *    A 2xx answer with an empty or JSON-object body is `authorized`, a 4xx `declined`; a request
 *    that never left is `notSent`; a request that may have left without an answer, a 5xx or a body the
 *    plugin cannot read is `unknown` (the provider may have acted: never a success or a decline). `cancel` answers `cancelled` at once;
 *    the late HTTP result is then dropped (the completion is called exactly once).
 *  - sync: answers `succeeded` from a thread of its own (completions may come from any thread).
 *
 * Build: cc -shared -fPIC -I<repo>/Sources/CSwitchyardPlugin/include -o libCEchoPlugin.so c_echo.c -lpthread
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switchyard_plugin.h"

/* The manifest: NUL-terminated, constant, valid for the life of the image. */
static const char manifest[] =
    "{\"id\":\"c-echo\",\"version\":\"1.0.0\",\"provider\":\"C Echo\",\"abiVersion\":1,"
    "\"flows\":[\"authorize\",\"sync\"],\"methods\":[\"card\"],\"countries\":[],\"currencies\":[],"
    "\"honoursIdempotencyKey\":false,\"usesAccessToken\":false,"
    "\"credentials\":[{\"name\":\"api_key\",\"secret\":true,\"required\":true}]}";

/* Whether the host's table (of `struct_size` bytes) has `field`: read nothing beyond its size. */
#define HOST_HAS(host, field) \
    ((host)->struct_size >= offsetof(sy_host_services, field) + sizeof(((sy_host_services *)0)->field))

/* One call in flight: completed exactly once, by whoever gets there first (the result or `cancel`). */
typedef struct echo_call {
    struct echo_call *next;
    uint64_t call_id;
    int completed;
    sy_completion_fn completion;
    void *completion_context;
    struct echo_instance *instance;
} echo_call;

typedef struct echo_instance {
    sy_host_services host; /* the host's entries this plugin knows; absent ones NULL */
    pthread_mutex_t lock;
    echo_call *calls;
} echo_instance;

static void reply(sy_completion_fn completion, void *context, const char *json) {
    completion(context, json, strlen(json)); /* the host copies what it keeps */
}

static void *echo_create(const sy_host_services *host) {
    if (host == NULL || host->abi_version != SWITCHYARD_PLUGIN_ABI_VERSION || !HOST_HAS(host, http_send)) {
        return NULL;
    }
    echo_instance *instance = calloc(1, sizeof(echo_instance));
    if (instance == NULL) return NULL;
    size_t known = host->struct_size < sizeof(sy_host_services) ? host->struct_size : sizeof(sy_host_services);
    memcpy(&instance->host, host, known);
    pthread_mutex_init(&instance->lock, NULL);
    if (HOST_HAS(host, log) && instance->host.log != NULL) {
        instance->host.log(instance->host.host_context, SY_LOG_INFO, "c-echo created", "{\"plugin.example\":\"c-echo\"}");
    }
    return instance;
}

static void echo_destroy(void *pointer) {
    echo_instance *instance = pointer;
    if (instance == NULL) return;
    /* The host destroys an instance only when no call is in flight. */
    pthread_mutex_destroy(&instance->lock);
    free(instance);
}

/* Copies the JSON string value of the first `"key":"…"` in `json` (enough for this example). */
static char *string_value(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof(pattern), "\"%s\":\"", key);
    const char *start = strstr(json, pattern);
    if (start == NULL) return NULL;
    start += strlen(pattern);
    char *value = malloc(strlen(start) + 1);
    if (value == NULL) return NULL;
    size_t length = 0;
    for (const char *p = start; *p != '\0' && *p != '"'; p++) {
        if (*p == '\\' && p[1] != '\0') p++; /* \/ \" \\ : keep the escaped character */
        value[length++] = *p;
    }
    value[length] = '\0';
    return value;
}

/* Removes `call` from the list and marks it completed; returns 0 when someone completed it already. */
static int claim(echo_call *call) {
    echo_instance *instance = call->instance;
    pthread_mutex_lock(&instance->lock);
    int mine = !call->completed;
    call->completed = 1;
    for (echo_call **link = &instance->calls; *link != NULL; link = &(*link)->next) {
        if (*link == call) {
            *link = call->next;
            break;
        }
    }
    pthread_mutex_unlock(&instance->lock);
    return mine;
}

/* Whether the answer's body (base64 in the result's `body`) is empty or starts a JSON object. */
static int body_is_readable(const char *json) {
    const char *body = strstr(json, "\"body\":\"");
    if (body == NULL) return 1;
    body += strlen("\"body\":\"");
    if (*body == '"') return 1;
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *first = strchr(alphabet, body[0]);
    const char *second = body[0] != '\0' ? strchr(alphabet, body[1]) : NULL;
    if (first == NULL || second == NULL || body[0] == '\0' || body[1] == '\0') return 0;
    /* The first decoded byte: 6 bits of the first character, 2 of the second. */
    unsigned char byte = (unsigned char)(((first - alphabet) << 2) | ((second - alphabet) >> 4));
    return byte == '{';
}

/* The completion of `http_send`: any thread, exactly once; `json` is valid during this callback only. */
static void on_http_result(void *context, const char *json, size_t length) {
    echo_call *call = context;
    (void)length;
    if (claim(call)) {
        char result[256];
        const char *status = json != NULL ? strstr(json, "\"status\":") : NULL;
        int code = status != NULL ? atoi(status + strlen("\"status\":")) : 0;
        int answered = json != NULL && strstr(json, "\"kind\":\"response\"") != NULL;
        if (answered && code >= 200 && code < 300 && body_is_readable(json)) {
            snprintf(result, sizeof(result),
                     "{\"result\":{\"kind\":\"authorized\",\"providerPaymentId\":\"c-echo-%llu\",\"providerStatus\":\"%d\"}}",
                     (unsigned long long)call->call_id, code);
        } else if (answered && code >= 400 && code < 500) {
            snprintf(result, sizeof(result),
                     "{\"result\":{\"kind\":\"declined\",\"code\":\"http_%d\",\"message\":\"the echo endpoint refused\","
                     "\"retryable\":false}}",
                     code);
        } else if (json != NULL && strstr(json, "\"kind\":\"notSent\"") != NULL) {
            snprintf(result, sizeof(result), "{\"result\":{\"kind\":\"notSent\",\"code\":\"not_sent\",\"message\":\"not sent\"}}");
        } else if (answered) {
            snprintf(result, sizeof(result),
                     "{\"result\":{\"kind\":\"unknown\",\"code\":\"http_%d\",\"message\":\"an answer the plugin cannot read\"}}",
                     code);
        } else {
            snprintf(result, sizeof(result), "{\"result\":{\"kind\":\"unknown\",\"code\":\"unknown\",\"message\":\"no answer\"}}");
        }
        reply(call->completion, call->completion_context, result);
    }
    free(call);
}

static void authorize(echo_instance *instance, echo_call *call, const char *request_json) {
    char *base_url = string_value(request_json, "baseURL");
    char *api_key = string_value(request_json, "api_key");
    if (base_url == NULL || api_key == NULL || strchr(base_url, '"') != NULL || strchr(api_key, '"') != NULL) {
        if (claim(call)) {
            reply(call->completion, call->completion_context,
                  "{\"error\":{\"code\":\"bad_request\",\"message\":\"the account has no base URL or api_key\"}}");
        }
        free(call);
        free(base_url);
        free(api_key);
        return;
    }
    size_t size = strlen(base_url) + strlen(api_key) + 256;
    char *outbound = malloc(size);
    snprintf(outbound, size,
             "{\"method\":\"POST\",\"url\":\"%s\",\"headers\":[{\"name\":\"Authorization\",\"value\":\"Bearer %s\"}],"
             "\"redactHeaders\":[\"Authorization\"],\"timeoutMs\":5000}",
             base_url, api_key);
    free(base_url);
    free(api_key);
    /* The request buffer is ours: the host reads it during http_send only. */
    instance->host.http_send(instance->host.host_context, outbound, strlen(outbound), on_http_result, call);
    free(outbound);
}

static void *sync_thread(void *context) {
    echo_call *call = context;
    if (claim(call)) {
        reply(call->completion, call->completion_context,
              "{\"result\":{\"kind\":\"succeeded\",\"providerStatus\":\"c-echo\"}}");
    }
    free(call);
    return NULL;
}

static void echo_invoke(void *pointer, uint64_t call_id, const char *method, const char *request_json,
                        size_t request_length, sy_completion_fn completion, void *completion_context) {
    echo_instance *instance = pointer;
    (void)request_length; /* request_json is NUL-terminated too */
    echo_call *call = calloc(1, sizeof(echo_call));
    if (call == NULL) {
        reply(completion, completion_context, "{\"error\":{\"code\":\"plugin_error\",\"message\":\"out of memory\"}}");
        return;
    }
    call->call_id = call_id;
    call->completion = completion;
    call->completion_context = completion_context;
    call->instance = instance;
    pthread_mutex_lock(&instance->lock);
    call->next = instance->calls;
    instance->calls = call;
    pthread_mutex_unlock(&instance->lock);

    if (strcmp(method, "authorize") == 0) {
        authorize(instance, call, request_json);
    } else if (strcmp(method, "sync") == 0) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, sync_thread, call) == 0) {
            pthread_detach(thread);
        } else {
            sync_thread(call);
        }
    } else {
        if (claim(call)) {
            reply(completion, completion_context, "{\"error\":{\"code\":\"not_supported\",\"message\":\"unknown method\"}}");
        }
        free(call);
    }
}

/* Called only after `invoke` for `call_id` returned. Completes the call with `cancelled` unless done. */
static void echo_cancel(void *pointer, uint64_t call_id) {
    echo_instance *instance = pointer;
    echo_call *found = NULL;
    pthread_mutex_lock(&instance->lock);
    for (echo_call *call = instance->calls; call != NULL; call = call->next) {
        if (call->call_id == call_id && !call->completed) {
            found = call;
            break;
        }
    }
    sy_completion_fn completion = NULL;
    void *context = NULL;
    if (found != NULL) {
        found->completed = 1; /* the pending HTTP completion still frees it */
        completion = found->completion;
        context = found->completion_context;
    }
    pthread_mutex_unlock(&instance->lock);
    if (completion != NULL) {
        reply(completion, context, "{\"error\":{\"code\":\"cancelled\",\"message\":\"the call was cancelled\"}}");
    }
}

static const sy_plugin_table echo_table = {
    .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(sy_plugin_table),
    .manifest_json = manifest,
    .create = echo_create,
    .destroy = echo_destroy,
    .invoke = echo_invoke,
    .cancel = echo_cancel,
};

/* The one exported symbol. No side effects: it may run in a scanner process first. */
__attribute__((visibility("default"))) const sy_plugin_table *switchyard_plugin_entry(void) { return &echo_table; }
