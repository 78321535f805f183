import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

@Suite struct AntomSecrecyTests {
    static var secrets: [String] { [Fixtures.privateKeyFragment, Fixtures.accessToken, Fixtures.cardToken] }

    /// An answer that echoes the secrets back in every free-text field, to prove nothing provider-written is
    /// copied blindly.
    static func echoing(_ status: String, _ code: String) -> String {
        let text = Self.secrets.joined(separator: " ")
        return #"{"result":{"resultCode":"\#(code)","resultStatus":"\#(status)","resultMessage":"\#(text)"},"#
            + #""paymentStatus":"FAIL","paymentResultCode":"RISK_REJECT","paymentResultMessage":"\#(text)","#
            + #""vaultingStatus":"FAIL","vaultingResultCode":"RISK_REJECT","vaultingResultMessage":"\#(text)"}"#
    }

    static let calls = [
        "payments/createPaymentSession", "payments/pay", "payments/inquiryPayment", "payments/cancel",
        "payments/refund", "payments/inquiryRefund", "payments/capture", "vaults/createVaultingSession",
        "vaults/inquireVaulting",
    ]

    static func runEveryFlow(_ provider: AntomProvider, into outcomes: inout [Outcome]) async throws {
        let account = Fixtures.account()
        let wallet = StoredCredential(id: "pm_1", kind: "wallet_agreement", token: Fixtures.accessToken)
        let card = StoredCredential(id: "pm_2", kind: "card", token: Fixtures.cardToken)
        let setup = CredentialSetup(correlationId: "s", customerId: "c")
        outcomes.append(try await provider.authorize(Fixtures.authorizeRequest(setup: setup), account: account))
        outcomes.append(try await provider.authorize(Fixtures.authorizeRequest(credential: wallet), account: account))
        outcomes.append(
            try await provider.authorize(Fixtures.authorizeRequest(method: "card", credential: card), account: account))
        outcomes.append(try await provider.sync(SyncRequest(payment: Fixtures.locator), account: account))
        outcomes.append(
            try await provider.void(VoidRequest(payment: Fixtures.locator, operationId: "v"), account: account))
        outcomes.append(
            try await provider.refund(
                RefundRequest(payment: Fixtures.locator, refundId: "r", amount: 1, currency: "USD"), account: account))
        outcomes.append(
            try await provider.syncRefund(
                SyncRefundRequest(payment: Fixtures.locator, refundId: "r", providerRefundId: nil), account: account))
        outcomes.append(
            try await provider.capture(
                CaptureRequest(payment: Fixtures.locator, operationId: "c", amount: 1, currency: "USD", isFinal: true),
                account: account))
        outcomes.append(
            try await provider.vaultingSession(
                VaultingSessionRequest(vaultingId: "v", customerId: "c", returnURL: "myapp://vault"), account: account
            ).outcome)
        let vaulting = try await provider.syncVaulting(VaultingSyncRequest(vaultingId: "v"), account: account)
        outcomes += [vaulting.failure, vaulting.event.map { Outcome(kind: .declined, message: $0.message) }]
            .compactMap { $0 }
    }

    @Test func noSecretInOutcomesOrLogs() async throws {
        var outcomes: [Outcome] = []
        var hosts: [FakeHost] = []
        let answers: [(String) -> OutboundResult] = [
            { Fixtures.signed($0, Self.echoing("F", "RISK_REJECT")) },
            { _ in Fixtures.unsigned(Self.echoing("F", "INVALID_SIGNATURE")) },
            { _ in Fixtures.unsigned(Self.echoing("U", "UNKNOWN_EXCEPTION")) },
            { Fixtures.signed($0, Self.echoing("S", "SUCCESS")) },
            { _ in Fixtures.unsigned(Self.echoing("S", "SUCCESS")) },
            { _ in Fixtures.unsigned(Self.echoing("F", "X"), status: 500) },
        ]
        for answer in answers {
            let routes = Dictionary(uniqueKeysWithValues: Self.calls.map { (Fixtures.route($0), answer($0)) })
            let host = FakeHost(routes: routes)
            hosts.append(host)
            try await Self.runEveryFlow(AntomProvider(host: host), into: &outcomes)
        }
        let rejectHost = FakeHost()
        var tampered = Fixtures.notification(AntomNotificationTests.payment("PAYMENT_RESULT"))
        tampered.body = Data(Self.echoing("S", "SUCCESS").utf8)
        let rejected = try await AntomProvider(host: rejectHost).notification(tampered, account: Fixtures.account())
        let tokenBody =
            #"{"authorizationNotifyType":"TOKEN_CREATED","accessToken":"\#(Fixtures.accessToken)","authState":"s"}"#
        _ = try await AntomProvider(host: rejectHost).notification(
            Fixtures.notification(tokenBody), account: Fixtures.account())
        hosts.append(rejectHost)
        #expect(outcomes.count == answers.count * 10)
        let text =
            String(decoding: try JSONEncoder().encode(outcomes), as: UTF8.self)
            + String(decoding: try JSONEncoder().encode(rejected), as: UTF8.self)
            + hosts.map(\.allLoggedText).joined(separator: "\n")
        #expect(!hosts.flatMap(\.logs).isEmpty)
        for secret in Self.secrets {
            #expect(!text.contains(secret))
        }
    }

    @Test func unreadableKeysNeverEchoTheirText() async {
        var account = Fixtures.account()
        let marker = "SECRETMARKER" + Fixtures.privateKeyFragment
        account.credentials["private_key"] = marker
        do {
            _ = try await AntomProvider(host: FakeHost()).sync(SyncRequest(payment: Fixtures.locator), account: account)
            Issue.record("expected a misconfiguration")
        } catch {
            #expect(!String(describing: error).contains("SECRETMARKER"))
            #expect(!String(describing: error).contains(Fixtures.privateKeyFragment))
        }
    }

    @Test func requestsCarryNoPrivateKeyMaterial() async throws {
        let host = FakeHost()
        _ = try await AntomProvider(host: host).sync(
            SyncRequest(payment: Fixtures.locator), account: Fixtures.account())
        let request = try #require(host.requests.first)
        let everything =
            request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            + String(decoding: request.body ?? Data(), as: UTF8.self)
        #expect(!everything.contains(Fixtures.privateKeyFragment))
    }
}
