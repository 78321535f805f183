import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomNotificationTests {
    static let ack = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}"#

    static func notify(_ request: NotificationRequest, account: AccountContext = Fixtures.account()) async throws
        -> NotificationResult
    {
        try await AntomProvider(host: FakeHost()).notification(request, account: account)
    }

    static func payment(_ type: String, _ status: String = "S", _ code: String = "SUCCESS") -> String {
        #"{"notifyType":"\#(type)",\#(Fixtures.result(status, code)),"paymentRequestId":"att_1","#
            + #""paymentId":"\#(Fixtures.paymentId)","paymentAmount":{"currency":"PHP","value":"1000"},"#
            + #""paymentCreateTime":"2025-11-08T19:06:40+08:00","paymentTime":"2025-11-08T19:06:41+08:00"}"#
    }

    static func expectAcknowledged(_ result: NotificationResult) {
        #expect(result.verified)
        #expect(result.reply.status == 200)
        #expect(result.reply.body == Self.ack)
        #expect(result.reply.headers == [HTTPHeader("Content-Type", "application/json")])
        #expect(result.failureReason == nil)
    }

    @Test func paymentResultSucceeded() async throws {
        let result = try await Self.notify(Fixtures.notification(Self.payment("PAYMENT_RESULT")))
        Self.expectAcknowledged(result)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1 && result.credentials.isEmpty)
        #expect(
            event.subject == .payment && event.reference == "att_1" && event.providerPaymentId == Fixtures.paymentId)
        #expect(
            event.outcome.kind == .succeeded && event.outcome.amount == 1000 && event.outcome.capturedAmount == nil)
    }

    @Test func paymentPendingAndFailed() async throws {
        let pending = try await Self.notify(Fixtures.notification(Self.payment("PAYMENT_PENDING")))
        Self.expectAcknowledged(pending)
        #expect(pending.events.first?.outcome.kind == .pending)
        let failed = try await Self.notify(
            Fixtures.notification(Self.payment("PAYMENT_RESULT", "F", "USER_BALANCE_NOT_ENOUGH")))
        Self.expectAcknowledged(failed)
        let outcome = try #require(failed.events.first?.outcome)
        #expect(outcome.kind == .declined && outcome.code == "USER_BALANCE_NOT_ENOUGH" && outcome.retryable == false)
        #expect(failed.events.first?.reference == "att_1")
    }

    @Test func captureResultReportsTheCapturedAmount() async throws {
        let body =
            #"{"notifyType":"CAPTURE_RESULT",\#(Fixtures.result()),"captureRequestId":"op_cap_1","captureId":"c1","#
            + #""paymentId":"\#(Fixtures.paymentId)","captureAmount":{"currency":"USD","value":"600"},"#
            + #""captureTime":"2025-11-08T19:06:41+08:00"}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        let event = try #require(result.events.first)
        #expect(event.subject == .payment && event.reference == nil && event.providerPaymentId == Fixtures.paymentId)
        #expect(event.outcome.kind == .succeeded && event.outcome.capturedAmount == 600)
        let failed = body.replacingOccurrences(of: Fixtures.result(), with: Fixtures.result("F", "PROCESS_FAIL"))
        let refused = try await Self.notify(Fixtures.notification(failed))
        Self.expectAcknowledged(refused)
        #expect(refused.events.isEmpty)
    }

    @Test func refundResultNamesOurRefund() async throws {
        func body(_ status: String) -> String {
            #"{"notifyType":"REFUND_RESULT",\#(Fixtures.result()),"refundRequestId":"ref_1","refundId":"rf_9","#
                + #""paymentId":"\#(Fixtures.paymentId)","refundStatus":"\#(status)","#
                + #""refundAmount":{"currency":"USD","value":"400"},"refundTime":"2025-11-08T19:06:41+08:00"}"#
        }
        let result = try await Self.notify(Fixtures.notification(body("SUCCESS")))
        Self.expectAcknowledged(result)
        let event = try #require(result.events.first)
        #expect(event.subject == .refund && event.reference == "ref_1" && event.providerPaymentId == "rf_9")
        #expect(event.outcome.kind == .succeeded && event.outcome.refundedAmount == 400)
        let failed = try await Self.notify(Fixtures.notification(body("FAIL")))
        #expect(failed.events.first?.outcome.kind == .declined)
    }

    @Test func tokenCreatedIsAWalletAgreement() async throws {
        let body =
            #"{"authorizationNotifyType":"TOKEN_CREATED","accessToken":"\#(Fixtures.accessToken)","#
            + #""authState":"auth_state_1","userLoginId":"639171234567","authClientId":"x",\#(Fixtures.result())}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        #expect(result.events.isEmpty)
        let credential = try #require(result.credentials.first)
        #expect(result.credentials.count == 1)
        #expect(credential.kind == .created && credential.correlationId == "auth_state_1")
        #expect(credential.credentialKind == "wallet_agreement" && credential.token == Fixtures.accessToken)
        #expect(credential.paymentMethodType == nil)
        #expect(credential.display == CredentialDisplay(account: "639*****4567"))
    }

    @Test func tokenCreatedKeepsAPaymentMethodTypeWhenSent() async throws {
        let body =
            #"{"authorizationNotifyType":"TOKEN_CREATED","accessToken":"\#(Fixtures.accessToken)","#
            + #""authState":"s","paymentMethodType":"GCASH",\#(Fixtures.result())}"#
        let credential = try #require(try await Self.notify(Fixtures.notification(body)).credentials.first)
        #expect(credential.paymentMethodType == "GCASH" && credential.display == nil)
    }

    @Test func tokenCanceledRevokes() async throws {
        let body =
            #"{"authorizationNotifyType":"TOKEN_CANCELED","accessToken":"\#(Fixtures.accessToken)","#
            + #""authState":"auth_state_1","reason":"user unbound the wallet",\#(Fixtures.result())}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        let credential = try #require(result.credentials.first)
        #expect(credential.kind == .revoked && credential.token == Fixtures.accessToken)
        #expect(credential.correlationId == "auth_state_1" && credential.message == "user unbound the wallet")
        #expect(credential.credentialKind == "wallet_agreement")
    }

    @Test func authCodeCreatedIsAcknowledgedAndIgnored() async throws {
        let body =
            #"{"authorizationNotifyType":"AUTHCODE_CREATED","authCode":"ac","authState":"s",\#(Fixtures.result())}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        #expect(result.events.isEmpty && result.credentials.isEmpty)
    }

    @Test func vaultingResultCreatesACard() async throws {
        let body =
            #"{"notifyType":"VAULTING_RESULT",\#(Fixtures.result()),"vaultingRequestId":"vault_1","#
            + #""paymentMethodDetail":{"paymentMethodType":"CARD","card":{"cardToken":"\#(Fixtures.cardToken)","#
            + #""maskedCardNo":"************0768","brand":"VISA","expiryYear":"29","expiryMonth":"03","#
            + #""lastFour":"0768","fingerprint":"ab12"}},"vaultingCreateTime":"2025-11-08T19:06:41+08:00"}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        let credential = try #require(result.credentials.first)
        #expect(credential.kind == .created && credential.correlationId == "vault_1")
        #expect(credential.credentialKind == "card" && credential.token == Fixtures.cardToken)
        #expect(credential.paymentMethodType == "CARD")
        #expect(
            credential.display
                == CredentialDisplay(
                    brand: "VISA", last4: "0768", masked: "************0768", expiryMonth: 3, expiryYear: 2029))
    }

    @Test func vaultingFailureIsAFailedCredential() async throws {
        let body =
            #"{"notifyType":"VAULTING_RESULT",\#(Fixtures.result("F", "RISK_REJECT")),"vaultingRequestId":"vault_2"}"#
        let result = try await Self.notify(Fixtures.notification(body))
        Self.expectAcknowledged(result)
        let credential = try #require(result.credentials.first)
        #expect(credential.kind == .failed && credential.correlationId == "vault_2" && credential.code == "RISK_REJECT")
        #expect(credential.token == nil)
    }

    @Test func unknownKindsAndUnreadableBodiesAreAcknowledged() async throws {
        for body in [#"{"notifyType":"OFFLINE_PAYMENT_CODE","result":{"resultStatus":"S"}}"#, "{}", "not json"] {
            let result = try await Self.notify(Fixtures.notification(body))
            Self.expectAcknowledged(result)
            #expect(result.events.isEmpty && result.credentials.isEmpty, "\(body)")
        }
    }
}
