import Foundation
import ProviderKit
import Testing

@testable import WorldlineDirectPlugin

@Suite struct WorldlineNotificationTests {
    static let vectorBody = Data(#"{"apiVersion":"v1","id":"evt1","type":"payment.captured"}"#.utf8)
    static let vectorSignature = "Rv+PdzasZvdNyQcC/dkfIrT2rCS/lDNa1cTAqlxPGto="

    static func capturedBody(apiVersion: String = "v1") -> Data {
        Data(
            (#"{"apiVersion":"\#(apiVersion)","id":"evt2","created":"2025-11-08T11:06:40.000+0000","#
                + #""merchantId":"MERCH1","type":"payment.captured","payment":"#
                + Fixtures.payment(status: "CAPTURED", code: 9) + "}").utf8)
    }

    static func request(_ body: Data, signature: [String]? = nil, keyIds: [String] = [Fixtures.webhookKeyId])
        -> NotificationRequest
    {
        let signatures =
            signature ?? [WorldlineDirectSigning.webhookSignature(body: body, secret: Fixtures.webhookSecret)]
        let headers =
            signatures.map { HTTPHeader("X-GCS-Signature", $0) } + keyIds.map { HTTPHeader("X-GCS-KeyId", $0) }
            + [HTTPHeader("Content-Type", "application/json")]
        return NotificationRequest(method: "POST", path: "/notifications/acct_wl_1", headers: headers, body: body)
    }

    static func notify(_ request: NotificationRequest, account: AccountContext = Fixtures.account()) async throws
        -> NotificationResult
    {
        try await WorldlineDirectProvider(host: FakeHost()).notification(request, account: account)
    }

    @Test func documentedVectorVerifies() async throws {
        var account = Fixtures.account(webhookKeyId: nil)
        account.credentials["webhook_secret"] = "webhook-secret"
        let result = try await Self.notify(
            Self.request(Self.vectorBody, signature: [Self.vectorSignature], keyIds: ["any-key"]), account: account)
        #expect(result.verified)
        #expect(result.reply.status == 200)
        #expect(result.events.isEmpty)  // payment.captured without a payment object carries nothing to apply
    }

    @Test func verifiedPaymentEventNamesThePaymentByWorldlinesId() async throws {
        let result = try await Self.notify(Self.request(Self.capturedBody()))
        #expect(result.verified && result.reply.status == 200)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1)
        #expect(event.subject == .payment)
        #expect(event.reference == nil)
        #expect(event.providerPaymentId == Fixtures.paymentId)
        #expect(event.outcome.kind == .succeeded && event.outcome.amount == 1250)
    }

    @Test func verifiedRefundEvent() async throws {
        let body = Data(
            (#"{"apiVersion":"v1","id":"e3","type":"refund.refunded","#
                + #""refund":{"id":"r1","status":"REFUNDED","statusOutput":{"statusCode":8},"#
                + #""refundOutput":{"amountOfMoney":{"amount":500,"currencyCode":"EUR"}}}}"#).utf8)
        let result = try await Self.notify(Self.request(body))
        let event = try #require(result.events.first)
        #expect(event.subject == .refund && event.providerPaymentId == "r1" && event.reference == nil)
        #expect(event.outcome.kind == .succeeded && event.outcome.refundedAmount == 500)
    }

    @Test func tamperedBodyIsRejected() async throws {
        let body = Self.capturedBody()
        let signature = WorldlineDirectSigning.webhookSignature(body: body, secret: Fixtures.webhookSecret)
        var tampered = body
        tampered[tampered.startIndex + 20] ^= 0x01
        let result = try await Self.notify(Self.request(tampered, signature: [signature]))
        #expect(!result.verified && result.reply.status == 401 && result.events.isEmpty)
        #expect(result.failureReason == "signature mismatch")
        let wrongSecret = WorldlineDirectSigning.webhookSignature(body: body, secret: "other")
        #expect(try await !Self.notify(Self.request(body, signature: [wrongSecret])).verified)
    }

    @Test func duplicateOrMissingHeadersAreRejected() async throws {
        let body = Self.capturedBody()
        let good = WorldlineDirectSigning.webhookSignature(body: body, secret: Fixtures.webhookSecret)
        let cases: [(NotificationRequest, String)] = [
            (Self.request(body, signature: [good, good]), "repeated signature header"),
            (Self.request(body, signature: []), "missing signature"),
            (Self.request(body, keyIds: [Fixtures.webhookKeyId, Fixtures.webhookKeyId]), "repeated key id header"),
            (Self.request(body, keyIds: []), "missing key id"),
            (Self.request(body, keyIds: ["other-key"]), "unknown key id"),
        ]
        for (request, reason) in cases {
            let result = try await Self.notify(request)
            #expect(!result.verified && result.events.isEmpty && result.failureReason == reason)
        }
        let lower = NotificationRequest(
            method: "POST", path: "/n",
            headers: [
                HTTPHeader("x-gcs-signature", good), HTTPHeader("X-GCS-SIGNATURE", good),
                HTTPHeader("x-gcs-keyid", "whk-1"),
            ],
            body: body)
        #expect(try await Self.notify(lower).failureReason == "repeated signature header")
    }

    @Test func otherApiVersionIsRejected() async throws {
        let result = try await Self.notify(Self.request(Self.capturedBody(apiVersion: "v2")))
        #expect(!result.verified && result.reply.status == 400 && result.events.isEmpty)
    }

    @Test func missingWebhookSecretIsMisconfigured() async {
        var account = Fixtures.account()
        account.credentials["webhook_secret"] = nil
        await #expect(throws: ProviderError.misconfigured("credential webhook_secret is missing")) {
            try await Self.notify(Self.request(Self.capturedBody()), account: account)
        }
    }
}
