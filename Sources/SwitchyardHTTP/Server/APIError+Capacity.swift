import HTTPTypes

extension APIError {
    /// `429 rate_limited`: the tenant is over its request rate.
    static func rateLimited(retryAfter seconds: Int) -> APIError {
        var error = APIError(
            .rateLimited, "too many requests for this tenant; retry after \(seconds) s")
        error.retryAfter = seconds
        return error
    }

    /// `429 too_many_concurrent_requests`: the tenant has too many requests in progress.
    static var tooManyConcurrentRequests: APIError {
        var error = APIError(
            .tooManyConcurrentRequests,
            "too many requests of this tenant are in progress; retry shortly")
        error.retryAfter = 1
        return error
    }

    /// `503 database_busy`: no database connection became free in time, or a statement timed out.
    static var databaseBusy: APIError {
        var error = APIError(.databaseBusy, "the database is busy; retry shortly")
        error.retryAfter = 1
        return error
    }

    /// `503 database_unavailable`: the database cannot be reached or the connection broke (a restart or a
    /// failover); the client retries with the same Idempotency-Key.
    static var databaseUnavailable: APIError {
        var error = APIError(.databaseUnavailable, "the database is unavailable; retry shortly")
        error.retryAfter = 2
        return error
    }
}
