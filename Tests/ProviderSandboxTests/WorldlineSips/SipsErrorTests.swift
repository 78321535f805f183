import Foundation
import ProviderSandbox
import Testing

@Suite struct SipsErrorTests {
    @Test func reusedReferenceAndReusedInitAnswer94() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let first = try await client.initOrder(reference: "dup1")
            let second = try await client.initOrder(reference: "dup1", amount: 2000)
            #expect(second.string("redirectionStatusCode") == "94")
            #expect(second.sealValid == true)
            #expect(second.string("redirectionData") == nil)
            let otherMerchant = try await sandbox.client(SipsTestMerchants.m2).initOrder(reference: "dup1")
            #expect(otherMerchant.string("redirectionStatusCode") == "00")

            #expect(
                try await sandbox.app().cardOrder(first, card: WorldlineSipsTestCard.visa)
                    .string("responseCode") == "00")
            let replay = try await sandbox.app().cardOrder(first, card: WorldlineSipsTestCard.visa)
            #expect(replay.string("inAppResponseCode") == "94")
            #expect(replay.sealValid == true)
            #expect(await sandbox.sips.ledger().count == 1)
            let afterOrder = try await client.initOrder(reference: "dup1")
            #expect(afterOrder.string("redirectionStatusCode") == "94")
        }
    }

    @Test func expiredInitAnswers97() async throws {
        try await withSipsSandbox({ $0.initLifetime = 600 }) { sandbox in
            let client = sandbox.client()
            let aging = try await client.initOrder(reference: "exp1")
            sandbox.clock.advance(by: 601)
            let late = try await sandbox.app().cardOrder(aging, card: WorldlineSipsTestCard.visa)
            #expect(late.string("inAppResponseCode") == "97")
            #expect(late.sealValid == true)

            let fresh = try await client.initOrder(reference: "exp2")
            let expired = try await sandbox.adminPost("inits/expire")
            #expect(expired.status == 204)
            #expect(
                try await sandbox.app().cardOrder(fresh, card: WorldlineSipsTestCard.visa)
                    .string("inAppResponseCode") == "97")
            #expect(try await client.transactionData("exp2").string("responseCode") == "25")
            #expect(await sandbox.sips.ledger().isEmpty)
        }
    }

    @Test func badSealAndUnknownMerchantAreAnsweredUnsealed() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let wrongKey = try await client.call(
                "diagnostic/getTransactionData", ["transactionReference": "x1"], sealSecret: "not-the-key")
            #expect(wrongKey.string("responseCode") == "34")
            #expect(wrongKey.sealValid == nil)
            let tampered = try await client.call(
                "checkoutInApp/orderInitialize",
                [
                    "amount": 1000, "currencyCode": "978", "sdkOperationName": "CARDORDER",
                    "transactionReference": "t1",
                ]
            ) { $0["amount"] = 1 }
            #expect(tampered.string("redirectionStatusCode") == "34")
            #expect(tampered.sealValid == nil)
            let unsealed = try await client.call("diagnostic/getTransactionData", ["transactionReference": "x1"]) {
                $0["seal"] = nil
            }
            #expect(unsealed.string("responseCode") == "34")
            var otherVersion = client
            otherVersion.keyVersion = 2
            #expect(try await otherVersion.transactionData("x1").string("responseCode") == "34")

            let stranger = SipsTestClient(baseURL: client.baseURL, merchantId: "999999999999999", secret: "s")
            let unknown = try await stranger.transactionData("x1")
            #expect(unknown.string("responseCode") == "03")
            #expect(unknown.sealValid == nil)
            let unknownInit = try await stranger.initOrder(reference: "x1")
            #expect(unknownInit.string("redirectionStatusCode") == "03")
            #expect(unknownInit.object.count == 1)
        }
    }

    @Test func formatErrorsName30AndTheirField() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let missing = try await client.call(
                "checkoutInApp/orderInitialize",
                ["currencyCode": "978", "sdkOperationName": "CARDORDER", "transactionReference": "f1"])
            #expect(missing.string("redirectionStatusCode") == "30")
            #expect(missing.string("errorFieldName") == "amount")
            #expect(missing.sealValid == true)
            let stringAmount = try await client.initOrder(reference: "f2", extra: ["amount": "1000"])
            #expect(stringAmount.string("errorFieldName") == "amount")
            let badReference = try await client.initOrder(reference: "att_bad")
            #expect(badReference.string("errorFieldName") == "transactionReference")
            let badCurrency = try await client.initOrder(reference: "f3", extra: ["currencyCode": "EUR"])
            #expect(badCurrency.string("errorFieldName") == "currencyCode")
            let walletWithoutId = try await client.initOrder(reference: "f4", operation: "WALLETORDER")
            #expect(walletWithoutId.string("errorFieldName") == "merchantWalletId")

            let wrongInterface = try await client.initOrder(reference: "f5", extra: ["interfaceVersion": "CR_WS_2.27"])
            #expect(wrongInterface.string("redirectionStatusCode") == "30")
            #expect(wrongInterface.string("errorFieldName") == "interfaceVersion")
            #expect(wrongInterface.sealValid == true)
            let cashInterface = try await client.call(
                "cashManagement/validate",
                [
                    "interfaceVersion": "DR_WS_2.9", "transactionReference": "f5", "operationAmount": 1,
                    "currencyCode": "978",
                ])
            #expect(cashInterface.string("responseCode") == "30")
            #expect(cashInterface.string("errorFieldName") == "interfaceVersion")

            let malformed = try await sipsPost(
                client.baseURL + "/rs-services/v2/diagnostic/getTransactionData", body: Array("{nope".utf8),
                secret: client.secret)
            #expect(malformed.string("responseCode") == "30")
            #expect(malformed.sealValid == nil)

            let unknownContext = try await sandbox.app().call(
                client.baseURL + "/inapp", "cardOrder",
                [
                    "redirectionData": "nope", "redirectionVersion": "IR_MB_3.0", "cardNumber": "4100000000000000",
                    "cardExpiryDate": "203012",
                ])
            #expect(unknownContext.string("inAppResponseCode") == "30")
            #expect(unknownContext.string("errorFieldName") == "redirectionData")
            #expect(unknownContext.sealValid == nil)
        }
    }

    @Test func merchantsSeeOnlyTheirOwnTransactions() async throws {
        try await withSipsSandbox { sandbox in
            let initReply = try await sandbox.client().initOrder(reference: "own1", captureMode: "VALIDATION")
            _ = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
            let other = sandbox.client(SipsTestMerchants.m2)
            let data = try await other.transactionData("own1")
            #expect(data.string("responseCode") == "25")
            #expect(data.sealValid == true)
            #expect(try await other.cash("validate", reference: "own1", amount: 1000).string("responseCode") == "25")
            #expect(try await sandbox.client().transactionData("own1").string("responseCode") == "00")
        }
    }

    @Test func configurationIsValidated() {
        #expect(throws: Never.self) {
            try WorldlineSipsSandboxConfiguration(merchants: SipsTestMerchants.all).validate()
        }
        #expect(throws: Never.self) {
            try WorldlineSipsSandboxConfiguration(merchants: WorldlineSipsSandboxMerchant.publicTestMerchants)
                .validate()
        }
        let duplicate = WorldlineSipsSandboxConfiguration(merchants: [SipsTestMerchants.m1, SipsTestMerchants.m1])
        #expect(throws: WorldlineSipsSandboxError.self) { try duplicate.validate() }
        let emptySecret = WorldlineSipsSandboxConfiguration(
            merchants: [WorldlineSipsSandboxMerchant(merchantId: "m", secretKey: "")])
        #expect(throws: WorldlineSipsSandboxError.self) { try emptySecret.validate() }
        let badVersion = WorldlineSipsSandboxConfiguration(automaticResponseInterfaceVersion: "IR_WS_2.0")
        #expect(throws: WorldlineSipsSandboxError.self) { try badVersion.validate() }
        #expect(throws: WorldlineSipsSandboxError.self) {
            try WorldlineSipsSandboxConfiguration(initLifetime: 0).validate()
        }
    }
}

extension SipsTestMerchants {
    static let all = [m1, m2]
}
