import Foundation

/// The policy's `disputes` section: when the merchant is reminded of an evidence deadline, how long after it
/// a dispute still waiting for evidence is closed as the providers rule (lost: the funds stay with the
/// cardholder), and how large an evidence document may be.
public struct DisputePolicy: PolicySection {
    /// Hours before the evidence deadline at which `dispute.evidence_due_soon` is sent, once each.
    public var reminderHours: [Int] = [72, 24]
    /// Hours after the deadline before a dispute still waiting for evidence is closed as lost; the provider's
    /// own notification, when it comes first, decides instead.
    public var pastDueGraceHours: Int = 24
    /// The largest evidence document accepted, in bytes (default 512 KiB: its Base64 form stays within the
    /// 1,000,000 characters Antom takes, and its request within the platform's body limit).
    public var maxEvidenceBytes: Int = 524_288

    public init() {}

    public static let name = "disputes"
    public static let fields: [PolicyField<DisputePolicy>] = [
        .key(
            "reminder_hours", \.reminderHours, range: "0 to \(maximumReminders) values, each 1 to \(maximumHours)",
            check: { hours in
                hours.count <= maximumReminders && hours.allSatisfy((1...maximumHours).contains)
                    ? nil : "must hold at most \(maximumReminders) values between 1 and \(maximumHours)"
            }, "Hours before an evidence deadline at which the merchant is reminded, once each."),
        .key(
            "past_due_grace_hours", \.pastDueGraceHours, in: 0...maximumHours, unit: "hours",
            "Hours after an evidence deadline before a dispute still waiting for evidence is closed as lost."),
        .key(
            "max_evidence_bytes", \.maxEvidenceBytes, in: 1...maximumEvidenceBytes, unit: "bytes",
            "The largest evidence document accepted."),
    ]

    /// The largest evidence document a policy may allow: its Base64 form within 1,000,000 characters.
    public static let maximumEvidenceBytes = 750_000

    /// The longest reminder or grace accepted, in hours (90 days).
    public static let maximumHours = 2_160
    /// The most reminders of one deadline.
    public static let maximumReminders = 5

    /// The reminder horizons in hours, largest first, within their accepted range.
    public var horizons: [Int] {
        Array(Set(reminderHours.filter { (1...Self.maximumHours).contains($0) })).sorted(by: >)
    }

    /// The grace after a deadline, in seconds, within its accepted range.
    public var grace: TimeInterval { TimeInterval(min(max(0, pastDueGraceHours), Self.maximumHours)) * 3600 }

    /// The smallest reminder horizon (in hours) that has begun at `now` for a deadline `dueBy` not yet
    /// passed, when it is one not yet sent (`sent`: the smallest horizon sent so far); nil when no reminder is
    /// due.
    public func reminder(dueBy: Date, sent: Int?, now: Date) -> Int? {
        guard dueBy > now else { return nil }
        let begun = horizons.filter { dueBy.addingTimeInterval(-TimeInterval($0) * 3600) <= now }
        guard let horizon = begun.min() else { return nil }
        if let sent, sent <= horizon { return nil }
        return horizon
    }
}

extension DisputePolicy {
    /// The due windows open disputes are counted by (the metric's `due` label), soonest first.
    public static let windows = ["past_due", "within_24h", "within_72h", "later", "no_deadline"]

    /// The window of a dispute whose evidence is due by `dueBy`, at `now`.
    public static func window(dueBy: Date?, now: Date) -> String {
        guard let dueBy else { return "no_deadline" }
        let left = dueBy.timeIntervalSince(now)
        if left <= 0 { return "past_due" }
        if left <= 24 * 3600 { return "within_24h" }
        if left <= 72 * 3600 { return "within_72h" }
        return "later"
    }
}
