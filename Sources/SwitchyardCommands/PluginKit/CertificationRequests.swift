import Foundation
import ProviderKit

/// The requests `switchyard plugins check` sends each flow: generated values (docs/plugins.md lists
/// them), with a scenario's overrides merged in at the top level.
struct CertificationRequests: Sendable {
    let manifest: PluginManifest
    let scenario: CertificationScenario?
    /// The Idempotency-Key every authorize carries.
    let idempotencyKey: String

    init(manifest: PluginManifest, scenario: CertificationScenario?) {
        self.manifest = manifest
        self.scenario = scenario
        idempotencyKey = "sy-check-idem-" + CertificationRequests.randomHex(8)
    }

    /// The flows that talk to the provider and are driven by the checks, in the manifest's order.
    var drivenFlows: [Flow] {
        manifest.flows.filter { $0 != .notification && $0 != .clientSession }
    }

    /// The request of `flow` for the `number`th call.
    func request(_ flow: Flow, number: Int) -> JSONValue {
        let payment = scenario?.payment
        let amount = JSONValue.integer(payment?.amount ?? 1000)
        let currency = JSONValue.string(payment?.currency ?? manifest.currencies.first ?? "USD")
        let country = JSONValue.string(payment?.country ?? manifest.countries.first ?? "US")
        let method = JSONValue.string(payment?.method ?? manifest.methods.first ?? "card")
        let paymentData = JSONValue.object(payment?.paymentData ?? [:])
        let locator = JSONValue.object([
            "attemptId": .string("att_check_\(number)"), "providerPaymentId": .string("prov_check_\(number)"),
        ])
        var fields: [String: JSONValue]
        switch flow {
        case .authorize:
            fields = [
                "paymentId": .string("pay_check_\(number)"), "attemptId": .string("att_check_\(number)"),
                "merchantReference": .string("check-ref-\(number)"), "amount": amount, "currency": currency,
                "country": country, "method": method, "captureMode": .string("automatic"),
                "returnURL": .string("https://merchant.example/return"), "paymentData": paymentData,
                "idempotencyKey": .string(idempotencyKey),
            ]
        case .capture:
            fields = [
                "payment": locator, "operationId": .string("op_check_\(number)"), "amount": amount,
                "currency": currency, "isFinal": .bool(true),
            ]
        case .void:
            fields = ["payment": locator, "operationId": .string("op_check_\(number)")]
        case .refund:
            fields = [
                "payment": locator, "refundId": .string("ref_check_\(number)"), "amount": amount, "currency": currency,
            ]
        case .sync:
            fields = ["payment": locator]
        case .syncRefund:
            fields = [
                "payment": locator, "refundId": .string("ref_check_\(number)"),
                "providerRefundId": .string("prov_ref_check_\(number)"),
            ]
        case .complete:
            fields = [
                "payment": locator, "operationId": .string("op_check_\(number)"),
                "merchantReference": .string("check-ref-\(number)"), "amount": amount, "currency": currency,
                "country": country, "method": method, "captureMode": .string("automatic"),
                "returnURL": .string("https://merchant.example/return"), "paymentData": paymentData,
                "session": .object([:]), "isReplay": .bool(false),
            ]
        case .vaultingSession:
            fields = [
                "vaultingId": .string("vault_check_\(number)"), "customerId": .string("cus_check"),
                "returnURL": .string("https://merchant.example/return"), "country": country,
            ]
        case .syncVaulting:
            fields = ["vaultingId": .string("vault_check_\(number)")]
        case .accessToken:
            fields = ["kind": .string("server")]
        case .revokeCredential:
            fields = [
                "credential": .object([
                    "id": .string("pm_check"), "kind": .string("card"), "token": .string("tok_check"),
                    "paymentMethodType": .string("CARD"),
                ]),
                "customerId": .string("cus_check"), "operationId": .string("op_check_\(number)"),
            ]
        case .answerDispute:
            fields = [
                "providerDisputeId": .string("dispute_check_\(number)"), "answer": .string("accept"),
                "documents": .array([]),
            ]
        case .notification, .clientSession:
            fields = [:]
        }
        for (key, value) in scenario?.flows?[flow.rawValue]?.request ?? [:] {
            fields[key] = value
        }
        return .object(fields)
    }

    /// The account the flows run for, at `baseURL`.
    func account(baseURL: String, credentials: [String: String]) -> AccountContext {
        let account = scenario?.account
        return AccountContext(
            accountId: "acct_check", environment: account?.environment ?? "sandbox", baseURL: baseURL,
            credentials: credentials, accessToken: usesToken ? accessToken : nil,
            notificationURL: "https://switchyard.example/v1/notifications/acct_check",
            options: account?.options ?? [:])
    }

    /// The account's credentials: the scenario's, or a generated value for every field of the manifest.
    let generatedSuffix = CertificationRequests.randomHex(6)

    var credentials: [String: String] {
        if let given = scenario?.account?.credentials { return given }
        var values: [String: String] = [:]
        for field in manifest.credentials {
            values[field.name] =
                field.secret ? "sy-check-secret-\(field.name)-\(generatedSuffix)" : "sy-check-\(field.name)"
        }
        return values
    }

    /// The access token the account carries when the plugin uses one.
    var accessToken: String { scenario?.account?.accessToken ?? "sy-check-token-\(generatedSuffix)" }

    private var usesToken: Bool { manifest.usesAccessToken || scenario?.account?.accessToken != nil }

    /// Every value that must never appear in a log line, an error, an outcome or a URL.
    var secrets: [String] {
        let names = Set(manifest.credentials.filter(\.secret).map(\.name))
        var values = credentials.filter { names.contains($0.key) }.map(\.value)
        if usesToken { values.append(accessToken) }
        // A value of a few characters would be found by chance.
        return values.filter { $0.utf8.count >= 6 }
    }

    static func randomHex(_ bytes: Int) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
