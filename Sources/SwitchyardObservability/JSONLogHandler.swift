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

    /// The JSON object for one record, written byte by byte into one buffer.
    static func line(time: Date, level: Logger.Level, message: String, label: String, metadata: Logger.Metadata)
        -> String
    {
        var fields: [(String, String)] = []
        flatten(metadata, prefix: "", into: &fields)
        fields.sort { $0.0 < $1.0 }
        var out: [UInt8] = []
        out.reserveCapacity(160 + message.utf8.count + fields.count * 32)
        out.append(contentsOf: #"{"time":""#.utf8)
        appendTimestamp(time, to: &out)
        out.append(contentsOf: #"","level":""#.utf8)
        out.append(contentsOf: level.rawValue.utf8)
        out.append(contentsOf: #"","message":"#.utf8)
        appendString(message, to: &out)
        out.append(contentsOf: #","logger":"#.utf8)
        appendString(label, to: &out)
        for (key, value) in fields where !reserved.contains(key) {
            out.append(UInt8(ascii: ","))
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The keys of the record itself, which metadata cannot repeat.
    private static let reserved: Set<String> = ["time", "level", "message", "logger"]

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

    /// Appends `text` as a JSON string literal: quotes, backslashes and control characters escaped, and
    /// U+2028 and U+2029, which end a line for some readers.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                case 0..<0x20, 0x7F:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 15)])
                case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80 && bytes[index + 1] & 0xFE == 0xA8:
                    // U+2028 (E2 80 A8) or U+2029 (E2 80 A9).
                    out.append(contentsOf: (bytes[index + 1] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                    index += 2
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `date` as ISO 8601 in UTC with milliseconds (`2026-12-07T09:41:05.123Z`), the calendar
    /// fields from the C library's `gmtime_r`.
    static func appendTimestamp(_ date: Date, to out: inout [UInt8]) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds / 1000)
        var fraction = milliseconds % 1000
        if fraction < 0 {
            fraction += 1000
            seconds -= 1
        }
        var fields = tm()
        gmtime_r(&seconds, &fields)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            for _ in 0..<count {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(Int(fields.tm_year) + 1900, 4)
        out.append(UInt8(ascii: "-"))
        digits(Int(fields.tm_mon) + 1, 2)
        out.append(UInt8(ascii: "-"))
        digits(Int(fields.tm_mday), 2)
        out.append(UInt8(ascii: "T"))
        digits(Int(fields.tm_hour), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(fields.tm_min), 2)
        out.append(UInt8(ascii: ":"))
        digits(Int(fields.tm_sec), 2)
        out.append(UInt8(ascii: "."))
        digits(Int(fraction), 3)
        out.append(UInt8(ascii: "Z"))
    }
}

/// Writes whole lines to standard output, one writer at a time, so concurrent records never interleave.
final class StandardOutputLines: Sendable {
    static let shared = StandardOutputLines()
    private let writing = Mutex(())

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
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
