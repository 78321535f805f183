import Foundation

extension PageRequest {
    /// The query parameters every list reads.
    public static let parameterNames = [
        "limit", "starting_after", "ending_before", "created[gte]", "created[gt]", "created[lte]", "created[lt]",
        "status",
    ]

    /// Reads a page request from query parameters (`value(name)` is the parameter's value, nil when absent).
    /// `statuses` are the statuses the list's items can have (nil: the list has none, and `status` is
    /// refused). Throws `400 invalid_limit` for a limit outside 1…``maximumLimit``, `400 invalid_status`
    /// for a status the list does not have, and `400 invalid_parameter` naming the parameter for both
    /// cursors at once, an empty or over-long cursor, or a date that is neither unix seconds nor ISO 8601.
    public static func parse(_ value: (String) -> String?, statuses: [String]?) throws -> PageRequest {
        var request = PageRequest()
        if let text = value("limit") {
            guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                throw CoreError(.invalidLimit, "limit must be an integer from 1 to \(maximumLimit)", param: "limit")
            }
            request.limit = limit
        }
        switch (value("starting_after"), value("ending_before")) {
        case (.some, .some):
            throw CoreError(
                .invalidParameter, "starting_after and ending_before cannot be given together",
                param: "ending_before")
        case (.some(let id), nil): request.cursor = .after(try cursorId(id, "starting_after"))
        case (nil, .some(let id)): request.cursor = .before(try cursorId(id, "ending_before"))
        case (nil, nil): break
        }
        request.created = CreatedRange(
            gte: try date(value("created[gte]"), "created[gte]"), gt: try date(value("created[gt]"), "created[gt]"),
            lte: try date(value("created[lte]"), "created[lte]"), lt: try date(value("created[lt]"), "created[lt]"))
        if let status = value("status") {
            guard let statuses else {
                throw CoreError(.invalidStatus, "status: this list has no status filter", param: "status")
            }
            guard statuses.contains(status) else {
                throw CoreError(
                    .invalidStatus, "status must be one of \(statuses.joined(separator: ", "))", param: "status")
            }
            request.status = status
        }
        return request
    }

    private static func cursorId(_ text: String, _ name: String) throws -> String {
        guard !text.isEmpty, text.count <= 128 else {
            throw CoreError(.invalidParameter, "\(name) must be the id of an item of this list", param: name)
        }
        return text
    }

    /// Unix seconds or an ISO 8601 date-time (with a zone).
    public static func date(_ text: String?, _ name: String) throws -> Date? {
        guard let text else { return nil }
        if let seconds = Int64(text), abs(seconds) <= 253_402_300_799 {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        throw CoreError(
            .invalidParameter, "\(name) must be unix seconds or an ISO 8601 date-time such as 2026-01-31T00:00:00Z",
            param: name)
    }
}
