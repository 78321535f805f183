import Foundation
import Testing

@testable import ProviderKit

/// ``CompactJSONEncoder`` writes what `JSONEncoder` writes, but for the order of a type's keys.
@Suite("CompactJSONEncoder")
struct CompactJSONEncoderTests {
    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var score: Double?
    }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case labelled(String, Inner)
        case empty
    }

    struct Sample: Codable, Equatable {
        var zeta: String
        var alpha: Int64
        var flag: Bool
        var missing: String?
        var present: Int?
        var when: Date
        var blob: Data
        var link: URL
        var price: Decimal
        var inner: Inner
        var list: [Inner]
        var matrix: [[Int]]
        var metadata: [String: String]
        var nested: [String: [String: Int]]
        var shapes: [Shape]
        var small: UInt8
        var big: UInt64
        var negative: Int32
        var ratio: Float
    }

    static let sample = Sample(
        zeta: "z \"quoted\" back\\slash /path\n\t\u{01}\u{1F} é 漢 🎉", alpha: .min, flag: true, missing: nil,
        present: 7, when: Date(timeIntervalSince1970: 1_765_079_406.987_654), blob: Data([0xFB, 0xFF, 0x00, 0x3F]),
        link: URL(string: "https://example.test/a/b?c=d&e=%20")!, price: Decimal(string: "12.345")!,
        inner: Inner(name: "n", tags: [], score: 0.1),
        list: [Inner(name: "a", tags: ["x", "y"], score: nil), Inner(name: "b", tags: ["/"], score: -1e-7)],
        matrix: [[], [1, -2, 3]], metadata: ["b": "2", "a": "1", "é": "3", "B": "4", "aa": "5"],
        nested: ["y": ["k": 1], "x": [:]],
        shapes: [.circle(radius: 2.5), .labelled("l", Inner(name: "i", tags: ["t"], score: 3)), .empty],
        small: 255, big: .max, negative: -42, ratio: 0.25)

    private func foundation(_ dates: JSONEncoder.DateEncodingStrategy, slashes: Bool = true) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = slashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = dates
        return encoder
    }

    private func parsed(_ data: Data) throws -> NSObject {
        try #require(JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test(arguments: [CompactJSONEncoder.DateStyle.secondsSince1970, .iso8601])
    func theSameValueAsJSONEncoder(_ dates: CompactJSONEncoder.DateStyle) throws {
        let compact = try CompactJSONEncoder(dates: dates).encode(Self.sample)
        let reference = try foundation(dates == .iso8601 ? .iso8601 : .secondsSince1970).encode(Self.sample)
        #expect(try parsed(compact) == parsed(reference))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dates == .iso8601 ? .iso8601 : .secondsSince1970
        var expected = Self.sample
        if dates == .iso8601 { expected.when = Date(timeIntervalSince1970: 1_765_079_406) }
        let back = try decoder.decode(Sample.self, from: compact)
        #expect(back.zeta == expected.zeta)
        #expect(back.inner == expected.inner && back.list == expected.list && back.shapes == expected.shapes)
        #expect(back.metadata == expected.metadata && back.nested == expected.nested)
        #expect(back.when == expected.when && back.blob == expected.blob && back.big == expected.big)
    }

    @Test func keysComeInTheirTypesOrderAndDictionariesSorted() throws {
        struct Ordered: Encodable {
            var b = 1
            var a: [String: Int] = ["b": 2, "a": 1, "B": 0, "ab": 3]
        }
        let text = String(decoding: try CompactJSONEncoder().encode(Ordered()), as: UTF8.self)
        #expect(text == #"{"b":1,"a":{"B":0,"a":1,"ab":3,"b":2}}"#)
    }

    /// Scalars, strings and dates need no key order: their bytes are `JSONEncoder`'s to the letter.
    @Test(arguments: [true, false])
    func scalarsAndStringsAreJSONEncodersBytes(_ slashes: Bool) throws {
        let strings = [
            "", "plain", "a\"b", "back\\slash", "a/b//c", "\u{00}\u{07}\u{08}\u{0B}\u{0C}\u{1B}\u{1F}\u{7F}",
            "line\nbreak\rtab\t", "é漢🎉\u{2028}\u{2029}", String(repeating: "x/\"", count: 100),
        ]
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.5, 100, 1e15, 1e16, 1e21, 1e22, 1.7976931348623157e308, .leastNonzeroMagnitude,
            123_456.789,
            -2.5e-8, 1_765_079_406.987_654, 1_765_079_406,
        ]
        let dates = [0, 1, -1, 59.999, 86_399.5, 951_782_400, 1_765_079_406.987, -62_135_596_800, 253_402_300_799]
            .map { Date(timeIntervalSince1970: $0) }
        let compact = CompactJSONEncoder(dates: .iso8601, escapesSlashes: slashes)
        let reference = foundation(.iso8601, slashes: slashes)
        #expect(try compact.encode(strings) == reference.encode(strings))
        #expect(try compact.encode(doubles) == reference.encode(doubles))
        let floats = doubles.map(Float.init).filter(\.isFinite)
        #expect(try compact.encode(floats) == reference.encode(floats))
        #expect(try compact.encode(dates) == reference.encode(dates))
        let integers: [Int64] = [.min, -1, 0, 9, 10, 1_000_000_007, .max]
        #expect(try compact.encode(integers) == reference.encode(integers))
        #expect(try compact.encode([true, false]) == reference.encode([true, false]))
        #expect(try compact.encode("top") == reference.encode("top"))
        let seconds = CompactJSONEncoder(dates: .secondsSince1970)
        #expect(try seconds.encode(dates) == foundation(.secondsSince1970).encode(dates))
    }

    @Test func whatIsNotWrittenInOrderGoesToJSONEncoder() throws {
        final class Base: Encodable {
            var base = 1
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(base, forKey: .base)
            }
            enum Keys: String, CodingKey { case base, child, parent }
        }
        final class Child: Encodable {
            let parent = Base()
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Base.Keys.self)
                try container.encode(2, forKey: .child)
                try parent.encode(to: container.superEncoder(forKey: .parent))
            }
        }
        let compact = try CompactJSONEncoder().encode(Child())
        #expect(compact == (try foundation(.secondsSince1970).encode(Child())))
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode([Double.nan]) }
        let farFuture = Date(timeIntervalSince1970: 400_000_000_000)
        #expect(
            try CompactJSONEncoder(dates: .iso8601).encode([farFuture]) == foundation(.iso8601).encode([farFuture]))
    }

    @Test func aValueThatAsksForItsContainerTwiceContinuesIt() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case one, two }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .one)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .two)
            }
        }
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(String(decoding: try CompactJSONEncoder().encode(Twice()), as: UTF8.self) == #"{"one":1,"two":2}"#)
        #expect(try CompactJSONEncoder().encode([Nothing()]) == JSONEncoder().encode([Nothing()]))
    }
}
