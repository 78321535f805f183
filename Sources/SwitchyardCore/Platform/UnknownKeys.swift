import Foundation
import ProviderKit

/// A key of a configuration document that none of the types reading the document knows: most often a
/// typo, which would otherwise leave the setting at its default without a word.
public struct UnknownKey: Sendable, Equatable, CustomStringConvertible {
    /// Where the key is, e.g. `adaptive_routing.windw_seconds` or `plugins.allowed[0].sha265`.
    public var path: String
    /// The known key at the same place closest to it, when one is close.
    public var suggestion: String?

    public init(path: String, suggestion: String? = nil) {
        self.path = path
        self.suggestion = suggestion
    }

    /// `adaptive_routing.windw_seconds: unknown key, did you mean window_seconds?`
    public var description: String {
        "\(path): unknown key" + (suggestion.map { ", did you mean \($0)?" } ?? "")
    }
}

/// Finds the keys of a JSON document that the types decoding it never ask for.
///
/// The types themselves are the list of known keys: each one decodes the document through a decoder
/// that records what it asks each object for, so a field added to a section is known without any list
/// to keep in step. A type that reads an object as a whole (a dictionary) makes all its keys known.
public enum UnknownKeys {
    /// The keys of `data` (a JSON document) that none of `readers` asks for, in document order of their
    /// paths (sorted). Decoding errors are thrown; decode the document normally first to report them as such.
    public static func find(in data: Data, readBy readers: [any Decodable.Type]) throws -> [UnknownKey] {
        let document = try JSONDecoder().decode(JSONValue.self, from: data)
        let recorder = KeyRecorder()
        for reader in readers {
            _ = try reader.init(from: KeyRecordingDecoder(value: document, codingPath: [], recorder: recorder))
        }
        var unknown: [UnknownKey] = []
        collect(document, at: [], recorder: recorder, into: &unknown)
        return unknown
    }

    /// Decodes `type` from `document` as `JSONDecoder` with ISO 8601 dates does (with its errors), handing
    /// the types `userInfo`: the value, and the keys of `document` it never asked for when
    /// `findingUnknown` (else none). One pass over the document decodes and learns the known keys.
    public static func decode<T: Decodable>(
        _ type: T.Type, from document: JSONValue, userInfo: [CodingUserInfoKey: Any], findingUnknown: Bool
    ) throws -> (value: T, unknown: [UnknownKey]) {
        try decode(
            type, from: document, recorder: KeyRecorder(userInfo: userInfo, iso8601Dates: true),
            findingUnknown: findingUnknown)
    }

    /// Parses `data` (a JSON document) once and decodes `type` from it as `JSONDecoder` does (with its
    /// errors), with the keys of the document its reading never asked for: one parse and one pass.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> (value: T, unknown: [UnknownKey])
    {
        try decode(
            type, from: JSONDecoder().decode(JSONValue.self, from: data), recorder: KeyRecorder(), findingUnknown: true)
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, from document: JSONValue, recorder: KeyRecorder, findingUnknown: Bool
    ) throws -> (value: T, unknown: [UnknownKey]) {
        let value = try KeyRecordingDecoder(value: document, codingPath: [], recorder: recorder).unbox(type)
        guard findingUnknown else { return (value, []) }
        var unknown: [UnknownKey] = []
        collect(document, at: [], recorder: recorder, into: &unknown)
        return (value, unknown)
    }

    /// Walks the document, reporting the keys of each object its readers did not ask for (and not
    /// descending into them).
    private static func collect(
        _ value: JSONValue, at path: [any CodingKey], recorder: KeyRecorder, into unknown: inout [UnknownKey]
    ) {
        switch value {
        case .object(let members):
            let here = render(path)
            let asked = recorder.asked[here] ?? []
            let whole = recorder.wholeObjects.contains(here)
            for key in members.keys.sorted() {
                let keyPath = path + [NameKey(key)]
                if whole || asked.contains(key) {
                    collect(members[key]!, at: keyPath, recorder: recorder, into: &unknown)
                } else {
                    unknown.append(UnknownKey(path: render(keyPath), suggestion: suggestion(for: key, among: asked)))
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, at: path + [IndexKey(index)], recorder: recorder, into: &unknown)
            }
        default:
            return
        }
    }

    /// `a.b[2].c` for a coding path (array positions are the keys with an integer value).
    public static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// The known key closest to `key` when it is close enough to be a typo of it (at most a third of
    /// its letters changed, and at most 3).
    public static func suggestion(for key: String, among known: Set<String>) -> String? {
        let limit = min(3, max(1, key.count / 3))
        let ranked = known.map { (name: $0, distance: editDistance(key, $0)) }
            .filter { $0.distance <= limit }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return ranked.first?.name
    }

    /// The Levenshtein distance between two strings (insertions, deletions and substitutions).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// An object member's name, as a coding key.
private struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
