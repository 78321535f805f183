import Foundation
import ProviderKit
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsAuthorizeTests {
    static let initRoute = Fixtures.route("checkoutInApp/orderInitialize")
    static let inquiryRoute = Fixtures.route("diagnostic/getTransactionData")

    static func expectedOrder(
        captureMode: String = "AUTHOR_CAPTURE", operation: String = "CARDORDER", amount: Int64 = 1250,
        currency: String = "978"
    ) -> [String: JSONValue] {
        var fields = Fixtures.common("IR_MB_3.0")
        fields["amount"] = .integer(amount)
        fields["automaticResponseUrl"] = .string(Fixtures.notificationURL)
        fields["captureDay"] = .integer(0)
        fields["captureMode"] = .string(captureMode)
        fields["currencyCode"] = .string(currency)
        fields["customerId"] = .string("cust7")
        fields["orderChannel"] = .string("INAPP")
        fields["orderId"] = .string("order-42_A")
        fields["returnContext"] = .string(Fixtures.attemptId)
        fields["sdkOperationName"] = .string(operation)
        fields["transactionReference"] = .string(Fixtures.reference)
        return fields
    }

    @Test func cardOrderInitialisation() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        let outcome = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(host.requests.count == 1)
        #expect(host.requests.first?.url == Fixtures.baseURL + "/rs-services/v2/checkoutInApp/orderInitialize")
        try Fixtures.expectSealedRequest(host.requests.first, Self.expectedOrder())

        #expect(outcome.kind == .pending)
        #expect(outcome.providerPaymentId == Fixtures.reference)
        let action = try #require(outcome.nextAction)
        #expect(action.type == "sips_inapp")
        #expect(
            action.data == [
                "redirectionData": .string(Fixtures.redirectionData),
                "redirectionUrl": .string("http://127.0.0.1:9999/sips/inapp"),
                "redirectionVersion": .string("IR_MB_3.0"), "publicKeyValue": .string(Fixtures.publicKey),
                "sdkOperationName": .string("CARDORDER"), "transactionReference": .string(Fixtures.reference),
            ])
        #expect(action.expiresAt == Fixtures.now.addingTimeInterval(900))
    }

    @Test func manualCaptureCurrencyAndLifetime() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        let outcome = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(amount: 700, currency: "usd", capture: .manual),
            account: Fixtures.account(options: ["session_lifetime_seconds": "600"]))
        try Fixtures.expectSealedRequest(
            host.requests.first, Self.expectedOrder(captureMode: "VALIDATION", amount: 700, currency: "840"))
        #expect(outcome.nextAction?.expiresAt == Fixtures.now.addingTimeInterval(600))
    }

    @Test func operationNamesAndWalletOrders() async throws {
        let card = StoredCredential(id: "pm_1", kind: "card", token: "\(Fixtures.walletId):12")
        let cases: [(StoredCredential?, Bool, String)] = [
            (nil, false, "CARDORDER"), (nil, true, "THREEDSECUREANDORDER"), (card, false, "WALLETORDER"),
            (card, true, "THREEDSECUREANDWALLETORDER"),
        ]
        for (credential, threeDS, name) in cases {
            let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
            let paymentData: [String: JSONValue] = threeDS ? ["three_d_secure": .bool(true)] : [:]
            let outcome = try await WorldlineSipsProvider(host: host).authorize(
                Fixtures.authorizeRequest(paymentData: paymentData, credential: credential),
                account: Fixtures.account())
            var expected = Self.expectedOrder(operation: name)
            if credential != nil { expected["merchantWalletId"] = .string(Fixtures.walletId) }
            try Fixtures.expectSealedRequest(host.requests.first, expected)
            #expect(outcome.nextAction?.data["sdkOperationName"] == .string(name))
            #expect(outcome.nextAction?.data["paymentMeanId"] == (credential == nil ? nil : .string("12")), "\(name)")
        }
    }

    @Test func threeDSecureNeedsATrueBoolean() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        _ = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(paymentData: ["three_d_secure": .string("true")]), account: Fixtures.account())
        #expect(try Fixtures.body(host.requests.first)["sdkOperationName"] == .string("CARDORDER"))
    }

    @Test func orderIdAndCustomerIdAreOmittedOrSanitised() async throws {
        for reference in ["order 42", String(repeating: "x", count: 33), "ordre-é", ""] {
            let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
            _ = try await WorldlineSipsProvider(host: host).authorize(
                Fixtures.authorizeRequest(merchantReference: reference, customerId: "__"), account: Fixtures.account())
            let body = try Fixtures.body(host.requests.first)
            #expect(body["orderId"] == nil, "\(reference)")
            #expect(body["customerId"] == nil)
        }
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        _ = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(merchantReference: String(repeating: "y", count: 32), customerId: nil),
            account: Fixtures.account())
        #expect(try Fixtures.body(host.requests.first)["orderId"] == .string(String(repeating: "y", count: 32)))
    }

    @Test func interfaceVersionAndKeyVersionComeFromTheAccount() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer()])
        _ = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(),
            account: Fixtures.account(options: ["interface_version_inapp": "IR_MB_3.1"], keyVersion: "2"))
        let body = try Fixtures.body(host.requests.first)
        #expect(body["interfaceVersion"] == .string("IR_MB_3.1"))
        #expect(body["keyVersion"] == .integer(2))
        var fields = body
        fields["seal"] = nil
        #expect(body["seal"] == .string(TestSeal.seal(fields)))
    }

    @Test func refusedInitialisations() async throws {
        let cases: [(String, Outcome.Kind, String)] = [
            ("03", .declined, "03"), ("12", .declined, "12"), ("30", .declined, "30"), ("34", .declined, "34"),
            ("99", .unknown, "99"), ("90", .notSent, "90"),
        ]
        for (code, kind, outcomeCode) in cases {
            let host = FakeHost(routes: [
                Self.initRoute: Fixtures.initAnswer(code, extra: ["errorFieldName": .string("amount")])
            ])
            let outcome = try await WorldlineSipsProvider(host: host).authorize(
                Fixtures.authorizeRequest(), account: Fixtures.account())
            #expect(outcome.kind == kind && outcome.code == outcomeCode, "\(code)")
            #expect(outcome.nextAction == nil)
            #expect(host.requests.count == 1)
        }
    }

    @Test func acceptedWithoutRedirectionDataIsUnknown() async throws {
        let host = FakeHost(routes: [Self.initRoute: Fixtures.sealed(["redirectionStatusCode": .string("00")])])
        let outcome = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "unparsable_response")
    }

    // MARK: Duplicate reference

    @Test func duplicateReferenceIsResolvedByAnInquiry() async throws {
        let host = FakeHost(routes: [
            Self.initRoute: Fixtures.initAnswer("94"),
            Self.inquiryRoute: Fixtures.transactionAnswer("TO_VALIDATE", current: 1000),
        ])
        let outcome = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(host.requests.count == 2)
        var expected = Fixtures.common("DR_WS_2.9")
        expected["transactionReference"] = .string(Fixtures.reference)
        try Fixtures.expectSealedRequest(host.requests.last, expected)
        #expect(outcome.kind == .authorized && outcome.amount == 1000)
        #expect(outcome.providerPaymentId == Fixtures.reference && outcome.providerStatus == "TO_VALIDATE")
    }

    @Test func duplicateReferenceWithoutTransactionIsUnknown() async throws {
        let inquiries: [OutboundResult] = [
            Fixtures.transactionAnswer(nil, code: "25"),
            Fixtures.transactionAnswer(nil, code: "90"),
            OutboundResult(kind: .notSent, reason: "refused"),
        ]
        for inquiry in inquiries {
            let host = FakeHost(routes: [Self.initRoute: Fixtures.initAnswer("94"), Self.inquiryRoute: inquiry])
            let outcome = try await WorldlineSipsProvider(host: host).authorize(
                Fixtures.authorizeRequest(), account: Fixtures.account())
            #expect(outcome.kind == .unknown && outcome.code == "duplicate_transaction")
            #expect(outcome.providerPaymentId == Fixtures.reference)
        }
        let host = FakeHost(routes: [
            Self.initRoute: Fixtures.initAnswer("94"), Self.inquiryRoute: Fixtures.transactionAnswer(nil, code: "99"),
        ])
        let outcome = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(outcome.kind == .unknown && outcome.code == "99")
    }

    // MARK: Transport

    @Test func transportFailures() async throws {
        let notSent = FakeHost(routes: [Self.initRoute: OutboundResult(kind: .notSent, reason: "connection refused")])
        let first = try await WorldlineSipsProvider(host: notSent).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(first.kind == .notSent)
        let noResponse = FakeHost(routes: [Self.initRoute: OutboundResult(kind: .noResponse, reason: "read timeout")])
        let second = try await WorldlineSipsProvider(host: noResponse).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account())
        #expect(second.kind == .unknown && second.code == "no_response")
        #expect(second.providerPaymentId == Fixtures.reference)
    }

    // MARK: Refused before sending

    @Test func badRequestsSendNothing() async {
        let cases: [(AuthorizeRequest, String)] = [
            (Fixtures.authorizeRequest(currency: "PHP"), "currency is not supported by Worldline Sips"),
            (
                Fixtures.authorizeRequest(
                    credential: StoredCredential(id: "pm", kind: "wallet_agreement", token: "a:1")),
                "stored credential kind is not supported by Worldline Sips"
            ),
            (
                Fixtures.authorizeRequest(credential: StoredCredential(id: "pm", kind: "card", token: "SECRETTOKEN")),
                "stored card token is not a Sips wallet card"
            ),
            (
                Fixtures.authorizeRequest(credential: StoredCredential(id: "pm", kind: "card", token: "w:")),
                "stored card token is not a Sips wallet card"
            ),
        ]
        for (request, message) in cases {
            let host = FakeHost()
            await #expect(throws: ProviderError(code: "bad_request", message: message)) {
                try await WorldlineSipsProvider(host: host).authorize(request, account: Fixtures.account())
            }
            #expect(host.requests.isEmpty)
        }
        var long = Fixtures.authorizeRequest()
        long.attemptId = "att_" + String(repeating: "a", count: 40)
        let host = FakeHost()
        await #expect(throws: ProviderError.self) {
            try await WorldlineSipsProvider(host: host).authorize(long, account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }
}
