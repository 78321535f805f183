/*
 * Unit tests of the __Name__ plugin: loads lib__Name__Plugin.so (argv[1]) and drives its table with a
 * scripted host whose `http_send` answers with a canned `OutboundResult`, or holds the completion to
 * answer it later. Run by test.sh.
 */
#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switchyard_plugin.h"

#define API_KEY "sk_SECRET_api_key_0001"
#define WEBHOOK_SECRET "whsec_SECRET_0002"
#define ACCOUNT                                                                                                    \
    "{\"accountId\":\"acct_1\",\"environment\":\"sandbox\",\"baseURL\":\"http://127.0.0.1:9/__name__/\","          \
    "\"credentials\":{\"api_key\":\"" API_KEY "\",\"webhook_secret\":\"" WEBHOOK_SECRET "\"},"                      \
    "\"notificationURL\":\"https://switchyard.test/v1/notifications/acct_1\",\"options\":{}}"
#define AUTHORIZE                                                                                                  \
    "{\"account\":" ACCOUNT ",\"request\":{\"paymentId\":\"pay_1\",\"attemptId\":\"att_1\","                       \
    "\"merchantReference\":\"order-42\",\"amount\":1250,\"currency\":\"USD\",\"country\":\"US\","                  \
    "\"method\":\"card\",\"captureMode\":\"automatic\",\"returnURL\":null,\"paymentData\":{},"                     \
    "\"idempotencyKey\":\"idem_att_1\"}}"

static const sy_plugin_table *table;
static int failures, passed, failed;

/* The scripted host. */
typedef struct fake_host {
    const char *answer; /* the OutboundResult JSON to answer at once; NULL: hold the completion */
    char request[8192]; /* the last request sent */
    int sends;
    int leaks; /* log lines that contained a secret */
    sy_completion_fn held;
    void *held_context;
} fake_host;

static void fake_http_send(void *context, const char *json, size_t length, sy_completion_fn completion,
                           void *completion_context) {
    fake_host *host = context;
    host->sends++;
    snprintf(host->request, sizeof(host->request), "%.*s", (int)length, json);
    if (host->answer != NULL) {
        completion(completion_context, host->answer, strlen(host->answer));
    } else {
        host->held = completion;
        host->held_context = completion_context;
    }
}

static void fake_log(void *context, int32_t level, const char *message, const char *metadata) {
    fake_host *host = context;
    (void)level;
    const char *parts[] = {message, metadata != NULL ? metadata : ""};
    for (int i = 0; i < 2; i++) {
        if (strstr(parts[i], API_KEY) != NULL || strstr(parts[i], WEBHOOK_SECRET) != NULL) host->leaks++;
    }
}

static int64_t fake_now(void *context) {
    (void)context;
    return 1762600000000;
}

/* What the plugin completed a call with. */
typedef struct recorder {
    int count;
    char json[8192];
} recorder;

static void record(void *context, const char *json, size_t length) {
    recorder *r = context;
    r->count++;
    snprintf(r->json, sizeof(r->json), "%.*s", (int)length, json);
}

static void *create(fake_host *host) {
    static sy_host_services services;
    services = (sy_host_services){.abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
                                  .struct_size = sizeof(sy_host_services),
                                  .host_context = host,
                                  .http_send = fake_http_send,
                                  .log = fake_log,
                                  .now_ms = fake_now};
    return table->create(&services);
}

static void expect(int condition, const char *what, const char *detail) {
    if (!condition) {
        failures++;
        fprintf(stderr, "    expected %s\n    got: %s\n", what, detail);
    }
}

static void contains(const char *json, const char *fragment) { expect(strstr(json, fragment) != NULL, fragment, json); }

/* An OutboundResult JSON with `status` and `body` (base64-encoded here), in a static buffer. */
static const char *response(int status, const char *body) {
    static char json[4096];
    unsigned char encoded[2048];
    EVP_EncodeBlock(encoded, (const unsigned char *)body, (int)strlen(body));
    snprintf(json, sizeof(json),
             "{\"kind\":\"response\",\"status\":%d,"
             "\"headers\":[{\"name\":\"Content-Type\",\"value\":\"application/json\"}],"
             "\"body\":\"%s\"}",
             status, encoded);
    return json;
}

/* Runs `method` with `request` on a new instance answering `answer`; the completion lands in `out`. */
static void run(const char *method, const char *request, const char *answer, fake_host *host, recorder *out) {
    memset(host, 0, sizeof(*host));
    memset(out, 0, sizeof(*out));
    host->answer = answer;
    void *instance = create(host);
    expect(instance != NULL, "an instance", "NULL");
    if (instance == NULL) return;
    table->invoke(instance, 1, method, request, strlen(request), record, out);
    expect(out->count == 1, "exactly one completion", out->json);
    expect(host->leaks == 0, "no secret in the logs", "a log line with a secret");
    expect(strstr(out->json, API_KEY) == NULL && strstr(out->json, WEBHOOK_SECRET) == NULL, "no secret in the reply",
           out->json);
    table->destroy(instance);
}

static void test_manifest(void) {
    expect(table->abi_version == SWITCHYARD_PLUGIN_ABI_VERSION, "the ABI version", "another");
    expect(table->struct_size == sizeof(sy_plugin_table), "struct_size of the table", "another");
    contains(table->manifest_json, "\"flows\":[\"authorize\",\"sync\",\"refund\",\"notification\"]");
    contains(table->manifest_json, "\"honoursIdempotencyKey\":true");
}

static void test_authorize_succeeds(void) {
    fake_host host;
    recorder out;
    run("authorize", AUTHORIZE, response(201, "{\"id\":\"pay_1\",\"status\":\"succeeded\",\"amount\":1250}"), &host,
        &out);
    contains(out.json, "\"kind\":\"succeeded\"");
    contains(out.json, "\"providerPaymentId\":\"pay_1\"");
    contains(out.json, "\"amount\":1250");
    contains(host.request, "\"method\":\"POST\",\"url\":\"http://127.0.0.1:9/__name__/v1/payments\"");
    contains(host.request, "{\"name\":\"Idempotency-Key\",\"value\":\"idem_att_1\"}");
    contains(host.request, "\"redactHeaders\":[\"Authorization\"]");
}

static void test_authorize_declined(void) {
    fake_host host;
    recorder out;
    run("authorize", AUTHORIZE,
        response(200, "{\"id\":\"pay_2\",\"status\":\"declined\",\"failure_code\":\"card_declined\"}"), &host, &out);
    contains(out.json, "\"kind\":\"declined\"");
    contains(out.json, "\"code\":\"card_declined\"");
    contains(out.json, "\"retryable\":false");
}

static void test_not_sent_is_not_sent(void) {
    fake_host host;
    recorder out;
    run("authorize", AUTHORIZE, "{\"kind\":\"notSent\",\"headers\":[],\"reason\":\"connection refused\"}", &host,
        &out);
    contains(out.json, "\"kind\":\"notSent\"");
}

static void test_no_response_is_unknown(void) {
    fake_host host;
    recorder out;
    run("authorize", AUTHORIZE, "{\"kind\":\"noResponse\",\"headers\":[],\"reason\":\"reset\"}", &host, &out);
    contains(out.json, "\"kind\":\"unknown\"");
    contains(out.json, "\"code\":\"no_response\"");
}

static void test_server_error_is_unknown(void) {
    fake_host host;
    recorder out;
    run("authorize", AUTHORIZE, response(500, "{\"error\":{\"code\":\"internal\"}}"), &host, &out);
    contains(out.json, "\"kind\":\"unknown\"");
    contains(out.json, "\"code\":\"http_500\"");
    run("authorize", AUTHORIZE, response(200, "not json"), &host, &out);
    contains(out.json, "\"kind\":\"unknown\"");
}

static void test_cancel_completes_once(void) {
    fake_host host;
    recorder out;
    memset(&host, 0, sizeof(host));
    memset(&out, 0, sizeof(out));
    void *instance = create(&host);
    table->invoke(instance, 7, "authorize", AUTHORIZE, strlen(AUTHORIZE), record, &out);
    expect(host.sends == 1 && out.count == 0, "a request in flight", out.json);
    table->cancel(instance, 7);
    expect(out.count == 1, "one completion after cancel", out.json);
    contains(out.json, "\"code\":\"cancelled\"");
    table->cancel(instance, 7);
    table->destroy(instance); /* allowed: the call is completed; the late HTTP result must still be safe */
    const char *late = response(200, "{\"id\":\"pay_1\",\"status\":\"succeeded\"}");
    host.held(host.held_context, late, strlen(late));
    expect(out.count == 1, "still one completion after the late result", out.json);
}

static void test_sync_and_refund(void) {
    fake_host host;
    recorder out;
    const char *sync = "{\"account\":" ACCOUNT ",\"request\":{\"payment\":{\"attemptId\":\"att_1\","
                       "\"providerPaymentId\":\"pay_1\"}}}";
    run("sync", sync, response(200, "{\"id\":\"pay_1\",\"status\":\"authorized\",\"amount\":1250}"), &host, &out);
    contains(out.json, "\"kind\":\"authorized\"");
    contains(host.request, "\"method\":\"GET\",\"url\":\"http://127.0.0.1:9/__name__/v1/payments/pay_1\"");
    const char *refund = "{\"account\":" ACCOUNT ",\"request\":{\"payment\":{\"attemptId\":\"att_1\","
                         "\"providerPaymentId\":\"pay_1\"},\"refundId\":\"ref_1\",\"amount\":500,"
                         "\"currency\":\"USD\"}}";
    run("refund", refund, response(201, "{\"id\":\"re_1\",\"status\":\"succeeded\",\"amount\":500}"), &host, &out);
    contains(out.json, "\"kind\":\"succeeded\",\"providerPaymentId\":\"re_1\"");
    contains(host.request, "/v1/payments/pay_1/refunds");
    contains(host.request, "{\"name\":\"Idempotency-Key\",\"value\":\"ref_1\"}");
}

static void test_refund_needs_the_payment_id(void) {
    fake_host host;
    recorder out;
    const char *request = "{\"account\":" ACCOUNT ",\"request\":{\"payment\":{\"attemptId\":\"att_1\"},"
                          "\"refundId\":\"ref_1\",\"amount\":500,\"currency\":\"USD\"}}";
    run("refund", request, response(201, "{}"), &host, &out);
    contains(out.json, "\"code\":\"missing_provider_payment_id\"");
    expect(host.sends == 0, "nothing sent", host.request);
}

/* A notification request with `body` and an `X-Signature` of HMAC-SHA256(`secret`, body). */
static const char *notification(const char *body, const char *secret) {
    static char json[4096];
    unsigned char mac[32], encoded[1024];
    unsigned int length = 0;
    char hex[65];
    HMAC(EVP_sha256(), secret, (int)strlen(secret), (const unsigned char *)body, strlen(body), mac, &length);
    for (unsigned int i = 0; i < length; i++) snprintf(hex + 2 * i, 3, "%02x", mac[i]);
    EVP_EncodeBlock(encoded, (const unsigned char *)body, (int)strlen(body));
    snprintf(json, sizeof(json),
             "{\"account\":" ACCOUNT ",\"request\":{\"method\":\"POST\",\"path\":\"/\",\"headers\":["
             "{\"name\":\"content-type\",\"value\":\"application/json\"},{\"name\":\"x-signature\",\"value\":\"%s\"}],"
             "\"body\":\"%s\"}}",
             hex, encoded);
    return json;
}

static void test_notifications(void) {
    fake_host host;
    recorder out;
    const char *body =
        "{\"type\":\"payment.updated\",\"data\":{\"id\":\"pay_1\",\"reference\":\"att_1\",\"status\":\"succeeded\"}}";
    run("notification", notification(body, WEBHOOK_SECRET), NULL, &host, &out);
    contains(out.json, "\"verified\":true");
    contains(out.json, "\"subject\":\"payment\",\"reference\":\"att_1\",\"providerPaymentId\":\"pay_1\"");
    contains(out.json, "\"kind\":\"succeeded\"");
    run("notification", notification(body, "forged secret"), NULL, &host, &out);
    contains(out.json, "\"verified\":false");
    contains(out.json, "\"failureReason\":\"signature mismatch\"");
    contains(out.json, "\"events\":[]");
}

int main(int argc, char **argv) {
    void *image = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    sy_plugin_entry_fn entry = image != NULL ? (sy_plugin_entry_fn)dlsym(image, SWITCHYARD_PLUGIN_ENTRY_SYMBOL) : NULL;
    if (entry == NULL || (table = entry()) == NULL) {
        fprintf(stderr, "usage: %s lib__Name__Plugin.so (%s)\n", argv[0], dlerror());
        return 2;
    }
    struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        {"manifest", test_manifest},
        {"authorize succeeds", test_authorize_succeeds},
        {"authorize declined is data", test_authorize_declined},
        {"a request never sent is notSent", test_not_sent_is_not_sent},
        {"a reset after sending is unknown", test_no_response_is_unknown},
        {"a 5xx or unreadable answer is unknown", test_server_error_is_unknown},
        {"cancel completes exactly once", test_cancel_completes_once},
        {"sync and refund", test_sync_and_refund},
        {"refund needs the payment id", test_refund_needs_the_payment_id},
        {"notifications are verified, forgeries refused", test_notifications},
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        failures = 0;
        tests[i].run();
        printf("%s - %s\n", failures == 0 ? "ok" : "not ok", tests[i].name);
        if (failures == 0) passed++;
        else failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
