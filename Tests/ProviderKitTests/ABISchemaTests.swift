import Foundation
import ProviderKit
import Testing

/// The JSON Schemas beside the C header describe what ProviderKit really puts on the wire: real values,
/// encoded as a plugin or the host encodes them, validate; values the schemas do not describe do not.
@Suite("ABI JSON Schemas")
struct ABISchemaTests {
    private let validator = SchemaValidator(
        directory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/CSwitchyardPlugin/schema"))

    private let account = AccountContext(
        accountId: "acct_1", environment: "sandbox", baseURL: "https://provider.example",
        credentials: ["api_key": "k"], accessToken: "tok", notificationURL: "https://s.example/n", options: ["a": "b"])
    private let locator = PaymentLocator(attemptId: "att_1", providerPaymentId: "pp_1")
    private let credential = StoredCredential(id: "pm_1", kind: "card", token: "t", paymentMethodType: "CARD")
    private let event = CredentialEvent(
        kind: .created, correlationId: "c", credentialKind: "card", token: "t", paymentMethodType: "CARD",
        display: CredentialDisplay(
            brand: "VISA", last4: "0768", masked: "****0768", expiryMonth: 12, expiryYear: 2030, account: "a***"),
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000.5), code: "C", message: "m")
    private let outcome = Outcome(
        kind: .pending, providerPaymentId: "pp_1", providerStatus: "PENDING", amount: 100, capturedAmount: 0,
        refundedAmount: 0,
        nextAction: NextAction(
            type: "redirect", data: ["url": .string("https://x"), "n": .integer(1), "f": .number(1.5), "z": .null],
            expiresAt: Date(timeIntervalSince1970: 1_900_000_000), renewable: true),
        code: "c", message: "m", retryable: false)

    private func requestProblems<R: Codable & Sendable>(_ flow: Flow, _ request: R) throws -> [String] {
        try validator.problems(
            encoding: PluginInvocation(account: account, request: request),
            against: "flows/\(flow.rawValue).request.json")
    }

    private func replyProblems<R: Codable & Sendable>(_ flow: Flow, _ result: R) throws -> [String] {
        try validator.problems(encoding: PluginReply(result: result), against: "flows/\(flow.rawValue).reply.json")
    }

    @Test func everyFlowsRequestValidates() throws {
        let authorize = AuthorizeRequest(
            paymentId: "pay_1", attemptId: "att_1", merchantReference: "r", amount: 100, currency: "EUR", country: "FR",
            method: "card", captureMode: .manual, customerId: "c", returnURL: "https://r",
            paymentData: ["k": .object(["n": .array([.bool(true)])])], idempotencyKey: "i",
            storedCredential: credential,
            credentialSetup: CredentialSetup(correlationId: "c", customerId: "c"))
        #expect(try requestProblems(.authorize, authorize) == [])
        let minimal = AuthorizeRequest(
            paymentId: "p", attemptId: "a", merchantReference: "r", amount: 1, currency: "USD", country: "US",
            method: "alipay", captureMode: .automatic, idempotencyKey: "i")
        #expect(try requestProblems(.authorize, minimal) == [])
        let complete = CompleteRequest(
            payment: locator, operationId: "o", merchantReference: "r", amount: 1, currency: "EUR", country: "FR",
            method: "card", captureMode: .automatic, returnURL: nil, paymentData: [:], session: ["s": .string("x")],
            isReplay: true)
        #expect(try requestProblems(.complete, complete) == [])
        #expect(
            try requestProblems(
                .capture, CaptureRequest(payment: locator, operationId: "o", amount: 1, currency: "EUR", isFinal: true))
                == [])
        #expect(try requestProblems(.void, VoidRequest(payment: locator, operationId: "o")) == [])
        #expect(
            try requestProblems(
                .refund, RefundRequest(payment: locator, refundId: "r", amount: 1, currency: "EUR", reason: "why"))
                == [])
        #expect(
            try requestProblems(.sync, SyncRequest(payment: PaymentLocator(attemptId: "a", providerPaymentId: nil)))
                == [])
        #expect(
            try requestProblems(
                .syncRefund, SyncRefundRequest(payment: locator, refundId: "r", providerRefundId: "pr")) == [])
        #expect(try requestProblems(.accessToken, AccessTokenRequest(kind: "client")) == [])
        let notification = NotificationRequest(
            method: "POST", path: "/n", headers: [HTTPHeader("X-Sig", "s")], body: Data("{}".utf8))
        #expect(try requestProblems(.notification, notification) == [])
        #expect(
            try requestProblems(
                .vaultingSession,
                VaultingSessionRequest(vaultingId: "v", customerId: "c", returnURL: "https://r", country: "PH")) == [])
        #expect(try requestProblems(.syncVaulting, VaultingSyncRequest(vaultingId: "v")) == [])
        #expect(
            try requestProblems(
                .revokeCredential, RevokeCredentialRequest(credential: credential, customerId: "c", operationId: "o"))
                == [])
    }

    @Test func everyFlowsReplyValidates() throws {
        for flow in [Flow.authorize, .capture, .void, .refund, .sync, .syncRefund, .complete] {
            #expect(try replyProblems(flow, outcome) == [], "\(flow)")
            #expect(try replyProblems(flow, Outcome.notSent("x")) == [], "\(flow)")
        }
        #expect(
            try replyProblems(
                .accessToken,
                AccessTokenResult(token: AccessToken(token: "t", expiresAt: Date(timeIntervalSince1970: 5))))
                == [])
        #expect(try replyProblems(.accessToken, AccessTokenResult(failure: .authExpired)) == [])
        let notification = NotificationResult(
            verified: true, reply: NotificationReply(status: 200, headers: [HTTPHeader("A", "b")], body: "ok"),
            events: [
                NotificationEvent(subject: .payment, reference: "att_1", providerPaymentId: "pp", outcome: outcome)
            ],
            failureReason: "f", credentials: [event], dedupKey: "d", secretFields: ["token"])
        #expect(try replyProblems(.notification, notification) == [])
        #expect(try replyProblems(.vaultingSession, VaultingSessionResult(outcome: outcome)) == [])
        #expect(try replyProblems(.syncVaulting, VaultingSyncResult(event: event, failure: outcome)) == [])
        #expect(try replyProblems(.revokeCredential, RevokeCredentialResult.notSupported("no")) == [])
        // An error reply, e.g. of a cancelled call, validates against every flow's reply schema.
        for flow in Flow.allCases {
            let cancelled = PluginReply<Outcome>(error: ProviderErrorBody(code: "cancelled", message: "cancelled"))
            #expect(
                try validator.problems(encoding: cancelled, against: "flows/\(flow.rawValue).reply.json") == [],
                "\(flow)")
        }
    }

    @Test func manifestAndHostServicesValidate() throws {
        // `answerDispute` is offered through `answersDisputes`, never listed in `flows` (see docs/plugin-abi.md).
        var manifest = PluginManifest(
            id: "c-echo", version: "1.0.0", provider: "Echo", abiVersion: 1,
            flows: Flow.allCases.filter { $0 != .answerDispute }, methods: ["card"],
            countries: ["FR"], currencies: ["EUR"], honoursIdempotencyKey: true, usesAccessToken: false,
            credentials: [CredentialField(name: "api_key", secret: true)])
        manifest.answersDisputes = true
        manifest.returnsPromptly = true
        #expect(try validator.problems(encoding: manifest, against: "manifest.json") == [])
        // A manifest made with the kit says its entry points return at once: the kit's never wait.
        let kit = PluginManifest(
            id: "kit", provider: "Kit", version: "1.0.0", flows: [.authorize], methods: ["card"],
            currencies: [], honoursIdempotencyKey: false, credentials: [])
        #expect(kit.returnsPromptly == true)
        #expect(try validator.problems(encoding: kit, against: "manifest.json") == [])
        let request = OutboundRequest(
            method: "POST", url: "https://p.example", headers: [HTTPHeader("Authorization", "Bearer x")],
            body: Data([0, 1, 2]), timeoutMs: 1000, redactHeaders: ["Authorization"])
        #expect(try validator.problems(encoding: request, against: "outbound-request.json") == [])
        #expect(
            try validator.problems(encoding: OutboundRequest(method: "GET", url: "u"), against: "outbound-request.json")
                == [])
        let result = OutboundResult(
            kind: .response, status: 200, headers: [HTTPHeader("A", "b")], body: Data("x".utf8), reason: "r")
        #expect(try validator.problems(encoding: result, against: "outbound-result.json") == [])
        #expect(
            try validator.problems(
                encoding: ["payment.id": "pay_1", "provider.status": "x"], against: "log-metadata.json")
                == [])
    }

    @Test func perMethodSupportValidatesAndOldManifestsStillDecode() throws {
        let manifest = PluginManifest(
            id: "c-echo", provider: "Echo", version: "1.0.0", flows: [.authorize], methods: ["card", "wallet"],
            currencies: ["EUR"], honoursIdempotencyKey: true, credentials: [],
            methodSupport: [
                MethodSupport(
                    method: "card", countries: ["FR"], amountLimits: ["EUR": AmountLimit(max: 1_000_000)],
                    storable: true, delayedCapture: true,
                    app: AppIntegration(
                        flow: "encrypted_card", sdk: "Kit", nextAction: "kit_session", sessionFields: ["id"],
                        paymentData: ["encrypted"])),
                MethodSupport(
                    method: "wallet", storable: false, delayedCapture: false,
                    app: AppIntegration(flow: "redirect", sdk: nil, nextAction: "redirect", sessionFields: ["url"])),
            ])
        #expect(try validator.problems(encoding: manifest, against: "manifest.json") == [])
        // A manifest written before per-method support existed decodes without it.
        var old = try JSONSerialization.jsonObject(with: PluginJSON.encoder().encode(manifest)) as? [String: Any]
        old?["methodSupport"] = nil
        let data = try JSONSerialization.data(withJSONObject: try #require(old))
        let decoded = try PluginJSON.decoder().decode(PluginManifest.self, from: data)
        #expect(decoded.methodSupport == nil)
        #expect(
            decoded.support(for: "card")
                == MethodSupport(
                    method: "card", currencies: ["EUR"], storable: false, delayedCapture: false))
    }

    @Test func valuesTheSchemasDoNotDescribeAreRejected() throws {
        let manifest = PluginManifest(
            id: "Not An ID", version: "1", provider: "x", abiVersion: 2, flows: [.sync], methods: [], countries: [],
            currencies: [], honoursIdempotencyKey: false, usesAccessToken: false, credentials: [])
        let manifestProblems = try validator.problems(encoding: manifest, against: "manifest.json")
        #expect(manifestProblems.count == 2, "\(manifestProblems)")
        // A missing required key, a wrong type, an unknown kind, a key the schema does not list, both
        // result and error.
        let invocation: JSONValue = .object([
            "account": .object(["accountId": .string("a")]),
            "request": .object(["payment": .object(["attemptId": .integer(1)]), "extra": .bool(true)]),
        ])
        let problems = try validator.problems(invocation, against: "flows/sync.request.json")
        #expect(problems.contains { $0.contains("missing required environment") })
        #expect(problems.contains { $0.contains("attemptId: expected string") })
        #expect(problems.contains { $0.contains("extra is not in the schema") })
        let reply: JSONValue = .object([
            "result": .object(["kind": .string("maybe")]),
            "error": .object(["code": .string("x"), "message": .string("y")]),
        ])
        let replyProblems = try validator.problems(reply, against: "flows/sync.reply.json")
        #expect(replyProblems.contains { $0.contains("not one of the allowed values") })
        #expect(replyProblems.contains { $0.contains("oneOf") })
        let log: JSONValue = .object(["count": .integer(1)])
        #expect(try validator.problems(log, against: "log-metadata.json") != [])
    }
}
