import Foundation
import Hummingbird
import ProviderSandbox
import SwitchyardCore
import SwitchyardStore
import Testing

@testable import SwitchyardHTTP

/// What the operations on a payment do when their `Idempotency-Key` is taken over after a crash.
@Suite(.serialized) struct IdempotencyResumeTests {
    static let lease = IdempotencyLeaseTests.lease

    static func key(_ route: String, _ id: String, _ key: String, _ body: [String: Any]) throws -> (String, String) {
        let scoped = IdempotencyGate.scopedKey(
            method: .post, route: route, parameters: ["id": Substring(id)], key: key)
        return (scoped, JSONBody(try JSONSerialization.data(withJSONObject: body)).requestHash)
    }

    /// A Citcon payment paid by the app, in `expected` status.
    static func paid(_ stack: TestStack, _ m: TestStack.Merchant, capture: String, expected: String) async throws
        -> String
    {
        let flows = CitconEndToEndTests()
        let created = try await flows.payment(stack, m, amount: 5000, capture: capture)
        let id = try #require(created["id"] as? String)
        _ = try await stack.sandbox.citcon.confirm(chargeToken: try flows.chargeToken(created), method: "alipay")
        _ = try await stack.waitForPayment(id, key: m.apiKey) { $0["status"] as? String == expected }
        return id
    }

    @Test func aRefundTakenOverReturnsTheRecordedRefundAndNeverRefundsTwice() async throws {
        try await IdempotencyLeaseTests.withLeaseStack { stack, clock in
            let m = try await stack.merchant()
            let tenant = try #require(UUID(uuidString: m.tenantId))
            let store = stack.runtime.store
            let id = try await Self.paid(stack, m, capture: "automatic", expected: "succeeded")
            let body: [String: Any] = ["amount": 1000]
            let (scoped, hash) = try Self.key("/v1/payments/{id}/refunds", id, "refund-crash", body)
            #expect(
                try await store.idempotencyKeys.claimIdempotent(
                    tenant: tenant, key: scoped, requestHash: hash, owner: "crashed-owner", lease: Self.lease)
                    == .proceed)
            // The first request refunds at the provider (recording the refund under its key), then dies before
            // storing its answer.
            let refund = try await stack.runtime.service.refund(
                tenant: tenant, paymentId: id, amount: 1000, reason: nil,
                idempotency: IdempotencyScope(
                    tenant: tenant, key: scoped, requestHash: hash, owner: "crashed-owner", lease: Self.lease))

            clock.advance(by: Self.lease + 1)
            let retry = try await stack.send(
                .POST, "/v1/payments/\(id)/refunds", token: m.apiKey, json: body,
                headers: ["Idempotency-Key": "refund-crash"])
            #expect(retry.status == 201, "\(String(decoding: retry.body, as: UTF8.self))")
            #expect(retry.json["id"] as? String == refund.id)
            let payment = try await stack.send(.GET, "/v1/payments/\(id)", token: m.apiKey).json
            #expect((payment["refunds"] as? [Any])?.count == 1)
            #expect(payment["amount_refunded"] as? Int == 1000)
            let refunds = await stack.sandbox.citcon.ledger().filter { $0.kind == .refund }
            #expect(refunds.map(\.amount) == [1000])
        }
    }

    @Test func aCaptureTakenOverAnswersThePaymentAsItIsWithoutCapturing() async throws {
        try await IdempotencyLeaseTests.withLeaseStack { stack, clock in
            let m = try await stack.merchant()
            let tenant = try #require(UUID(uuidString: m.tenantId))
            let id = try await Self.paid(stack, m, capture: "manual", expected: "authorized")
            let body: [String: Any] = ["amount": 5000]
            let (scoped, hash) = try Self.key("/v1/payments/{id}/capture", id, "capture-crash", body)
            _ = try await stack.runtime.store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: scoped, requestHash: hash, owner: "crashed-owner", lease: Self.lease)

            clock.advance(by: Self.lease + 1)
            let retry = try await stack.send(
                .POST, "/v1/payments/\(id)/capture", token: m.apiKey, json: body,
                headers: ["Idempotency-Key": "capture-crash"])
            #expect(retry.status == 200, "\(String(decoding: retry.body, as: UTF8.self))")
            #expect(retry.json["id"] as? String == id)
            #expect(retry.json["status"] as? String == "authorized")
            #expect(await stack.sandbox.citcon.ledger().filter { $0.kind == .capture }.isEmpty)
        }
    }

    @Test func ofConcurrentRetriesAfterTheLeaseExactlyOneTakesOver() async throws {
        try await IdempotencyLeaseTests.withLeaseStack { stack, clock in
            let m = try await stack.merchant()
            let tenant = try #require(UUID(uuidString: m.tenantId))
            let store = stack.runtime.store
            _ = try await store.idempotencyKeys.claimIdempotent(
                tenant: tenant, key: "k", requestHash: "h", owner: "crashed-owner", lease: Self.lease)
            _ = try await store.idempotencyKeys.linkIdempotent(
                tenant: tenant, key: "k", owner: "crashed-owner", resourceId: "pay_1")
            clock.advance(by: Self.lease + 1)
            let claims = try await withThrowingTaskGroup(of: IdempotencyClaim.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        try await store.idempotencyKeys.claimIdempotent(
                            tenant: tenant, key: "k", requestHash: "h", owner: "retry-\(index)", lease: Self.lease)
                    }
                }
                return try await group.reduce(into: [IdempotencyClaim]()) { $0.append($1) }
            }
            #expect(claims.filter { $0 == .resume(resourceId: "pay_1") }.count == 1)
            #expect(claims.filter { if case .held = $0 { true } else { false } }.count == 9)
        }
    }
}
