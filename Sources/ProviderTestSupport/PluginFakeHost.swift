import Foundation
import ProviderKit

/// What a plugin test target declares once for its fake host: the base URL of its fixture account and the
/// host's default clock.
public protocol PluginTestFixtures {
    /// The fixture account's base URL; the fake host strips it before looking a request up.
    static var baseURL: String { get }
    /// The time the fake host answers unless a test gives another.
    static var now: Date { get }
}

/// The scripted host of a plugin test target, answering at `Fixtures.baseURL`. A target names it once:
/// `typealias FakeHost = PluginFakeHost<Fixtures>`.
public final class PluginFakeHost<Fixtures: PluginTestFixtures>: ScriptedProviderHost, @unchecked Sendable {
    /// A host answering `routes` (`METHOD /path` below the fixture base URL) with `now` as its clock.
    public init(routes: [String: OutboundResult] = [:], now: Date = Fixtures.now) {
        super.init(baseURL: Fixtures.baseURL, routes: routes, now: now)
    }

    /// A host answering at another base URL (an account that points elsewhere).
    public override init(baseURL: String, routes: [String: OutboundResult] = [:], now: Date) {
        super.init(baseURL: baseURL, routes: routes, now: now)
    }
}
