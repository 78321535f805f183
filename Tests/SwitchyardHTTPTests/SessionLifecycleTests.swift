import Foundation
import ProviderSandbox
import SwitchyardCluster
import SwitchyardStore
import TestWaiting
import Testing

/// Client sessions of every provider, seen through one model: live until the provider's expiry (the
/// server's clock is moved forward), then refused with `session_expired`, renewed where the provider
/// allows it, and swept.
@Suite(.serialized)
struct SessionLifecycleTests {
    /// Checks a live payment session, moves the server past its expiry, and checks it is refused.
    func expire(
        _ stack: TestStack, _ clock: TestClock, _ m: TestStack.Merchant, _ created: [String: Any], type: String,
        renewable: Bool
    ) async throws -> String {
        let id = try #require(created["id"] as? String)
        #expect(created["status"] as? String == "requires_action", "\(created)")
        let session = try #require(created["session"] as? [String: Any])
        #expect(session["status"] as? String == "live")
        #expect(session["type"] as? String == type)
        #expect(session["payment"] as? String == id)
        #expect(session["renewable"] as? Bool == renewable)
        let live = try await stack.send(.GET, "/v1/payments/\(id)/session", token: m.apiKey)
        #expect(live.status == 200)
        #expect((live.json["next_action"] as? [String: Any])?["type"] as? String == type)
        let expiresText = try #require(session["expires_at"] as? String)
        let expiresAt = try #require(ISO8601DateFormatter().date(from: expiresText))

        clock.advance(by: expiresAt.timeIntervalSince(clock.now()) + 1)
        let shown = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
        #expect(shown["next_action"] == nil, "an expired session is not handed out")
        #expect((shown["session"] as? [String: Any])?["status"] as? String == "expired")
        let refused = try await stack.send(.GET, "/v1/payments/\(id)/session", token: m.apiKey)
        #expect(refused.status == 410)
        #expect(refused.errorCode == "session_expired")
        return id
    }

    @Test func aWorldlineClientSessionExpiresAndIsRenewed() async throws {
        let clock = TestClock()
        try await TestStack.with(clock: clock) { stack in
            let m = try await stack.worldlineMerchant()
            let flows = WorldlineEndToEndTests()
            let created = try await flows.payment(stack, m)
            let id = try await expire(stack, clock, m, created, type: "worldline_client_session", renewable: true)
            let old = try flows.session(created).clientSessionId
            // The app's late input is refused without reaching the provider.
            let late = try await stack.send(
                .POST, "/v1/payments/\(id)/complete", token: m.apiKey,
                json: ["payment_data": ["encrypted_customer_input": "made-before-expiry"]])
            #expect(late.status == 410)
            #expect(late.errorCode == "session_expired")

            let renewed = try await stack.send(.POST, "/v1/payments/\(id)/session", token: m.apiKey)
            #expect(renewed.status == 200, "\(String(decoding: renewed.body, as: UTF8.self))")
            #expect(renewed.json["status"] as? String == "requires_action")
            #expect((renewed.json["session"] as? [String: Any])?["status"] as? String == "live")
            let fresh = try flows.session(renewed.json).clientSessionId
            #expect(fresh != old)
            let paid = try await flows.complete(stack, m, renewed.json, card: WorldlineDirectTestCard.authorised)
            #expect(paid.status == 200, "\(String(decoding: paid.body, as: UTF8.self))")
            #expect(paid.json["status"] as? String == "succeeded")
            let charges = await stack.sandbox.worldlineDirect.ledger(merchant: TestStack.worldlineMerchant.merchantId)
            #expect(charges.filter { $0.kind == "capture" }.count == 1, "one charge through the renewed session")
            let again = try await stack.send(.POST, "/v1/payments/\(id)/session", token: m.apiKey)
            #expect(again.status == 409)
            #expect(again.errorCode == "no_session")
        }
    }

    @Test func orderBoundSessionsExpireAndAreNotRenewed() async throws {
        let clock = TestClock()
        // The test drives the sweeper itself, so a background pass cannot settle a payment between the
        // clock's move and the checks of its expired session.
        try await TestStack.with(policy: { $0.janitor.pollMs = 600_000 }, clock: clock) { stack in
            let citcon = try await stack.merchant()
            let antom = try await stack.antomMerchant()
            let sips = try await stack.sipsMerchant()
            let cases: [(TestStack.Merchant, [String: Any], String)] = [
                (
                    citcon,
                    ["amount": 1200, "currency": "USD", "country": "US", "method": "alipay", "reference": "c-1"],
                    "citcon_sdk"
                ),
                (
                    antom,
                    [
                        "amount": 1500, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "a-1",
                        "return_url": "https://shop.example/back",
                    ],
                    "antom_payment_session"
                ),
                (
                    sips,
                    ["amount": 1800, "currency": "EUR", "country": "FR", "method": "card", "reference": "s-1"],
                    "sips_inapp"
                ),
            ]
            for (merchant, body, type) in cases {
                let created = try await stack.createPayment(merchant, body)
                let id = try await expire(stack, clock, merchant, created, type: type, renewable: false)
                let renewal = try await stack.send(.POST, "/v1/payments/\(id)/session", token: merchant.apiKey)
                #expect(renewal.status == 409, "\(type)")
                #expect(renewal.errorCode == "session_not_renewable", "\(type)")
                // The sweeper asks the provider what became of it: whatever it says, nothing was paid.
                await stack.runtime.janitor.runOnce()
                let swept = try await stack.send(.GET, "/v1/payments/\(id)", token: merchant.apiKey).json
                let status = swept["status"] as? String ?? "-"
                #expect(["requires_action", "failed", "canceled"].contains(status), "\(type): \(status)")
                #expect(swept["amount_captured"] as? Int == 0)
                #expect(swept["next_action"] == nil)
            }
        }
    }

    @Test func expiredVaultingSessionsAreSweptToExpired() async throws {
        let clock = TestClock()
        try await TestStack.with(clock: clock) { stack in
            let antom = try await stack.antomMerchant()
            let sips = try await stack.sipsMerchant()
            for (merchant, body, type) in [
                (antom, ["return_url": "https://shop.example/vaulted", "country": "SG"], "antom_vaulting_session"),
                (sips, [:], "sips_inapp_wallet"),
            ] as [(TestStack.Merchant, [String: Any], String)] {
                let created = try await stack.send(
                    .POST, "/v1/customers/cust-v/vaulting-sessions", token: merchant.apiKey, json: body)
                #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
                let pm = try #require(created.json["id"] as? String)
                let session = try #require(created.json["session"] as? [String: Any])
                #expect(session["status"] as? String == "live")
                #expect(session["type"] as? String == type)
                #expect(session["payment_method"] as? String == pm)
                #expect(session["customer"] as? String == "cust-v")
                let expiresText = try #require(session["expires_at"] as? String)
                let expiresAt = try #require(ISO8601DateFormatter().date(from: expiresText))
                clock.advance(by: expiresAt.timeIntervalSince(clock.now()) + 1)
                var method: [String: Any] = [:]
                try await Poll.holds("the method settled", within: .seconds(10), every: .milliseconds(100)) {
                    method = try await stack.send(
                        .GET, "/v1/customers/cust-v/payment-methods/\(pm)", token: merchant.apiKey
                    ).json
                    return method["status"] as? String != "pending"
                }
                // The sweeper asks the provider first: Antom reports the session's end itself
                // (`VAULTING_SESSION_EXPIRED`); where the provider has nothing to say, it is marked expired.
                let status = method["status"] as? String
                let code = (method["failure"] as? [String: Any])?["code"] as? String
                if type == "antom_vaulting_session" {
                    #expect(status == "failed" && code == "VAULTING_SESSION_EXPIRED", "\(type): \(method)")
                } else {
                    #expect(status == "expired" && code == "session_expired", "\(type): \(method)")
                }
                #expect(method["next_action"] == nil)
                #expect(method["session"] == nil)
                let events = try await stack.send(.GET, "/v1/events?object=\(pm)", token: merchant.apiKey)
                let types = (events.json["data"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
                #expect(types == ["payment_method.\(status ?? "-")", "payment_method.pending"], "\(types)")
            }
        }
    }

    @Test func aPendingPaymentMethodLeftByAFailoverIsSweptToExpired() async throws {
        try await TestStack.with { stack in
            let closed = "http://127.0.0.1:\(PostgresCluster.freePort())/antom"
            let pair = try await FailoverEndToEndTests.pair(stack, aBaseURL: closed)
            let created = try await stack.createPayment(
                pair.merchant,
                [
                    "amount": 1000, "currency": "PHP", "country": "PH", "method": "gcash", "reference": "save-1",
                    "customer": "cust-f", "save_payment_method": true, "return_url": "https://shop.example/back",
                ])
            let id = try #require(created["id"] as? String)
            let done = try await stack.waitForPayment(id, key: pair.merchant.apiKey) {
                $0["status"] as? String == "succeeded"
            }
            #expect(FailoverEndToEndTests.attempts(done).map { $0["provider_account"] as? String } == [pair.a, pair.b])
            var atA: [String: Any] = [:]
            try await Poll.holds("the method at A expired", within: .seconds(6), every: .milliseconds(100)) {
                let listed = try await stack.send(
                    .GET, "/v1/customers/cust-f/payment-methods", token: pair.merchant.apiKey)
                let methods = listed.json["data"] as? [[String: Any]] ?? []
                atA = methods.first { $0["provider_account"] as? String == pair.a } ?? [:]
                return atA["status"] as? String == "expired"
            }
            #expect(atA["status"] as? String == "expired", "\(atA)")
            #expect((atA["failure"] as? [String: Any])?["code"] as? String == "abandoned")
            #expect(atA["origin_payment"] as? String == id)
        }
    }
}
