import Foundation
import SwitchyardCrypto
import Testing

/// `serve` with an external database refuses, before connecting, a configuration that cannot work in
/// production: no reachable public URL, a misspelt policy key, a LOG_LEVEL that names no level.
@Suite(.serialized)
struct ServeConfigurationTests {
    /// Runs `serve` against a database that is never reached; returns its exit status and output.
    static func serve(environment: [String: String], policy: String = #"{"plugins":{"mode":"pinned"}}"#)
        async throws -> (status: Int32?, output: String)
    {
        try await EmbeddedDefaultTests.startExternal(
            token: "op_" + SecureRandom.token(bytes: 32), policy: policy, environment: environment)
    }

    @Test func aMissingOrLoopbackPublicURLIsRefusedNamingTheFlagAndTheVariable() async throws {
        let missing = try await Self.serve(environment: ["SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL": "0"])
        #expect(missing.status != nil && missing.status != 0)
        #expect(missing.output.contains("no public URL"), "\(missing.output)")
        #expect(missing.output.contains("--public-url") && missing.output.contains("SWITCHYARD_PUBLIC_URL"))

        let loopback = try await Self.serve(environment: [
            "SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL": "0", "SWITCHYARD_PUBLIC_URL": "http://127.0.0.1:8080",
        ])
        #expect(loopback.status != nil && loopback.status != 0)
        #expect(loopback.output.contains("is a loopback address"), "\(loopback.output)")
        #expect(loopback.output.contains("--allow-loopback-public-url"))

        // With a public URL the server gets past that check, to the database it cannot reach.
        let reachable = try await Self.serve(environment: [
            "SWITCHYARD_ALLOW_LOOPBACK_PUBLIC_URL": "0", "SWITCHYARD_PUBLIC_URL": "https://payments.example.com",
        ])
        #expect(reachable.status != nil && reachable.status != 0)
        #expect(!reachable.output.contains("public URL"), "\(reachable.output)")
    }

    @Test func aMisspeltPolicyKeyIsRefusedAtStart() async throws {
        let run = try await Self.serve(
            environment: [:], policy: #"{"plugins":{"mode":"pinned"},"adaptive_routing":{"windw_seconds":600}}"#)
        #expect(run.status != nil && run.status != 0)
        #expect(
            run.output.contains("adaptive_routing.windw_seconds: unknown key, did you mean window_seconds?"),
            "\(run.output)")
    }

    @Test func aLogLevelThatNamesNoLevelIsRefusedAndAnyCaseIsAccepted() async throws {
        let refused = try await Self.serve(environment: ["LOG_LEVEL": "verbose"])
        #expect(refused.status != nil && refused.status != 0)
        #expect(refused.output.contains("LOG_LEVEL=verbose is not a log level"), "\(refused.output)")
        let upper = try await Self.serve(environment: ["LOG_LEVEL": "INFO"])
        #expect(!upper.output.contains("LOG_LEVEL"), "\(upper.output)")
    }
}
