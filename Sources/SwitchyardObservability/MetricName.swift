/// The names of Switchyard's own metrics (Prometheus text names, `switchyard_` prefixed).
///
/// Labels are bounded: plugin ids, flows, outcome classes, statuses, account ids of configured provider
/// accounts; never payment ids, and tenant ids only when the policy asks for them.
public enum MetricName {
    /// Payments created, by `plugin`, `status` (and `tenant` when enabled).
    public static let paymentsCreated = "switchyard_payments_created_total"
    /// Payments that reached a final status, by `plugin`, `status` (and `tenant` when enabled).
    public static let paymentsFinished = "switchyard_payments_finished_total"
    /// Refunds requested, by `plugin`, `status`.
    public static let refunds = "switchyard_refunds_total"
    /// Provider calls, by `plugin`, `flow`, `outcome` (a histogram of seconds).
    public static let providerCallDuration = "switchyard_provider_call_duration_seconds"
    /// Access tokens fetched from a provider, by `plugin`, `result`.
    public static let accessTokenFetches = "switchyard_access_token_fetches_total"
    /// Circuit-breaker state per `account` (0 closed, 1 half open, 2 open).
    public static let breakerState = "switchyard_circuit_breaker_state"
    /// Payments whose outcome is unknown (the janitor's backlog).
    public static let unknownPayments = "switchyard_janitor_unknown_payments"
    /// Age in seconds of the oldest payment whose outcome is unknown (0 when none).
    public static let unknownOldestAge = "switchyard_janitor_unknown_oldest_age_seconds"
    /// Payments, refunds and captures the janitor and sweepers picked up, by `work`.
    public static let sweeperActions = "switchyard_sweeper_actions_total"
    /// Finished rows the janitor deleted once their retention had passed, by `kind` (`idempotency_keys`,
    /// `webhook_deliveries`, `webhook_events`, `notifications`, `audit_entries`, `routing_outcomes`).
    public static let retentionDeleted = "switchyard_retention_deleted_total"
    /// `Idempotency-Key`s the janitor freed after their request ended unanswered, by `action` (`completed`:
    /// answered with the payment or refund linked to it; `released`: forgotten, nothing linked;
    /// `instance_released`: held by a server that stopped heart-beating).
    public static let idempotencyKeysSettled = "switchyard_idempotency_keys_settled_total"
    /// Webhook deliveries by `state` (pending, dead) at scrape time.
    public static let webhookDeliveries = "switchyard_webhook_deliveries"
    public static let openDisputes = "switchyard_disputes_open"
    /// Webhook delivery attempts finished, by `result` (succeeded, failed, dead).
    public static let webhookAttempts = "switchyard_webhook_delivery_attempts_total"
    /// Seconds from a webhook event's creation to its successful delivery.
    public static let webhookLatency = "switchyard_webhook_delivery_latency_seconds"
    /// Database connections in use.
    public static let dbPoolInUse = "switchyard_db_pool_connections_in_use"
    /// Callers waiting for a database connection.
    public static let dbPoolWaiting = "switchyard_db_pool_waiting"
    /// Seconds spent waiting for a database connection.
    public static let dbPoolWait = "switchyard_db_pool_wait_seconds"
    /// Requests answered `503 database_unavailable` because the database could not be reached.
    public static let databaseUnavailableResponses = "switchyard_database_unavailable_responses_total"
    /// Plugins loaded, by `plugin`.
    public static let pluginLoads = "switchyard_plugin_loads_total"
    /// Plugins refused, by `reason`.
    public static let pluginRefusals = "switchyard_plugin_refusals_total"
    /// HTTP requests answered, by `http_route`, `http_request_method`, `http_response_status_code`.
    public static let httpRequests = "http_server_requests_total"
    /// HTTP requests answered with an error, by `http_route`, `http_request_method`, `error_type`.
    public static let httpRequestErrors = "http_server_request_errors_total"
    /// Seconds spent answering an HTTP request, by `http_route`, `http_request_method`,
    /// `http_response_status_code`.
    public static let httpRequestDuration = "http_server_request_duration_seconds"
    /// HTTP requests in flight, by `http_request_method`.
    public static let httpActiveRequests = "http_server_active_requests"
}
