import Foundation
import SwitchyardCommands
import Synchronization

/// Drives `total` calls at `concurrency` calls in flight and measures each call's latency.
package enum BenchLoad {
    /// Runs `call(index)` for every index in `0..<total`, `concurrency` at a time; `call` returns the HTTP
    /// status (0 when there was no answer). Progress is reported on stderr under `label`.
    package static func run(
        label: String, total: Int, concurrency: Int, call: @escaping @Sendable (Int) async -> Int
    ) async -> LoadMeasure {
        let progress = BenchProgress(label: label, total: total)
        let workers = max(1, min(concurrency, total))
        let clock = ContinuousClock()
        let start = clock.now
        let reporter = Task { await progress.report() }
        let results = await withTaskGroup(of: [(Double, Int)].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var samples: [(Double, Int)] = []
                    var index = worker
                    while index < total {
                        let began = clock.now
                        let status = await call(index)
                        samples.append((Self.seconds(clock.now - began), status))
                        progress.advance()
                        index += workers
                    }
                    return samples
                }
            }
            var all: [(Double, Int)] = []
            for await samples in group { all += samples }
            return all
        }
        let elapsed = Self.seconds(clock.now - start)
        reporter.cancel()
        progress.finish()
        return LoadMeasure(latencies: results.map(\.0), statuses: results.map(\.1), seconds: elapsed)
    }

    package static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// A progress bar on stderr when it is a terminal, plain progress lines otherwise.
package final class BenchProgress: Sendable {
    package let label: String
    package let total: Int
    private let done = Mutex(0)
    private let terminal = isatty(STDERR_FILENO) == 1

    package init(label: String, total: Int) {
        self.label = label
        self.total = total
    }

    package func advance() {
        done.withLock { $0 += 1 }
    }

    package var completed: Int { done.withLock { $0 } }

    /// Redraws the bar every 200 ms (a line every 5 s without a terminal) until cancelled.
    package func report() async {
        var ticks = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(200))
            ticks += 1
            if terminal {
                draw()
            } else if ticks % 25 == 0 {
                Self.write("\(label): \(completed)/\(total)\n")
            }
        }
    }

    package func finish() {
        if terminal {
            draw()
            Self.write("\n")
        } else {
            Self.write("\(label): \(completed)/\(total) done\n")
        }
    }

    private func draw() {
        let count = completed
        let width = 30
        let filled = total > 0 ? width * count / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        Self.write("\r\(label) [\(bar)] \(count)/\(total)")
    }

    package static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
