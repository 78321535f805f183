import Foundation
import SwitchyardCore

/// A database outage an ``InMemoryPaymentRepository`` plays for tests: while it is down, its key claims and
/// answers, payment begins and transitions and the janitor's claim of unknown payments fail as an
/// unreachable PostgreSQL does (``StorageFailure/isUnavailable``); and the next transition answering a key, or
/// the next payment or refund transition of any kind, can be made to lose its connection just before or just
/// after its COMMIT, taking the database down with it.
public final class InMemoryOutage: @unchecked Sendable {
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

    private let lock = NSLock()
    private var down = false
    private var armed: Moment?
    private var armedTransition: Moment?

    public init() {}

    /// Whether the database is down.
    public var isDown: Bool { lock.withLock { down } }

    /// Makes the next transition that answers an `Idempotency-Key` lose its connection at `moment`.
    public func dropNextAnswer(_ moment: Moment) { lock.withLock { armed = moment } }

    /// Makes the next payment or refund transition (e.g. the one storing a capture's or a refund's provider
    /// answer) lose its connection at `moment`.
    public func dropNextTransition(_ moment: Moment) { lock.withLock { armedTransition = moment } }

    /// Takes the database down, or brings it back.
    public func set(down value: Bool) { lock.withLock { down = value } }

    /// Throws while the database is down.
    func check() throws {
        if isDown { throw Unavailable() }
    }

    /// Whether the armed drop of an answering transition happens at `moment`; when it does, the database goes
    /// down.
    func drops(at moment: Moment) -> Bool { fires(\.armed, at: moment) }

    /// Whether the armed drop of any transition happens at `moment`; when it does, the database goes down.
    func dropsTransition(at moment: Moment) -> Bool { fires(\.armedTransition, at: moment) }

    private func fires(_ drop: ReferenceWritableKeyPath<InMemoryOutage, Moment?>, at moment: Moment) -> Bool {
        lock.withLock {
            guard self[keyPath: drop] == moment else { return false }
            self[keyPath: drop] = nil
            down = true
            return true
        }
    }
}
