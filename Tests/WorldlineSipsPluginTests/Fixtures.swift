import Foundation
import ProviderKit
import ProviderTestSupport
import SwitchyardCrypto
import Testing

@testable import WorldlineSipsPlugin

/// This target's scripted host.
typealias FakeHost = PluginFakeHost<Fixtures>

/// Shared test values: the public SIMU merchant and its key, an account at a loopback base URL.
enum Fixtures: PluginTestFixtures {
    static let baseURL = "http://127.0.0.1:9999/sips"
    static let merchantId = "002001000000001"
    static let secretKey = "002001000000001_KEY1"
    static let notificationURL = "https://switchyard.test/notifications/acct_sips_1"
    /// 2025-11-08T11:06:40Z.
    static let now = Date(timeIntervalSince1970: 1_762_600_000)
    static let attemptId = "att_01jc5x8k2m4n6p8q0r2s4t6v8w"
    static let reference = "att01jc5x8k2m4n6p8q0r2s4t6v8w"
    static let walletId = "vlt01jc5x8k2m4n6p8q0r2s4t6v"
    static let redirectionData = "REDIRECTIONDATA_opaque_0001"
    static let publicKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"

    static func account(
        options: [String: String] = [:], secretKey: String? = nil, keyVersion: String? = nil,
        baseURL: String = baseURL, merchantId: String = merchantId
    ) -> AccountContext {
        var credentials = ["merchant_id": merchantId, "secret_key": secretKey ?? Self.secretKey]
        credentials["key_version"] = keyVersion
        return AccountContext(
            accountId: "acct_sips_1", environment: "sandbox", baseURL: baseURL, credentials: credentials,
            notificationURL: notificationURL, options: options)
    }

    static func authorizeRequest(
        amount: Int64 = 1250, currency: String = "EUR", capture: CaptureMode = .automatic,
        merchantReference: String = "order-42_A", customerId: String? = "cust_7",
        paymentData: [String: JSONValue] = [:], credential: StoredCredential? = nil
    ) -> AuthorizeRequest {
        AuthorizeRequest(
            paymentId: "pay_1", attemptId: attemptId, merchantReference: merchantReference, amount: amount,
            currency: currency, country: "FR", method: "card", captureMode: capture, customerId: customerId,
            paymentData: paymentData, idempotencyKey: attemptId, storedCredential: credential)
    }

    static let locator = PaymentLocator(attemptId: attemptId, providerPaymentId: reference)

    /// The scripted route of a service.
    static func route(_ service: String) -> String {
        "POST /rs-services/v2/" + service
    }

    /// A 200 answer carrying `fields` sealed with `secret` (recomputed here, independently of the plugin).
    static func sealed(_ fields: [String: JSONValue], secret: String = secretKey) -> OutboundResult {
        var fields = fields
        fields["seal"] = .string(TestSeal.seal(fields, secret: secret))
        return json(.object(fields))
    }

    /// A 200 answer with exactly this JSON.
    static func json(_ value: JSONValue, status: Int = 200) -> OutboundResult {
        let body = (try? JSONEncoder().encode(value)) ?? Data()
        return OutboundResult(
            kind: .response, status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }

    /// A sealed `orderInitialize`/`walletInitialize` answer.
    static func initAnswer(_ code: String = "00", extra: [String: JSONValue] = [:]) -> OutboundResult {
        var fields: [String: JSONValue] = ["redirectionStatusCode": .string(code)]
        if code == "00" {
            fields["redirectionData"] = .string(redirectionData)
            fields["redirectionUrl"] = .string("http://127.0.0.1:9999/sips/inapp")
            fields["redirectionVersion"] = .string("IR_MB_3.0")
            fields["publicKeyValue"] = .string(publicKey)
            fields["redirectionStatusMessage"] = .string("Initialized")
        }
        fields.merge(extra) { _, new in new }
        return sealed(fields)
    }

    /// A sealed `getTransactionData` answer.
    static func transactionAnswer(
        _ status: String?, code: String = "00", origin: Int64 = 1250, current: Int64 = 1250,
        acquirer: String = "00"
    ) -> OutboundResult {
        var fields: [String: JSONValue] = ["responseCode": .string(code)]
        if code == "00" {
            fields["transactionStatus"] = status.map(JSONValue.string)
            fields["originAmount"] = .integer(origin)
            fields["currentAmount"] = .integer(current)
            fields["currencyCode"] = .string("978")
            fields["acquirerResponseCode"] = .string(acquirer)
            fields["captureMode"] = .string("AUTHOR_CAPTURE")
            fields["maskedPan"] = .string("4100##########00")
            fields["paymentMeanBrand"] = .string("VISA")
            fields["returnContext"] = .string(attemptId)
            fields["transactionDateTime"] = .string("2025-11-08T12:06:40+01:00")
        }
        return sealed(fields)
    }

    /// A sealed cash management answer.
    static func cashAnswer(
        _ code: String = "00", newStatus: String? = nil, newAmount: Int64? = nil,
        acquirer: String? = nil, errorField: String? = nil
    ) -> OutboundResult {
        var fields: [String: JSONValue] = ["responseCode": .string(code)]
        fields["newStatus"] = newStatus.map(JSONValue.string)
        fields["newAmount"] = newAmount.map(JSONValue.integer)
        fields["acquirerResponseCode"] = acquirer.map(JSONValue.string)
        fields["errorFieldName"] = errorField.map(JSONValue.string)
        fields["operationDateTime"] = .string("2025-11-08T12:06:41+01:00")
        return sealed(fields)
    }

    /// The JSON object of a recorded request.
    static func body(_ request: OutboundRequest?) throws -> [String: JSONValue] {
        let body = try #require(request?.body)
        return try #require(try JSONDecoder().decode(JSONValue.self, from: body).objectValue)
    }

    /// Checks a recorded request's fields against `expected` (seal excluded) and its seal against the one
    /// recomputed here; returns nothing, records issues.
    static func expectSealedRequest(
        _ request: OutboundRequest?, _ expected: [String: JSONValue], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var fields = try body(request)
        let seal = fields.removeValue(forKey: "seal")
        #expect(fields == expected, sourceLocation: sourceLocation)
        #expect(seal == .string(TestSeal.seal(fields)), sourceLocation: sourceLocation)
        #expect(request?.method == "POST", sourceLocation: sourceLocation)
        #expect(header("Content-Type", of: request) == "application/json", sourceLocation: sourceLocation)
        #expect(header("Accept", of: request) == "application/json", sourceLocation: sourceLocation)
    }

    /// The value of a recorded request's header.
    static func header(_ name: String, of request: OutboundRequest?) -> String? {
        request?.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The common fields of every request.
    static func common(_ interfaceVersion: String) -> [String: JSONValue] {
        [
            "interfaceVersion": .string(interfaceVersion), "merchantId": .string(merchantId),
            "keyVersion": .integer(1), "sealAlgorithm": .string("HMAC-SHA-256"),
        ]
    }
}
