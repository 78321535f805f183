import Foundation
import ProviderKit
import Testing

@Suite("Secret never prints its value")
struct SecretTests {
    static let value = "sk_live_9f8e7d6c5b4a"

    /// A wire or log type holding a secret, as plugins hold them.
    struct Holder: Codable, Equatable {
        var name: String
        var key: Secret
    }

    @Test func printedFormsShowOnlyTheRedaction() {
        let secret = Secret(Self.value)
        let forms = [
            "\(secret)", String(describing: secret), String(reflecting: secret), secret.description,
            secret.debugDescription, "\([secret])", "\(Optional(secret) as Any)",
            String(describing: Holder(name: "n", key: secret)), String(reflecting: Holder(name: "n", key: secret)),
        ]
        for form in forms {
            #expect(!form.contains(Self.value), "printed as \(form)")
            #expect(form.contains(Secret.redacted))
        }
    }

    @Test func dumpShowsNoValue() {
        var text = ""
        dump(Secret(Self.value), to: &text)
        dump(Holder(name: "n", key: Secret(Self.value)), to: &text)
        #expect(!text.contains(Self.value))
        #expect(text.contains(Secret.redacted))
        #expect(Mirror(reflecting: Secret(Self.value)).children.isEmpty)
    }

    @Test func encodingWritesTheRedaction() throws {
        let encoder = JSONEncoder()
        for data in [
            try encoder.encode(Secret(Self.value)), try encoder.encode(Holder(name: "n", key: Secret(Self.value))),
            try PropertyListEncoder().encode(Holder(name: "n", key: Secret(Self.value))),
        ] {
            #expect(!String(decoding: data, as: UTF8.self).contains(Self.value))
        }
        let text = String(decoding: try encoder.encode(Secret(Self.value)), as: UTF8.self)
        #expect(text == "\"\(Secret.redacted)\"")
    }

    @Test func theValueIsUsedOnlyExplicitly() throws {
        let secret = Secret(Self.value)
        #expect(secret.reveal() == Self.value)
        #expect(secret.withValue { $0.count } == Self.value.count)
        #expect(secret == Secret(Self.value) && secret != Secret("other"))
        #expect(!secret.isEmpty && Secret("").isEmpty)
        let decoded = try JSONDecoder().decode(Holder.self, from: Data(#"{"name":"n","key":"abc"}"#.utf8))
        #expect(decoded.key.reveal() == "abc")
    }
}
