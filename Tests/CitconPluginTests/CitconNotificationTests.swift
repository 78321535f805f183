import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

@Suite struct CitconNotificationTests {
    func notify(
        _ body: String, contentType: String?, account: AccountContext = Fixtures.account()
    ) async throws -> (NotificationResult, FakeHost) {
        let host = FakeHost()
        let headers = contentType.map { [HTTPHeader("Content-Type", $0)] } ?? []
        let request = NotificationRequest(
            method: "POST", path: "/notifications/acct_citcon_1", headers: headers, body: Data(body.utf8))
        return (try await CitconProvider(host: host).notification(request, account: account), host)
    }

    func expectCapturedCharge(_ result: NotificationResult) throws {
        #expect(result.verified)
        #expect(result.reply.status == 200)
        #expect(result.reply.body == "success")
        #expect(result.failureReason == nil)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1)
        #expect(event.subject == .payment)
        #expect(event.reference == "att_01 x+y")
        #expect(event.providerPaymentId == "2025110912345678901234")
        #expect(event.outcome.kind == .succeeded)
        #expect(event.outcome.providerStatus == "captured")
        #expect(event.outcome.amount == 1250)
        #expect(event.outcome.capturedAmount == 1250)
        #expect(event.outcome.refundedAmount == 0)
    }

    @Test func formIPNIsVerifiedAndMapped() async throws {
        let (result, host) = try await notify(
            CitconIPNSamples.chargeForm, contentType: "application/x-www-form-urlencoded")
        try expectCapturedCharge(result)
        #expect(host.requests.isEmpty)
    }

    @Test func jsonIPNIsVerifiedAndMapped() async throws {
        let (result, _) = try await notify(CitconIPNSamples.chargeJSON, contentType: "application/json")
        try expectCapturedCharge(result)
    }

    @Test func bodyWithoutContentTypeIsSniffed() async throws {
        try expectCapturedCharge(try await notify(CitconIPNSamples.chargeForm, contentType: nil).0)
        try expectCapturedCharge(try await notify(CitconIPNSamples.chargeJSON, contentType: nil).0)
    }

    @Test func refundIPNIsARefundEvent() async throws {
        let (result, _) = try await notify(
            CitconIPNSamples.refundForm, contentType: "application/x-www-form-urlencoded")
        #expect(result.verified)
        let event = try #require(result.events.first)
        #expect(event.subject == .refund)
        #expect(event.reference == "rf_1")
        #expect(event.providerPaymentId == "9001")
        #expect(event.outcome.kind == .succeeded)
        #expect(event.outcome.amount == 500)
        #expect(event.outcome.refundedAmount == 500)
    }

    @Test(arguments: [
        ("amount=1250", "amount=1"), ("status=captured", "status=cancelled"),
        ("reference=att_01+x%2By", "reference=att_02"),
        ("time_completed=", "time_completed=1"),
    ])
    func tamperedFieldIsRejected(original: String, replacement: String) async throws {
        let body = CitconIPNSamples.chargeForm.replacingOccurrences(of: original, with: replacement)
        #expect(body != CitconIPNSamples.chargeForm)
        let (result, _) = try await notify(body, contentType: "application/x-www-form-urlencoded")
        #expect(!result.verified)
        #expect(result.reply.status == 401)
        #expect(result.events.isEmpty)
        #expect(result.failureReason == "signature mismatch")
    }

    @Test func tamperedJSONIsRejected() async throws {
        let body = CitconIPNSamples.chargeJSON.replacingOccurrences(of: #""amount":1250"#, with: #""amount":"1250.0""#)
        let (result, _) = try await notify(body, contentType: "application/json")
        #expect(!result.verified)
        #expect(result.events.isEmpty)
    }

    @Test func missingSignIsRejected() async throws {
        let body = CitconIPNSamples.chargeForm.replacingOccurrences(
            of: "&sign=" + CitconIPNSamples.chargeSign, with: "")
        let (result, _) = try await notify(body, contentType: "application/x-www-form-urlencoded")
        #expect(!result.verified)
        #expect(result.reply.status == 401)
        #expect(result.events.isEmpty)
        #expect(result.failureReason == "missing sign")
    }

    @Test func wrongSecretIsRejected() async throws {
        var account = Fixtures.account()
        account.credentials["ipn_secret"] = "another-secret"
        let (result, _) = try await notify(CitconIPNSamples.chargeForm, contentType: nil, account: account)
        #expect(!result.verified)
        #expect(result.events.isEmpty)
    }

    @Test func unsignedStatusIsNeverTrusted() async throws {
        // Genuinely signed for `id` and `reference` only (secret `s`), with an unsigned status added.
        let body =
            "id=1&reference=r&status=success&fields=id%2Creference"
            + "&sign=881eeac1249f3ad024881d148a0ef9317d993fb03860e6ffcc81a05311918614"
        var account = Fixtures.account()
        account.credentials["ipn_secret"] = "s"
        let (result, _) = try await notify(body, contentType: nil, account: account)
        #expect(!result.verified)
        #expect(result.events.isEmpty)
        #expect(result.failureReason == "status not signed")
    }

    @Test func unreadableBodyIsRejected() async throws {
        let (result, _) = try await notify("{not json", contentType: "application/json")
        #expect(!result.verified)
        #expect(result.reply.status == 401)
        #expect(result.failureReason == "unreadable body")
    }

    @Test func missingIPNSecretIsMisconfigured() async {
        var account = Fixtures.account()
        account.credentials["ipn_secret"] = nil
        await #expect(throws: ProviderError.misconfigured("credential ipn_secret is missing")) {
            _ = try await notify(CitconIPNSamples.chargeForm, contentType: nil, account: account)
        }
    }

    @Test(arguments: [
        ("authorized", Outcome.Kind.authorized), ("success", .succeeded), ("cancelled", .canceled), ("fail", .declined),
    ])
    func ipnStatusesAreMapped(status: String, kind: Outcome.Kind) throws {
        let event = try #require(
            CitconMapping.ipnEvent(signed: ["status": status, "transaction_type": "charge", "id": "1"]))
        #expect(event.outcome.kind == kind)
        #expect(event.outcome.providerStatus == status)
    }

    @Test func failedRefundAndOtherTypes() throws {
        let refund = try #require(CitconMapping.ipnEvent(signed: ["status": "fail", "transaction_type": "refund"]))
        #expect(refund.subject == .refund)
        #expect(refund.outcome.kind == .declined)
        #expect(refund.outcome.code == "refund_failed")
        let chargeback = try #require(
            CitconMapping.ipnEvent(signed: ["status": "Lost", "transaction_type": "chargeback"]))
        #expect(chargeback.subject == .other)
        #expect(chargeback.outcome.kind == .unknown)
    }
}
