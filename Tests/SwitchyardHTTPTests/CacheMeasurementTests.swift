import Foundation
import SwitchyardCore
import SwitchyardStore
import SwitchyardTestSupport
import Testing

/// Measures committed transactions per payment creation, with and without the configuration cache.
@Suite(.serialized)
struct CacheMeasurementTests {
    static func commits(_ stack: TestStack) async throws -> Int64 {
        try await stack.runtime.pool.withConnection { c in
            try c.query("SELECT sum(xact_commit)::bigint AS n FROM pg_stat_database WHERE datname = current_database()")
                .first?.int64("n") ?? -1
        }
    }

    static func measure(ttlMs: Int, payments: Int) async throws -> Double {
        let result = Mutex2()
        try await TestStack.with(policy: {
            $0.caching.ttlMs = ttlMs
            $0.webhooks.pollMs = 600_000
            $0.janitor.pollMs = 600_000
        }) { stack in
            let m = try await stack.merchant()
            _ = try await stack.createPayment(m, ConfigurationCacheReplicaTests.paymentBody())
            try await Task.sleep(for: .seconds(12))
            let before = try await commits(stack)
            for _ in 0..<payments {
                _ = try await stack.createPayment(m, ConfigurationCacheReplicaTests.paymentBody())
            }
            try await Task.sleep(for: .seconds(12))
            let after = try await commits(stack)
            result.set(Double(after - before - 2) / Double(payments))
        }
        return result.get()
    }

    @Test func commitsPerCreate() async throws {
        let off = try await Self.measure(ttlMs: 0, payments: 100)
        let on = try await Self.measure(ttlMs: 5_000, payments: 100)
        print("MEASURE commits per create: cache off \(off), cache on \(on)")
    }
}

final class Mutex2: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0.0
    func set(_ v: Double) { lock.withLock { value = v } }
    func get() -> Double { lock.withLock { value } }
}
