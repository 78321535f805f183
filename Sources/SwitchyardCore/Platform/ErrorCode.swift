/// Every stable machine-readable code the API emits in `{"error":{"code":…}}`.
///
/// The raw value is the wire code. A new failure needs a new case here, and the HTTP layer must then
/// decide its status (its table has no default). Provider decline codes are not error codes: they travel
/// in a payment's `failure`, and in the `decline_code` and `provider_code` of ``providerDeclined``.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable, Encodable, CustomStringConvertible {
    /// The request could not be read (a malformed path parameter or query).
    case badRequest = "bad_request"
    /// The request body is larger than the server accepts.
    case bodyTooLarge = "body_too_large"
    /// A live provider account names a credential value the provider publishes for its test system.
    case credentialIsPublicTestValue = "credential_is_public_test_value"
    /// No database connection became free in time, or a statement timed out; retry shortly.
    case databaseBusy = "database_busy"
    /// The database cannot be reached just now (restarting or failing over); retry shortly.
    case databaseUnavailable = "database_unavailable"
    /// The JSON body names the same key twice in one object.
    case duplicateKey = "duplicate_key"
    /// A webhook URL resolves to an address the egress policy forbids.
    case endpointAddressForbidden = "endpoint_address_forbidden"
    /// The tenant already has as many webhook endpoints as the policy allows.
    case endpointQuotaExceeded = "endpoint_quota_exceeded"
    /// The credential is valid but may not do that.
    case forbidden
    /// A request with this Idempotency-Key is still running (or another took it over).
    case idempotencyInProgress = "idempotency_in_progress"
    /// The Idempotency-Key was used before with a different request body.
    case idempotencyKeyReused = "idempotency_key_reused"
    /// The API key lacks the scope the route needs.
    case insufficientScope = "insufficient_scope"
    /// An unexpected failure; the response carries no detail.
    case internalError = "internal_error"
    /// An amount is not a positive integer of minor units within bounds.
    case invalidAmount = "invalid_amount"
    /// The API key is unknown, revoked or expired.
    case invalidAPIKey = "invalid_api_key"
    /// The `Switchyard-Version` header names no version of the API.
    case invalidAPIVersion = "invalid_api_version"
    /// A provider account's base URL is not an absolute http(s) URL.
    case invalidBaseURL = "invalid_base_url"
    /// A country is not an upper-case ISO 3166-1 alpha-2 code.
    case invalidCountry = "invalid_country"
    /// A currency is not an upper-case ISO 4217 code.
    case invalidCurrency = "invalid_currency"
    /// A customer id is not 1 to 128 characters.
    case invalidCustomer = "invalid_customer"
    /// A description (of a payment, refund, payment method or webhook endpoint) is too long.
    case invalidDescription = "invalid_description"
    /// A webhook endpoint's event types are empty or too many.
    case invalidEventTypes = "invalid_event_types"
    /// An API key's new expiry is not in the future.
    case invalidExpiresAt = "invalid_expires_at"
    /// An `expand[]` query parameter names nothing the list can expand.
    case invalidExpand = "invalid_expand"
    /// A provider account's environment is neither a test one (`sandbox`, `test`) nor a live one
    /// (`production`, `live`).
    case invalidEnvironment = "invalid_environment"
    /// A body field has the wrong type or an invalid value.
    case invalidField = "invalid_field"
    /// An API key rotation's grace period is out of range.
    case invalidGrace = "invalid_grace"
    /// The Idempotency-Key header is not 1 to 255 printable ASCII characters.
    case invalidIdempotencyKey = "invalid_idempotency_key"
    /// The body is not valid JSON (or not UTF-8, or nested too deep).
    case invalidJSON = "invalid_json"
    /// A `limit` query parameter is out of range.
    case invalidLimit = "invalid_limit"
    /// A `metadata` object has too many keys, a key that is empty, too long or has control characters, or a
    /// value that is too long.
    case invalidMetadata = "invalid_metadata"
    /// A payment method name is not lower case.
    case invalidMethod = "invalid_method"
    /// A name is empty or too long.
    case invalidName = "invalid_name"
    /// A list's query parameter (cursor, date, status, tenant) is malformed or names nothing; the message
    /// names the parameter.
    case invalidParameter = "invalid_parameter"
    /// A policy file or tenant policy does not validate.
    case invalidPolicy = "invalid_policy"
    /// An operator search's query parameters are missing, contradictory or too long.
    case invalidQuery = "invalid_query"
    /// A merchant reference is not 1 to 128 characters.
    case invalidReference = "invalid_reference"
    /// The request contradicts itself (e.g. saving an already stored payment method).
    case invalidRequest = "invalid_request"
    /// A return URL is not an absolute http(s) URL without credentials.
    case invalidReturnURL = "invalid_return_url"
    /// Routing rules have errors; `issues` lists each one.
    case invalidRouting = "invalid_routing"
    /// An API key's scopes are empty.
    case invalidScopes = "invalid_scopes"
    /// The payment's state does not allow the operation.
    case invalidState = "invalid_state"
    /// A `status` query parameter names no known status.
    case invalidStatus = "invalid_status"
    /// A `tenant` query parameter is not a tenant id.
    case invalidTenant = "invalid_tenant"
    /// A path, query or body text contains a character that cannot be stored (NUL).
    case invalidText = "invalid_text"
    /// A webhook URL is not an acceptable absolute http(s) URL.
    case invalidWebhookURL = "invalid_webhook_url"
    /// A revoked or expired API key cannot be rotated.
    case keyNotUsable = "key_not_usable"
    /// The route exists but not for this HTTP method.
    case methodNotAllowed = "method_not_allowed"
    /// A provider account lacks a credential its plugin requires.
    case missingCredential = "missing_credential"
    /// Saving a payment method needs a customer.
    case missingCustomer = "missing_customer"
    /// A required field is absent.
    case missingField = "missing_field"
    /// The payment would route only to accounts of the other mode: a test key pays only through test
    /// (sandbox) accounts and a live key only through live (production) ones.
    case noAccountForMode = "no_account_for_mode"
    /// No routing rule (or none of its accounts) can take the payment.
    case noRoute = "no_route"
    /// The payment has no client session.
    case noSession = "no_session"
    /// No enabled webhook endpoint receives the event to replay.
    case noWebhookEndpoint = "no_webhook_endpoint"
    /// The object does not exist (or belongs to another tenant).
    case notFound = "not_found"
    /// The payment's provider offers no such operation.
    case notSupported = "not_supported"
    /// The provider's answer to the operation is not known yet; the payment is synced.
    case outcomeUnknown = "outcome_unknown"
    /// Another request is working on the payment right now.
    case paymentInProgress = "payment_in_progress"
    /// The stored payment method does not match the payment's method.
    case paymentMethodMismatch = "payment_method_mismatch"
    /// The stored payment method is not active.
    case paymentMethodUnusable = "payment_method_unusable"
    /// The payment was settled before it reached a provider.
    case paymentSettled = "payment_settled"
    /// The plugin failed to process a notification.
    case pluginError = "plugin_error"
    /// The plugin of the account is not loaded.
    case pluginUnavailable = "plugin_unavailable"
    /// A tenant policy would loosen the platform's limits.
    case policyLoosened = "policy_loosened"
    /// The server was started without a policy file to reload.
    case policyNotReloadable = "policy_not_reloadable"
    /// The provider refused a capture, cancel or refund; the message carries its code.
    case providerDeclined = "provider_declined"
    /// The provider could not be reached; nothing happened there.
    case providerUnreachable = "provider_unreachable"
    /// Every account that could take the payment is unavailable (circuit breakers open).
    case providersUnavailable = "providers_unavailable"
    /// The tenant is over its request rate.
    case rateLimited = "rate_limited"
    /// A refund is larger than what remains captured.
    case refundExceedsCaptured = "refund_exceeds_captured"
    /// A refund would return funds a dispute already took from the merchant.
    case refundExceedsUndisputed = "refund_exceeds_undisputed"
    /// The operator's role lacks the permission the admin route needs; the message names it.
    case missingPermission = "missing_permission"
    /// Another operator already has that name.
    case operatorNameTaken = "operator_name_taken"
    /// The operator is revoked: its token cannot be rotated.
    case operatorRevoked = "operator_revoked"
    /// The dispute is decided or closed: it can no longer be accepted or answered with evidence.
    case disputeClosed = "dispute_closed"
    /// The provider refused the merchant's answer to a dispute (past its deadline, already answered, a
    /// document it does not take).
    case disputeAnswerRefused = "dispute_answer_refused"
    /// An evidence document is larger than the policy's `disputes.max_evidence_bytes`.
    case evidenceTooLarge = "evidence_too_large"
    /// An evidence document is of a type Switchyard does not take.
    case evidenceTypeRefused = "evidence_type_refused"
    /// The tenant replayed more events than its replay quota allows.
    case replayQuotaExceeded = "replay_quota_exceeded"
    /// A routing replay's window holds more payments than `routing_replay.max_payments`.
    case replayWindowTooLarge = "replay_window_too_large"
    /// The provider needs a return URL the request did not give.
    case returnURLRequired = "return_url_required"
    /// A guarded rollout of the tenant's routing is running: stop it (or let it end) first.
    case rolloutRunning = "rollout_running"
    /// The routing changed since the version the write was based on.
    case routingVersionConflict = "routing_version_conflict"
    /// The client session expired.
    case sessionExpired = "session_expired"
    /// The client session is bound to an order at the provider and cannot be renewed.
    case sessionNotRenewable = "session_not_renewable"
    /// The provider did not issue a new client session; try again.
    case sessionNotRenewed = "session_not_renewed"
    /// The tenant has too many requests in progress.
    case tooManyConcurrentRequests = "too_many_concurrent_requests"
    /// A bearer token is missing or invalid.
    case unauthorized
    /// A provider account names no account of the tenant.
    case unknownAccount = "unknown_account"
    /// A provider account names a credential its plugin does not have.
    case unknownCredential = "unknown_credential"
    /// A query parameter the route does not take (a misspelt filter, say), or, from API version 2026-12-01,
    /// a JSON body field the endpoint does not know; `param` names it.
    case unknownParameter = "unknown_parameter"
    /// The customer has no such stored payment method.
    case unknownPaymentMethod = "unknown_payment_method"
    /// No plugin with that id is loaded.
    case unknownPlugin = "unknown_plugin"
    /// A request body is not JSON.
    case unsupportedMediaType = "unsupported_media_type"
    /// No provider account (or not this one) can vault cards.
    case vaultingNotSupported = "vaulting_not_supported"

    /// The wire code.
    public var description: String { rawValue }
}
