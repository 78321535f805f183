import Foundation
import SwitchyardCore
import Synchronization

/// A database outage an ``InMemoryPaymentRepository`` plays for tests: while it is down, its key claims and
/// answers, payment begins and transitions and the janitor's claim of unknown payments fail as an
/// unreachable PostgreSQL does (``StorageFailure/isUnavailable``); and the next transition answering a key, or
/// the next payment or refund transition of any kind, can be made to lose its connection just before or just
/// after its COMMIT, taking the database down with it.
public final class InMemoryOutage: Sendable {
    /// When the connection of the armed write drops.
    public enum Moment: Sendable {
        /// Before the COMMIT: nothing is stored.
        case beforeCommit
        /// After the COMMIT: everything is stored, but the caller never hears so.
        case afterCommit
    }

    /// The failure every write sees during the outage.
    public struct Unavailable: StorageFailure, Sendable {
        public var isBusy: Bool { false }
        public var isUnavailable: Bool { true }
        public var isUnstorableText: Bool { false }
        public var description: String { "connection to the in-memory database lost" }
    }

    private struct State {
        var down = false
        var armed: Moment?
        var armedTransition: Moment?

        /// Whether the drop armed at `drop` happens at `moment`; when it does, it is disarmed and the database
        /// goes down.
        mutating func fire(_ drop: WritableKeyPath<State, Moment?>, at moment: Moment) -> Bool {
            guard self[keyPath: drop] == moment else { return false }
            self[keyPath: drop] = nil
            down = true
            return true
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether the database is down.
    public var isDown: Bool { state.withLock { $0.down } }

    /// Makes the next transition that answers an `Idempotency-Key` lose its connection at `moment`.
    public func dropNextAnswer(_ moment: Moment) { state.withLock { $0.armed = moment } }

    /// Makes the next payment or refund transition (e.g. the one storing a capture's or a refund's provider
    /// answer) lose its connection at `moment`.
    public func dropNextTransition(_ moment: Moment) { state.withLock { $0.armedTransition = moment } }

    /// Takes the database down, or brings it back.
    public func set(down value: Bool) { state.withLock { $0.down = value } }

    /// Throws while the database is down.
    func check() throws {
        if isDown { throw Unavailable() }
    }

    /// Whether the armed drop of an answering transition happens at `moment`; when it does, the database goes
    /// down.
    func drops(at moment: Moment) -> Bool { state.withLock { $0.fire(\.armed, at: moment) } }

    /// Whether the armed drop of any transition happens at `moment`; when it does, the database goes down.
    func dropsTransition(at moment: Moment) -> Bool { state.withLock { $0.fire(\.armedTransition, at: moment) } }
}
