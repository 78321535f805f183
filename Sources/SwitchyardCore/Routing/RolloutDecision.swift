import Foundation

/// The decision of a guarded rollout, as a pure value: answers and clock ticks in, an action out.
///
/// It compares the draft's authorisation rate with the control's through a confidence sequence for their
/// difference (draft − control): the mixture sequential probability ratio test's always-valid interval
/// (Johari, Pekelis, Walsh 2017; Howard et al. 2021), which holds at every look with probability 1 − alpha,
/// so looking after every answer does not inflate false alarms. The draft is rolled back as soon as the
/// whole interval lies below −guardrail; promoted once both arms have `minSamples` answers and the whole
/// interval lies above −guardrail, or when `maxDuration` has passed without it having been shown worse.
public struct RolloutDecision: Sendable, Equatable {
    /// The answers one arm got.
    public struct Tally: Codable, Sendable, Equatable {
        /// Definite answers (approved or declined).
        public var samples: Int
        public var approved: Int

        public init(samples: Int = 0, approved: Int = 0) {
            self.samples = samples
            self.approved = approved
        }

        /// The authorisation rate, nil without answers.
        public var rate: Double? { samples > 0 ? Double(approved) / Double(samples) : nil }
    }

    /// What happened.
    public enum Event: Sendable, Equatable {
        /// A definite answer of a payment routed through `arm`, at a time.
        case answer(RolloutArm, approved: Bool, at: Date)
        /// Time passed (the worker looks).
        case tick(Date)
    }

    /// Why a rollout ended.
    public enum Reason: String, Codable, Sendable, Equatable {
        /// The draft is worse than the guardrail allows, with confidence.
        case guardrailBreached = "guardrail_breached"
        /// After the minimum sample the draft is, with confidence, within the guardrail.
        case withinGuardrail = "within_guardrail"
        /// The longest duration passed without the draft being shown worse.
        case maxDuration = "max_duration"
    }

    /// What to do.
    public enum Action: Sendable, Equatable {
        case `continue`
        /// Make the draft live.
        case promote(Reason)
        /// End the rollout, live unchanged.
        case rollBack(Reason)
    }

    public var settings: RolloutSettings
    public var startedAt: Date
    public var control: Tally
    public var draft: Tally
    /// The latest time seen.
    public var now: Date

    /// Answers the rollout needs on each arm before it may be rolled back: the interval rests on a normal
    /// approximation, which a handful of answers does not support.
    public static let burnIn = 20

    public init(
        settings: RolloutSettings, startedAt: Date, control: Tally = Tally(), draft: Tally = Tally(), now: Date? = nil
    ) {
        self.settings = settings
        self.startedAt = startedAt
        self.control = control
        self.draft = draft
        self.now = now ?? startedAt
    }

    /// Takes `event` into account and says what to do now.
    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .answer(let arm, let approved, let at):
            let add = Tally(samples: 1, approved: approved ? 1 : 0)
            switch arm {
            case .control: control = control.adding(add)
            case .draft: draft = draft.adding(add)
            }
            now = max(now, at)
        case .tick(let at):
            now = max(now, at)
        }
        return action
    }

    /// What to do with the answers and time seen so far.
    public var action: Action {
        let interval = interval
        let guardrail = -settings.guardrail
        let rollbackReady = min(control.samples, draft.samples) >= min(Self.burnIn, max(1, settings.minSamples))
        if rollbackReady, let interval, interval.upper < guardrail { return .rollBack(.guardrailBreached) }
        if min(control.samples, draft.samples) >= settings.minSamples, let interval, interval.lower > guardrail {
            return .promote(.withinGuardrail)
        }
        if now.timeIntervalSince(startedAt) >= settings.maxDuration { return .promote(.maxDuration) }
        return .continue
    }
}

extension RolloutDecision.Tally {
    /// The two tallies together (saturating: counts never wrap).
    func adding(_ other: Self) -> Self {
        Self(
            samples: samples.addingReportingOverflow(other.samples).overflow ? .max : samples + other.samples,
            approved: approved.addingReportingOverflow(other.approved).overflow ? .max : approved + other.approved)
    }
}
