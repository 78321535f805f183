import Foundation
import ProviderKit

extension ScenarioFile {
    /// The scenario's account (`acct_check`), at `baseURL` with `notificationURL`.
    var account: AccountContext {
        let account = json["account"]?.objectValue ?? [:]
        func strings(_ key: String) -> [String: String] {
            (account[key]?.objectValue ?? [:]).compactMapValues(\.stringValue)
        }
        return AccountContext(
            accountId: "acct_check", environment: account["environment"]?.stringValue ?? "sandbox",
            baseURL: Self.baseURL, credentials: strings("credentials"),
            accessToken: account["accessToken"]?.stringValue,
            notificationURL: Self.notificationURL, options: strings("options"))
    }

    /// The request the checker generates for `flow`, the flow's `request` merged over it.
    func makeRequest<P: Provider>(_ flow: Flow, _ provider: P.Type) throws -> Data {
        let payment = json["payment"]?.objectValue ?? [:]
        let amount = payment["amount"] ?? .integer(1000)
        let currency = payment["currency"] ?? .string(P.manifest.currencies.first ?? "USD")
        let country = payment["country"] ?? .string(P.manifest.countries.first ?? "US")
        let method = payment["method"] ?? .string(P.manifest.methods.first ?? "card")
        let paymentData = payment["paymentData"] ?? .object([:])
        let locator = JSONValue.object([
            "attemptId": .string("att_check_1"), "providerPaymentId": .string("prov_check_1"),
        ])
        let returnURL = JSONValue.string("https://merchant.example/return")
        var fields: [String: JSONValue]
        switch flow {
        case .authorize:
            fields = [
                "paymentId": .string("pay_check_1"), "attemptId": .string("att_check_1"),
                "merchantReference": .string("check-ref-1"),
                "amount": amount, "currency": currency, "country": country, "method": method,
                "captureMode": .string("automatic"), "returnURL": returnURL, "paymentData": paymentData,
                "idempotencyKey": .string("sy-check-idem-5f0c2a9e41d7"),
            ]
        case .complete:
            fields = [
                "payment": locator, "operationId": .string("op_check_1"), "merchantReference": .string("check-ref-1"),
                "amount": amount,
                "currency": currency, "country": country, "method": method, "captureMode": .string("automatic"),
                "returnURL": returnURL, "paymentData": paymentData, "session": .object([:]),
            ]
        case .capture:
            fields = [
                "payment": locator, "operationId": .string("op_check_1"), "amount": amount, "currency": currency,
                "isFinal": .bool(true),
            ]
        case .void:
            fields = ["payment": locator, "operationId": .string("op_check_1")]
        case .refund:
            fields = ["payment": locator, "refundId": .string("ref_check_1"), "amount": amount, "currency": currency]
        case .sync:
            fields = ["payment": locator]
        case .syncRefund:
            fields = ["payment": locator, "refundId": .string("ref_check_1")]
        case .accessToken:
            fields = ["kind": .string("server")]
        case .vaultingSession:
            fields = [
                "vaultingId": .string("vlt_check_1"), "customerId": .string("cus_check_1"), "returnURL": returnURL,
            ]
        case .syncVaulting:
            fields = ["vaultingId": .string("vlt_check_1")]
        case .revokeCredential:
            fields = [
                "credential": .object([
                    "id": .string("pm_check_1"), "kind": .string("card"), "token": .string("tok_check_1"),
                ]),
                "customerId": .string("cus_check_1"), "operationId": .string("op_check_1"),
            ]
        case .answerDispute:
            fields = [
                "providerDisputeId": .string("dispute_check_1"), "answer": .string("accept"), "documents": .array([]),
            ]
        case .clientSession, .notification:
            fields = [:]
        }
        fields.merge(json["flows"]?[flow.rawValue]?["request"]?.objectValue ?? [:]) { _, override in override }
        return try JSONEncoder().encode(JSONValue.object(fields))
    }

    /// The flow's `responses` as the host's routes, `METHOD /path` → answer; a route answered twice is a problem.
    func makeRoutes(_ flow: Flow, _ findings: inout Findings) throws -> [String: OutboundResult] {
        var routes: [String: OutboundResult] = [:]
        let responses = json["flows"]?[flow.rawValue]?["responses"]
        for response in responses.flatMap(Self.elements) ?? [] {
            let method = try findings.require(
                response["match"]?["method"]?.stringValue, "a response without match.method")
            let path = try findings.require(response["match"]?["path"]?.stringValue, "a response without match.path")
            let route = "\(method.uppercased()) \(path)"
            var body: Data?
            if let text = response["bodyText"]?.stringValue {
                body = Data(text.utf8)
            } else if let json = response["body"] {
                body = try JSONEncoder().encode(json)
            }
            findings.expect(routes[route] == nil, "\(route) has more than one answer; one answer per route")
            routes[route] = OutboundResult(
                kind: .response, status: Int(response["status"]?.integerValue ?? 200),
                headers: Self.headers(response["headers"]), body: body)
        }
        return routes
    }

    /// The scenario's `notification.request` as the plugin receives it.
    func makeNotification(_ notification: JSONValue) throws -> NotificationRequest {
        guard let request = notification["request"]?.objectValue else {
            throw ScenarioProblem("the notification has no request", flow: .notification)
        }
        guard let body = request["body"]?.stringValue else {
            throw ScenarioProblem("the notification's request has no body text", flow: .notification)
        }
        return NotificationRequest(
            method: request["method"]?.stringValue ?? "POST", path: request["path"]?.stringValue ?? "/",
            headers: Self.headers(request["headers"]), body: Data(body.utf8))
    }

    /// The string values of a `headers` object, in name order.
    static func headers(_ object: JSONValue?) -> [HTTPHeader] {
        (object?.objectValue ?? [:]).sorted { $0.key < $1.key }
            .compactMap { name, value in value.stringValue.map { HTTPHeader(name, $0) } }
    }

    static func elements(_ value: JSONValue) -> [JSONValue]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// `value` as JSON text.
    static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }

    /// `bytes` with the one at `index` replaced by one no comparison takes for it (not the same letter in another
    /// case).
    static func altered(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var bytes = bytes
        bytes[index] = bytes[index] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        return bytes
    }
}

/// What a flow gave, in the terms of a scenario's `expect`.
struct FlowResult: CustomStringConvertible {
    var kind: String?
    var providerPaymentId: String?
    var amount: Int64?
    var code: String?
    var token: Bool?
    var event: String?
    var status: String?

    init(_ outcome: Outcome?) {
        kind = outcome?.kind.rawValue
        providerPaymentId = outcome?.providerPaymentId
        amount = outcome?.amount
        code = outcome?.code
    }

    /// Runs `flow` on `provider` with the request `body`.
    init<P: Provider>(of flow: Flow, on provider: P, request body: Data, account: AccountContext) async throws {
        let decoder = JSONDecoder()
        switch flow {
        case .authorize:
            self.init(try await provider.authorize(decoder.decode(AuthorizeRequest.self, from: body), account: account))
        case .complete:
            self.init(try await provider.complete(decoder.decode(CompleteRequest.self, from: body), account: account))
        case .capture:
            self.init(try await provider.capture(decoder.decode(CaptureRequest.self, from: body), account: account))
        case .void:
            self.init(try await provider.void(decoder.decode(VoidRequest.self, from: body), account: account))
        case .refund:
            self.init(try await provider.refund(decoder.decode(RefundRequest.self, from: body), account: account))
        case .sync:
            self.init(try await provider.sync(decoder.decode(SyncRequest.self, from: body), account: account))
        case .syncRefund:
            self.init(
                try await provider.syncRefund(decoder.decode(SyncRefundRequest.self, from: body), account: account))
        case .accessToken:
            let answer = try await provider.accessToken(
                decoder.decode(AccessTokenRequest.self, from: body), account: account)
            self.init(answer.failure)
            token = answer.token != nil
        case .vaultingSession:
            let answer = try await provider.vaultingSession(
                decoder.decode(VaultingSessionRequest.self, from: body), account: account)
            self.init(answer.outcome)
        case .syncVaulting:
            let answer = try await provider.syncVaulting(
                decoder.decode(VaultingSyncRequest.self, from: body), account: account)
            self.init(answer.failure)
            event = answer.event?.kind.rawValue
        case .revokeCredential:
            let answer = try await provider.revokeCredential(
                decoder.decode(RevokeCredentialRequest.self, from: body), account: account)
            self.init(nil)
            status = answer.status.rawValue
        case .answerDispute:
            let answer = try await provider.answerDispute(
                decoder.decode(DisputeAnswerRequest.self, from: body), account: account)
            self.init(nil)
            status = answer.status.rawValue
            code = answer.code
        case .clientSession, .notification:
            throw ScenarioProblem("\(flow.rawValue) is not run as a flow", flow: flow)
        }
    }

    /// Whether the result meets the expectation `key: value`; nil for a key a scenario's `expect` does not have.
    func matches(_ key: String, _ value: JSONValue) -> Bool? {
        switch key {
        case "kind": kind == value.stringValue
        case "providerPaymentId": providerPaymentId == value.stringValue
        case "amount": amount == value.integerValue
        case "code": code == value.stringValue
        case "token": token == (value == .bool(true))
        case "event": event == value.stringValue
        case "status": status == value.stringValue
        default: nil
        }
    }

    var description: String {
        let fields: [(String, String?)] = [
            ("kind", kind), ("providerPaymentId", providerPaymentId), ("amount", amount.map(String.init)),
            ("code", code), ("token", token.map(String.init)), ("event", event), ("status", status),
        ]
        let given = fields.compactMap { name, value in value.map { "\(name) \($0)" } }
        return given.isEmpty ? "nothing" : given.joined(separator: ", ")
    }
}
