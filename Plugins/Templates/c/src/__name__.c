/*
 * __Name__: a Switchyard provider plugin in plain C, written against `sdk/include/switchyard_plugin.h` alone
 * (its rules on buffers, threads, cancellation and `struct_size` are in the header's opening comment).
 *
 * The provider's API (JSON over HTTPS, `Authorization: Bearer <api_key>`):
 *   POST /v1/payments                 -> {"id","status",...}   authorize (Idempotency-Key: the request's key)
 *   GET  /v1/payments/{id|reference}  -> {"id","status",...}   sync
 *   POST /v1/payments/{id}/refunds    -> {"id","status",...}   refund (Idempotency-Key: our refund id)
 *   notifications: {"type":"payment.updated"|"refund.updated","data":{"id","reference","status","amount"}},
 *   signed by `X-Signature`: the lowercase hex HMAC-SHA256 of the raw body under `webhook_secret`.
 *
 * Outcomes: a request that never left is `notSent`; a reset or timeout after sending, a 5xx and any answer
 * that cannot be read are `unknown` (never success, never decline: `sync` resolves them); a decline is data.
 *
 * Build: build.sh (cc -shared -fPIC -I sdk/include -o lib__Name__Plugin.so src/__name__.c -lpthread -lcrypto)
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switchyard_plugin.h"

#define PROVIDER "__Name__"

/* The manifest (schema `manifest.json`): NUL-terminated, constant, valid for the life of the image. */
static const char manifest[] =
    "{\"id\":\"__id__\",\"version\":\"0.1.0\",\"provider\":\"" PROVIDER "\",\"abiVersion\":1,"
    "\"flows\":[\"authorize\",\"sync\",\"refund\",\"notification\"],\"methods\":[\"card\"],\"countries\":[],"
    "\"currencies\":[\"USD\",\"EUR\"],\"honoursIdempotencyKey\":true,\"usesAccessToken\":false,"
    "\"credentials\":[{\"name\":\"api_key\",\"secret\":true,\"required\":true},"
    "{\"name\":\"webhook_secret\",\"secret\":true,\"required\":true}]}";

/* Whether the host's table (of `struct_size` bytes) has `field`: read nothing beyond its size. */
#define HOST_HAS(host, field) \
    ((host)->struct_size >= offsetof(sy_host_services, field) + sizeof(((sy_host_services *)0)->field))

/* ---------------------------------------------------------------------------------------------------------
 * A growable text buffer. A failed allocation marks it failed; the caller checks `failed` once at the end.
 */
typedef struct text {
    char *data;
    size_t length;
    size_t capacity;
    int failed;
} text;

static void text_append(text *t, const char *bytes, size_t length) {
    if (t->failed) return;
    if (t->length + length + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 256;
        while (t->length + length + 1 > capacity) capacity *= 2;
        char *data = realloc(t->data, capacity);
        if (data == NULL) {
            t->failed = 1;
            return;
        }
        t->data = data;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, bytes, length);
    t->length += length;
    t->data[t->length] = '\0';
}

static void text_puts(text *t, const char *s) { text_append(t, s, strlen(s)); }

static void text_printf(text *t, const char *format, ...) {
    char small[128];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(small, sizeof(small), format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= sizeof(small)) {
        t->failed = 1; /* only short numbers and names are formatted */
        return;
    }
    text_append(t, small, (size_t)n);
}

/* Appends `s` (`length` bytes of UTF-8) escaped for the inside of a JSON string. */
static void text_json_escaped(text *t, const char *s, size_t length) {
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char escaped[2] = {'\\', (char)c};
            text_append(t, escaped, 2);
        } else if (c < 0x20) {
            text_printf(t, "\\u%04x", c);
        } else {
            text_append(t, (const char *)&s[i], 1);
        }
    }
}

/* Appends `s` (`length` bytes of UTF-8) as a JSON string, quotes included. */
static void text_json_string(text *t, const char *s, size_t length) {
    text_puts(t, "\"");
    text_json_escaped(t, s, length);
    text_puts(t, "\"");
}

static void text_json_cstring(text *t, const char *s) { text_json_string(t, s, strlen(s)); }

static void text_free(text *t) {
    free(t->data);
    memset(t, 0, sizeof(*t));
}

/* ---------------------------------------------------------------------------------------------------------
 * A small JSON reader: values are found as spans of the input and decoded on demand. It never reads past
 * `end` and refuses nesting deeper than MAX_DEPTH.
 */
#define MAX_DEPTH 64

typedef struct span {
    const char *start;
    const char *end;
} span;

static const char *skip_blanks(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    return p;
}

/* The end of the string starting at `p` (just past its closing quote), or NULL. */
static const char *scan_string(const char *p, const char *end) {
    if (p >= end || *p != '"') return NULL;
    for (p++; p < end; p++) {
        if (*p == '\\') {
            p++;
            if (p >= end) return NULL;
        } else if (*p == '"') {
            return p + 1;
        } else if ((unsigned char)*p < 0x20) {
            return NULL;
        }
    }
    return NULL;
}

/* The end of the value starting at `p`, or NULL when it is not one well-formed JSON value. */
static const char *scan_value(const char *p, const char *end, int depth) {
    p = skip_blanks(p, end);
    if (p >= end || depth > MAX_DEPTH) return NULL;
    if (*p == '"') return scan_string(p, end);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = skip_blanks(p + 1, end);
        if (p < end && *p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                p = scan_string(skip_blanks(p, end), end);
                if (p == NULL) return NULL;
                p = skip_blanks(p, end);
                if (p >= end || *p != ':') return NULL;
                p++;
            }
            p = scan_value(p, end, depth + 1);
            if (p == NULL) return NULL;
            p = skip_blanks(p, end);
            if (p < end && *p == ',') {
                p++;
                continue;
            }
            return p < end && *p == close ? p + 1 : NULL;
        }
    }
    const char *start = p;
    while (p < end && (*p == '-' || *p == '+' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
                       (*p >= 'A' && *p <= 'Z')))
        p++;
    return p > start ? p : NULL;
}

/* The whole text as one JSON value (blanks around it allowed). */
static int json_parse(const char *json, size_t length, span *out) {
    const char *end = json + length;
    const char *start = skip_blanks(json, end);
    const char *value_end = scan_value(start, end, 0);
    if (value_end == NULL || skip_blanks(value_end, end) != end) return 0;
    out->start = start;
    out->end = value_end;
    return 1;
}

/* The value of member `key` of the object `object` (keys compared as written, without escapes). */
static int json_member(span object, const char *key, span *out) {
    const char *p = object.start, *end = object.end;
    if (p >= end || *p != '{') return 0;
    size_t key_length = strlen(key);
    p = skip_blanks(p + 1, end);
    while (p < end && *p == '"') {
        const char *key_end = scan_string(p, end);
        if (key_end == NULL) return 0;
        int match = (size_t)(key_end - p - 2) == key_length && memcmp(p + 1, key, key_length) == 0;
        p = skip_blanks(key_end, end);
        if (p >= end || *p != ':') return 0;
        const char *value = skip_blanks(p + 1, end);
        const char *value_end = scan_value(value, end, 1);
        if (value_end == NULL) return 0;
        if (match) {
            out->start = value;
            out->end = value_end;
            return 1;
        }
        p = skip_blanks(value_end, end);
        if (p < end && *p == ',') p = skip_blanks(p + 1, end);
    }
    return 0;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int read_hex4(const char *p, const char *end, unsigned *out) {
    if (end - p < 4) return 0;
    unsigned value = 0;
    for (int i = 0; i < 4; i++) {
        int digit = hex_digit(p[i]);
        if (digit < 0) return 0;
        value = value << 4 | (unsigned)digit;
    }
    *out = value;
    return 1;
}

static size_t put_utf8(char *out, unsigned code) {
    if (code < 0x80) {
        out[0] = (char)code;
        return 1;
    }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | code >> 6);
        out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | code >> 12);
        out[1] = (char)(0x80 | (code >> 6 & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | code >> 18);
    out[1] = (char)(0x80 | (code >> 12 & 0x3F));
    out[2] = (char)(0x80 | (code >> 6 & 0x3F));
    out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/* The decoded string value (malloc'd, NUL-terminated), or NULL when `value` is not a string or holds a NUL. */
static char *json_string(span value) {
    const char *p = value.start, *end = value.end;
    if (p >= end || *p != '"' || end - p < 2) return NULL;
    char *out = malloc((size_t)(end - p));
    if (out == NULL) return NULL;
    size_t n = 0;
    for (p++; p < end - 1; p++) {
        if (*p != '\\') {
            out[n++] = *p;
            continue;
        }
        p++;
        unsigned code;
        switch (*p) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u':
            if (!read_hex4(p + 1, end, &code)) goto bad;
            p += 4;
            if (code >= 0xD800 && code <= 0xDBFF) {
                unsigned low;
                if (end - p < 7 || p[1] != '\\' || p[2] != 'u' || !read_hex4(p + 3, end, &low) || low < 0xDC00 ||
                    low > 0xDFFF)
                    goto bad;
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                p += 6;
            } else if (code == 0 || (code >= 0xDC00 && code <= 0xDFFF)) {
                goto bad;
            }
            n += put_utf8(out + n, code); /* never longer than the escape it replaces */
            break;
        default: goto bad;
        }
    }
    out[n] = '\0';
    return out;
bad:
    free(out);
    return NULL;
}

/* A member's string value (malloc'd), or NULL when absent, null or not a string. */
static char *member_string(span object, const char *key) {
    span value;
    return json_member(object, key, &value) ? json_string(value) : NULL;
}

/* An integer value (no fraction, no exponent) that fits in int64_t. */
static int json_int64(span value, int64_t *out) {
    const char *p = value.start, *end = value.end;
    int negative = p < end && *p == '-';
    if (negative) p++;
    if (p >= end) return 0;
    uint64_t magnitude = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return 0;
        unsigned digit = (unsigned)(*p - '0');
        if (magnitude > (UINT64_MAX - digit) / 10) return 0;
        magnitude = magnitude * 10 + digit;
    }
    if (magnitude > (uint64_t)INT64_MAX + (negative ? 1u : 0u)) return 0;
    *out = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
    return 1;
}

static int member_int64(span object, const char *key, int64_t *out) {
    span value;
    return json_member(object, key, &value) && json_int64(value, out);
}

/* ---------------------------------------------------------------------------------------------------------
 * Base64 (the ABI's encoding of HTTP bodies) and small string helpers.
 */
static const char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void text_base64(text *t, const unsigned char *bytes, size_t length) {
    for (size_t i = 0; i < length; i += 3) {
        unsigned value = (unsigned)bytes[i] << 16;
        if (i + 1 < length) value |= (unsigned)bytes[i + 1] << 8;
        if (i + 2 < length) value |= bytes[i + 2];
        char quad[4] = {base64_digits[value >> 18 & 63], base64_digits[value >> 12 & 63],
                        i + 1 < length ? base64_digits[value >> 6 & 63] : '=',
                        i + 2 < length ? base64_digits[value & 63] : '='};
        text_append(t, quad, 4);
    }
}

static int base64_value(char c) {
    const char *found = c != '\0' ? strchr(base64_digits, c) : NULL;
    return found != NULL ? (int)(found - base64_digits) : -1;
}

/* Decodes standard base64 with padding into a malloc'd, NUL-terminated buffer; NULL when malformed. */
static unsigned char *base64_decode(const char *s, size_t *length) {
    size_t n = strlen(s);
    if (n % 4 != 0) return NULL;
    unsigned char *out = malloc(n / 4 * 3 + 1);
    if (out == NULL) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int last = i + 4 == n;
        int pad = (last && s[i + 3] == '=') + (last && s[i + 2] == '=');
        int a = base64_value(s[i]), b = base64_value(s[i + 1]);
        int c = pad >= 2 ? 0 : base64_value(s[i + 2]), d = pad >= 1 ? 0 : base64_value(s[i + 3]);
        if (a < 0 || b < 0 || c < 0 || d < 0) {
            free(out);
            return NULL;
        }
        unsigned value = (unsigned)a << 18 | (unsigned)b << 12 | (unsigned)c << 6 | (unsigned)d;
        out[o++] = (unsigned char)(value >> 16);
        if (pad < 2) out[o++] = (unsigned char)(value >> 8 & 0xFF);
        if (pad < 1) out[o++] = (unsigned char)(value & 0xFF);
    }
    out[o] = '\0';
    *length = o;
    return out;
}

static int ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int ascii_equal_ignoring_case(const char *a, const char *b) {
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        if (ascii_lower((unsigned char)*a) != ascii_lower((unsigned char)*b)) return 0;
    }
    return *a == *b;
}

/* A provider code safe to repeat (1-64 ASCII letters, digits, `_`, `-`, `.`), else UNRECOGNISED_CODE. */
static const char *safe_code(const char *code) {
    size_t n = code != NULL ? strlen(code) : 0;
    if (n == 0) return NULL;
    if (n > 64) return "UNRECOGNISED_CODE";
    for (size_t i = 0; i < n; i++) {
        char c = code[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                 c == '.';
        if (!ok) return "UNRECOGNISED_CODE";
    }
    return code;
}

/* Appends `value` percent-encoded as one path segment (only unreserved characters kept). */
static void text_path_segment(text *t, const char *value) {
    for (const unsigned char *p = (const unsigned char *)value; *p != '\0'; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '~') {
            text_append(t, (const char *)p, 1);
        } else {
            text_printf(t, "%%%02X", *p);
        }
    }
}

/* ---------------------------------------------------------------------------------------------------------
 * The status table and the outcomes.
 */
typedef enum call_kind { CALL_CREATE_PAYMENT, CALL_GET_PAYMENT, CALL_CREATE_REFUND } call_kind;

static const char *call_names[] = {"create_payment", "get_payment", "create_refund"};

/*
 * The outcome class of a provider status (case and surrounding blanks ignored): succeeded; authorized;
 * pending|processing|requires_action -> pending; declined|failed -> declined; canceled|cancelled|expired ->
 * canceled; anything else -> unknown (never guess success or decline from a status you do not know).
 */
static const char *outcome_kind_for_status(const char *status) {
    static const struct {
        const char *status, *kind;
    } table[] = {
        {"succeeded", "succeeded"}, {"authorized", "authorized"}, {"pending", "pending"},
        {"processing", "pending"},  {"requires_action", "pending"}, {"declined", "declined"},
        {"failed", "declined"},     {"canceled", "canceled"},     {"cancelled", "canceled"},
        {"expired", "canceled"},
    };
    if (status == NULL) return "unknown";
    while (*status == ' ') status++;
    char trimmed[32];
    size_t n = strlen(status);
    while (n > 0 && status[n - 1] == ' ') n--;
    if (n >= sizeof(trimmed)) return "unknown";
    memcpy(trimmed, status, n);
    trimmed[n] = '\0';
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (ascii_equal_ignoring_case(trimmed, table[i].status)) return table[i].kind;
    }
    return "unknown";
}

/* An outcome as the ABI's `Outcome` JSON object; NULL fields (and `has_*` 0, `retryable` -1) are left out. */
typedef struct outcome {
    const char *kind;
    const char *provider_payment_id;
    const char *provider_status;
    int has_amount, has_refunded_amount;
    int64_t amount, refunded_amount;
    const char *redirect_url;
    const char *code;
    const char *message;
    int retryable;
} outcome;

static outcome simple_outcome(const char *kind, const char *code, const char *message) {
    outcome o = {.kind = kind, .code = code, .message = message, .retryable = -1};
    return o;
}

static void text_outcome(text *t, const outcome *o) {
    text_puts(t, "{\"kind\":");
    text_json_cstring(t, o->kind);
    if (o->provider_payment_id != NULL) {
        text_puts(t, ",\"providerPaymentId\":");
        text_json_cstring(t, o->provider_payment_id);
    }
    if (o->provider_status != NULL) {
        text_puts(t, ",\"providerStatus\":");
        text_json_cstring(t, o->provider_status);
    }
    if (o->has_amount) text_printf(t, ",\"amount\":%lld", (long long)o->amount);
    if (o->has_refunded_amount) text_printf(t, ",\"refundedAmount\":%lld", (long long)o->refunded_amount);
    if (o->redirect_url != NULL) {
        text_puts(t, ",\"nextAction\":{\"type\":\"redirect\",\"data\":{\"url\":");
        text_json_cstring(t, o->redirect_url);
        text_puts(t, "}}");
    }
    if (o->code != NULL) {
        text_puts(t, ",\"code\":");
        text_json_cstring(t, o->code);
    }
    if (o->message != NULL) {
        text_puts(t, ",\"message\":");
        text_json_cstring(t, o->message);
    }
    if (o->retryable >= 0) text_puts(t, o->retryable ? ",\"retryable\":true" : ",\"retryable\":false");
    text_puts(t, "}");
}

/*
 * The outcome of a payment or refund object (`object` is a JSON object). A refund's canceled status is a
 * declined refund, and a refund is never `authorized`. Strings point into `strings`, freed by the caller.
 */
static outcome object_outcome(span object, int is_refund, char *strings[4]) {
    strings[0] = member_string(object, "id");
    strings[1] = member_string(object, "status");
    strings[2] = member_string(object, "failure_code");
    strings[3] = is_refund ? NULL : member_string(object, "redirect_url");
    if (strings[0] == NULL) {
        return simple_outcome("unknown", "unparsable_response", "unreadable answer from " PROVIDER);
    }
    outcome o = simple_outcome(outcome_kind_for_status(strings[1]), NULL, NULL);
    o.provider_payment_id = strings[0];
    o.provider_status = strings[1];
    o.has_amount = member_int64(object, "amount", &o.amount);
    o.has_refunded_amount = !is_refund && member_int64(object, "amount_refunded", &o.refunded_amount);
    if (is_refund && strcmp(o.kind, "canceled") == 0) o.kind = "declined";
    if (is_refund && strcmp(o.kind, "authorized") == 0) o.kind = "unknown";
    if (strcmp(o.kind, "declined") == 0) {
        const char *code = safe_code(strings[2]);
        o.code = code != NULL ? code : is_refund ? "refund_failed" : "payment_declined";
        o.message = is_refund ? PROVIDER " refused the refund" : PROVIDER " declined the payment";
        o.retryable = 0;
    } else if (strcmp(o.kind, "canceled") == 0) {
        o.code = "payment_canceled";
        o.message = PROVIDER " reports the payment canceled";
    } else if (strcmp(o.kind, "unknown") == 0) {
        o.code = "unrecognised_status";
        o.message = PROVIDER " status is not recognised";
    } else if (strcmp(o.kind, "pending") == 0 && strings[3] != NULL && strings[3][0] != '\0') {
        o.redirect_url = strings[3];
    }
    return o;
}

/*
 * Classifies an `OutboundResult` (`outbound-result.json`) into `{"result": Outcome}` in `out`:
 *  - not sent -> notSent; no response (reset, timeout) -> unknown `no_response`; 5xx -> unknown `http_5xx`;
 *  - 2xx -> the payment or refund object, or unknown `unparsable_response` when it cannot be read;
 *  - 404 to a lookup -> unknown `not_found`; 409 -> unknown `idempotency_conflict`; 429 -> notSent;
 *  - another 4xx with an `{"error":{"code"}}` body -> declined with that code (unknown for a lookup: a lookup
 *    never declines a payment); a 4xx body that cannot be read -> unknown `http_4xx`.
 * Provider text is never copied into a message (it could echo a secret back).
 */
static void classify(call_kind call, const char *result_json, size_t length, text *out, int *http_status) {
    char *strings[4] = {NULL, NULL, NULL, NULL};
    char *kind = NULL, *body64 = NULL, *error_code = NULL;
    unsigned char *body = NULL;
    char code[16];
    span root = {0}, value = {0}, object = {0};
    int64_t status = 0;
    outcome o;
    *http_status = 0;
    if (!json_parse(result_json, length, &root) || (kind = member_string(root, "kind")) == NULL) {
        o = simple_outcome("unknown", "no_response", "no readable answer from the host");
    } else if (strcmp(kind, "notSent") == 0) {
        o = simple_outcome("notSent", "not_sent", "request not sent to " PROVIDER);
    } else if (strcmp(kind, "response") != 0 || !member_int64(root, "status", &status)) {
        o = simple_outcome("unknown", "no_response", "no complete answer from " PROVIDER);
    } else {
        *http_status = (int)status;
        size_t body_length = 0;
        body64 = member_string(root, "body");
        body = body64 != NULL ? base64_decode(body64, &body_length) : NULL;
        int readable = body != NULL && json_parse((const char *)body, body_length, &object) && *object.start == '{';
        snprintf(code, sizeof(code), "http_%d", (int)status);
        if (status >= 500) {
            o = simple_outcome("unknown", code, PROVIDER " answered with a server error");
        } else if (status >= 200 && status < 300) {
            o = readable ? object_outcome(object, call == CALL_CREATE_REFUND, strings)
                         : simple_outcome("unknown", "unparsable_response", "unreadable answer from " PROVIDER);
        } else if (status == 404 && call == CALL_GET_PAYMENT) {
            o = simple_outcome("unknown", "not_found", PROVIDER " knows no such payment");
        } else if (status == 409) {
            o = simple_outcome("unknown", "idempotency_conflict", PROVIDER " is still processing this request");
        } else if (status == 429) {
            o = simple_outcome("notSent", "rate_limited", PROVIDER " rate-limited the request");
        } else if (!readable || !json_member(object, "error", &value) ||
                   (error_code = member_string(value, "code")) == NULL || safe_code(error_code) == NULL) {
            o = simple_outcome("unknown", code, "unreadable answer from " PROVIDER);
        } else if (call == CALL_GET_PAYMENT) {
            o = simple_outcome("unknown", safe_code(error_code), PROVIDER " refused the lookup");
        } else {
            o = simple_outcome("declined", safe_code(error_code), PROVIDER " refused the request");
            o.retryable = 0;
        }
    }
    text_puts(out, "{\"result\":");
    text_outcome(out, &o);
    text_puts(out, "}");
    for (int i = 0; i < 4; i++) free(strings[i]);
    free(kind);
    free(body64);
    free(body);
    free(error_code);
}

/* ---------------------------------------------------------------------------------------------------------
 * Instances and calls.
 *
 * A call is completed exactly once, by whoever gets there first: its HTTP result or `cancel`. The HTTP
 * completion always comes (the host promises it) and frees the call. It may come after `cancel` completed
 * the call and even after the host destroyed the instance, so the instance counts the HTTP sends still
 * pending and is freed by the last of `destroy` and those completions.
 */
typedef struct plugin_instance {
    sy_host_services host; /* the host's entries this plugin knows; absent ones NULL */
    pthread_mutex_t lock;
    unsigned references;   /* 1 for the host's handle, plus 1 per pending HTTP send */
    struct plugin_call *calls;
} plugin_instance;

typedef struct plugin_call {
    struct plugin_call *next;
    uint64_t call_id;
    int completed;
    call_kind kind;
    char *account_id;
    sy_completion_fn completion;
    void *completion_context;
    plugin_instance *instance;
} plugin_call;

static void reply(sy_completion_fn completion, void *context, const char *json, size_t length) {
    completion(context, json, length); /* the host copies what it keeps */
}

static void release(plugin_instance *instance) {
    pthread_mutex_lock(&instance->lock);
    int last = --instance->references == 0;
    pthread_mutex_unlock(&instance->lock);
    if (last) {
        pthread_mutex_destroy(&instance->lock);
        free(instance);
    }
}

/* Marks `call` completed and unlists it; returns 0 when it was completed already. Caller holds the lock. */
static int claim_locked(plugin_call *call) {
    int mine = !call->completed;
    call->completed = 1;
    for (plugin_call **link = &call->instance->calls; *link != NULL; link = &(*link)->next) {
        if (*link == call) {
            *link = call->next;
            break;
        }
    }
    return mine;
}

static void free_call(plugin_call *call) {
    free(call->account_id);
    free(call);
}

/* Completes a call that sent nothing (an error of ours, a notification) and frees it. */
static void finish(plugin_call *call, const char *json, size_t length) {
    pthread_mutex_lock(&call->instance->lock);
    int mine = claim_locked(call);
    pthread_mutex_unlock(&call->instance->lock);
    if (mine) reply(call->completion, call->completion_context, json, length);
    free_call(call);
}

static void finish_error(plugin_call *call, const char *code, const char *message) {
    text t = {0};
    text_puts(&t, "{\"error\":{\"code\":");
    text_json_cstring(&t, code);
    text_puts(&t, ",\"message\":");
    text_json_cstring(&t, message);
    text_puts(&t, "}}");
    if (t.failed) {
        static const char out_of_memory[] = "{\"error\":{\"code\":\"plugin_error\",\"message\":\"out of memory\"}}";
        finish(call, out_of_memory, sizeof(out_of_memory) - 1);
    } else {
        finish(call, t.data, t.length);
    }
    text_free(&t);
}

/* Logs `message` with flat string metadata (pairs of key and value, NULL-terminated). Never pass secrets. */
static void log_line(plugin_instance *instance, int32_t level, const char *message, ...) {
    if (!HOST_HAS(&instance->host, log) || instance->host.log == NULL) return;
    text metadata = {0};
    va_list pairs;
    va_start(pairs, message);
    text_puts(&metadata, "{");
    int first = 1;
    for (const char *key = va_arg(pairs, const char *); key != NULL; key = va_arg(pairs, const char *)) {
        const char *value = va_arg(pairs, const char *);
        if (!first) text_puts(&metadata, ",");
        first = 0;
        text_json_cstring(&metadata, key);
        text_puts(&metadata, ":");
        text_json_cstring(&metadata, value != NULL ? value : "");
    }
    va_end(pairs);
    text_puts(&metadata, "}");
    instance->host.log(instance->host.host_context, level, message, metadata.failed ? NULL : metadata.data);
    text_free(&metadata);
}

/* The completion of `http_send`: any thread, exactly once; `json` is valid during this callback only. */
static void on_http_result(void *context, const char *json, size_t length) {
    plugin_call *call = context;
    plugin_instance *instance = call->instance;
    text result = {0};
    int http_status = 0;
    classify(call->kind, json != NULL ? json : "", json != NULL ? length : 0, &result, &http_status);
    pthread_mutex_lock(&instance->lock);
    int mine = claim_locked(call);
    pthread_mutex_unlock(&instance->lock);
    if (mine) {
        /* Not completed before: the host cannot have destroyed the instance, its services are there. */
        char status[16];
        snprintf(status, sizeof(status), "%d", http_status);
        log_line(instance, SY_LOG_DEBUG, "__name__ call done", "provider.account", call->account_id, "__name__.call",
                 call_names[call->kind], "http.status", http_status ? status : "none", NULL);
        if (result.failed) {
            static const char unknown[] =
                "{\"result\":{\"kind\":\"unknown\",\"code\":\"plugin_error\",\"message\":\"out of memory\"}}";
            reply(call->completion, call->completion_context, unknown, sizeof(unknown) - 1);
        } else {
            reply(call->completion, call->completion_context, result.data, result.length);
        }
    }
    text_free(&result);
    free_call(call);
    release(instance);
}

/* ---------------------------------------------------------------------------------------------------------
 * The flows.
 */

/* The account's base URL without trailing slashes, when it is an absolute http(s) URL; malloc'd. */
static char *base_url(span account) {
    char *url = member_string(account, "baseURL");
    if (url == NULL) return NULL;
    size_t n = strlen(url);
    while (n > 0 && url[n - 1] == '/') url[--n] = '\0';
    size_t scheme = strncmp(url, "https://", 8) == 0 ? 8 : strncmp(url, "http://", 7) == 0 ? 7 : 0;
    if (scheme == 0 || n <= scheme || url[scheme] == '/' || strpbrk(url, "?#\"\\ ") != NULL) {
        free(url);
        return NULL;
    }
    return url;
}

/*
 * Sends `method` `path` (already encoded) with `body` (JSON, or NULL) to the account's base URL. The API key
 * goes as a bearer token in `Authorization`, named in `redactHeaders` so the host never logs or records it.
 */
static void send_request(plugin_call *call, span account, const char *method, const char *path, const text *body,
                         const char *idempotency_key) {
    plugin_instance *instance = call->instance;
    char *api_key = NULL, *url = base_url(account);
    span credentials;
    if (json_member(account, "credentials", &credentials)) api_key = member_string(credentials, "api_key");
    if (api_key == NULL || api_key[0] == '\0') {
        finish_error(call, "misconfigured", "credential api_key is missing");
    } else if (url == NULL) {
        finish_error(call, "misconfigured", "the account's base URL is not an absolute http(s) URL");
    } else {
        text request = {0};
        text_puts(&request, "{\"method\":");
        text_json_cstring(&request, method);
        text_puts(&request, ",\"url\":");
        text url_text = {0};
        text_puts(&url_text, url);
        text_puts(&url_text, path);
        text_json_string(&request, url_text.data != NULL ? url_text.data : "", url_text.length);
        text_free(&url_text);
        text_puts(&request, ",\"headers\":[{\"name\":\"Authorization\",\"value\":\"Bearer ");
        text_json_escaped(&request, api_key, strlen(api_key));
        text_puts(&request, "\"},{\"name\":\"Accept\",\"value\":\"application/json\"}");
        if (body != NULL) text_puts(&request, ",{\"name\":\"Content-Type\",\"value\":\"application/json\"}");
        if (idempotency_key != NULL) {
            text_puts(&request, ",{\"name\":\"Idempotency-Key\",\"value\":");
            text_json_cstring(&request, idempotency_key);
            text_puts(&request, "}");
        }
        text_puts(&request, "],\"redactHeaders\":[\"Authorization\"]");
        if (body != NULL) {
            text_puts(&request, ",\"body\":\"");
            text_base64(&request, (const unsigned char *)body->data, body->length);
            text_puts(&request, "\"");
        }
        text_puts(&request, "}");
        if (request.failed || (body != NULL && body->failed)) {
            finish_error(call, "plugin_error", "out of memory");
        } else {
            pthread_mutex_lock(&instance->lock);
            instance->references++; /* released by on_http_result */
            pthread_mutex_unlock(&instance->lock);
            /* The request buffer is ours: the host reads it during http_send only. */
            instance->host.http_send(instance->host.host_context, request.data, request.length, on_http_result, call);
        }
        /* Wipe the copy of the API key before freeing the buffer. */
        if (request.data != NULL) OPENSSL_cleanse(request.data, request.capacity);
        text_free(&request);
    }
    if (api_key != NULL) OPENSSL_cleanse(api_key, strlen(api_key));
    free(api_key);
    free(url);
}

/* Appends `"key":` and the string value, or nothing when `value` is NULL. */
static void text_member(text *t, const char *key, const char *value, int *first) {
    if (value == NULL) return;
    text_puts(t, *first ? "" : ",");
    *first = 0;
    text_json_cstring(t, key);
    text_puts(t, ":");
    text_json_cstring(t, value);
}

/* POST /v1/payments: our attempt id is the reference, the request's idempotency key the Idempotency-Key. */
static void authorize(plugin_call *call, span account, span request) {
    char *attempt = member_string(request, "attemptId"), *currency = member_string(request, "currency");
    char *country = member_string(request, "country"), *method = member_string(request, "method");
    char *reference = member_string(request, "merchantReference"), *capture = member_string(request, "captureMode");
    char *return_url = member_string(request, "returnURL"), *key = member_string(request, "idempotencyKey");
    char *notification_url = member_string(account, "notificationURL");
    int64_t amount;
    if (attempt == NULL || currency == NULL || country == NULL || method == NULL || key == NULL ||
        notification_url == NULL || !member_int64(request, "amount", &amount)) {
        finish_error(call, "bad_request", "the authorize request lacks a required field");
    } else {
        text body = {0};
        int first = 0;
        text_printf(&body, "{\"amount\":%lld,\"capture\":%s", (long long)amount,
                    capture != NULL && strcmp(capture, "manual") == 0 ? "false" : "true");
        text_member(&body, "country", country, &first);
        text_member(&body, "currency", currency, &first);
        text_member(&body, "description", reference != NULL && reference[0] != '\0' ? reference : NULL, &first);
        text_member(&body, "method", method, &first);
        text_member(&body, "notification_url", notification_url, &first);
        text_member(&body, "reference", attempt, &first);
        text_member(&body, "return_url", return_url, &first);
        text_puts(&body, "}");
        send_request(call, account, "POST", "/v1/payments", &body, key);
        text_free(&body);
    }
    free(attempt), free(currency), free(country), free(method), free(reference), free(capture);
    free(return_url), free(key), free(notification_url);
}

/* GET /v1/payments/{id}: by the provider's id, or by our attempt id when the provider's is not known. */
static void sync_payment(plugin_call *call, span account, span request) {
    span payment;
    char *id = NULL, *attempt = NULL;
    if (json_member(request, "payment", &payment)) {
        id = member_string(payment, "providerPaymentId");
        attempt = member_string(payment, "attemptId");
    }
    const char *lookup = id != NULL && id[0] != '\0' ? id : attempt;
    if (lookup == NULL || lookup[0] == '\0') {
        finish_error(call, "bad_request", "the sync request names no payment");
    } else {
        text path = {0};
        text_puts(&path, "/v1/payments/");
        text_path_segment(&path, lookup);
        if (path.failed) {
            finish_error(call, "plugin_error", "out of memory");
        } else {
            send_request(call, account, "GET", path.data, NULL, NULL);
        }
        text_free(&path);
    }
    free(id);
    free(attempt);
}

/* POST /v1/payments/{id}/refunds: our refund id is the reference and the Idempotency-Key. */
static void refund(plugin_call *call, span account, span request) {
    span payment;
    char *id = NULL, *refund_id = member_string(request, "refundId"), *reason = member_string(request, "reason");
    int64_t amount;
    if (json_member(request, "payment", &payment)) id = member_string(payment, "providerPaymentId");
    if (id == NULL || id[0] == '\0') {
        finish_error(call, "missing_provider_payment_id",
                     PROVIDER "'s payment id is not known; sync the payment first");
    } else if (refund_id == NULL || !member_int64(request, "amount", &amount)) {
        finish_error(call, "bad_request", "the refund request lacks a required field");
    } else {
        text path = {0}, body = {0};
        int first = 0;
        text_puts(&path, "/v1/payments/");
        text_path_segment(&path, id);
        text_puts(&path, "/refunds");
        text_printf(&body, "{\"amount\":%lld", (long long)amount);
        text_member(&body, "reason", reason, &first);
        text_member(&body, "reference", refund_id, &first);
        text_puts(&body, "}");
        if (path.failed) {
            finish_error(call, "plugin_error", "out of memory");
        } else {
            send_request(call, account, "POST", path.data, &body, refund_id);
        }
        text_free(&path);
        text_free(&body);
    }
    free(id);
    free(refund_id);
    free(reason);
}

/* ---------------------------------------------------------------------------------------------------------
 * Notifications: verified with HMAC-SHA256 (OpenSSL's libcrypto) before anything in the body is trusted.
 */

/* Whether `provided` (hex, any case, surrounding blanks ignored) is the HMAC-SHA256 of `body`. */
static int signature_matches(const unsigned char *body, size_t length, const char *secret, const char *provided) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_length = 0;
    if (HMAC(EVP_sha256(), secret, (int)strlen(secret), body, length, mac, &mac_length) == NULL) return 0;
    char expected[2 * EVP_MAX_MD_SIZE + 1], given[2 * EVP_MAX_MD_SIZE + 1];
    for (unsigned int i = 0; i < mac_length; i++) snprintf(expected + 2 * i, 3, "%02x", mac[i]);
    while (*provided == ' ') provided++;
    size_t n = strlen(provided);
    while (n > 0 && provided[n - 1] == ' ') n--;
    if (n != 2 * (size_t)mac_length) return 0;
    for (size_t i = 0; i < n; i++) given[i] = (char)ascii_lower((unsigned char)provided[i]);
    int equal = CRYPTO_memcmp(expected, given, n) == 0;
    OPENSSL_cleanse(mac, sizeof(mac));
    OPENSSL_cleanse(expected, sizeof(expected));
    OPENSSL_cleanse(given, sizeof(given));
    return equal;
}

/* Completes a notification with `{"result": NotificationResult}`: refused, or verified with `event`. */
static void finish_notification(plugin_call *call, int status, const char *reason, const char *subject,
                                const char *reference, const outcome *event) {
    text t = {0};
    text_printf(&t, "{\"result\":{\"verified\":%s,\"reply\":{\"status\":%d,", reason == NULL ? "true" : "false",
                status);
    text_puts(&t, "\"headers\":[{\"name\":\"Content-Type\",\"value\":\"text/plain\"}],\"body\":");
    text_puts(&t, reason == NULL ? "\"ok\"},\"events\":[" : "\"unverified\"},\"events\":[");
    if (event != NULL) {
        text_puts(&t, "{\"subject\":");
        text_json_cstring(&t, subject);
        if (reference != NULL) {
            text_puts(&t, ",\"reference\":");
            text_json_cstring(&t, reference);
        }
        text_puts(&t, ",\"providerPaymentId\":");
        text_json_cstring(&t, event->provider_payment_id);
        text_puts(&t, ",\"outcome\":");
        text_outcome(&t, event);
        text_puts(&t, "}");
    }
    text_puts(&t, "]");
    if (reason != NULL) {
        text_puts(&t, ",\"failureReason\":");
        text_json_cstring(&t, reason);
    }
    text_puts(&t, "}}");
    if (reason != NULL) {
        log_line(call->instance, SY_LOG_WARNING, "__name__ notification rejected", "provider.account", call->account_id,
                 "__name__.notification.reason", reason, NULL);
    }
    if (t.failed) {
        finish_error(call, "plugin_error", "out of memory");
    } else {
        finish(call, t.data, t.length);
    }
    text_free(&t);
}

/*
 * Refused (`verified: false`, HTTP 401, no events): a missing or repeated `X-Signature` header or a signature
 * that does not match. A verified body that is not an event is refused with HTTP 400. A verified event gets
 * HTTP 200 and, for `payment.*` and `refund.*` types, one event.
 */
static void notification(plugin_call *call, span account, span request) {
    span credentials = {0}, headers = {0}, event_root = {0}, data = {0};
    char *secret = NULL, *signature = NULL, *body64 = member_string(request, "body"), *type = NULL, *reference = NULL;
    char *strings[4] = {NULL, NULL, NULL, NULL};
    unsigned char *body = NULL;
    size_t body_length = 0;
    int signatures = 0;
    if (json_member(account, "credentials", &credentials)) secret = member_string(credentials, "webhook_secret");
    if (json_member(request, "headers", &headers) && *headers.start == '[') {
        /* Each element of the array: {"name","value"}; elements are walked with the value scanner. */
        const char *p = skip_blanks(headers.start + 1, headers.end);
        while (p < headers.end && *p == '{') {
            const char *element_end = scan_value(p, headers.end, 1);
            if (element_end == NULL) break;
            span element = {p, element_end};
            char *name = member_string(element, "name");
            if (name != NULL && ascii_equal_ignoring_case(name, "X-Signature")) {
                signatures++;
                free(signature);
                signature = member_string(element, "value");
            }
            free(name);
            p = skip_blanks(element_end, headers.end);
            if (p < headers.end && *p == ',') p = skip_blanks(p + 1, headers.end);
        }
    }
    if (body64 != NULL) body = base64_decode(body64, &body_length);
    if (secret == NULL || secret[0] == '\0') {
        finish_error(call, "misconfigured", "credential webhook_secret is missing");
    } else if (body == NULL) {
        finish_notification(call, 401, "unreadable body", NULL, NULL, NULL);
    } else if (signatures != 1 || signature == NULL) {
        finish_notification(call, 401, signatures == 0 ? "missing signature" : "repeated signature header", NULL,
                            NULL, NULL);
    } else if (!signature_matches(body, body_length, secret, signature)) {
        finish_notification(call, 401, "signature mismatch", NULL, NULL, NULL);
    } else if (!json_parse((const char *)body, body_length, &event_root) || *event_root.start != '{' ||
               (type = member_string(event_root, "type")) == NULL || !json_member(event_root, "data", &data) ||
               *data.start != '{') {
        finish_notification(call, 400, "not an event", NULL, NULL, NULL);
    } else {
        int is_payment = strncmp(type, "payment.", 8) == 0, is_refund = strncmp(type, "refund.", 7) == 0;
        outcome event = object_outcome(data, is_refund, strings);
        reference = member_string(data, "reference");
        if ((!is_payment && !is_refund) || event.provider_payment_id == NULL) {
            finish_notification(call, 200, NULL, NULL, NULL, NULL); /* acknowledged, nothing to report */
        } else {
            finish_notification(call, 200, NULL, is_refund ? "refund" : "payment",
                                reference != NULL && reference[0] != '\0' ? reference : NULL, &event);
        }
    }
    if (secret != NULL) OPENSSL_cleanse(secret, strlen(secret));
    for (int i = 0; i < 4; i++) free(strings[i]);
    free(secret), free(signature), free(body64), free(body), free(type), free(reference);
}

/* ---------------------------------------------------------------------------------------------------------
 * The table.
 */
static void *plugin_create(const sy_host_services *host) {
    if (host == NULL || host->abi_version != SWITCHYARD_PLUGIN_ABI_VERSION || !HOST_HAS(host, http_send) ||
        host->http_send == NULL) {
        return NULL;
    }
    plugin_instance *instance = calloc(1, sizeof(plugin_instance));
    if (instance == NULL) return NULL;
    size_t known = host->struct_size < sizeof(sy_host_services) ? host->struct_size : sizeof(sy_host_services);
    memcpy(&instance->host, host, known);
    pthread_mutex_init(&instance->lock, NULL);
    instance->references = 1;
    return instance;
}

/* Called only when no call is in flight; HTTP completions still pending keep the memory alive. */
static void plugin_destroy(void *pointer) {
    if (pointer != NULL) release(pointer);
}

static void plugin_invoke(void *pointer, uint64_t call_id, const char *method, const char *request_json,
                          size_t request_length, sy_completion_fn completion, void *completion_context) {
    plugin_instance *instance = pointer;
    plugin_call *call = calloc(1, sizeof(plugin_call));
    if (call == NULL) {
        static const char out_of_memory[] = "{\"error\":{\"code\":\"plugin_error\",\"message\":\"out of memory\"}}";
        reply(completion, completion_context, out_of_memory, sizeof(out_of_memory) - 1);
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

    /* request_json is valid until invoke returns: everything needed is copied out of it. */
    span root, account, request;
    if (!json_parse(request_json, request_length, &root) || !json_member(root, "account", &account) ||
        !json_member(root, "request", &request) || *account.start != '{' || *request.start != '{') {
        finish_error(call, "bad_request", "the request is not {\"account\", \"request\"}");
        return;
    }
    call->account_id = member_string(account, "accountId");
    if (strcmp(method, "authorize") == 0) {
        call->kind = CALL_CREATE_PAYMENT;
        authorize(call, account, request);
    } else if (strcmp(method, "sync") == 0) {
        call->kind = CALL_GET_PAYMENT;
        sync_payment(call, account, request);
    } else if (strcmp(method, "refund") == 0) {
        call->kind = CALL_CREATE_REFUND;
        refund(call, account, request);
    } else if (strcmp(method, "notification") == 0) {
        notification(call, account, request);
    } else {
        finish_error(call, "not_supported", "this plugin does not support the flow");
    }
}

/* Called only after `invoke` for `call_id` returned. Completes the call with `cancelled` unless done. */
static void plugin_cancel(void *pointer, uint64_t call_id) {
    plugin_instance *instance = pointer;
    sy_completion_fn completion = NULL;
    void *context = NULL;
    pthread_mutex_lock(&instance->lock);
    for (plugin_call *call = instance->calls; call != NULL; call = call->next) {
        if (call->call_id == call_id && !call->completed) {
            completion = call->completion;
            context = call->completion_context;
            claim_locked(call); /* the pending HTTP completion still frees it */
            break;
        }
    }
    pthread_mutex_unlock(&instance->lock);
    if (completion != NULL) {
        static const char cancelled[] = "{\"error\":{\"code\":\"cancelled\",\"message\":\"the call was cancelled\"}}";
        reply(completion, context, cancelled, sizeof(cancelled) - 1);
    }
}

static const sy_plugin_table plugin_table = {
    .abi_version = SWITCHYARD_PLUGIN_ABI_VERSION,
    .struct_size = sizeof(sy_plugin_table),
    .manifest_json = manifest,
    .create = plugin_create,
    .destroy = plugin_destroy,
    .invoke = plugin_invoke,
    .cancel = plugin_cancel,
};

/* The one exported symbol. No side effects: it may run in a scanner process first. */
__attribute__((visibility("default"))) const sy_plugin_table *switchyard_plugin_entry(void) { return &plugin_table; }
