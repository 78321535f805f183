import Foundation
import Testing

@testable import SwitchyardCore

struct OperatorTokenTests {
    /// 32 random-looking characters, 30 distinct.
    static let strong = "op_Q7vN2kLx9TfR4mWz8YbH3cJd6GsPq1Ae"

    @Test func aLongRandomTokenIsAccepted() {
        #expect(OperatorToken.problem(Self.strong) == nil)
        #expect(OperatorToken.problem("kTj3Hq9ZpW2mXv7RbN4cLf8YsD6gAe1U") == nil)
    }

    @Test func aTokenShorterThan32CharactersIsRefused() {
        // 16 characters passed the old rule.
        let problem = OperatorToken.problem("op_Q7vN2kLx9TfR4")
        #expect(problem?.contains("too short") == true)
        #expect(OperatorToken.problem(String(Self.strong.prefix(31))) != nil)
        #expect(OperatorToken.problem(String(Self.strong.prefix(32))) == nil)
    }

    @Test func theExamplePlaceholderAndObviousPlaceholdersAreRefused() throws {
        let example = try String(contentsOfFile: Self.repositoryFile("deploy/switchyard.env.example"), encoding: .utf8)
        let line = try #require(example.split(separator: "\n").first { $0.hasPrefix("SWITCHYARD_OPERATOR_TOKEN=") })
        let placeholder = String(line.dropFirst("SWITCHYARD_OPERATOR_TOKEN=".count))
        #expect(OperatorToken.problem(placeholder) != nil)
        #expect(OperatorToken.problem("REPLACE_WITH_A_LONG_RANDOM_TOKEN") != nil)
        for token in [
            "changeme-changeme-Q7vN2kLx9TfR4mWz", "Q7vN2kLx9TfR4mWz-example-token-01",
            "xxxxQ7vN2kLx9TfR4mWz8YbH3cJd6GsP",
            "Q7vN2kLx9TfR4mWz8YbH3cJd6GsP-CHANGE_ME",
        ] {
            #expect(OperatorToken.problem(token)?.contains("placeholder") == true, "\(token)")
        }
    }

    @Test func lowEntropyTokensAreRefused() {
        // Few distinct characters.
        #expect(OperatorToken.problem("abababababcdcdcdcdcdefefefefefgh")?.contains("variety") == true)
        // A run of repeated or consecutive characters.
        #expect(OperatorToken.problem("Q7vN2kLx9TfR4mWz8YbH3cJd6GsPaaaaaa")?.contains("run") == true)
        #expect(OperatorToken.problem("Q7vN2kLx9TfR4mWz8YbH3cJdGsP0123456789")?.contains("run") == true)
        #expect(OperatorToken.problem("Q7vN2kLx9TfR4mWz8YbH3cJdGsPzyxwvu")?.contains("run") == true)
        // One shorter sequence repeated.
        #expect(OperatorToken.problem("Q7vN2kLx9TQ7vN2kLx9TQ7vN2kLx9TQ7vN2kLx9T")?.contains("repeats") == true)
    }

    @Test func noMessageEchoesTheToken() {
        for token in [
            "short-Q7vN2k", "REPLACE_WITH_A_LONG_RANDOM_TOKEN", "abababababcdcdcdcdcdefefefefefgh",
            "Q7vN2kLx9TQ7vN2kLx9TQ7vN2kLx9TQ7vN2kLx9T",
        ] {
            let problem = OperatorToken.problem(token) ?? ""
            #expect(!problem.isEmpty)
            #expect(!problem.contains(token))
            #expect(!problem.contains(String(token.prefix(8))))
        }
    }

    static func repositoryFile(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(path).path
    }
}
