import Foundation
import Logging
import SwitchyardStore
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

/// Two pools on one database stand for two server replicas.
@Suite("Session advisory locks")
struct PGAdvisoryLockTests {
    static let key: Int64 = 0x5157_4954_4348_0001

    static func withTwoPools(size: Int = 2, _ body: (PGPool, PGPool) async throws -> Void) async throws {
        let url = try await TestPostgres.freshDatabase()
        let a = try PGPool(PostgresConfiguration(connectionString: url, poolSize: size), logger: DriverFixture.logger)
        let b = try PGPool(PostgresConfiguration(connectionString: url, poolSize: size), logger: DriverFixture.logger)
        do {
            try await body(a, b)
        } catch {
            await a.shutdown()
            await b.shutdown()
            throw error
        }
        await a.shutdown()
        await b.shutdown()
    }

    /// Advisory locks held in this database (`pg_locks` shows those of every database of the cluster).
    static let countLocks = """
        SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        """

    static func advisoryLocksHeld(_ pool: PGPool) async throws -> Int64 {
        try await pool.withConnection { connection in
            try await connection.query(Self.countLocks).first.driverUnwrap().int64("n")
        }
    }

    /// Polls until `pool` sees `count` advisory locks held (the database tells no one), or fails after two seconds.
    static func waitForLocks(_ pool: PGPool, count: Int64) async throws {
        try await Poll.until("\(count) advisory locks", within: .seconds(2), every: .milliseconds(10)) {
            try await advisoryLocksHeld(pool) == count
        }
    }

    /// Starts a task waiting for the lock on `pool` and returns once its first attempt has found the lock
    /// taken (it has had a connection of `pool` and the lock is held elsewhere).
    static func startWaiter(_ pool: PGPool) async throws -> Task<Int?, any Error> {
        let before = pool.usage.handedOut
        let waiter = Task { try await pool.withAdvisoryLock(key: Self.key, wait: .seconds(30)) { 1 } }
        try await Poll.until("the waiter's first attempt", within: .seconds(5), every: .milliseconds(5)) {
            pool.usage.handedOut > before
        }
        return waiter
    }

    @Test func oneHolderAtATimeAcrossPools() async throws {
        try await Self.withTwoPools { (a: PGPool, b: PGPool) async throws in
            let tally = Tally()
            let ran = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<20 {
                    let pool = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        try await pool.withAdvisoryLock(key: Self.key, wait: .seconds(20)) {
                            tally.enter()
                            // Time is the subject: the holder keeps the lock for a while, in which a second
                            // holder would show as an overlap; no event marks "long enough".
                            try await Task.sleep(for: .milliseconds(10))
                            tally.leave()
                            return index
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { if let index = $1 { $0.append(index) } }
            }
            #expect(ran.sorted() == Array(0..<20))
            #expect(tally.most.withLock { $0 } == 1)
            #expect(try await Self.advisoryLocksHeld(a) == 0)
        }
    }

    @Test func aBusyLockTimesOutWithoutRunningTheBody() async throws {
        try await Self.withTwoPools { (a: PGPool, b: PGPool) async throws in
            let gate = Gate()
            let holder = Task {
                try await a.withAdvisoryLock(key: Self.key, wait: .seconds(5)) {
                    try await gate.wait()
                    return 1
                }
            }
            try await Self.waitForLocks(b, count: 1)
            let clock = ContinuousClock()
            let start = clock.now
            let ran = Mutex(false)
            let result = try await b.withAdvisoryLock(key: Self.key, wait: .milliseconds(150)) {
                ran.withLock { $0 = true }
                return 2
            }
            #expect(result == nil)
            #expect(!ran.withLock { $0 })
            #expect(clock.now - start >= .milliseconds(150))
            #expect(!gate.isOpen, "it gave up while the lock was still held")
            gate.open()
            #expect(try await holder.value == 1)
            #expect(try await b.withAdvisoryLock(key: Self.key, wait: .zero) { 3 } == 3)
        }
    }

    @Test func aWaiterHoldsNoConnectionBetweenAttempts() async throws {
        try await Self.withTwoPools(size: 1) { (a: PGPool, b: PGPool) async throws in
            let gate = Gate()
            let holder = Task {
                try await a.withAdvisoryLock(key: Self.key, wait: .seconds(5)) { try await gate.wait() }
            }
            try await Self.waitForLocks(b, count: 1)
            let waiter = try await Self.startWaiter(b)
            #expect(try await b.withConnection { _ in 7 } == 7)
            #expect(!gate.isOpen, "the pool's only connection was free while its waiter waited")
            gate.open()
            _ = try await holder.value
            #expect(try await waiter.value == 1)
        }
    }

    @Test func theLockIsReleasedWhenTheBodyThrows() async throws {
        try await Self.withTwoPools { (a: PGPool, b: PGPool) async throws in
            await #expect(throws: DriverTestError.self) {
                try await a.withAdvisoryLock(key: Self.key, wait: .seconds(1)) { () async throws -> Int in
                    throw DriverTestError()
                }
            }
            #expect(try await Self.advisoryLocksHeld(b) == 0)
            #expect(try await b.withAdvisoryLock(key: Self.key, wait: .zero) { 1 } == 1)
        }
    }

    @Test func theLockIsReleasedWhenTheHolderIsCancelled() async throws {
        try await Self.withTwoPools { (a: PGPool, b: PGPool) async throws in
            let holder = Task {
                try await a.withAdvisoryLock(key: Self.key, wait: .seconds(1)) { try await Hold.untilCancelled() }
            }
            try await Self.waitForLocks(b, count: 1)
            holder.cancel()
            await #expect(throws: CancellationError.self) { try await holder.value }
            #expect(try await Self.advisoryLocksHeld(b) == 0)
            #expect(try await b.withAdvisoryLock(key: Self.key, wait: .zero) { 1 } == 1)
        }
    }

    @Test func cancellingAWaiterStopsItsWait() async throws {
        try await Self.withTwoPools { (a: PGPool, b: PGPool) async throws in
            let gate = Gate()
            let holder = Task {
                try await a.withAdvisoryLock(key: Self.key, wait: .seconds(1)) { try await gate.wait() }
            }
            try await Self.waitForLocks(b, count: 1)
            let waiter = try await Self.startWaiter(b)
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(!gate.isOpen, "the waiter stopped while the lock was still held")
            gate.open()
            _ = try await holder.value
            #expect(try await Self.advisoryLocksHeld(b) == 0)
        }
    }

    @Test func anUnconfirmedReleaseClosesTheSession() async throws {
        try await Self.withTwoPools(size: 1) { (a: PGPool, b: PGPool) async throws in
            let holderPID = try await a.withAdvisoryLock(key: Self.key, wait: .seconds(1)) {
                // Work on the pool inside the scope runs on the lock's connection, which drops its lock
                // here behind the pool's back: the pool's own release then finds nothing to release.
                try await a.withConnection { connection in
                    try await connection.query("SELECT pg_advisory_unlock_all()")
                    return try await PGLeaseTests.pid(connection)
                }
            }
            let after = try await a.withConnection { try await PGLeaseTests.pid($0) }
            #expect(holderPID != nil)
            #expect(after != holderPID, "the session was closed and a new one opened")
            #expect(try await Self.advisoryLocksHeld(b) == 0)
        }
    }
}

/// How many bodies run at once, and the most that ever did.
final class Tally: Sendable {
    let active = Mutex(0)
    let most = Mutex(0)

    func enter() {
        let now = active.withLock {
            $0 += 1
            return $0
        }
        most.withLock { $0 = max($0, now) }
    }

    func leave() { active.withLock { $0 -= 1 } }
}

/// Keeps a lock holder inside its body until the test opens it, or for ten seconds at most (so a test
/// whose expectation fails still ends; the expectations check that it was still closed).
final class Gate: Sendable {
    private let state = Mutex(false)
    private let changes = Changes()
    private let deadline = ContinuousClock.now.advanced(by: .seconds(10))

    /// Opened, or past its ten seconds (when the holder has let go by itself).
    var isOpen: Bool { state.withLock { $0 } || ContinuousClock.now >= deadline }

    func open() {
        state.withLock { $0 = true }
        changes.notify()
    }

    func wait() async throws {
        try? await changes.wait("the gate", within: .seconds(10)) { [self] in state.withLock { $0 } }
    }
}
