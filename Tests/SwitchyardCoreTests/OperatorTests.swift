import Foundation
import SwitchyardCore
import Testing

/// An operator's token is usable until revoked or expired; names and token shapes are checked.
struct OperatorTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aTokenIsUsableUntilRevokedOrExpired() {
        var op = Operator(id: UUID(), name: "Ana", role: .support, tokenPrefix: "op_12345678", createdAt: now)
        #expect(op.isUsable(at: now))
        op.expiresAt = now.addingTimeInterval(60)
        #expect(op.isUsable(at: now.addingTimeInterval(59)))
        #expect(!op.isUsable(at: now.addingTimeInterval(60)))
        op.expiresAt = nil
        op.revokedAt = now
        #expect(!op.isUsable(at: now))
        #expect(OperatorIdentity(op).actor == "operator:Ana")
        #expect(OperatorIdentity.bootstrap.breakGlass && OperatorIdentity.bootstrap.role == .admin)
    }

    @Test func namesAreCheckedAndTokensHaveOneShape() {
        #expect(throws: CoreError.self) { try Operator.validate(name: "") }
        #expect(throws: CoreError.self) { try Operator.validate(name: " Ana") }
        #expect(throws: CoreError.self) { try Operator.validate(name: "A\nna") }
        #expect(throws: CoreError.self) { try Operator.validate(name: String(repeating: "a", count: 101)) }
        #expect(throws: Never.self) { try Operator.validate(name: "Ana Lima (support)") }
        let token = OperatorTokens.token(random: Array(repeating: 0xab, count: 24))
        #expect(token == "op_" + String(repeating: "ab", count: 24))
        #expect(OperatorTokens.mayBeOperatorToken(token))
        #expect(!OperatorTokens.mayBeOperatorToken("op_xyz"))
        #expect(!OperatorTokens.mayBeOperatorToken("sk_test_" + String(repeating: "a", count: 43)))
    }
}
