import Foundation
import Testing

@testable import SwitchyardStore

/// Replicas of different versions, during a rolling deployment, must lock the same key for a token.
struct TokenLockKeyTests {
    @Test func theKeyIsPinnedAndDiffersByKind() throws {
        let account = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        #expect(PostgresStore.tokenLockKey(accountId: account, kind: "server") == 6_978_203_539_685_593_090)
        #expect(PostgresStore.tokenLockKey(accountId: account, kind: "client") == -52_483_571_582_580_114)
        #expect(PostgresStore.tokenLockKey(accountId: UUID(), kind: "server") != 6_978_203_539_685_593_090)
    }
}
