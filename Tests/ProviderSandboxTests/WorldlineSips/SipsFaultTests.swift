import Foundation
import ProviderSandbox
import Testing

@Suite struct SipsFaultTests {
    @Test func respond99ProcessesTheValidateThenAnswers99() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let initReply = try await client.initOrder(reference: "f99a", amount: 4000, captureMode: "VALIDATION")
            _ = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
            let armed = try await sandbox.adminPost(
                "faults/respond99", ["service": "cashManagement/validate", "count": 1])
            #expect(armed.status == 200)
            #expect(armed.object["cashManagement/validate"] as? Int == 1)

            let answer = try await client.cash("validate", reference: "f99a", amount: 4000)
            #expect(answer.string("responseCode") == "99")
            #expect(answer.sealValid == true)
            #expect(answer.object.count == 2)
            let ledger = await sandbox.sips.ledger()
            #expect(ledger.map(\.kind) == ["authorization", "capture"])
            #expect(try await client.transactionData("f99a").string("transactionStatus") == "CAPTURED")
            let retry = try await client.cash("validate", reference: "f99a", amount: 4000)
            #expect(retry.string("responseCode") == "24")
            #expect(await sandbox.sips.ledger().count == 2)
            #expect(await sandbox.sips.pendingRespond99().isEmpty)

            let unknown = try await sandbox.adminPost("faults/respond99", ["service": "cashManagement/nothing"])
            #expect(unknown.status == 400)
        }
    }

    @Test func respond99OnTheAppsOrderKeepsTheOrder() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                try await sandbox.sips.respond99(service: "inapp/cardOrder", count: 1)
                let initReply = try await sandbox.client().initOrder(
                    reference: "f99b", amount: 1500, automaticResponseUrl: url)
                let order = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
                #expect(order.string("inAppResponseCode") == "99")
                #expect(order.string("responseCode") == nil)
                #expect(order.sealValid == true)
                #expect(await sandbox.sips.ledger().map(\.kind) == ["charge"])
                try await eventually("automatic response") { await inbox.about("f99b").count == 1 }
                #expect(await inbox.about("f99b").first?["responseCode"] == "00")
                let data = try await sandbox.client().transactionData("f99b")
                #expect(data.string("transactionStatus") == "CAPTURED")

                try await sandbox.sips.respond99(service: "checkoutInApp/orderInitialize", count: 1)
                let init99 = try await sandbox.client().initOrder(reference: "f99c")
                #expect(init99.string("redirectionStatusCode") == "99")
                #expect(try await sandbox.client().initOrder(reference: "f99c").string("redirectionStatusCode") == "94")
            }
        }
    }

    @Test func sharedFaultsApplyByPath() async throws {
        try await withSipsSandbox { sandbox in
            await sandbox.sips.addFaults([
                SandboxFault(kind: .http503, pathPrefix: "/rs-services/v2/cashManagement", count: 1)
            ])
            let initReply = try await sandbox.client().initOrder(reference: "fpath", captureMode: "VALIDATION")
            _ = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
            let failed = try await sandbox.client().cash("validate", reference: "fpath", amount: 1000)
            #expect(failed.status == 503)
            #expect(await sandbox.sips.ledger().map(\.kind) == ["authorization"])
            let passed = try await sandbox.client().cash("validate", reference: "fpath", amount: 1000)
            #expect(passed.string("responseCode") == "00")
        }
    }
}
