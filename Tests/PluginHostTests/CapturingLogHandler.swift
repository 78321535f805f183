import Foundation
import Logging

/// Keeps every log record, rendered as text, for assertions about what is (not) logged.
final class LogCapture: @unchecked Sendable {
    struct Record {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let lock = NSLock()
    private var stored: [Record] = []

    var records: [Record] {
        lock.withLock { stored }
    }

    /// Everything logged, as one string.
    var allText: String {
        records.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
    }

    func append(_ record: Record) {
        lock.withLock { stored.append(record) }
    }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test.capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = level
        return logger
    }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        merged.merge(event.metadata ?? [:]) { $1 }
        capture.append(
            LogCapture.Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
        )
    }
}
