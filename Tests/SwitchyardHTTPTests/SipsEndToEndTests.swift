import Foundation
import ProviderSandbox
import SwitchyardCrypto
import Testing

/// Worldline Sips In-App end to end: the live server with the dlopen-loaded plugin, the sandbox playing
/// Sips and the app's InAppSdk (its `/sips/inapp/…` functions called the way the SDK calls them).
@Suite(.serialized)
struct SipsEndToEndTests {
    static let visa = "4100000000000000"
    static let mastercard = "5100000000000000"

    /// Creates a card payment and returns it with its `sips_inapp` next action data.
    static func initPayment(
        _ stack: TestStack, _ m: TestStack.Merchant, amount: Int, reference: String, manual: Bool = false,
        extra: [String: Any] = [:]
    ) async throws -> (id: String, session: [String: Any]) {
        var body: [String: Any] = [
            "amount": amount, "currency": "EUR", "country": "FR", "method": "card", "reference": reference,
        ]
        if manual { body["capture_mode"] = "manual" }
        for (key, value) in extra { body[key] = value }
        let created = try await stack.createPayment(m, body)
        #expect(created["status"] as? String == "requires_action", "\(created)")
        let next = try #require(created["next_action"] as? [String: Any])
        #expect(next["type"] as? String == "sips_inapp")
        #expect(next["expires_at"] is String)
        return (try #require(created["id"] as? String), try #require(next["data"] as? [String: Any]))
    }

    /// The app's InAppSdk call `function` at the init's `redirectionUrl`.
    static func app(
        _ stack: TestStack, _ function: String, session: [String: Any], _ fields: [String: Any]
    ) async throws -> [String: Any] {
        let url = try #require(session["redirectionUrl"] as? String)
        var body = fields
        body["redirectionData"] = session["redirectionData"]
        body["redirectionVersion"] = session["redirectionVersion"]
        let reply = try await stack.send(.POST, "/" + function, json: body, base: url)
        #expect(reply.status == 200)
        return reply.json
    }

    static func cardOrder(_ stack: TestStack, session: [String: Any], card: String = visa) async throws
        -> [String: Any]
    {
        try await app(
            stack, "cardOrder", session: session,
            ["cardNumber": card, "cardExpiryDate": "203012", "cardCSCValue": "123"])
    }

    static func ledger(_ stack: TestStack, _ kind: String) async -> [WorldlineSipsLedgerEntry] {
        await stack.sandbox.sips.ledger(merchant: TestStack.sipsMerchant.merchantId).filter { $0.kind == kind }
    }

    @Test func aCardOrderIsConfirmedServerSideAndSucceeds() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (id, session) = try await Self.initPayment(stack, m, amount: 2500, reference: "sips-1")
            for key in ["redirectionData", "redirectionUrl", "redirectionVersion", "publicKeyValue"] {
                #expect((session[key] as? String)?.isEmpty == false, "next_action carries \(key)")
            }
            #expect(session["sdkOperationName"] as? String == "CARDORDER")
            let order = try await Self.cardOrder(stack, session: session)
            #expect(order["inAppResponseCode"] as? String == "00", "\(order)")
            // The app's word is not enough: the sealed automatic response and getTransactionData decide.
            let done = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect(done["amount_captured"] as? Int == 2500)
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "succeeded")
            let attempts = await stack.sandbox.sips.notificationAttempts()
            #expect(
                attempts.contains { $0.statusCode == 200 && $0.acknowledged }, "the automatic response was acknowledged"
            )
            #expect(await Self.ledger(stack, "charge").map(\.amount) == [2500])
        }
    }

    @Test func aValidationAuthorisationIsCapturedRefundedInPartAndAnotherCancelled() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (id, session) = try await Self.initPayment(stack, m, amount: 3000, reference: "sips-2", manual: true)
            // Without the automatic response, only the server-side confirmation can tell the outcome.
            await stack.sandbox.sips.faults.add([SandboxFault(kind: .dropNotification, count: 1)])
            _ = try await Self.cardOrder(stack, session: session)
            let confirmed = try await stack.send(
                .POST, "/v1/payments/\(id)/complete", token: m.apiKey, json: ["payment_data": [:]])
            #expect(confirmed.json["status"] as? String == "authorized", "\(confirmed.json)")
            let captured = try await stack.send(.POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: [:])
            #expect(captured.json["status"] as? String == "succeeded", "\(captured.json)")
            #expect(captured.json["amount_captured"] as? Int == 3000)
            let refund = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: ["amount": 1000])
            #expect(refund.json["status"] as? String == "succeeded", "\(refund.json)")
            let after = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
            #expect(after.json["amount_refunded"] as? Int == 1000)

            let (other, otherSession) = try await Self.initPayment(
                stack, m, amount: 4000, reference: "sips-3", manual: true)
            _ = try await Self.cardOrder(stack, session: otherSession, card: Self.mastercard)
            _ = try await stack.waitForPayment(other, key: m.apiKey) { $0["status"] as? String == "authorized" }
            let cancelled = try await stack.send(.POST, "/v1/payments/\(other)/cancel", token: m.apiKey)
            #expect(cancelled.json["status"] as? String == "canceled", "\(cancelled.json)")

            #expect(await Self.ledger(stack, "authorization").map(\.amount).sorted() == [3000, 4000])
            #expect(await Self.ledger(stack, "capture").map(\.amount) == [3000])
            #expect(await Self.ledger(stack, "refund").map(\.amount) == [1000])
            #expect(await Self.ledger(stack, "void").map(\.amount) == [4000])
        }
    }

    @Test func aThreeDSecureOrderGoesThroughTheACS() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (id, session) = try await Self.initPayment(
                stack, m, amount: 3100, reference: "sips-3ds", extra: ["payment_data": ["three_d_secure": true]])
            #expect(session["sdkOperationName"] as? String == "THREEDSECUREANDORDER")
            let enrollment = try await Self.app(
                stack, "cardCheckEnrollment", session: session,
                ["cardNumber": "4100000000000101", "cardExpiryDate": "203012", "cardCSCValue": "123"])
            #expect(enrollment["redirectionStatusCode"] as? String == "00", "\(enrollment)")
            let paRes = try await stack.sandbox.sips.authenticate(
                paReqMessage: try #require(enrollment["paReqMessage"] as? String), approve: true)
            let next = try #require(enrollment["redirectionUrl"] as? String)
            let order = try await stack.send(
                .POST, "/cardValidateAuthenticationAndOrder",
                json: [
                    "transactionContextData": enrollment["transactionContextData"] ?? "",
                    "transactionContextVersion": enrollment["transactionContextVersion"] ?? "", "paResMessage": paRes,
                ], base: next)
            #expect(order.json["inAppResponseCode"] as? String == "00", "\(order.json)")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect(await Self.ledger(stack, "charge").map(\.amount) == [3100])
        }
    }

    @Test func aDeclinedCardFails() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (id, session) = try await Self.initPayment(stack, m, amount: 1402, reference: "sips-declined")
            let order = try await Self.cardOrder(stack, session: session)
            #expect(order["inAppResponseCode"] as? String == "05")
            let failed = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "failed" }
            #expect((failed["failure"] as? [String: Any])?["code"] is String)
            #expect(await stack.sandbox.sips.ledger().isEmpty)
        }
    }

    @Test func aCardAddedToTheWalletPaysLaterWithAWalletOrder() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let vaulting = try await stack.send(.POST, "/v1/customers/cust-s/vaulting-sessions", token: m.apiKey)
            #expect(vaulting.status == 201, "\(String(decoding: vaulting.body, as: UTF8.self))")
            let pm = try #require(vaulting.json["id"] as? String)
            let next = try #require(vaulting.json["next_action"] as? [String: Any])
            #expect(next["type"] as? String == "sips_inapp_wallet")
            let walletSession = try #require(next["data"] as? [String: Any])
            #expect(walletSession["sdkOperationName"] as? String == "ADDCARD")
            let added = try await Self.app(
                stack, "addCard", session: walletSession,
                ["cardNumber": Self.mastercard, "cardExpiryDate": "203011", "paymentMeanAlias": "my card"])
            #expect(added["inAppResponseCode"] as? String == "00", "\(added)")

            let synced = try await stack.send(
                .POST, "/v1/customers/cust-s/payment-methods/\(pm)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "active", "\(synced.json)")
            let display = try #require(synced.json["display"] as? [String: Any])
            #expect(display["brand"] as? String == "MASTERCARD")
            #expect(display["expiry_month"] as? Int == 11 || display["expiryMonth"] as? Int == 11)
            #expect(!String(decoding: synced.body, as: UTF8.self).contains(Self.mastercard))

            let payment = try await stack.createPayment(
                m,
                [
                    "amount": 1800, "currency": "EUR", "country": "FR", "reference": "sips-wallet",
                    "customer": "cust-s", "payment_method": pm,
                ])
            let id = try #require(payment["id"] as? String)
            let session = try #require((payment["next_action"] as? [String: Any])?["data"] as? [String: Any])
            #expect(session["sdkOperationName"] as? String == "WALLETORDER")
            let meanId = try #require(session["paymentMeanId"] as? String)
            let order = try await Self.app(stack, "walletOrder", session: session, ["paymentMeanId": meanId])
            #expect(order["inAppResponseCode"] as? String == "00", "\(order)")
            _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == "succeeded" }
            #expect(await Self.ledger(stack, "charge").map(\.amount) == [1800])
        }
    }

    @Test func anAutomaticResponseWithAWrongSealIsRefusedAndChangesNothing() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            let (id, session) = try await Self.initPayment(stack, m, amount: 2100, reference: "sips-forged")
            let reference = try #require(session["transactionReference"] as? String)
            let data =
                "amount=2100|currencyCode=978|merchantId=\(TestStack.sipsMerchant.merchantId)|transactionReference=\(reference)"
                + "|responseCode=00|acquirerResponseCode=00|captureMode=AUTHOR_CAPTURE|keyVersion=1"
            let seal = HMAC.sha256(key: "not-the-secret", message: Array(data.utf8)).map { String(format: "%02x", $0) }
                .joined()
            let form = "Data=\(Self.formEncode(data))&Seal=\(seal)&InterfaceVersion=HP_2.39&Encode="
            let forged = try await stack.send(
                .POST, "/notifications/\(m.accountId)", raw: Data(form.utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(forged.status == 401)
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey)
            #expect(payment.json["status"] as? String == "requires_action")
            #expect(await stack.sandbox.sips.ledger().isEmpty)
        }
    }

    @Test func aNinetyNineAfterSendingIsResolvedBySyncWithOneMovement() async throws {
        try await TestStack.with { stack in
            let m = try await stack.sipsMerchant()
            // The app's order is processed but the app is told 99.
            let (id, session) = try await Self.initPayment(stack, m, amount: 2600, reference: "sips-99-order")
            try await stack.sandbox.sips.respond99(service: "inapp/cardOrder")
            let order = try await Self.cardOrder(stack, session: session)
            #expect(order["inAppResponseCode"] as? String == "99")
            let synced = try await stack.send(.POST, "/v1/payments/\(id)/sync", token: m.apiKey)
            #expect(synced.json["status"] as? String == "succeeded", "\(synced.json)")
            #expect(await Self.ledger(stack, "charge").map(\.amount) == [2600])

            // A capture is processed but answered 99: unknown, then sync finds one capture.
            let (manual, manualSession) = try await Self.initPayment(
                stack, m, amount: 2700, reference: "sips-99-capture", manual: true)
            _ = try await Self.cardOrder(stack, session: manualSession)
            _ = try await stack.waitForPayment(manual, key: m.apiKey) { $0["status"] as? String == "authorized" }
            try await stack.sandbox.sips.respond99(service: "cashManagement/validate")
            let capture = try await stack.send(.POST, "/v1/payments/\(manual)/capture", token: m.apiKey, json: [:])
            #expect(capture.json["status"] as? String == "unknown", "\(capture.json)")
            let resolved = try await stack.send(.POST, "/v1/payments/\(manual)/sync", token: m.apiKey)
            #expect(resolved.json["status"] as? String == "succeeded", "\(resolved.json)")
            #expect(await Self.ledger(stack, "capture").map(\.amount) == [2700], "exactly one capture")
        }
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
