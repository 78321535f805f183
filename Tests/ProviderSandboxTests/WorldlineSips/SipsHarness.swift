import AsyncHTTPClient
import Foundation
import NIOCore
import ProviderSandbox

/// The merchants of the Sips tests.
enum SipsTestMerchants {
    static let m1 = WorldlineSipsSandboxMerchant(merchantId: "002001000000001", secretKey: "002001000000001_KEY1")
    static let m2 = WorldlineSipsSandboxMerchant(merchantId: "002001000000002", secretKey: "002001000000002_KEY1")
}

/// A running sandbox whose Sips emulator knows ``SipsTestMerchants``.
struct SipsTestSandbox {
    let server: SandboxServer
    let baseURL: String
    let clock: TestClock

    var sips: WorldlineSipsSandbox { server.sips }
    var admin: String { baseURL + "/_sandbox/sips" }

    /// The merchant's Office client.
    func client(_ merchant: WorldlineSipsSandboxMerchant = SipsTestMerchants.m1) -> SipsTestClient {
        SipsTestClient(baseURL: baseURL + "/sips", merchantId: merchant.merchantId, secret: merchant.secretKey)
    }

    /// The app of the merchant's customer (checks answers with the merchant's secret).
    func app(_ merchant: WorldlineSipsSandboxMerchant = SipsTestMerchants.m1) -> SipsTestApp {
        SipsTestApp(secret: merchant.secretKey)
    }

    /// Calls an admin route with a JSON body.
    func adminPost(_ path: String, _ json: [String: Any] = [:]) async throws -> Reply {
        try await send(.post, admin + "/" + path, json: json)
    }
}

/// Runs `body` against a fresh sandbox; `configure` adjusts the Sips settings (merchants preset).
func withSipsSandbox(
    _ configure: (inout WorldlineSipsSandboxConfiguration) -> Void = { _ in },
    _ body: (SipsTestSandbox) async throws -> Void
) async throws {
    let clock = TestClock()
    var sips = WorldlineSipsSandboxConfiguration(merchants: [SipsTestMerchants.m1, SipsTestMerchants.m2])
    configure(&sips)
    var configuration = SandboxConfiguration(
        notificationRetry: SandboxNotificationRetryPolicy(
            maxAttempts: 4, initialDelay: .milliseconds(50), maxDelay: .milliseconds(200), attemptTimeout: .seconds(2)),
        clock: { clock.now })
    configuration.sips = sips
    let server = SandboxServer(configuration: configuration, logger: quietLogger)
    try await whileServing(server) { port in
        try await body(SipsTestSandbox(server: server, baseURL: "http://127.0.0.1:\(port)", clock: clock))
    }
}

/// An answer of the Sips emulator.
struct SipsReply: @unchecked Sendable {
    let status: Int
    let body: [UInt8]
    let object: [String: Any]
    /// nil when unsealed, otherwise whether the seal verified with the merchant's secret.
    let sealValid: Bool?

    init(status: Int, body: [UInt8], secret: String) {
        self.status = status
        self.body = body
        self.object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        self.sealValid = SipsTestSeal.verify(object, secret: secret)
    }

    func string(_ key: String) -> String? { object[key] as? String }
    func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
    var list: [[String: Any]] {
        (object["walletPaymentMeanDataList"] ?? object["walletPaymentMeanData"]) as? [[String: Any]] ?? []
    }
}

/// POSTs JSON and reads the answer.
func sipsPost(_ url: String, body: [UInt8], secret: String) async throws -> SipsReply {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "Accept", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    let bytes = Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
    return SipsReply(status: Int(response.status.code), body: bytes, secret: secret)
}

/// The merchant's server side: seals requests with its own code and checks answers' seals.
struct SipsTestClient {
    let baseURL: String
    let merchantId: String
    let secret: String
    var keyVersion = 1

    /// The default `interfaceVersion` of a service.
    static func interfaceVersion(of service: String) -> String {
        if service.hasPrefix("checkoutInApp/") || service.hasPrefix("walletInApp/") { return "IR_MB_3.0" }
        if service.hasPrefix("diagnostic/") { return "DR_WS_2.9" }
        if service.hasPrefix("cashManagement/") { return "CR_WS_2.27" }
        return "WR_WS_2.27"
    }

    /// Seals and sends `POST <baseURL>/rs-services/v2/<service>`.
    /// - Parameters:
    ///   - fields: the service's own fields (merchantId, interfaceVersion, keyVersion, sealAlgorithm and
    ///     seal are added unless given).
    ///   - sealSecret: the key to seal with instead of the merchant's.
    ///   - afterSealing: a change made to the message once sealed.
    func call(
        _ service: String,
        _ fields: [String: Any],
        sealSecret: String? = nil,
        afterSealing: ((inout [String: Any]) -> Void)? = nil
    ) async throws -> SipsReply {
        var message = fields
        if message["merchantId"] == nil { message["merchantId"] = merchantId }
        if message["interfaceVersion"] == nil { message["interfaceVersion"] = Self.interfaceVersion(of: service) }
        if message["keyVersion"] == nil { message["keyVersion"] = keyVersion }
        if message["sealAlgorithm"] == nil { message["sealAlgorithm"] = "HMAC-SHA-256" }
        message["seal"] = SipsTestSeal.seal(message, secret: sealSecret ?? secret)
        afterSealing?(&message)
        let body = Array(try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]))
        return try await sipsPost(baseURL + "/rs-services/v2/" + service, body: body, secret: secret)
    }

    /// `checkoutInApp/orderInitialize` with the usual fields.
    func initOrder(
        reference: String,
        amount: Int = 1000,
        captureMode: String = "AUTHOR_CAPTURE",
        operation: String = "CARDORDER",
        automaticResponseUrl: String? = nil,
        walletId: String? = nil,
        extra: [String: Any] = [:]
    ) async throws -> SipsReply {
        var fields: [String: Any] = [
            "amount": amount, "captureDay": 0, "captureMode": captureMode, "currencyCode": "978",
            "orderChannel": "INAPP", "returnContext": "att_" + reference, "sdkOperationName": operation,
            "transactionReference": reference, "customerId": "cust1", "orderId": "order-" + reference,
        ]
        if let automaticResponseUrl { fields["automaticResponseUrl"] = automaticResponseUrl }
        if let walletId { fields["merchantWalletId"] = walletId }
        fields.merge(extra) { _, new in new }
        return try await call("checkoutInApp/orderInitialize", fields)
    }

    /// `cashManagement/<operation>` for `amount` EUR cents.
    func cash(_ operation: String, reference: String, amount: Int) async throws -> SipsReply {
        try await call(
            "cashManagement/" + operation,
            [
                "currencyCode": "978", "operationAmount": amount, "operationOrigin": "SWITCHYARD",
                "transactionReference": reference,
            ])
    }

    /// `diagnostic/getTransactionData`.
    func transactionData(_ reference: String) async throws -> SipsReply {
        try await call("diagnostic/getTransactionData", ["transactionReference": reference])
    }
}

/// The customer's app: calls the SDK functions on the `redirectionUrl` of an init.
struct SipsTestApp {
    let secret: String

    /// `POST <redirectionUrl>/<function>`.
    func call(_ redirectionURL: String, _ function: String, _ fields: [String: Any]) async throws -> SipsReply {
        let body = Array(try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]))
        return try await sipsPost(redirectionURL + "/" + function, body: body, secret: secret)
    }

    /// Calls `function` with the redirection values of `initReply` and `fields`.
    func call(_ function: String, on initReply: SipsReply, _ fields: [String: Any] = [:]) async throws -> SipsReply {
        var message = fields
        message["redirectionData"] = initReply.string("redirectionData") ?? ""
        message["redirectionVersion"] = initReply.string("redirectionVersion") ?? ""
        return try await call(initReply.string("redirectionUrl") ?? "", function, message)
    }

    /// `cardOrder` with `card`.
    func cardOrder(_ initReply: SipsReply, card: String, expiry: String = "203012") async throws -> SipsReply {
        try await call(
            "cardOrder", on: initReply, ["cardNumber": card, "cardExpiryDate": expiry, "cardCSCValue": "123"])
    }
}
