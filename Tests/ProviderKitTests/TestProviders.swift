import Foundation
import ProviderKit
import TestWaiting

/// A provider whose flows exercise the export adapter: plain results, errors, a long call and host services.
struct EchoTestProvider: Provider {
    static let manifest = PluginManifest(
        id: "test-echo", version: "1.2.3", provider: "Echo", abiVersion: 1,
        flows: [.authorize, .capture, .void, .refund, .sync, .syncRefund, .revokeCredential], methods: ["card"],
        countries: ["US"],
        currencies: ["USD"], honoursIdempotencyKey: true, usesAccessToken: false,
        credentials: [CredentialField(name: "api_key", secret: true)]
    )

    let host: any HostServices

    init(host: any HostServices) {
        self.host = host
    }

    func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        Outcome(kind: .authorized, providerPaymentId: "echo-\(request.attemptId)", amount: request.amount)
    }

    func capture(_ request: CaptureRequest, account: AccountContext) async throws -> Outcome {
        throw ProviderError.misconfigured("capture account missing")
    }

    func void(_ request: VoidRequest, account: AccountContext) async throws -> Outcome {
        throw InternalFailure(detail: request.operationId)
    }

    func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        // A provider that never answers: only a cancel ends the call.
        try await Hold.untilCancelled()
        return Outcome(kind: .succeeded)
    }

    func refund(_ request: RefundRequest, account: AccountContext) async throws -> Outcome {
        host.log(.info, "refund requested", metadata: ["refund.id": request.refundId])
        let result = await host.send(
            OutboundRequest(
                method: "POST", url: account.baseURL + "/refunds",
                headers: [HTTPHeader("Content-Type", "application/json")],
                body: Data(#"{"amount":\#(request.amount)}"#.utf8), timeoutMs: 1500
            )
        )
        return Outcome(
            kind: result.kind == .response ? .succeeded : .unknown, providerPaymentId: result.header("X-Refund-Id"),
            providerStatus: result.status.map { "\($0)" },
            message: result.body.map { String(decoding: $0, as: UTF8.self) }
        )
    }

    func syncRefund(_ request: SyncRefundRequest, account: AccountContext) async throws -> Outcome {
        Outcome(kind: .succeeded, amount: Int64(host.now().timeIntervalSince1970 * 1000))
    }

    func revokeCredential(_ request: RevokeCredentialRequest, account: AccountContext) async throws
        -> RevokeCredentialResult
    {
        guard request.credential.kind == "card" else {
            throw ProviderError(code: "bad_request", message: "only cards can be revoked")
        }
        return RevokeCredentialResult(
            status: .declined, code: "echo-\(request.operationId)", message: request.customerId)
    }

    /// An error that is not a ProviderError and whose text carries request data.
    struct InternalFailure: Error, CustomStringConvertible {
        var detail: String
        var description: String { "failed on \(detail)" }
    }
}

/// A second provider type, to check that each type gets its own table and instances.
struct OtherTestProvider: Provider {
    static let manifest = PluginManifest(
        id: "test-other", version: "0.1.0", provider: "Other", abiVersion: 1, flows: [.authorize], methods: ["alipay"],
        countries: [], currencies: [], honoursIdempotencyKey: false, usesAccessToken: false, credentials: []
    )

    init(host: any HostServices) {}

    func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        Outcome(kind: .pending, providerPaymentId: "other")
    }
}
