import Foundation
import ProviderSandbox
import Testing

@Suite struct CitconMagicAmountTests {
    @Test func amountEndingIn402IsDeclined() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox { sandbox in
                let token = try await sandbox.citcon.token()
                let declined = try await sandbox.citcon.paidCharge(
                    token: token, reference: "magic-402", amount: 1402, ipn: ipnURL)
                #expect(declined.status == 200)
                #expect(declined.string("status") == "failed")
                #expect(declined.string("code") == "4021")
                #expect(try await sandbox.citcon.inquire(token: token, id: "magic-402").string("status") == "failed")
                try await eventually("fail IPN") { await inbox.messages.count == 1 }
                #expect(await inbox.messages.first?["status"] == "fail")
                #expect(await sandbox.server.citcon.ledger().isEmpty)
            }
        }
    }

    @Test func amountEndingIn408StaysPendingWithoutIPN() async throws {
        try await withIPNReceiver { ipnURL, inbox in
            try await withSandbox { sandbox in
                let token = try await sandbox.citcon.token()
                let created = try await sandbox.citcon.createCharge(
                    token: token, reference: "magic-408", amount: 2408, ipn: ipnURL)
                let chargeToken = try #require(created.string("charge_token"))
                let pending = try await sandbox.citcon.confirm(token: token, chargeToken: chargeToken)
                #expect(pending.string("status") == "pending")
                #expect(try await sandbox.citcon.confirm(token: token, chargeToken: chargeToken).code == "4101")
                // A normal charge's IPN arriving proves the pending one would have arrived by now.
                _ = try await sandbox.citcon.paidCharge(token: token, reference: "magic-ok", amount: 2400, ipn: ipnURL)
                try await eventually("control IPN") { await inbox.messages.count >= 1 }
                #expect(await inbox.messages.map { $0["reference"] } == ["magic-ok"])
                #expect(await sandbox.server.citcon.ledger().map(\.reference) == ["magic-ok"])
            }
        }
    }
}
