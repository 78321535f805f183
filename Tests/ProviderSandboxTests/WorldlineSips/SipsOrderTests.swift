import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

@Suite struct SipsOrderTests {
    static let secret = SipsTestMerchants.m1.secretKey

    @Test func cardOrderSendsASealedAutomaticResponseAndCanBeInquired() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                let client = sandbox.client()
                let initReply = try await client.initOrder(reference: "att001", amount: 1000, automaticResponseUrl: url)
                #expect(initReply.string("redirectionStatusCode") == "00")
                #expect(initReply.sealValid == true)
                #expect(initReply.string("redirectionUrl") == sandbox.baseURL + "/sips/inapp")
                let key = try #require(initReply.string("publicKeyValue"))
                #expect((try? RSAPublicKey(keyText: key)) != nil)
                #expect(await sandbox.sips.ledger().isEmpty)

                let order = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
                #expect(order.sealValid == true)
                #expect(order.string("inAppResponseCode") == "00")
                #expect(order.string("responseCode") == "00")
                #expect(order.string("acquirerResponseCode") == "00")
                #expect(order.string("maskedPan") == "4100##########00")
                #expect(order.string("paymentMeanBrand") == "VISA")
                #expect(order.string("returnContext") == "att_att001")
                #expect(order.int("amount") == 1000)
                #expect(order.string("authorisationId")?.count == 6)

                try await eventually("automatic response") { await inbox.received.count == 1 }
                let response = try #require(await inbox.received.first)
                #expect(response.contentType.hasPrefix("application/x-www-form-urlencoded"))
                #expect(response.form["InterfaceVersion"] == "HP_2.39")
                #expect(response.form["Encode"] == "")
                #expect(response.hmacSealVerifies(secret: Self.secret))
                #expect(!response.sha256SealVerifies(secret: Self.secret))
                #expect(response["amount"] == "1000")
                #expect(response["currencyCode"] == "978")
                #expect(response["merchantId"] == SipsTestMerchants.m1.merchantId)
                #expect(response["transactionReference"] == "att001")
                #expect(response["returnContext"] == "att_att001")
                #expect(response["responseCode"] == "00")
                #expect(response["captureMode"] == "AUTHOR_CAPTURE")
                #expect(response["captureDay"] == "0")
                #expect(response["paymentMeanType"] == "CARD")
                #expect(response["keyVersion"] == "1")
                #expect(response["sealAlgorithm"] == "HMAC-SHA-256")
                #expect(response["orderId"] == "order-att001")

                let data = try await client.transactionData("att001")
                #expect(data.sealValid == true)
                #expect(data.string("responseCode") == "00")
                #expect(data.string("transactionStatus") == "CAPTURED")
                #expect(data.int("originAmount") == 1000)
                #expect(data.int("currentAmount") == 1000)
                #expect(data.string("maskedPan") == "4100##########00")
                #expect(data.string("panExpiryDate") == "203012")
                #expect(data.string("captureLimitDate")?.count == 8)
                #expect(data.string("holderAuthentStatus") == "NO_AUTHENT")
                let ledger = await sandbox.sips.ledger()
                #expect(ledger.map(\.kind) == ["charge"])
                #expect(ledger.first?.amount == 1000)
                #expect(ledger.first?.currency == "EUR")
                #expect(ledger.first?.transactionReference == "att001")
            }
        }
    }

    @Test func validationOrderIsValidatedPartlyThenRefundedToCredited() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let initReply = try await client.initOrder(reference: "val1", amount: 5000, captureMode: "VALIDATION")
            let order = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.mastercard)
            #expect(order.string("responseCode") == "00")
            #expect(order.string("paymentMeanBrand") == "MASTERCARD")
            #expect(try await client.transactionData("val1").string("transactionStatus") == "TO_VALIDATE")

            let tooMuch = try await client.cash("validate", reference: "val1", amount: 6000)
            #expect(tooMuch.string("responseCode") == "30")
            #expect(tooMuch.string("errorFieldName") == "operationAmount")
            #expect(tooMuch.sealValid == true)
            let refundFirst = try await client.cash("refund", reference: "val1", amount: 100)
            #expect(refundFirst.string("responseCode") == "24")

            let validated = try await client.cash("validate", reference: "val1", amount: 4000)
            #expect(validated.sealValid == true)
            #expect(validated.string("responseCode") == "00")
            #expect(validated.int("newAmount") == 4000)
            #expect(validated.string("newStatus") == "CAPTURED")
            #expect(try await client.cash("validate", reference: "val1", amount: 4000).string("responseCode") == "24")

            let partial = try await client.cash("refund", reference: "val1", amount: 1500)
            #expect(partial.string("responseCode") == "00")
            #expect(partial.int("newAmount") == 2500)
            #expect(partial.string("newStatus") == "CAPTURED")
            let over = try await client.cash("refund", reference: "val1", amount: 3000)
            #expect(over.string("responseCode") == "30")
            #expect(over.string("errorFieldName") == "operationAmount")
            let rest = try await client.cash("refund", reference: "val1", amount: 2500)
            #expect(rest.int("newAmount") == 0)
            #expect(rest.string("newStatus") == "CREDITED")
            #expect(try await client.cash("refund", reference: "val1", amount: 1).string("responseCode") == "24")

            let data = try await client.transactionData("val1")
            #expect(data.string("transactionStatus") == "CREDITED")
            #expect(data.int("originAmount") == 5000)
            #expect(data.int("currentAmount") == 0)
            #expect(data.string("lastOperationName") == "REFUND")
            let ledger = await sandbox.sips.ledger()
            #expect(ledger.map(\.kind) == ["authorization", "capture", "refund", "refund"])
            #expect(ledger.map(\.amount) == [5000, 4000, 1500, 2500])
            let stored = try #require(
                await sandbox.sips.transaction(merchantId: "002001000000001", transactionReference: "val1"))
            #expect(stored.capturedAmount == 4000)
            #expect(stored.refundedAmount == 4000)
        }
    }

    @Test func cancelReducesThenCancelsAnAuthorisation() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let initReply = try await client.initOrder(reference: "can1", amount: 3000, captureMode: "VALIDATION")
            _ = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
            let wrongCurrency = try await client.call(
                "cashManagement/cancel",
                ["currencyCode": "840", "operationAmount": 100, "transactionReference": "can1"])
            #expect(wrongCurrency.string("responseCode") == "30")
            #expect(wrongCurrency.string("errorFieldName") == "currencyCode")
            let part = try await client.cash("cancel", reference: "can1", amount: 1000)
            #expect(part.string("responseCode") == "00")
            #expect(part.int("newAmount") == 2000)
            #expect(part.string("newStatus") == "TO_VALIDATE")
            let all = try await client.cash("cancel", reference: "can1", amount: 2000)
            #expect(all.string("newStatus") == "CANCELLED")
            #expect(all.int("newAmount") == 0)
            #expect(try await client.cash("cancel", reference: "can1", amount: 1).string("responseCode") == "24")
            #expect(try await client.cash("validate", reference: "can1", amount: 1).string("responseCode") == "24")
            #expect(try await client.cash("refund", reference: "can1", amount: 1).string("responseCode") == "24")
            #expect(try await client.cash("cancel", reference: "nope", amount: 1).string("responseCode") == "25")

            let captured = try await client.initOrder(reference: "can2", amount: 700)
            _ = try await sandbox.app().cardOrder(captured, card: WorldlineSipsTestCard.visa)
            #expect(try await client.cash("cancel", reference: "can2", amount: 700).string("responseCode") == "24")
            let ledger = await sandbox.sips.ledger()
            #expect(ledger.map(\.kind) == ["authorization", "void", "void", "charge"])
            #expect(ledger.map(\.amount) == [3000, 1000, 2000, 700])
        }
    }

    @Test func declinesFollowTheTestCardsAndAmounts() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                let client = sandbox.client()
                let app = sandbox.app()
                let cases: [(String, Int, String, String, String)] = [
                    ("dec1", 1000, WorldlineSipsTestCard.declined, "05", "05"),
                    ("dec2", 1402, WorldlineSipsTestCard.visa, "05", "51"),
                    ("dec3", 1000, WorldlineSipsTestCard.enrolled, "05", "A1"),
                ]
                for (reference, amount, card, code, acquirer) in cases {
                    let initReply = try await client.initOrder(
                        reference: reference, amount: amount, automaticResponseUrl: url)
                    let order = try await app.cardOrder(initReply, card: card)
                    #expect(order.sealValid == true)
                    #expect(order.string("responseCode") == code, "\(reference)")
                    #expect(order.string("acquirerResponseCode") == acquirer, "\(reference)")
                    #expect(order.string("authorisationId") == nil)
                    let data = try await client.transactionData(reference)
                    #expect(data.string("transactionStatus") == "REFUSED")
                    #expect(data.string("acquirerResponseCode") == acquirer)
                }
                let expired = try await client.initOrder(reference: "dec4", automaticResponseUrl: url)
                #expect(
                    try await app.cardOrder(expired, card: WorldlineSipsTestCard.visa, expiry: "202001")
                        .string("responseCode") == "54")

                let luhn = try await client.initOrder(reference: "dec5", amount: 1200, automaticResponseUrl: url)
                let invalid = try await app.cardOrder(luhn, card: "4100000000000002")
                #expect(invalid.string("inAppResponseCode") == "14")
                #expect(invalid.string("errorFieldName") == "cardNumber")
                #expect(invalid.sealValid == true)
                #expect(try await client.transactionData("dec5").string("responseCode") == "25")
                let other = try await app.cardOrder(luhn, card: "4970101122334455")
                #expect(other.string("responseCode") == "00")

                try await eventually("automatic responses") { await inbox.received.count == 5 }
                #expect(await inbox.about("dec2").first?["acquirerResponseCode"] == "51")
                #expect(await inbox.about("dec5").first?["responseCode"] == "00")
                #expect(await sandbox.sips.ledger().map(\.transactionReference) == ["dec5"])
            }
        }
    }

    @Test func pendingOrderIsResolvedThroughTheAdminSurface() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                let client = sandbox.client()
                let initReply = try await client.initOrder(
                    reference: "pen1", amount: 2460, captureMode: "VALIDATION", automaticResponseUrl: url)
                let order = try await sandbox.app().cardOrder(initReply, card: WorldlineSipsTestCard.visa)
                #expect(order.string("responseCode") == "60")
                #expect(order.string("inAppResponseCode") == "60")
                #expect(try await client.transactionData("pen1").string("transactionStatus") == "PENDING")
                #expect(await sandbox.sips.ledger().isEmpty)

                let resolved = try await sandbox.adminPost(
                    "transactions/002001000000001/pen1/resolve", ["approved": true])
                #expect(resolved.status == 200)
                #expect(resolved.object["status"] as? String == "TO_VALIDATE")
                let again = try await sandbox.adminPost("transactions/002001000000001/pen1/resolve", ["approved": true])
                #expect(again.status == 409)
                let data = try await client.transactionData("pen1")
                #expect(data.string("transactionStatus") == "TO_VALIDATE")
                #expect(data.string("acquirerResponseCode") == "00")
                try await eventually("two automatic responses") { await inbox.about("pen1").count == 2 }
                #expect(await inbox.about("pen1").map { $0["responseCode"] } == ["60", "00"])
                #expect(await sandbox.sips.ledger().map(\.kind) == ["authorization"])

                let refusedInit = try await client.initOrder(reference: "pen2", amount: 460, automaticResponseUrl: url)
                _ = try await sandbox.app().cardOrder(refusedInit, card: WorldlineSipsTestCard.visa)
                let refused = try await sandbox.sips.resolve(
                    merchantId: "002001000000001", transactionReference: "pen2", approved: false)
                #expect(refused.status == .refused)
                #expect(refused.responseCode == "05")
                try await eventually("refusal") { await inbox.about("pen2").count == 2 }
                #expect(await inbox.about("pen2").last?["responseCode"] == "05")
                let view = try await send(.get, sandbox.admin + "/transactions/002001000000001/pen2")
                #expect(view.object["status"] as? String == "REFUSED")
                #expect(await sandbox.sips.ledger().count == 1)
            }
        }
    }

    @Test func cancellingAPendingOrderMovesNoMoney() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let reduced = try await client.initOrder(reference: "pen3", amount: 3460, captureMode: "VALIDATION")
            #expect(
                try await sandbox.app().cardOrder(reduced, card: WorldlineSipsTestCard.visa).string("responseCode")
                    == "60")
            let part = try await client.cash("cancel", reference: "pen3", amount: 1000)
            #expect(part.string("responseCode") == "00")
            #expect(part.int("newAmount") == 2460)
            #expect(part.string("newStatus") == "PENDING")
            let resolved = try await sandbox.sips.resolve(
                merchantId: "002001000000001", transactionReference: "pen3", approved: true)
            #expect(resolved.status == .toValidate)
            #expect(resolved.currentAmount == 2460)

            let dropped = try await client.initOrder(reference: "pen4", amount: 460)
            _ = try await sandbox.app().cardOrder(dropped, card: WorldlineSipsTestCard.visa)
            #expect(try await client.cash("cancel", reference: "pen4", amount: 460).string("newStatus") == "CANCELLED")
            let late = try await sandbox.adminPost("transactions/002001000000001/pen4/resolve", ["approved": true])
            #expect(late.status == 409)
            #expect(late.object["code"] as? String == "TRANSACTION_NOT_PENDING")
            let ledger = await sandbox.sips.ledger()
            #expect(ledger.map(\.kind) == ["authorization"])
            #expect(ledger.map(\.amount) == [2460])
        }
    }
}
