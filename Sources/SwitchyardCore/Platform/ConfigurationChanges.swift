import Foundation
import Synchronization

/// Something that holds tenants' configuration and must forget it when it changes.
public protocol ConfigurationChangeObserver: AnyObject, Sendable {
    /// The configuration of `tenant` changed.
    func invalidate(tenant: UUID)
    /// Any configuration may have changed.
    func invalidateAll()
    /// Whether changes are being reported (when not, nothing may be kept).
    func setLive(_ live: Bool)
}

/// Fans reports of configuration changes (from this process's writes and from the database's
/// notifications of every replica's writes) out to the caches that hold configuration.
public final class ConfigurationChanges: Sendable {
    private struct State {
        var observers: [any ConfigurationChangeObserver] = []
        var live = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Adds an observer; it starts live when changes are being reported already.
    public func add(_ observer: any ConfigurationChangeObserver) {
        let live = state.withLock { state in
            state.observers.append(observer)
            return state.live
        }
        observer.setLive(live)
    }

    /// Whether changes are being reported.
    public var isLive: Bool { state.withLock { $0.live } }

    /// The configuration of `tenant` changed.
    public func changed(tenant: UUID) {
        for observer in current() { observer.invalidate(tenant: tenant) }
    }

    /// Any configuration may have changed.
    public func changedAll() {
        for observer in current() { observer.invalidateAll() }
    }

    /// Reports start (the listener is connected) or stop (it lost its connection).
    public func setLive(_ live: Bool) {
        let observers = state.withLock { state in
            state.live = live
            return state.observers
        }
        for observer in observers { observer.setLive(live) }
    }

    private func current() -> [any ConfigurationChangeObserver] {
        state.withLock { $0.observers }
    }
}
