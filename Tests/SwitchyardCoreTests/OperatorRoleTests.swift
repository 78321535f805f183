import SwitchyardCore
import Testing

struct OperatorRoleTests {
    @Test func theRoleTableMatchesTheWrittenContract() {
        #expect(OperatorRole.viewer.permissions == [.platformRead])
        #expect(
            OperatorRole.support.permissions == [
                .platformRead, .paymentsAct, .reviewResolve, .webhooksReplay, .disputesAct,
            ])
        #expect(OperatorRole.admin.permissions == Set(OperatorPermission.allCases))
        #expect(!OperatorRole.viewer.grants(.paymentsAct))
        #expect(!OperatorRole.support.grants(.operatorsManage))
    }

    @Test func permissionStringsAreStable() {
        #expect(
            OperatorPermission.allCases.map(\.rawValue) == [
                "platform.read", "payments.act", "review.resolve", "webhooks.replay", "webhooks.manage",
                "tenants.manage", "keys.manage", "accounts.manage", "routing.manage", "policy.manage",
                "plugins.manage", "operators.manage", "disputes.act",
            ])
        #expect(OperatorRole.allCases.map(\.rawValue) == ["viewer", "support", "admin"])
    }
}
