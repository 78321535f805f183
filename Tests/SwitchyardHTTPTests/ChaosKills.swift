import Foundation

/// Kills of the chaos platform's replicas: each with SIGKILL (no shutdown of any kind), then restarted on
/// its port under the same replica id, so the new incarnation frees the keys the killed one held.
final class ChaosKills: Sendable {
    let platform: ChaosPlatform
    /// Restarts so far, per replica (each one's log file is numbered by it).
    private let generations = LockedState<[Int: Int]>([:])

    init(platform: ChaosPlatform) {
        self.platform = platform
    }

    /// The number of kills so far.
    var count: Int { generations.withLock { $0.values.reduce(0, +) } }

    /// Kills replica `index` (returning once it has exited) and starts it again; `done` orders had been done at the kill.
    func killAndRestart(_ index: Int, after done: Int) async throws {
        platform.sigkill(index)
        let generation = generations.withLock { generations -> Int in
            generations[index, default: 0] += 1
            return generations[index, default: 0]
        }
        print("chaos: replica \(index) killed (SIGKILL) after \(done) orders")
        try await platform.restart(index, generation: generation)
        print("chaos: replica \(index) restarted")
    }

    /// Kills the replicas in turn, one every `seconds` seconds (counted from kill to kill), until `done`
    /// (the orders done so far) reaches `total`; each is running again when this returns.
    func repeatedly(every seconds: Int, done: @Sendable () -> Int, total: Int) async throws {
        var index = 0
        var last = ContinuousClock.now
        while done() < total {
            // Time is the subject: the kills follow a schedule.
            try await Task.sleep(until: last + .seconds(max(1, seconds)))
            guard done() < total else { return }
            last = ContinuousClock.now
            try await killAndRestart(index % platform.ports.count, after: done())
            index += 1
        }
    }

    /// A whole number from the environment variable `name`; nil when unset or not a positive number.
    static func environmentInt(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }
}
