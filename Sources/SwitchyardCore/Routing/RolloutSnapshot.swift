import Foundation

/// A guarded rollout as the API and webhook events show it: its settings, state and the figures that
/// decide (per-arm answers and rates, the interval for draft − control, the guardrail).
public struct RolloutSnapshot: Encodable, Sendable, Equatable {
    /// One arm's answers.
    public struct Arm: Encodable, Sendable, Equatable {
        public var samples: Int
        public var approved: Int
        /// Authorisation rate, null without answers.
        public var rate: Double?
    }

    /// The interval for draft − control authorisation rate, in percentage points.
    public struct IntervalPP: Encodable, Sendable, Equatable {
        public var differencePP: Double
        public var lowerPP: Double
        public var upperPP: Double

        enum CodingKeys: String, CodingKey {
            case differencePP = "difference_pp"
            case lowerPP = "lower_pp"
            case upperPP = "upper_pp"
        }
    }

    public var object = "routing_rollout"
    public var id: String
    public var status: RolloutStatus
    /// Why it ended (`guardrail_breached`, `within_guardrail`, `max_duration`, `stopped`); null while running.
    public var reason: String?
    public var draftVersion: Int
    /// The live version afterwards; null while running.
    public var liveVersion: Int?
    /// Percentage of traffic routed through the draft.
    public var sharePercent: Double
    public var guardrailPP: Double
    public var minSamples: Int
    public var maxDurationSeconds: Int64
    public var alpha: Double
    public var startedAt: Date
    public var elapsedSeconds: Double
    public var control: Arm
    public var draft: Arm
    /// Null until both arms have answers.
    public var interval: IntervalPP?

    enum CodingKeys: String, CodingKey {
        case object, id, status, reason, alpha, control, draft, interval
        case draftVersion = "draft_version"
        case liveVersion = "live_version"
        case sharePercent = "share_percent"
        case guardrailPP = "guardrail_pp"
        case minSamples = "min_samples"
        case maxDurationSeconds = "max_duration_seconds"
        case startedAt = "started_at"
        case elapsedSeconds = "elapsed_seconds"
    }

    /// The snapshot of `rollout` with the figures of `decision`.
    public init(
        _ rollout: RoutingRollout, figures: RolloutDecision.Figures, status: RolloutStatus, reason: String? = nil,
        liveVersion: Int? = nil
    ) {
        let percent = Self.percent
        id = rollout.id.uuidString.lowercased()
        self.status = status
        self.reason = reason
        draftVersion = rollout.draftVersion
        self.liveVersion = liveVersion
        sharePercent = percent(rollout.settings.share)
        guardrailPP = percent(rollout.settings.guardrail)
        minSamples = rollout.settings.minSamples
        maxDurationSeconds = Int64(rollout.settings.maxDuration)
        alpha = rollout.settings.alpha
        startedAt = rollout.startedAt
        elapsedSeconds = figures.elapsedSeconds
        control = Arm(figures.control)
        draft = Arm(figures.draft)
        interval = figures.interval.map(IntervalPP.init)
    }

    /// A fraction in percent, to two decimals.
    static func percent(_ fraction: Double) -> Double { (fraction * 10_000).rounded() / 100 }
}

extension RolloutSnapshot.Arm {
    /// The answers of `tally` with its rate.
    public init(_ tally: RolloutDecision.Tally) {
        self.init(samples: tally.samples, approved: tally.approved, rate: tally.rate)
    }
}

extension RolloutSnapshot.IntervalPP {
    /// `interval` in percentage points, to two decimals.
    public init(_ interval: RolloutDecision.Interval) {
        let percent = RolloutSnapshot.percent
        self.init(
            differencePP: percent(interval.difference), lowerPP: percent(interval.lower),
            upperPP: percent(interval.upper))
    }
}

extension RolloutSnapshot {
    /// The snapshot of a rollout that ended, with the figures that decided it.
    public init(_ end: RolloutEnd) {
        self.init(
            end.rollout, figures: end.figures, status: end.status, reason: end.reason, liveVersion: end.liveVersion)
    }
}

extension RolloutEnd: WebhookSubject {
    /// `routing.rollout.promoted`, `routing.rollout.rolled_back`, `routing.rollout.stopped`.
    public static let eventFamily = "routing.rollout"
    public var tenantId: UUID { tenant }
    public var subjectId: String { rollout.id.uuidString.lowercased() }
    public var eventStatus: String { status.rawValue }
    public var snapshot: any Encodable { RolloutSnapshot(self) }
}
