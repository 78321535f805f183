import Foundation
import Logging
import TestWaiting

/// The lines a test server logged (message and metadata), for tests of what it logs.
final class RecordedLog: @unchecked Sendable {
    struct Line: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var stored: [Line] = []
    private let changes = Changes()

    /// Everything logged so far.
    var lines: [Line] { lock.withLock { stored } }

    /// A logger whose lines land here.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    fileprivate func append(_ line: Line) {
        lock.withLock { stored.append(line) }
        changes.notify()
    }

    /// The first line with `message`, awaited for at most `timeout`; nil when none came.
    func first(_ message: String, within timeout: Duration = .seconds(10)) async -> Line? {
        try? await changes.wait("the log line \(message)", within: timeout) { [self] in
            lines.contains { $0.message == message }
        }
        return lines.first { $0.message == message }
    }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append(Line(message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
