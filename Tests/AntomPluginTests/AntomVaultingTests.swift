import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomVaultingTests {
    static let sessionAnswer =
        #"{\#(Fixtures.result()),"vaultingSessionData":"VS+data/abc==","vaultingSessionId":"vs_1","#
        + #""vaultingSessionExpiryTime":"2025-11-08T11:36:40+00:00","normalUrl":"https://vault.test/bind?id=vs_1"}"#

    static func host(_ call: String, _ answer: String) -> FakeHost {
        FakeHost(routes: [Fixtures.route(call): Fixtures.signed(call, answer)])
    }

    @Test func sessionRequestAndNextAction() async throws {
        let host = Self.host("vaults/createVaultingSession", Self.sessionAnswer)
        let result = try await AntomProvider(host: host).vaultingSession(
            VaultingSessionRequest(
                vaultingId: "vault_1", customerId: "cust_7", returnURL: "myapp://vault", country: "sg"),
            account: Fixtures.account(options: ["merchant_region": "PH"]))
        #expect(
            try Fixtures.body(host.requests.first)
                == .object([
                    "paymentMethodType": .string("CARD"), "vaultingRequestId": .string("vault_1"),
                    "vaultingNotificationUrl": .string(Fixtures.notificationURL),
                    "redirectUrl": .string("myapp://vault"), "merchantRegion": .string("SG"),
                ]))
        #expect(result.outcome.kind == .pending)
        let action = try #require(result.outcome.nextAction)
        #expect(action.type == "antom_vaulting_session")
        #expect(
            action.data
                == [
                    "vaultingSessionData": .string("VS+data/abc=="), "vaultingSessionId": .string("vs_1"),
                    "vaultingSessionExpiryTime": .string("2025-11-08T11:36:40+00:00"),
                    "normalUrl": .string("https://vault.test/bind?id=vs_1"),
                ])
        #expect(action.expiresAt == Fixtures.now.addingTimeInterval(1_800))
    }

    @Test func sessionDefaultsToTheAccountReturnURLAndRegion() async throws {
        let host = Self.host("vaults/createVaultingSession", Self.sessionAnswer)
        _ = try await AntomProvider(host: host).vaultingSession(
            VaultingSessionRequest(vaultingId: "vault_1", customerId: "cust_7"),
            account: Fixtures.account(options: ["merchant_region": "PH", "return_url": "https://shop.example/r"]))
        let body = try Fixtures.body(host.requests.first)
        #expect(body["redirectUrl"] == .string("https://shop.example/r"), "never the notification URL")
        #expect(body["merchantRegion"] == .string("PH"))
        let plain = Self.host("vaults/createVaultingSession", Self.sessionAnswer)
        _ = try await AntomProvider(host: plain).vaultingSession(
            VaultingSessionRequest(vaultingId: "vault_1", customerId: "cust_7", returnURL: "myapp://vault"),
            account: Fixtures.account())
        #expect(try Fixtures.body(plain.requests.first)["merchantRegion"] == nil)
    }

    @Test func sessionFailuresAreClassified() async throws {
        let refused = Self.host("vaults/createVaultingSession", "{\(Fixtures.result("F", "PARAM_ILLEGAL"))}")
        let result = try await AntomProvider(host: refused).vaultingSession(
            VaultingSessionRequest(vaultingId: "v", customerId: "c", returnURL: "myapp://vault"),
            account: Fixtures.account())
        #expect(result.outcome.kind == .declined && result.outcome.code == "PARAM_ILLEGAL")
        let down = FakeHost(routes: [
            Fixtures.route("vaults/createVaultingSession"): OutboundResult(kind: .notSent, reason: "refused")
        ])
        let notSent = try await AntomProvider(host: down).vaultingSession(
            VaultingSessionRequest(vaultingId: "v", customerId: "c", returnURL: "myapp://vault"),
            account: Fixtures.account())
        #expect(notSent.outcome.kind == .notSent)
    }

    static func inquiry(_ status: String, extra: String = "") -> String {
        #"{\#(Fixtures.result()),"vaultingRequestId":"vault_1","vaultingStatus":"\#(status)"\#(extra)}"#
    }

    static func syncVaulting(_ answer: String) async throws -> (VaultingSyncResult, FakeHost) {
        let host = Self.host("vaults/inquireVaulting", answer)
        let result = try await AntomProvider(host: host).syncVaulting(
            VaultingSyncRequest(vaultingId: "vault_1"), account: Fixtures.account())
        return (result, host)
    }

    @Test func inquirySuccessCarriesTheCard() async throws {
        let card =
            #","paymentMethodDetail":{"paymentMethodType":"CARD","card":{"cardToken":"\#(Fixtures.cardToken)","#
            + #""maskedCardNo":"************8764","brand":"visa","expiryYear":29,"expiryMonth":"12"}},"#
            + #""vaultingResultCode":"SUCCESS""#
        let (result, host) = try await Self.syncVaulting(Self.inquiry("SUCCESS", extra: card))
        #expect(try Fixtures.body(host.requests.first) == .object(["vaultingRequestId": .string("vault_1")]))
        let event = try #require(result.event)
        #expect(result.failure == nil)
        #expect(event.kind == .created && event.correlationId == "vault_1" && event.token == Fixtures.cardToken)
        #expect(event.credentialKind == "card" && event.paymentMethodType == "CARD")
        #expect(
            event.display
                == CredentialDisplay(
                    brand: "VISA", last4: "8764", masked: "************8764", expiryMonth: 12, expiryYear: 2029))
    }

    @Test func inquiryFailureAndProcessing() async throws {
        let (failed, _) = try await Self.syncVaulting(
            Self.inquiry("FAIL", extra: #","vaultingResultCode":"RISK_REJECT""#))
        #expect(failed.event?.kind == .failed && failed.event?.code == "RISK_REJECT")
        let (processing, _) = try await Self.syncVaulting(Self.inquiry("PROCESSING"))
        #expect(processing.event?.kind == .pending && processing.event?.correlationId == "vault_1")
        let (odd, _) = try await Self.syncVaulting(Self.inquiry("ODD"))
        #expect(odd.event == nil && odd.failure?.kind == .unknown)
    }

    @Test func unknownVaultingIsFailed() async throws {
        let (result, _) = try await Self.syncVaulting("{\(Fixtures.result("F", "VAULTING_NOT_EXIST"))}")
        #expect(result.failure == nil)
        #expect(result.event?.kind == .failed && result.event?.code == "VAULTING_NOT_EXIST")
        #expect(result.event?.correlationId == "vault_1")
    }

    @Test func inquiryTransportFailuresAreFailures() async throws {
        let host = FakeHost(routes: [
            Fixtures.route("vaults/inquireVaulting"): OutboundResult(kind: .noResponse, reason: "timeout")
        ])
        let result = try await AntomProvider(host: host).syncVaulting(
            VaultingSyncRequest(vaultingId: "vault_1"), account: Fixtures.account())
        #expect(result.event == nil && result.failure?.kind == .unknown && result.failure?.code == "no_response")
        let (busy, _) = try await Self.syncVaulting("{\(Fixtures.result("U", "UNKNOWN_EXCEPTION"))}")
        #expect(busy.event == nil && busy.failure?.kind == .unknown)
    }

    @Test func cardDisplayRules() {
        #expect(AntomMapping.fourDigitYear("29") == 2029 && AntomMapping.fourDigitYear("2031") == 2031)
        #expect(AntomMapping.fourDigitYear("123") == nil)
        let display = AntomMapping.cardDisplay(AntomCard(maskedCardNo: "5162 77** **** 4622", expiryMonth: "13"))
        #expect(display.last4 == "4622" && display.expiryMonth == nil && display.brand == nil)
        #expect(AntomMapping.maskLogin("john.doe@example.com") == "j***@example.com")
        #expect(AntomMapping.maskLogin("12345678") == "1*****78")
        #expect(AntomMapping.maskLogin("abc") == "***")
        #expect(AntomMapping.maskLogin("63917****567") == "63917****567")
        #expect(AntomMapping.maskLogin(" ") == nil)
    }
}
