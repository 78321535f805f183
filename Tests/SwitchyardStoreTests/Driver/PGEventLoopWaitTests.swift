import Foundation
import SwitchyardCore
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

@testable import SwitchyardStore

#if canImport(Glibc)
    import Glibc
#endif

/// A loop's waits on sockets: a cancellable one ends when its task is cancelled, without holding up the
/// loop's other waits.
struct PGEventLoopWaitTests {
    /// A connected pair of UNIX sockets, closed by the caller.
    static func socketPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw DriverTestError() }
        return (ends[0], ends[1])
    }

    @Test func aCancelledWaitEndsAtOnceAndTheLoopServesTheNextOne() async throws {
        let (quiet, quietPeer) = try Self.socketPair()
        let (busy, busyPeer) = try Self.socketPair()
        defer { for end in [quiet, quietPeer, busy, busyPeer] { close(end) } }
        let loop = PGEventLoopGroup.shared.loops[0]

        // Nothing is ever written to `quiet`: only the cancellation ends this wait before its deadline.
        let deadline = ContinuousClock.now + .seconds(20)
        let waiting = Task { await loop.waitUnlessCancelled(for: quiet, .readable, until: deadline) }
        // A wait on another socket works beside it.
        var byte: UInt8 = 1
        #expect(write(busyPeer, &byte, 1) == 1)
        let ready = await loop.waitUnlessCancelled(for: busy, .readable, until: .now + .seconds(30))
        #expect(ready == .ready(readable: true, writable: false))

        waiting.cancel()
        let cancelled = await waiting.value
        #expect(cancelled == nil)
        #expect(ContinuousClock.now < deadline, "the cancellation, not the deadline, ended the wait")

        // The loop serves waits after the cancellation: a deadline still ends one.
        let timed = await loop.waitUnlessCancelled(for: quiet, .readable, until: .now + .milliseconds(20))
        #expect(timed == .timedOut)
    }

    @Test func aWaitOfATaskCancelledBeforeItStartsEndsAtOnce() async throws {
        let (quiet, quietPeer) = try Self.socketPair()
        defer { for end in [quiet, quietPeer] { close(end) } }
        let loop = PGEventLoopGroup.shared.loops[0]
        let waiting = Task {
            // Cancelled before it waits: the cancellation handler then runs before there is a waiter to remove.
            while !Task.isCancelled { await Task.yield() }
            return await loop.waitUnlessCancelled(for: quiet, .readable, until: .now + .seconds(20))
        }
        waiting.cancel()
        let result = await waiting.value
        #expect(result == nil, "a deadline would have ended it with timedOut")
    }

    /// The configuration listener reports a notification, and its stop cancels the wait for the next one
    /// instead of waiting out its minute.
    @Test func theListenerReportsANotificationAndStopsWithoutWaitingOutItsWait() async throws {
        let connectionString = try await TestPostgres.freshDatabase()
        let changes = ConfigurationChanges()
        let observer = Observed()
        changes.add(observer)
        let listener = ConfigurationListener(
            configuration: PostgresConfiguration(connectionString: connectionString), changes: changes,
            logger: DriverFixture.logger)
        listener.start()
        try await observer.changes.wait("the listener listens") { changes.isLive }
        let tenant = UUID()
        let notifier = try await PGConnection.open(
            connectionString: connectionString, connectTimeoutSeconds: 5, logger: DriverFixture.logger)
        defer { notifier.close() }
        try await notifier.execute("NOTIFY \(ConfigurationListener.channel), '\(tenant.uuidString)'")
        try await observer.changes.wait("the notification is reported") { observer.tenants.contains(tenant) }

        let started = ContinuousClock.now
        await listener.stop()
        #expect(ContinuousClock.now - started < ConfigurationListener.longestWait, "stopped before its wait ran out")
        #expect(!changes.isLive)
    }
}

/// What a listener reported.
private final class Observed: ConfigurationChangeObserver, Sendable {
    let changes = Changes()
    private let seen = Mutex<[UUID]>([])

    var tenants: [UUID] { seen.withLock { $0 } }

    func invalidate(tenant: UUID) {
        seen.withLock { $0.append(tenant) }
        changes.notify()
    }

    func invalidateAll() { changes.notify() }

    func setLive(_ live: Bool) { changes.notify() }
}
