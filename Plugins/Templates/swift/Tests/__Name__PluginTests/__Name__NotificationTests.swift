import Foundation
import ProviderKit
import Testing

@testable import __Name__Plugin

@Suite struct __Name__NotificationTests {
    static let body =
        #"{"type":"payment.updated","data":{"id":"pay_123","reference":"att_1","status":"succeeded","amount":1250}}"#

    func notify(_ body: String, signatures: [String]) async throws -> (NotificationResult, FakeHost) {
        let host = FakeHost()
        let headers =
            [HTTPHeader("Content-Type", "application/json")] + signatures.map { HTTPHeader("X-Signature", $0) }
        let request = NotificationRequest(
            method: "POST", path: "/v1/notifications/acct___name___1", headers: headers, body: Data(body.utf8))
        return (try await __Name__Provider(host: host).notification(request, account: Fixtures.account()), host)
    }

    static func sign(_ body: String) -> String {
        __Name__Signing.signature(body: Data(body.utf8), secret: Fixtures.webhookSecret)
    }

    func expectRefused(_ result: NotificationResult, reason: String) {
        #expect(!result.verified)
        #expect(result.events.isEmpty)
        #expect(result.reply.status == 401)
        #expect(result.failureReason == reason)
    }

    @Test func genuineNotificationIsVerifiedAndMapped() async throws {
        let (result, host) = try await notify(Self.body, signatures: [Self.sign(Self.body)])
        #expect(result.verified)
        #expect(result.reply.status == 200)
        let event = try #require(result.events.first)
        #expect(event.subject == .payment)
        #expect(event.reference == "att_1")
        #expect(event.providerPaymentId == "pay_123")
        #expect(event.outcome.kind == .succeeded)
        #expect(event.outcome.amount == 1250)
        #expect(host.requests.isEmpty)
    }

    @Test func forgedSignatureIsRefused() async throws {
        let forged = __Name__Signing.signature(body: Data(Self.body.utf8), secret: "not the secret")
        expectRefused(try await notify(Self.body, signatures: [forged]).0, reason: "signature mismatch")
    }

    @Test func alteredBodyIsRefused() async throws {
        let altered = Self.body.replacingOccurrences(of: "1250", with: "9250")
        expectRefused(try await notify(altered, signatures: [Self.sign(Self.body)]).0, reason: "signature mismatch")
    }

    @Test func missingOrRepeatedSignatureIsRefused() async throws {
        expectRefused(try await notify("{}", signatures: []).0, reason: "missing signature")
        let signature = Self.sign(Self.body)
        expectRefused(
            try await notify(Self.body, signatures: [signature, signature]).0, reason: "repeated signature header")
    }

    @Test func refundEventAndOtherTypes() async throws {
        let refund = #"{"type":"refund.updated","data":{"id":"re_9","reference":"ref_1","status":"failed"}}"#
        let (result, _) = try await notify(refund, signatures: [Self.sign(refund)])
        let event = try #require(result.events.first)
        #expect(event.subject == .refund)
        #expect(event.reference == "ref_1")
        #expect(event.outcome.kind == .declined)
        let other = #"{"type":"customer.created","data":{"id":"cus_1"}}"#
        let (ignored, _) = try await notify(other, signatures: [Self.sign(other)])
        #expect(ignored.verified)
        #expect(ignored.events.isEmpty)
    }

    @Test func noSecretIsLogged() async throws {
        let (_, verified) = try await notify(Self.body, signatures: [Self.sign(Self.body)])
        let (_, refused) = try await notify(Self.body, signatures: ["00"])
        for secret in Fixtures.secrets {
            #expect(!verified.allLoggedText.contains(secret))
            #expect(!refused.allLoggedText.contains(secret))
        }
    }
}
