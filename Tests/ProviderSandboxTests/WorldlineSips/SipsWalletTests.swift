import Foundation
import ProviderSandbox
import Testing

@Suite struct SipsWalletTests {
    private func walletInit(_ sandbox: SipsTestSandbox, _ operation: String, wallet: String = "w1") async throws
        -> SipsReply
    {
        try await sandbox.client().call(
            "walletInApp/walletInitialize", ["merchantWalletId": wallet, "sdkOperationName": operation])
    }

    @Test func cardsAreAddedListedPaidWithAndDeleted() async throws {
        try await withSipsReceiver { url, inbox in
            try await withSipsSandbox { sandbox in
                let client = sandbox.client()
                let app = sandbox.app()
                let adding = try await walletInit(sandbox, "ADDCARD")
                #expect(adding.string("redirectionStatusCode") == "00")
                #expect(adding.sealValid == true)
                let added = try await app.call(
                    "addCard", on: adding,
                    ["cardNumber": WorldlineSipsTestCard.visa, "cardExpiryDate": "202912", "paymentMeanAlias": "perso"])
                #expect(added.sealValid == true)
                #expect(added.string("inAppResponseCode") == "00")
                #expect(added.string("maskedPan") == "4100##########00")
                let meanId = try #require(added.string("paymentMeanId"))
                #expect(!meanId.isEmpty && meanId.allSatisfy(\.isNumber))
                #expect(added.string("walletActionDateTime") != nil)

                let reading = try await walletInit(sandbox, "GETWALLETDATA")
                let appList = try await app.call("getWalletData", on: reading)
                #expect(appList.string("inAppResponseCode") == "00")
                #expect(appList.list.first?["paymentMeanAlias"] as? String == "perso")
                let office = try await client.call("wallet/getWalletData", ["merchantWalletId": "w1"])
                #expect(office.sealValid == true)
                #expect(office.string("walletResponseCode") == "00")
                #expect(office.string("walletCreationDateTime") != nil)
                #expect(office.list.count == 1)
                #expect(office.list.first?["paymentMeanId"] as? String == meanId)
                #expect(office.list.first?["panExpiryDate"] as? String == "202912")
                #expect(office.list.first?["paymentMeanBrand"] as? String == "VISA")

                let orderInit = try await client.initOrder(
                    reference: "wal1", amount: 2500, operation: "WALLETORDER", automaticResponseUrl: url,
                    walletId: "w1")
                let unknownMean = try await app.call("walletOrder", on: orderInit, ["paymentMeanId": "999"])
                #expect(unknownMean.string("inAppResponseCode") == "25")
                let order = try await app.call("walletOrder", on: orderInit, ["paymentMeanId": meanId])
                #expect(order.sealValid == true)
                #expect(order.string("responseCode") == "00")
                #expect(order.string("merchantWalletId") == "w1")
                #expect(order.string("maskedPan") == "4100##########00")
                try await eventually("automatic response") { await inbox.about("wal1").count == 1 }
                #expect(await inbox.about("wal1").first?["merchantWalletId"] == "w1")

                let deleting = try await walletInit(sandbox, "DELETEPAYMENTMEAN")
                let deleted = try await app.call("deletePaymentMean", on: deleting, ["paymentMeanId": meanId])
                #expect(deleted.string("inAppResponseCode") == "00")
                let gone = try await app.call("deletePaymentMean", on: deleting, ["paymentMeanId": meanId])
                #expect(gone.string("inAppResponseCode") == "25")
                let empty = try await client.call("wallet/getWalletData", ["merchantWalletId": "w1"])
                #expect(empty.string("walletResponseCode") == "00")
                #expect(empty.list.isEmpty)
                #expect(
                    await sandbox.sips.wallet(merchantId: "002001000000001", merchantWalletId: "w1")?.paymentMeans
                        .isEmpty == true)
                #expect(await sandbox.sips.ledger().map(\.kind) == ["charge"])
            }
        }
    }

    @Test func officeWalletServicesAnswerUnknownWalletsAndCards() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            let unknown = try await client.call("wallet/getWalletData", ["merchantWalletId": "nobody"])
            #expect(unknown.string("walletResponseCode") == "25")
            #expect(unknown.sealValid == true)
            let adding = try await walletInit(sandbox, "ADDCARD", wallet: "w2")
            let added = try await sandbox.app().call(
                "addCard", on: adding,
                ["cardNumber": "5555555555554444", "cardExpiryDate": "203001", "paymentMeanAlias": "pro"])
            let meanId = try #require(added.string("paymentMeanId"))
            #expect(added.string("paymentMeanBrand") == "MASTERCARD")
            let missing = try await client.call(
                "wallet/deletePaymentMean", ["merchantWalletId": "w2", "paymentMeanId": "424242"])
            #expect(missing.string("walletResponseCode") == "25")
            let deleted = try await client.call(
                "wallet/deletePaymentMean", ["merchantWalletId": "w2", "paymentMeanId": meanId])
            #expect(deleted.string("walletResponseCode") == "00")
            #expect(deleted.sealValid == true)
            let otherMerchant = try await sandbox.client(SipsTestMerchants.m2).call(
                "wallet/getWalletData", ["merchantWalletId": "w2"])
            #expect(otherMerchant.string("walletResponseCode") == "25")
            let badOperation = try await walletInit(sandbox, "CARDORDER")
            #expect(badOperation.string("redirectionStatusCode") == "30")
            #expect(badOperation.string("errorFieldName") == "sdkOperationName")
        }
    }

    @Test func walletCheckEnrollmentAuthenticatesAStoredCard() async throws {
        try await withSipsSandbox { sandbox in
            let adding = try await walletInit(sandbox, "ADDCARD", wallet: "w3")
            let added = try await sandbox.app().call(
                "addCard", on: adding,
                ["cardNumber": WorldlineSipsTestCard.enrolled, "cardExpiryDate": "203012", "paymentMeanAlias": "3ds"])
            let meanId = try #require(added.string("paymentMeanId"))
            let orderInit = try await sandbox.client().initOrder(
                reference: "wal3", operation: "THREEDSECUREANDWALLETORDER", walletId: "w3")
            let enrollment = try await sandbox.app().call(
                "walletCheckEnrollment", on: orderInit, ["paymentMeanId": Int(meanId) ?? 0])
            #expect(enrollment.string("redirectionStatusCode") == "00")
            let paRes = try await sandbox.sips.authenticate(
                paReqMessage: enrollment.string("paReqMessage") ?? "", approve: true)
            let order = try await sandbox.app().call(
                orderInit.string("redirectionUrl") ?? "", "cardValidateAuthenticationAndOrder",
                [
                    "transactionContextData": enrollment.string("transactionContextData") ?? "",
                    "transactionContextVersion": "1", "paResMessage": paRes,
                ])
            #expect(order.string("responseCode") == "00")
            #expect(order.string("merchantWalletId") == "w3")
        }
    }
}

@Suite struct SipsWalletDeletionTests {
    @Test func theOfficeDeletionRemovesOnlyThatCardFromTheWallet() async throws {
        try await withSipsSandbox { sandbox in
            let client = sandbox.client()
            var means: [String] = []
            for card in [WorldlineSipsTestCard.visa, "5555555555554444"] {
                let adding = try await client.call(
                    "walletInApp/walletInitialize", ["merchantWalletId": "w9", "sdkOperationName": "ADDCARD"])
                let added = try await sandbox.app().call(
                    "addCard", on: adding, ["cardNumber": card, "cardExpiryDate": "203001", "paymentMeanAlias": "a"])
                means.append(try #require(added.string("paymentMeanId")))
            }
            let deleted = try await client.call(
                "wallet/deletePaymentMean",
                ["interfaceVersion": "WR_WS_2.27", "merchantWalletId": "w9", "paymentMeanId": means[0]])
            #expect(deleted.sealValid == true)
            #expect(deleted.string("walletResponseCode") == "00")
            #expect(deleted.string("walletActionDateTime") != nil)

            let listed = try await client.call("wallet/getWalletData", ["merchantWalletId": "w9"])
            #expect(listed.list.compactMap { $0["paymentMeanId"] as? String } == [means[1]])
            let wallet = await sandbox.sips.wallet(merchantId: "002001000000001", merchantWalletId: "w9")
            #expect(wallet?.paymentMeans.map(\.paymentMeanId) == [means[1]])

            let again = try await client.call(
                "wallet/deletePaymentMean", ["merchantWalletId": "w9", "paymentMeanId": means[0]])
            #expect(again.string("walletResponseCode") == "25")
            #expect(again.string("errorFieldName") == "paymentMeanId")
            let orderInit = try await client.initOrder(reference: "gone1", operation: "WALLETORDER", walletId: "w9")
            let order = try await sandbox.app().call("walletOrder", on: orderInit, ["paymentMeanId": means[0]])
            #expect(order.string("inAppResponseCode") == "25")
        }
    }
}
