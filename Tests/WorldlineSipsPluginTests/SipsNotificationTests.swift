import Foundation
import ProviderKit
import SwitchyardCrypto
import Testing

@testable import WorldlineSipsPlugin

@Suite struct SipsNotificationTests {
    /// The `Data` text of an automatic response.
    static func data(
        code: String = "00", acquirer: String = "00", captureMode: String = "AUTHOR_CAPTURE",
        merchantId: String = Fixtures.merchantId, amount: String = "1250"
    ) -> String {
        [
            "amount=\(amount)", "currencyCode=978", "merchantId=\(merchantId)",
            "transactionReference=\(Fixtures.reference)", "returnContext=\(Fixtures.attemptId)",
            "responseCode=\(code)", "acquirerResponseCode=\(acquirer)", "authorisationId=123456",
            "captureMode=\(captureMode)", "captureDay=0", "transactionDateTime=2025-11-08T12:06:40+01:00",
            "maskedPan=4100##########00", "paymentMeanBrand=VISA", "paymentMeanType=CARD", "orderChannel=INAPP",
            "holderAuthentStatus=NOT_PARTICIPATING", "keyVersion=1",
        ].joined(separator: "|")
    }

    /// Form encoding: everything but unreserved characters escaped.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func form(_ fields: [(String, String)]) -> Data {
        Data(fields.map { "\($0.0)=\(formEncode($0.1))" }.joined(separator: "&").utf8)
    }

    static func request(_ body: Data) -> NotificationRequest {
        NotificationRequest(
            method: "POST", path: "/notifications/acct_sips_1",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")], body: body)
    }

    static func hmacBody(_ data: String, secret: String = Fixtures.secretKey) -> Data {
        form([
            ("Data", data), ("Seal", HMAC.sha256(key: secret, message: data).hex), ("InterfaceVersion", "HP_2.39"),
            ("Encode", ""),
        ])
    }

    static func notify(_ body: Data, account: AccountContext = Fixtures.account()) async throws
        -> (NotificationResult, FakeHost)
    {
        let host = FakeHost()
        let result = try await WorldlineSipsProvider(host: host).notification(request(body), account: account)
        return (result, host)
    }

    @Test func hmacSealedPaymentSucceeded() async throws {
        let (result, host) = try await Self.notify(Self.hmacBody(Self.data()))
        #expect(result.verified)
        #expect(result.reply.status == 200 && result.reply.body == "OK")
        #expect(host.requests.isEmpty)
        let event = try #require(result.events.first)
        #expect(result.events.count == 1)
        #expect(event.subject == .payment && event.reference == Fixtures.attemptId)
        #expect(event.providerPaymentId == Fixtures.reference)
        #expect(
            event.outcome.kind == .succeeded && event.outcome.amount == 1250 && event.outcome.capturedAmount == 1250)
        #expect(event.outcome.providerPaymentId == Fixtures.reference)
    }

    @Test func sha256SealedAuthorisation() async throws {
        let data = Self.data(captureMode: "VALIDATION")
        let body = Self.form([("Data", data), ("Seal", SHA2.sha256Hex(data + Fixtures.secretKey)), ("Encode", "")])
        let (result, _) = try await Self.notify(body)
        #expect(result.verified)
        let outcome = try #require(result.events.first?.outcome)
        #expect(outcome.kind == .authorized && outcome.amount == 1250 && outcome.capturedAmount == nil)
    }

    @Test func base64DataIsSealedAsSent() async throws {
        let encoded = Base64.encode(Array(Self.data().utf8))
        let body = Self.form([
            ("Data", encoded), ("Seal", HMAC.sha256(key: Fixtures.secretKey, message: encoded).hex),
            ("InterfaceVersion", "HP_2.39"), ("Encode", "base64"),
        ])
        let (result, _) = try await Self.notify(body)
        #expect(result.verified && result.events.first?.outcome.kind == .succeeded)

        // A seal over the decoded text is not the seal of what was sent.
        let wrong = Self.form([
            ("Data", encoded), ("Seal", HMAC.sha256(key: Fixtures.secretKey, message: Self.data()).hex),
            ("Encode", "base64"),
        ])
        let (rejected, _) = try await Self.notify(wrong)
        #expect(!rejected.verified && rejected.events.isEmpty)
    }

    @Test func unescapedPlusSignsStillVerify() async throws {
        let data = Self.data()
        let seal = HMAC.sha256(key: Fixtures.secretKey, message: data).hex
        let raw = Data("Data=\(data)&Seal=\(seal)&Encode=".replacingOccurrences(of: "|", with: "%7C").utf8)
        let (result, _) = try await Self.notify(raw)
        #expect(result.verified && result.events.count == 1)
    }

    @Test func outcomesByResponseCode() async throws {
        let cases: [(String, String, Outcome.Kind, String?, Bool?)] = [
            ("05", "51", .declined, "51", false), ("05", "A1", .declined, "A1", true), ("60", "00", .pending, nil, nil),
            ("99", "00", .unknown, "99", nil), ("34", "00", .declined, "34", false),
            ("97", "00", .declined, "session_expired", false), ("94", "00", .unknown, "duplicate_transaction", nil),
            ("05", "68", .unknown, "68", nil),
        ]
        for (code, acquirer, kind, outcomeCode, retryable) in cases {
            let (result, _) = try await Self.notify(Self.hmacBody(Self.data(code: code, acquirer: acquirer)))
            let event = try #require(result.events.first)
            #expect(event.outcome.kind == kind && event.outcome.code == outcomeCode, "\(code)/\(acquirer)")
            #expect(event.outcome.retryable == retryable, "\(code)/\(acquirer)")
            #expect(event.reference == Fixtures.attemptId && event.outcome.providerPaymentId == Fixtures.reference)
        }
    }

    @Test func untrustedResponsesAreRejected() async throws {
        let good = Self.data()
        let seal = HMAC.sha256(key: Fixtures.secretKey, message: good).hex
        let tampered = good.replacingOccurrences(of: "amount=1250", with: "amount=1")
        let bodies: [(Data, String)] = [
            (Self.form([("Data", tampered), ("Seal", seal), ("Encode", "")]), "seal mismatch"),
            (Self.hmacBody(good, secret: "other_KEY1"), "seal mismatch"),
            (Self.form([("Data", good), ("Encode", "")]), "missing Data or Seal"),
            (Self.form([("Seal", seal)]), "missing Data or Seal"),
            (Self.hmacBody(Self.data(merchantId: "002001000000002")), "merchant mismatch"),
            (
                Self.form([
                    ("Data", "%%%"), ("Seal", HMAC.sha256(key: Fixtures.secretKey, message: "%%%").hex),
                    ("Encode", "base64"),
                ]),
                "unreadable Data"
            ),
            (Data("{\"Data\":\"x\",\"Seal\":\"y\"}".utf8), "missing Data or Seal"),
        ]
        for (body, reason) in bodies {
            let (result, host) = try await Self.notify(body)
            #expect(!result.verified, "\(reason)")
            #expect(result.events.isEmpty && result.credentials.isEmpty)
            #expect(result.reply.status == 401 && result.reply.body == "rejected")
            #expect(result.failureReason == reason)
            #expect(!host.allLoggedText.contains(seal))
        }
    }

    @Test func theMerchantIdIsCheckedAgainstTheAccount() async throws {
        let (result, _) = try await Self.notify(
            Self.hmacBody(Self.data()), account: Fixtures.account(merchantId: "002001000000003"))
        #expect(!result.verified && result.failureReason == "merchant mismatch")
    }

    @Test func dataFieldsParse() {
        let fields = SipsMapping.dataFields("a=1|b=x=y||c=|a=2|=z")
        #expect(fields == ["a": "1", "b": "x=y", "c": ""])
    }
}
