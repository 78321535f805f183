import SwitchyardStore

/// Holds every connection of a pool until released, so a test can see what callers do when none is free.
public final class PoolSqueeze: Sendable {
    private let holders: Task<Void, any Error>
    private let gate: AsyncStream<Void>.Continuation

    /// Returns once all of `pool`'s connections are held.
    public init(_ pool: PGPool) async {
        let (held, heldContinuation) = AsyncStream<Void>.makeStream()
        let (gateStream, gate) = AsyncStream<Void>.makeStream()
        self.gate = gate
        let opened = Task { for await _ in gateStream {} }
        holders = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<pool.size {
                    group.addTask {
                        try await pool.withLease { _ in
                            heldContinuation.yield()
                            await opened.value
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var iterator = held.makeAsyncIterator()
        for _ in 0..<pool.size { await iterator.next() }
    }

    /// Gives every connection back and waits until the pool has them.
    public func release() async throws {
        gate.finish()
        try await holders.value
    }
}
