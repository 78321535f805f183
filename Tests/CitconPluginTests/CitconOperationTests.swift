import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconOperationTests {
    static let chargeId = "2025110912345678901234"

    func provider(_ routes: [String: OutboundResult]) -> (CitconProvider, FakeHost) {
        let host = FakeHost(routes: routes)
        return (CitconProvider(host: host), host)
    }

    func expectServerRequest(_ request: OutboundRequest?, method: String, path: String) throws {
        let request = try #require(request)
        #expect(request.method == method)
        #expect(request.url == Fixtures.baseURL + path)
        #expect(request.headers.contains(HTTPHeader("Authorization", "Bearer " + Fixtures.serverToken)))
        #expect(request.headers.contains(HTTPHeader("Content-Type", "application/json")))
        #expect(request.redactHeaders.contains("Authorization"))
        #expect(request.timeoutMs == nil)
    }

    // MARK: Capture

    @Test func captureRequestAndOutcome() async throws {
        let data =
            #"{"id":"cap_77","object":"capture","reference":"op_cap","transaction_id":"\#(Self.chargeId)","#
            + #""amount":1000,"currency":"USD","status":"succeeded"}"#
        let (provider, host) = provider(["POST /v1/captures": Fixtures.success(data)])
        let request = CaptureRequest(
            payment: Fixtures.locator, operationId: "op_cap", amount: 1000, currency: "USD", isFinal: true)
        let outcome = try await provider.capture(request, account: Fixtures.account())
        try expectServerRequest(host.requests.first, method: "POST", path: "/v1/captures")
        #expect(
            try Fixtures.json(host.requests.first)
                == .object([
                    "id": .string(Self.chargeId), "reference": .string("op_cap"), "amount": .integer(1000),
                ]))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == "cap_77")
        #expect(outcome.amount == 1000)
    }

    @Test func captureDeclinedWithCitconsCode() async throws {
        let (provider, _) = provider(["POST /v1/captures": Fixtures.fail(code: "4203", message: "amount too large")])
        let request = CaptureRequest(
            payment: Fixtures.locator, operationId: "op", amount: 9999, currency: "USD", isFinal: true)
        let outcome = try await provider.capture(request, account: Fixtures.account())
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "4203")
    }

    @Test func captureWithoutChargeIdIsRefusedWithoutARequest() async throws {
        let (provider, host) = provider([:])
        let request = CaptureRequest(
            payment: PaymentLocator(attemptId: "att_1", providerPaymentId: nil), operationId: "op", amount: 1,
            currency: "USD", isFinal: true
        )
        await #expect(throws: ProviderError.self) {
            _ = try await provider.capture(request, account: Fixtures.account())
        }
        #expect(host.requests.isEmpty)
    }

    // MARK: Void

    @Test func voidRequestAndOutcome() async throws {
        let data =
            #"{"id":"cnl_5","object":"cancel","reference":"op_void","amount":1250,"currency":"USD","#
            + #""status":"canceled"}"#
        let (provider, host) = provider(["POST /v1/cancels": Fixtures.success(data)])
        let outcome = try await provider.void(
            VoidRequest(payment: Fixtures.locator, operationId: "op_void"), account: Fixtures.account())
        try expectServerRequest(host.requests.first, method: "POST", path: "/v1/cancels")
        #expect(
            try Fixtures.json(host.requests.first)
                == .object([
                    "id": .string(Self.chargeId), "reference": .string("op_void"),
                    "transaction_reference": .string("att_1"),
                ]))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == "cnl_5")
        #expect(outcome.providerStatus == "canceled")
    }

    @Test func voidOfACapturedChargeIsDeclined() async throws {
        let (provider, _) = provider(["POST /v1/cancels": Fixtures.fail(code: "4205", message: "already captured")])
        let outcome = try await provider.void(
            VoidRequest(payment: Fixtures.locator, operationId: "op"), account: Fixtures.account())
        #expect(outcome.kind == .declined)
        #expect(outcome.code == "4205")
    }

    // MARK: Refund

    @Test func refundRequestAndOutcome() async throws {
        let data =
            #"{"id":"rf_9","object":"refund","reference":"rf_1","amount":500,"amount_refunded":700,"#
            + #""currency":"USD","status":"succeeded","time_created":1,"time_completed":2}"#
        let (provider, host) = provider(["POST /v1/refunds": Fixtures.success(data)])
        let request = RefundRequest(
            payment: Fixtures.locator, refundId: "rf_1", amount: 500, currency: "USD", reason: "damaged")
        let outcome = try await provider.refund(request, account: Fixtures.account())
        try expectServerRequest(host.requests.first, method: "POST", path: "/v1/refunds")
        #expect(
            try Fixtures.json(host.requests.first)
                == .object([
                    "id": .string(Self.chargeId), "reference": .string("rf_1"), "amount": .integer(500),
                    "note": .string("damaged"),
                ]))
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == "rf_9")
        #expect(outcome.amount == 500)
        #expect(outcome.refundedAmount == 700)
    }

    @Test func refundWithoutReasonHasNoNote() async throws {
        let (provider, host) = provider(["POST /v1/refunds": Fixtures.success(#"{"id":"rf_9","status":"succeeded"}"#)])
        let request = RefundRequest(payment: Fixtures.locator, refundId: "rf_1", amount: 500, currency: "USD")
        _ = try await provider.refund(request, account: Fixtures.account())
        #expect(try Fixtures.json(host.requests.first)["note"] == nil)
    }

    @Test func operationFailuresAreClassified() async throws {
        let cases: [(OutboundResult, Outcome.Kind, String?)] = [
            (OutboundResult(kind: .notSent, reason: "refused"), .notSent, "not_sent"),
            (OutboundResult(kind: .noResponse, reason: "reset"), .unknown, "no_response"),
            (OutboundResult(kind: .response, status: 500), .unknown, "http_500"),
            (Fixtures.fail(code: "4010", message: "expired", status: 401), .authExpired, "auth_expired"),
            (Fixtures.fail(code: "4206", message: "not captured"), .declined, "4206"),
            (Fixtures.fail(code: "4208", message: "too much"), .declined, "4208"),
            (Fixtures.fail(code: "4100", message: "duplicate request"), .unknown, "4100"),
            (Fixtures.success(#"{"id":"rf_9","status":"failed"}"#), .declined, "operation_failed"),
            (Fixtures.success(#"{"id":"rf_9","status":"pending"}"#), .pending, nil),
            (Fixtures.success(#"{"id":"rf_9","status":"mystery"}"#), .unknown, "unrecognised_status"),
            (OutboundResult(kind: .response, status: 200, body: Data("[]".utf8)), .unknown, "unparsable_response"),
        ]
        for (answer, kind, code) in cases {
            let (provider, _) = provider(["POST /v1/refunds": answer])
            let request = RefundRequest(payment: Fixtures.locator, refundId: "rf_1", amount: 500, currency: "USD")
            let outcome = try await provider.refund(request, account: Fixtures.account())
            #expect(outcome.kind == kind)
            #expect(outcome.code == code)
        }
    }

    @Test func operationsWithoutATokenAskForOne() async throws {
        let (provider, host) = provider([:])
        let account = Fixtures.account(token: nil)
        let capture = CaptureRequest(
            payment: Fixtures.locator, operationId: "op", amount: 1, currency: "USD", isFinal: true)
        #expect(try await provider.capture(capture, account: account).kind == .authExpired)
        #expect(
            try await provider.void(VoidRequest(payment: Fixtures.locator, operationId: "op"), account: account).kind
                == .authExpired)
        let refund = RefundRequest(payment: Fixtures.locator, refundId: "rf", amount: 1, currency: "USD")
        #expect(try await provider.refund(refund, account: account).kind == .authExpired)
        #expect(try await provider.sync(SyncRequest(payment: Fixtures.locator), account: account).kind == .authExpired)
        #expect(host.requests.isEmpty)
    }

    // MARK: Sync

    @Test func syncByCitconsIdMapsStatusAndAmounts() async throws {
        let data =
            #"{"id":"\#(Self.chargeId)","object":"charge","reference":"att_1","amount":1250,"currency":"USD","#
            + #""country":"US","status":"captured","auto_capture":false,"amount_captured":1250,"#
            + #""amount_refunded":300,"time_created":1,"time_captured":2,"time_canceled":null,"#
            + #""payment":{"method":"alipay"}}"#
        let (provider, host) = provider(["GET /v1/transactions/\(Self.chargeId)": Fixtures.success(data)])
        let outcome = try await provider.sync(SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        try expectServerRequest(host.requests.first, method: "GET", path: "/v1/transactions/\(Self.chargeId)")
        #expect(host.requests.first?.body == nil)
        #expect(outcome.kind == .succeeded)
        #expect(outcome.providerPaymentId == Self.chargeId)
        #expect(outcome.providerStatus == "captured")
        #expect(outcome.amount == 1250)
        #expect(outcome.capturedAmount == 1250)
        #expect(outcome.refundedAmount == 300)
    }

    @Test func syncByOurReferenceWhenTheIdIsUnknown() async throws {
        let data = #"{"id":"c1","reference":"att 1/x","status":"authorized","amount":1250,"amount_captured":0}"#
        let (provider, host) = provider(["GET /v1/transactions/att%201%2Fx": Fixtures.success(data)])
        let locator = PaymentLocator(attemptId: "att 1/x", providerPaymentId: nil)
        let outcome = try await provider.sync(SyncRequest(payment: locator), account: Fixtures.account())
        #expect(host.requests.first?.url == Fixtures.baseURL + "/v1/transactions/att%201%2Fx")
        #expect(outcome.kind == .authorized)
        #expect(outcome.capturedAmount == 0)
    }

    @Test(arguments: [
        ("success", Outcome.Kind.succeeded), ("fail", .declined), ("cancelled", .canceled),
        ("expired", .canceled), ("weird", .unknown),
    ])
    func syncStatuses(status: String, kind: Outcome.Kind) async throws {
        let (provider, _) = provider([
            "GET /v1/transactions/\(Self.chargeId)": Fixtures.success(
                #"{"id":"\#(Self.chargeId)","status":"\#(status)"}"#)
        ])
        let outcome = try await provider.sync(SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == kind)
        #expect(outcome.providerStatus == status)
    }

    @Test func syncNotFoundByCitconsIdIsUnknown() async throws {
        let (provider, _) = provider([
            "GET /v1/transactions/\(Self.chargeId)": Fixtures.fail(code: "4004", message: "not found", status: 404)
        ])
        let outcome = try await provider.sync(SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        #expect(outcome.kind == .unknown)
        #expect(outcome.code == "not_found")
    }
}
