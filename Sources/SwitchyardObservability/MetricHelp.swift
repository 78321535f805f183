/// The `# HELP` text of every metric family a Switchyard server exposes, and the names its libraries'
/// metrics are exposed under.
///
/// The metrics backend registers families without help text, so ``annotate(_:)`` adds it to a rendered
/// scrape: a family missing from ``text`` would fail `promtool check metrics`, which the deploy checks run.
public enum MetricHelp {
    /// Help text by family name.
    public static let text: [String: String] = [
        MetricName.paymentsCreated: "Payments created, by plugin of the last attempt, its outcome class and status.",
        MetricName.paymentsFinished: "Payments that reached a final status, by method and status.",
        MetricName.refunds: "Refunds requested, by the status they were answered with.",
        MetricName.providerCallDuration: "Seconds spent in provider calls, by plugin, flow and outcome class.",
        MetricName.accessTokenFetches: "Access tokens fetched from a provider, by plugin and result.",
        MetricName.breakerState: "Circuit-breaker state per provider account: 0 closed, 1 half open, 2 open.",
        MetricName.unknownPayments: "Payments whose outcome is unknown (the janitor's backlog), at scrape time.",
        MetricName.unknownOldestAge: "Age in seconds of the oldest payment whose outcome is unknown (0 when none).",
        MetricName.sweeperActions: "Payments, refunds and captures the janitor and sweepers picked up, by work.",
        MetricName.retentionDeleted: "Finished rows the janitor deleted once their retention had passed, by kind.",
        MetricName.idempotencyKeysSettled:
            "Idempotency keys the janitor freed after their request ended unanswered, by action.",
        MetricName.webhookDeliveries: "Webhook deliveries by state, at scrape time.",
        MetricName.openDisputes:
            "Disputes not yet decided, by how soon their evidence is due (past_due, within_24h, within_72h, later, no_deadline), at scrape time.",
        MetricName.webhookAttempts: "Webhook delivery attempts finished, by result.",
        MetricName.webhookLatency: "Seconds from a webhook event's creation to the end of its delivery, by result.",
        MetricName.dbPoolInUse: "Database connections in use.",
        MetricName.dbPoolWaiting: "Callers waiting for a database connection.",
        MetricName.dbPoolWait: "Seconds spent waiting for a database connection.",
        MetricName.databaseUnavailableResponses: "Requests answered 503 because the database could not be reached.",
        MetricName.pluginLoads: "Plugins loaded, by plugin.",
        MetricName.pluginRefusals: "Plugins refused, by reason.",
        MetricName.httpRequests: "HTTP requests answered, by route template, method and status code.",
        MetricName.httpRequestErrors: "HTTP requests answered with an error, by route template, method and status.",
        MetricName.httpRequestDuration: "Seconds spent answering HTTP requests, by route template, method and status.",
        MetricName.httpActiveRequests: "HTTP requests in flight, by method.",
    ]

    /// The exposed names of metrics whose library names (after `.` became `_`) do not follow Prometheus'
    /// conventions: counters end in `_total`, durations in `_seconds`.
    public static let renamed: [String: String] = [
        "hb_requests": MetricName.httpRequests,
        "hb_request_errors": MetricName.httpRequestErrors,
        "http_server_request_duration": MetricName.httpRequestDuration,
    ]

    /// `scrape` (the Prometheus text format) with a `# HELP` line before each family's `# TYPE` line,
    /// for the families ``text`` knows.
    public static func annotate(_ scrape: String) -> String {
        var out = ""
        out.reserveCapacity(scrape.utf8.count + text.count * 80)
        for line in scrape.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first,
                let help = text[String(name)]
            {
                out += "# HELP \(name) \(help)\n"
            }
            out += line
            out += "\n"
        }
        // Every piece got a newline; the last piece is what followed the scrape's last newline, and had none.
        out.removeLast()
        return out
    }
}
