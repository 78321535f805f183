import Foundation
import Logging
import Synchronization

/// A log handler writing one JSON object per line: `time` (ISO 8601, UTC, milliseconds), `level`,
/// `message`, `logger` (the label), then the metadata flattened with dotted keys (`tenant.id`,
/// `request.id`, …; nested dictionaries become `outer.inner`). Strings are escaped as JSON requires
/// (quotes, backslashes, control characters), so a value can never end the line or the object early.
public struct JSONLogHandler: LogHandler {
    /// Where finished lines go (each without its final newline).
    public typealias Sink = @Sendable (String) -> Void

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    let label: String
    let sink: Sink

    /// A handler for `label` writing lines to `sink`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, sink: @escaping Sink) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.sink = sink
    }

    /// A handler writing to standard output.
    public static func standardOutput(label: String, metadataProvider: Logger.MetadataProvider?) -> JSONLogHandler {
        JSONLogHandler(label: label, metadataProvider: metadataProvider) { line in
            StandardOutputLines.shared.write(line)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        sink(Self.line(time: Date(), level: event.level, message: "\(event.message)", label: label, metadata: merged))
    }

    /// The JSON object for one record.
    static func line(time: Date, level: Logger.Level, message: String, label: String, metadata: Logger.Metadata)
        -> String
    {
        var fields: [(String, String)] = []
        flatten(metadata, prefix: "", into: &fields)
        var out = "{\"time\":\"\(timestamp(time))\",\"level\":\"\(level.rawValue)\",\"message\":"
        appendString(message, to: &out)
        out += ",\"logger\":"
        appendString(label, to: &out)
        for (key, value) in fields.sorted(by: { $0.0 < $1.0 })
        where !["time", "level", "message", "logger"].contains(key) {
            out += ","
            appendString(key, to: &out)
            out += ":"
            appendString(value, to: &out)
        }
        out += "}"
        return out
    }

    static func flatten(_ metadata: Logger.Metadata, prefix: String, into fields: inout [(String, String)]) {
        for (key, value) in metadata {
            let name = prefix.isEmpty ? key : prefix + "." + key
            switch value {
            case .dictionary(let nested): flatten(nested, prefix: name, into: &fields)
            case .array(let items): fields.append((name, "[" + items.map(\.description).joined(separator: ", ") + "]"))
            case .string(let text): fields.append((name, text))
            case .stringConvertible(let item): fields.append((name, item.description))
            }
        }
    }

    /// Appends `text` as a JSON string literal.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}

/// Writes whole lines to standard output, one writer at a time, so concurrent records never interleave.
final class StandardOutputLines: Sendable {
    static let shared = StandardOutputLines()
    private let writing = Mutex(())

    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        writing.withLock { _ in
            bytes.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }
}
