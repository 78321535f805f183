import Foundation
import Testing

@testable import ProviderKit

/// The UUID text the store and the JSON writer use, held to Foundation's `uuidString` and
/// `UUID(uuidString:)`.
@Suite struct UUIDTextTests {
    @Test func theTextIsUUIDStringInEitherCase() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(id.text(uppercase: true) == id.uuidString)
            #expect(id.text() == id.uuidString.lowercased())
        }
        let edges = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ]
        for id in edges { #expect(id.text(uppercase: true) == id.uuidString) }
    }

    @Test func textIsReadAsUUIDStringReadsIt() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEFgG-{} ".utf8)
        for _ in 0..<5_000 {
            var text = Array(UUID().uuidString.utf8)
            if Bool.random(using: &generator) {
                text = text.map {
                    Bool.random(using: &generator) ? $0 : Array(String(UnicodeScalar($0)).lowercased().utf8)[0]
                }
            }
            // Damage it now and then: a character replaced, removed or added.
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: text[Int.random(in: 0..<text.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            case 1: text.remove(at: Int.random(in: 0..<text.count, using: &generator))
            case 2:
                text.insert(
                    alphabet.randomElement(using: &generator)!, at: Int.random(in: 0...text.count, using: &generator))
            default: break
            }
            let string = String(decoding: text, as: UTF8.self)
            // Well formed: Foundation's value. Anything else: nothing (where Foundation's C scanner takes a
            // sign or a blank inside a pair of digits, the reader refuses).
            let expected = Self.wellFormed(text) ? UUID(uuidString: string) : nil
            #expect(!Self.wellFormed(text) || expected != nil, "\(string)")
            #expect(UUID(text: string) == expected, "\(string)")
            #expect(UUID(text: Substring(string)) == expected, "\(string)")
        }
    }

    /// 36 characters: hyphens after the 8th, 12th, 16th and 20th, hexadecimal digits elsewhere.
    static func wellFormed(_ text: [UInt8]) -> Bool {
        text.count == 36
            && text.enumerated().allSatisfy { index, byte in
                [8, 13, 18, 23].contains(index)
                    ? byte == UInt8(ascii: "-") : (RelayJSONReader.hexDigit(byte) != nil)
            }
    }

    /// Foundation's C scanner lets a blank or a sign stand inside a pair of digits; PostgreSQL never writes
    /// either, and the text reader refuses them.
    @Test func aBlankOrASignInsideIsRefused() {
        for text in ["9A501085-EFC2-4B88-B765-A90 0C5FA204", "84c6852d-FC53-4C02-80Db-1feC74838a-9"] {
            #expect(UUID(uuidString: text) != nil)
            #expect(UUID(text: text) == nil)
        }
        #expect(UUID(text: "9A501085-EFC2-4B88-B765-A9000C5FA204") != nil)
    }

    @Test func aUUIDInJSONIsWrittenAsJSONEncoderWritesIt() throws {
        struct Row: Codable { var id: UUID; var ids: [UUID] }
        let row = Row(id: UUID(), ids: [UUID(), UUID()])
        let reference = JSONEncoder()
        reference.outputFormatting = .sortedKeys
        #expect(try CompactJSONEncoder().encode(row) == (try reference.encode(row)))
    }
}
