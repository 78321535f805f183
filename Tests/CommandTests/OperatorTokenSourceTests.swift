import ArgumentParser
import Foundation
import Testing

@testable import SwitchyardCommands

/// Where `serve` reads the operator token from: the variable, or the file a secret mount provides.
struct OperatorTokenSourceTests {
    static let token = "k3V9pQ2xZr7LmN4wT8yB1cD6fH0jS5aE"

    @Test func theTokenIsReadFromTheFileTheVariableNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)").path
        try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try ServeOptions.configuredOperatorToken(environment: ["SWITCHYARD_OPERATOR_TOKEN_FILE": path])
        #expect(read == Self.token)
    }

    @Test func bothSourcesAMissingFileAndAWeakFileAreRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)").path
        try Data("changeme".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ValidationError.self) {
            try ServeOptions.configuredOperatorToken(environment: [
                "SWITCHYARD_OPERATOR_TOKEN": Self.token, "SWITCHYARD_OPERATOR_TOKEN_FILE": path,
            ])
        }
        #expect(throws: ValidationError.self) {
            try ServeOptions.configuredOperatorToken(environment: ["SWITCHYARD_OPERATOR_TOKEN_FILE": path + ".missing"])
        }
        #expect(throws: ValidationError.self) {
            try ServeOptions.configuredOperatorToken(environment: ["SWITCHYARD_OPERATOR_TOKEN_FILE": path])
        }
        #expect(try ServeOptions.configuredOperatorToken(environment: [:]) == nil)
    }
}
