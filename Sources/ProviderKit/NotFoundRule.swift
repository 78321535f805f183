#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a plugin judges an inquiry by our own reference that finds nothing at the provider.
///
/// A request that timed out may still be processed a little later, so "not found" right after the attempt
/// proves nothing. Once `delay` has passed since the attempt started, the provider would know the reference
/// if the request had ever reached it: the attempt certainly never reached the provider, and the sync answers
/// `notSent` with code ``notReceivedCode``. Before that, or when the attempt's start is not known, the
/// answer stays `unknown` with code ``notFoundYetCode``, and a later sync asks again.
///
/// Only an inquiry by our reference may use this rule: a lookup by the provider's own id that finds nothing
/// proves nothing about our attempt.
public struct NotFoundRule: Sendable, Equatable {
    /// The account option that overrides a plugin's default delay, in whole seconds.
    public static let optionName = "not_found_delay_seconds"
    /// The code of a sync outcome that proves the attempt never reached the provider (kind `notSent`).
    public static let notReceivedCode = PluginResultCode.notReceived.rawValue
    /// The code of a sync outcome that found nothing while the attempt may still appear (kind `unknown`).
    public static let notFoundYetCode = PluginResultCode.notFoundYet.rawValue
    /// The accepted range of the option; values outside it are clamped.
    public static let delayRange: ClosedRange<TimeInterval> = 1...86_400

    /// How long after the attempt's start a "not found" becomes definite.
    public var delay: TimeInterval

    /// A rule with an explicit delay.
    public init(delay: TimeInterval) {
        self.delay = delay
    }

    /// The account's delay from ``optionName`` (whole seconds, clamped to ``delayRange``), else `defaultDelay`.
    public init(options: [String: String], defaultDelay: TimeInterval) {
        guard let text = options[Self.optionName]?.trimmingBlanks(), let seconds = Int(text)
        else {
            self.init(delay: defaultDelay)
            return
        }
        self.init(delay: min(max(TimeInterval(seconds), Self.delayRange.lowerBound), Self.delayRange.upperBound))
    }

    /// The outcome of an inquiry by our reference that found nothing at `provider`, judged at `now`.
    public func outcome(provider: String, attemptStartedAt: Date?, now: Date) -> Outcome {
        guard let started = attemptStartedAt else {
            return Outcome(
                kind: .unknown, code: Self.notFoundYetCode,
                message: "\(provider) knows no such payment, but the attempt's start is not known; asking again later")
        }
        let waited = now.timeIntervalSince(started)
        guard waited >= delay else {
            return Outcome(
                kind: .unknown, code: Self.notFoundYetCode,
                message:
                    "\(provider) knows no such payment yet; it may still appear until \(Int(delay)) s after the attempt"
            )
        }
        return Outcome(
            kind: .notSent, code: Self.notReceivedCode,
            message:
                "\(provider) knows no such payment \(Int(waited)) s after the attempt: it never reached \(provider)")
    }
}

extension Outcome {
    /// Whether a sync's outcome proves that the attempt never reached the provider (see ``NotFoundRule``).
    /// Any other `notSent` from a sync only says that the inquiry itself was not sent.
    public var provesNotReceived: Bool {
        kind == .notSent && resultCode == .notReceived
    }
}
