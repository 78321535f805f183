import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsSecrecyTests {
    /// A distinctive secret key, so a leak is easy to find.
    static let secret = "SECRETKEY_sips_0001_do_not_log"
    static let cardNumber = "4100000000000000"
    static let services = [
        "checkoutInApp/orderInitialize", "walletInApp/walletInitialize", "diagnostic/getTransactionData",
        "cashManagement/validate", "cashManagement/cancel", "cashManagement/refund", "wallet/getWalletData",
    ]

    /// An answer sealed with the account's key that echoes the secrets in every free-text field.
    static func echoing(_ code: String, sealed: Bool) -> OutboundResult {
        let text = "\(secret) \(cardNumber)"
        let fields: [String: JSONValue] = [
            "responseCode": .string(code), "redirectionStatusCode": .string(code), "walletResponseCode": .string(code),
            "redirectionStatusMessage": .string(text), "errorFieldName": .string(text),
            "acquirerResponseCode": .string(text), "transactionStatus": .string(text), "newStatus": .string(text),
            "currencyCode": .string(text),
        ]
        return sealed ? Fixtures.sealed(fields, secret: secret) : Fixtures.json(.object(fields))
    }

    static func runEveryFlow(_ provider: WorldlineSipsProvider, into outcomes: inout [Outcome]) async throws {
        let account = Fixtures.account(secretKey: secret)
        let card = StoredCredential(id: "pm_1", kind: "card", token: "wallet1:12")
        outcomes.append(try await provider.authorize(Fixtures.authorizeRequest(), account: account))
        outcomes.append(try await provider.authorize(Fixtures.authorizeRequest(credential: card), account: account))
        outcomes.append(try await provider.sync(SyncRequest(payment: Fixtures.locator), account: account))
        outcomes.append(
            try await provider.capture(
                CaptureRequest(payment: Fixtures.locator, operationId: "c", amount: 1, currency: "EUR", isFinal: true),
                account: account))
        outcomes.append(
            try await provider.void(VoidRequest(payment: Fixtures.locator, operationId: "v"), account: account))
        outcomes.append(
            try await provider.refund(
                RefundRequest(payment: Fixtures.locator, refundId: "r", amount: 1, currency: "EUR"), account: account))
        outcomes.append(
            try await provider.vaultingSession(
                VaultingSessionRequest(vaultingId: "v1", customerId: "c"), account: account
            )
            .outcome)
        let vaulting = try await provider.syncVaulting(VaultingSyncRequest(vaultingId: "v1"), account: account)
        outcomes += [vaulting.failure].compactMap { $0 }
    }

    @Test func noSecretSealOrCardNumberInOutcomesOrLogs() async throws {
        var outcomes: [Outcome] = []
        var hosts: [FakeHost] = []
        var seals: [String] = []
        for (code, sealed) in [("05", true), ("30", true), ("99", true), ("00", true), ("03", false), ("00", false)] {
            let answer = Self.echoing(code, sealed: sealed)
            if let body = answer.body, let seal = (try? JSONDecoder().decode(JSONValue.self, from: body))?["seal"] {
                seals += [seal.stringValue].compactMap { $0 }
            }
            let routes = Dictionary(uniqueKeysWithValues: Self.services.map { (Fixtures.route($0), answer) })
            let host = FakeHost(routes: routes)
            hosts.append(host)
            try await Self.runEveryFlow(WorldlineSipsProvider(host: host), into: &outcomes)
        }
        #expect(outcomes.count >= 6 * 7)
        // The seals we sent must not be logged either.
        for host in hosts {
            for request in host.requests {
                let body = try Fixtures.body(request)
                seals += [body["seal"]?.stringValue].compactMap { $0 }
            }
        }
        let text =
            String(decoding: try JSONEncoder().encode(outcomes), as: UTF8.self)
            + hosts.map(\.allLoggedText).joined(separator: "\n")
        #expect(!hosts.flatMap(\.logs).isEmpty)
        #expect(!text.contains(Self.secret))
        #expect(!text.contains(Self.cardNumber))
        #expect(!seals.isEmpty)
        let logs = hosts.map(\.allLoggedText).joined(separator: "\n")
        for seal in seals {
            #expect(!logs.contains(seal))
        }
    }

    @Test func requestsNeverCarryTheSecret() async throws {
        let host = FakeHost()
        _ = try await WorldlineSipsProvider(host: host).authorize(
            Fixtures.authorizeRequest(), account: Fixtures.account(secretKey: Self.secret))
        let request = try #require(host.requests.first)
        let everything =
            request.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            + String(decoding: request.body ?? Data(), as: UTF8.self) + request.url
        #expect(!everything.contains(Self.secret))
    }

    @Test func rejectedNotificationsLogNoSealOrData() async throws {
        let data = "merchantId=\(Fixtures.merchantId)|responseCode=00|maskedPan=\(Self.cardNumber)"
        let seal = HMAC.sha256(key: "wrong", message: data).hex
        let host = FakeHost()
        let body = Data("Data=\(SipsNotificationTests.formEncode(data))&Seal=\(seal)".utf8)
        let result = try await WorldlineSipsProvider(host: host).notification(
            NotificationRequest(method: "POST", path: "/n", headers: [], body: body),
            account: Fixtures.account(secretKey: Self.secret))
        #expect(!result.verified)
        let text = host.allLoggedText + (result.failureReason ?? "") + result.reply.body
        #expect(!text.contains(seal) && !text.contains(Self.cardNumber) && !text.contains(Self.secret))
    }
}
