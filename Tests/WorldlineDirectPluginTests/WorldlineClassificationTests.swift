import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineClassificationTests {
    static func classify(_ result: OutboundResult, call: WorldlineCall = .createPayment) -> Outcome? {
        switch WorldlineDirectMapping.classify(result, call: call, as: WorldlineCreatePaymentResponse.self) {
        case .success: return nil
        case .outcome(let outcome): return outcome
        }
    }

    static let retriable = Fixtures.error(code: "20000000", retriable: true)

    static let table: [(String, OutboundResult, Outcome.Kind, String?)] = [
        ("transport not sent", OutboundResult(kind: .notSent, reason: "refused"), .notSent, "not_sent"),
        ("no response", OutboundResult(kind: .noResponse, reason: "timeout"), .unknown, "no_response"),
        ("500", Fixtures.json(Fixtures.error(code: "50001000", http: 500), status: 500), .unknown, "50001000"),
        (
            "500 retriable", Fixtures.json(Fixtures.error(code: "1", retriable: true, http: 500), status: 500),
            .unknown, "1"
        ),
        ("504 no body", OutboundResult(kind: .response, status: 504), .unknown, "http_504"),
        (
            "503 retriable", Fixtures.json(Fixtures.error(code: "9", retriable: true, http: 503), status: 503),
            .notSent, "9"
        ),
        ("502 not retriable", Fixtures.json(Fixtures.error(code: "8", http: 502), status: 502), .unknown, "8"),
        ("400 retriable", Fixtures.json(retriable, status: 400), .notSent, "20000000"),
        (
            "409 in progress", Fixtures.json(Fixtures.error(code: "30001002", http: 409), status: 409), .unknown,
            "in_progress"
        ),
        ("409 other", Fixtures.json(Fixtures.error(code: "30001003", http: 409), status: 409), .declined, "30001003"),
        ("400 validation", Fixtures.json(Fixtures.error(code: "50001111"), status: 400), .declined, "50001111"),
        ("403 auth", Fixtures.json(Fixtures.error(code: "9002", http: 403), status: 403), .declined, "9002"),
        ("404 html", OutboundResult(kind: .response, status: 404, body: Data("<html>".utf8)), .declined, "http_404"),
        (
            "2xx unreadable", OutboundResult(kind: .response, status: 201, body: Data("nope".utf8)), .unknown,
            "unparsable_response"
        ),
    ]

    @Test(arguments: table) func classifies(name: String, result: OutboundResult, kind: Outcome.Kind, code: String?) {
        let outcome = Self.classify(result)
        #expect(outcome?.kind == kind, "\(name)")
        #expect(outcome?.code == code, "\(name)")
    }

    @Test func declinesFromValidationAreNotRetryable() throws {
        let outcome = try #require(
            Self.classify(
                Fixtures.json(
                    #"{"errors":[{"errorCode":"5","propertyName":"order.amountOfMoney","retriable":false}]}"#,
                    status: 400)))
        #expect(outcome.kind == .declined && outcome.retryable == false)
        #expect(outcome.message?.contains("order.amountOfMoney") == true)
    }

    @Test func retriableWithAPaymentIdIsNotNotSent() throws {
        let extra = #","paymentResult":{"payment":\#(Fixtures.payment(status: "REDIRECTED", code: 46))}"#
        let outcome = try #require(
            Self.classify(Fixtures.json(Fixtures.error(code: "1", retriable: true, extra: extra), status: 400)))
        #expect(outcome.kind == .pending && outcome.providerPaymentId == Fixtures.paymentId)
    }

    @Test func mixedRetriableErrorsAreNotNotSent() throws {
        let body = #"{"errors":[{"errorCode":"1","retriable":true},{"errorCode":"2","retriable":false}]}"#
        #expect(Self.classify(Fixtures.json(body, status: 400))?.kind == .declined)
    }

    @Test func inquiryFailuresAreUnknown() {
        let notFound = Self.classify(
            Fixtures.json(Fixtures.error(code: "4", http: 404), status: 404), call: .getPayment)
        #expect(notFound?.kind == .unknown && notFound?.code == "not_found")
        let forbidden = Self.classify(
            Fixtures.json(Fixtures.error(code: "9002", http: 403), status: 403), call: .getPayment)
        #expect(forbidden?.kind == .unknown && forbidden?.code == "9002")
    }

    @Test func successDecodes() {
        let result = WorldlineDirectMapping.classify(
            Fixtures.json(#"{"payment":{"id":"p1","status":"CAPTURED"}}"#, status: 201), call: .createPayment,
            as: WorldlineCreatePaymentResponse.self)
        guard case .success(let response) = result else {
            Issue.record("expected success")
            return
        }
        #expect(response.payment?.id == "p1")
    }
}
