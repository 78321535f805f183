import Foundation
import Testing

@testable import SwitchyardCore

/// The policy reference in docs/operations.md names every key the platform policy has, so a new key
/// cannot ship undocumented.
struct PolicyReferenceTests {
    /// Every key path of `value` encoded as JSON (`section.key`, arrays looked into).
    static func keyPaths(_ value: Any, prefix: String = "") -> [String] {
        if let object = value as? [String: Any] {
            return object.flatMap { key, child in
                let path = prefix.isEmpty ? key : prefix + "." + key
                return [path] + keyPaths(child, prefix: path)
            }
        }
        if let array = value as? [Any] { return array.flatMap { keyPaths($0, prefix: prefix) } }
        return []
    }

    @Test func everyKeyOfThePlatformPolicyIsInTheReference() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/operations.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(PlatformPolicy()))
        let paths = Self.keyPaths(json)
        #expect(paths.count > 20)
        // A key is documented when its name appears as code (`key`) or as a JSON key ("key").
        let missing = Set(
            paths.compactMap { path -> String? in
                let key = String(path.split(separator: ".").last ?? "")
                return text.contains("`\(key)`") || text.contains("\"\(key)\"") || text.contains("`\(path)`")
                    ? nil : path
            }
        ).sorted()
        #expect(missing.isEmpty, "not in docs/operations.md: \(missing.joined(separator: ", "))")
    }
}
