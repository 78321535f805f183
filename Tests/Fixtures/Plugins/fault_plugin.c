/*
 * A test plugin that misbehaves on purpose, to prove the host survives it.
 *
 *  - authorize: asks the host to send one HTTP request, then answers `authorized` (providerPaymentId
 *    "fault-1") when the host reported a response and `declined` otherwise;
 *  - sync: answers `authorized` with providerPaymentId "fault-1" (what the provider recorded);
 *  - anything else: the error `not_supported`.
 *
 * Faults (one at a time):
 *  FAULT_CRASH_IN_CREATE  - `create` raises SIGSEGV;
 *  FAULT_CRASH_AFTER_SEND - authorize raises SIGSEGV when the host's HTTP result arrives;
 *  FAULT_HANG             - authorize asks the host to send, then never completes (the HTTP result
 *                           is dropped) and ignores `cancel`;
 *  FAULT_BLOCK            - authorize sleeps FAULT_BLOCK_SECONDS (default 5) inside `invoke` itself,
 *                           then proceeds as normal;
 *  FAULT_ESCAPE           - authorize tries to reach the network and the file system itself, and answers
 *                           `declined` with providerStatus "socket=S file=F", each 0 when it succeeded and
 *                           the errno otherwise;
 *  FAULT_REPORT_THREADS   - authorize answers `declined` with providerStatus "invoke=A result=B": the
 *                           kernel's names of the threads that ran `invoke` and the HTTP result's completion.
 * FIXTURE_ID sets the plugin id (default "faulty"), FIXTURE_VERSION its version (default "1.0.0");
 * FIXTURE_RETURNS_PROMPTLY makes the manifest say `"returnsPromptly": true`.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "switchyard_plugin.h"

#ifndef FIXTURE_ID
#define FIXTURE_ID "faulty"
#endif
#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "1.0.0"
#endif
#ifndef FAULT_BLOCK_SECONDS
#define FAULT_BLOCK_SECONDS 5
#endif

static const char manifest[] =
    "{\"id\":\"" FIXTURE_ID "\",\"version\":\"" FIXTURE_VERSION "\",\"provider\":\"Faulty\",\"abiVersion\":1,"
    "\"flows\":[\"authorize\",\"sync\"],\"methods\":[\"card\"],\"countries\":[],\"currencies\":[],"
    "\"honoursIdempotencyKey\":false,\"usesAccessToken\":false,\"credentials\":[]"
#ifdef FIXTURE_RETURNS_PROMPTLY
    ",\"returnsPromptly\":true"
#endif
    "}";

typedef struct {
    sy_host_services host;
} fault_instance;

typedef struct {
    sy_completion_fn completion;
    void *context;
    char invoke_thread[17];
} pending_call;

static void current_thread_name(char name[17]) {
    memset(name, 0, 17);
    if (prctl(PR_GET_NAME, (unsigned long)name, 0, 0, 0) != 0) strcpy(name, "unknown");
}

static void complete(sy_completion_fn completion, void *context, const char *json) {
    completion(context, json, strlen(json));
}

static void *fault_create(const sy_host_services *host) {
#ifdef FAULT_CRASH_IN_CREATE
    raise(SIGSEGV);
#endif
    if (host == NULL) return NULL;
    fault_instance *instance = calloc(1, sizeof(fault_instance));
    if (instance == NULL) return NULL;
    instance->host = *host;
    return instance;
}

static void fault_destroy(void *pointer) { free(pointer); }

static void on_http_done(void *context, const char *json, size_t length) {
    pending_call *call = context;
    (void)length;
#ifdef FAULT_CRASH_AFTER_SEND
    (void)json;
    raise(SIGSEGV);
#endif
#ifdef FAULT_HANG
    (void)json;
    (void)call;
    return;
#endif
#ifdef FAULT_REPORT_THREADS
    (void)json;
    char result_thread[17];
    current_thread_name(result_thread);
    char reply[160];
    snprintf(reply, sizeof(reply), "{\"result\":{\"kind\":\"declined\",\"providerStatus\":\"invoke=%s result=%s\"}}",
             call->invoke_thread, result_thread);
    complete(call->completion, call->context, reply);
    free(call);
    return;
#endif
    if (json != NULL && strstr(json, "\"kind\":\"response\"") != NULL) {
        complete(call->completion, call->context,
                 "{\"result\":{\"kind\":\"authorized\",\"providerPaymentId\":\"fault-1\",\"providerStatus\":\"ok\"}}");
    } else {
        complete(call->completion, call->context,
                 "{\"result\":{\"kind\":\"declined\",\"providerStatus\":\"host-failed\"}}");
    }
    free(call);
}

static void fault_invoke(void *pointer, uint64_t call_id, const char *method, const char *request_json,
                         size_t request_length, sy_completion_fn completion, void *completion_context) {
    fault_instance *instance = pointer;
    (void)call_id;
    (void)request_json;
    (void)request_length;
    if (strcmp(method, "authorize") == 0) {
#ifdef FAULT_ESCAPE
        int socket_error = 0, file_error = 0;
        int sock = socket(AF_INET, SOCK_STREAM, 0);
        if (sock < 0) socket_error = errno; else close(sock);
        char path[64];
        snprintf(path, sizeof(path), "/tmp/fault-plugin-escape-%d", (int)getpid());
        int file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (file < 0) file_error = errno; else { close(file); unlink(path); }
        char reply[160];
        snprintf(reply, sizeof(reply),
                 "{\"result\":{\"kind\":\"declined\",\"providerStatus\":\"socket=%d file=%d\"}}", socket_error,
                 file_error);
        complete(completion, completion_context, reply);
        return;
#endif
#ifdef FAULT_BLOCK
        sleep(FAULT_BLOCK_SECONDS);
#endif
        pending_call *call = malloc(sizeof(pending_call));
        call->completion = completion;
        call->context = completion_context;
        current_thread_name(call->invoke_thread);
        static const char request[] =
            "{\"method\":\"POST\",\"url\":\"http://127.0.0.1:9/fault\",\"headers\":[],\"redactHeaders\":[]}";
        instance->host.http_send(instance->host.host_context, request, strlen(request), on_http_done, call);
    } else if (strcmp(method, "sync") == 0) {
        complete(completion, completion_context,
                 "{\"result\":{\"kind\":\"authorized\",\"providerPaymentId\":\"fault-1\",\"providerStatus\":\"ok\"}}");
    } else {
        complete(completion, completion_context, "{\"error\":{\"code\":\"not_supported\",\"message\":\"unknown method\"}}");
    }
}

static void fault_cancel(void *pointer, uint64_t call_id) {
    (void)pointer;
    (void)call_id;
}

static const sy_plugin_table fault_table = {
    .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(sy_plugin_table),
    .manifest_json = manifest,
    .create = fault_create,
    .destroy = fault_destroy,
    .invoke = fault_invoke,
    .cancel = fault_cancel,
};

__attribute__((visibility("default"))) const sy_plugin_table *switchyard_plugin_entry(void) { return &fault_table; }
