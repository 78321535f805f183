import ArgumentParser
import Foundation
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCommands

/// What `switchyard operators` prints: a token once, the list without tokens, clear refusals.
struct OperatorsCommandTests {
    @Test func addPrintsTheTokenOnceAndTheListNeverDoes() async throws {
        let operators = InMemoryOperators()
        let added = try await OperatorsCommand.add(operators, name: "Ana", role: "support", expiresAt: nil)
        #expect(added.count == 2)
        #expect(added[0].contains("  support  Ana  op_") && added[0].hasSuffix("active"))
        let token = try #require(added[1].split(separator: " ").dropFirst().first.map(String.init))
        #expect(OperatorTokens.mayBeOperatorToken(token))
        #expect(try await operators.authenticateOperator(secret: token)?.name == "Ana")
        let listed = OperatorsCommand.lines(try await operators.operators())
        #expect(listed.count == 1 && !listed[0].contains(token))

        let id = try #require(try await operators.operators().first?.id)
        let rotated = try await OperatorsCommand.rotate(operators, id: id)
        #expect(try await operators.authenticateOperator(secret: token) == nil)
        #expect(rotated[1].hasPrefix("token op_"))
    }

    @Test func badInputIsRefusedNamingTheOption() async throws {
        let operators = InMemoryOperators()
        await #expect(throws: ValidationError.self) {
            try await OperatorsCommand.add(operators, name: "Ana", role: "root", expiresAt: nil)
        }
        await #expect(throws: ValidationError.self) {
            try await OperatorsCommand.add(operators, name: "Ana", role: "viewer", expiresAt: "2020-01-01T00:00:00Z")
        }
        await #expect(throws: CoreError.self) {
            try await OperatorsCommand.add(operators, name: "", role: "viewer", expiresAt: nil)
        }
        _ = try await OperatorsCommand.add(operators, name: "Ana", role: "viewer", expiresAt: nil)
        await #expect(throws: CoreError.self) {
            try await OperatorsCommand.add(operators, name: "ANA", role: "viewer", expiresAt: nil)
        }
        #expect(throws: ValidationError.self) { try OperatorsCommand.id("nope") }
    }
}
