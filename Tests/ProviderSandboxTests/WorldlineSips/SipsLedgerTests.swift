import Foundation
import ProviderSandbox
import Testing

@Suite struct SipsLedgerTests {
    @Test func retriedAndDuplicatedRequestsNeverMoveMoneyTwice() async throws {
        try await withSipsReceiver(failFirst: 1) { url, inbox in
            try await withSipsSandbox { sandbox in
                let client = sandbox.client()
                let app = sandbox.app()
                let authorised = try await client.initOrder(
                    reference: "led1", amount: 3000, captureMode: "VALIDATION", automaticResponseUrl: url)
                _ = try await app.cardOrder(authorised, card: WorldlineSipsTestCard.visa)
                _ = try await app.cardOrder(authorised, card: WorldlineSipsTestCard.visa)
                _ = try await client.initOrder(reference: "led1", amount: 3000, automaticResponseUrl: url)
                _ = try await client.cash("validate", reference: "led1", amount: 3000)
                _ = try await client.cash("validate", reference: "led1", amount: 3000)
                _ = try await client.cash("refund", reference: "led1", amount: 3000)
                _ = try await client.cash("refund", reference: "led1", amount: 3000)

                let pending = try await client.initOrder(reference: "led2", amount: 1460, automaticResponseUrl: url)
                _ = try await app.cardOrder(pending, card: WorldlineSipsTestCard.visa)
                try await sandbox.sips.resolve(
                    merchantId: "002001000000001", transactionReference: "led2", approved: true)
                await #expect(throws: WorldlineSipsSandboxError.self) {
                    try await sandbox.sips.resolve(
                        merchantId: "002001000000001", transactionReference: "led2", approved: true)
                }
                try await eventually("automatic responses") { await inbox.received.count == 3 }

                let ledger = await sandbox.sips.ledger()
                #expect(ledger.map(\.kind) == ["authorization", "capture", "refund", "charge"])
                #expect(ledger.map(\.transactionReference) == ["led1", "led1", "led1", "led2"])
                #expect(ledger.map(\.amount) == [3000, 3000, 3000, 1460])
                #expect(ledger.allSatisfy { $0.merchant == "002001000000001" && $0.currency == "EUR" })
                let overHTTP = try await send(.get, sandbox.admin + "/ledger?merchant=002001000000001")
                #expect((overHTTP.json as? [[String: Any]])?.count == 4)
                #expect(await sandbox.sips.ledger(merchant: "002001000000002").isEmpty)
            }
        }
    }
}
