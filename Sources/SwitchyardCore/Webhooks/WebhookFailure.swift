/// Why a delivery attempt failed, as coarse as tenants see it: enough to fix their endpoint, never
/// enough to map a network (no "refused" versus "timed out" before a connection, no address).
public enum WebhookFailure: String, Sendable, Equatable, CaseIterable {
    /// The endpoint answered with a status other than 2xx (the attempt carries the status code).
    case httpStatus = "http_status"
    /// The endpoint took the request but did not answer in time.
    case timeout
    /// No connection: the name did not resolve, or the connection was refused, reset or not made in time.
    case connectionFailed = "connection_failed"
    /// The TLS handshake or the certificate failed.
    case tlsError = "tls_error"
    /// The endpoint's host is or resolves to an address webhooks may not reach (or its URL uses http
    /// where https is now required); nothing was sent.
    case addressForbidden = "address_forbidden"
    /// The answer was not valid HTTP.
    case invalidResponse = "invalid_response"

    /// The class of a recorded error, also for text recorded before errors were classes.
    public init(recorded text: String) {
        if let known = WebhookFailure(rawValue: text) {
            self = known
        } else if text.hasPrefix("endpoint answered") {
            self = .httpStatus
        } else if text == "timed out" {
            self = .timeout
        } else {
            self = .connectionFailed
        }
    }
}

/// A tenant asked for more replays than the policy allows in its window (`429 replay_quota_exceeded`).
public struct WebhookReplayQuotaExceeded: Error, Sendable, Equatable {
    /// Seconds until enough earlier replays leave the window.
    public var retryAfterSeconds: Int

    public init(retryAfterSeconds: Int) {
        self.retryAfterSeconds = retryAfterSeconds
    }
}
