#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// The Worldline Direct provider: client sessions for the app SDK (OnlinePaymentsKit), payments from the
/// app's encrypted card input, captures, cancels, refunds, inquiries and signed webhooks.
///
/// Every call is signed with `v1HMAC` and goes through the host's HTTP service; the plugin keeps no state.
public struct WorldlineDirectProvider: Provider {
    /// The `X-GCS-ServerMetaInfo` value: base64 of a fixed JSON object naming the integration.
    static let serverMetaInfo = Data(
        (#"{"platformIdentifier":"Linux","sdkCreator":"Switchyard","#
            + #""sdkIdentifier":"Switchyard/1.0.0","integrator":"Switchyard"}"#).utf8
    ).base64EncodedString()

    let host: any HostServices

    /// Creates the provider over the host's services.
    public init(host: any HostServices) {
        self.host = host
    }

    /// `POST /v2/{merchantId}/sessions`: a client session for the app. No payment exists yet, so the
    /// outcome is pending with the session as a `worldline_client_session` next action.
    public func authorize(_ request: AuthorizeRequest, account: AccountContext) async throws -> Outcome {
        let body = try ProviderJSON.standard.encode(WorldlineSessionRequest(tokens: nil))
        let exchange = try await exchange(
            .session, method: "POST", path: "/sessions", body: body, idempotenceKey: nil, account: account,
            as: WorldlineSessionResponse.self
        )
        switch exchange {
        case .outcome(let outcome): return outcome
        case .success(let session):
            return WorldlineDirectMapping.sessionOutcome(
                session, now: host.now(), lifetime: WorldlineDirectMapping.sessionLifetime(options: account.options))
        }
    }

    /// `POST /v2/{merchantId}/payments` with the app's encrypted customer input, while its session is valid.
    ///
    /// Throws `session_expired` (nothing is sent) when the session's `expires_at` has passed (unless the
    /// request is a replay, which Worldline answers from its idempotence store), and
    /// `bad_request` when `encrypted_customer_input` is missing.
    public func complete(_ request: CompleteRequest, account: AccountContext) async throws -> Outcome {
        if !request.isReplay && WorldlineDirectMapping.sessionExpired(request.session, now: host.now()) {
            throw ProviderError(code: "session_expired", message: "the Worldline client session has expired")
        }
        guard let input = request.paymentData[WorldlineDirectMapping.encryptedInputKey]?.stringValue,
            !input.isEmpty
        else {
            throw ProviderError(code: "bad_request", message: "encrypted_customer_input is missing")
        }
        let body = try ProviderJSON.standard.encode(
            WorldlineDirectMapping.createPaymentRequest(
                request, encryptedInput: input, webhookURL: account.notificationURL))
        let exchange = try await exchange(
            .createPayment, method: "POST", path: "/payments", body: body, idempotenceKey: request.operationId,
            account: account, as: WorldlineCreatePaymentResponse.self
        )
        return exchange.resolve(WorldlineDirectMapping.createPaymentOutcome)
    }

    /// `GET /v2/{merchantId}/payments/{id}`. Without Worldline's payment id the outcome is unknown
    /// (`no_payment_id`): Worldline has no inquiry by our reference.
    public func sync(_ request: SyncRequest, account: AccountContext) async throws -> Outcome {
        guard let id = request.payment.knownProviderPaymentId else {
            return .unknown(code: "no_payment_id", message: "Worldline's payment id is not known")
        }
        let exchange = try await exchange(
            .getPayment, method: "GET", path: "/payments/" + ProviderURL.pathSegment(id), body: nil,
            idempotenceKey: nil, account: account, as: WorldlinePayment.self
        )
        return exchange.naming(id).resolve(WorldlineDirectMapping.paymentOutcome)
    }

    // MARK: Plumbing

    /// Signs and sends one request under `/v2/{merchantId}` through the host, and classifies the answer.
    func exchange<Payload: Decodable & Sendable>(
        _ call: WorldlineCall, method: String, path: String, body: Data?, idempotenceKey: String?,
        account: AccountContext, as type: Payload.Type
    ) async throws -> ExchangeResult<Payload> {
        let request = try signedRequest(
            method: method, path: path, body: body, idempotenceKey: idempotenceKey, account: account)
        return await ProviderExchange(host: host, logName: "worldline").send(
            request, call: call.rawValue, account: account
        ) { WorldlineDirectMapping.classify($0, call: call, as: type) }
    }

    /// The signed request: `Date`, `Content-Type` (with a body), `X-GCS-ServerMetaInfo`, the optional
    /// `X-GCS-Idempotence-Key` and `Authorization: GCS v1HMAC:…`.
    func signedRequest(
        method: String, path: String, body: Data?, idempotenceKey: String?, account: AccountContext
    ) throws -> OutboundRequest {
        let merchantId = try account.credentials.requireIdentifier(Credential.merchantId)
        let keyId = try account.credentials.requireIdentifier(Credential.apiKeyId)
        let secret = try account.credentials.require(Credential.secretApiKey)
        let url = ProviderURL.join(base: account.baseURL, path: "/v2/" + ProviderURL.pathSegment(merchantId) + path)
        let date = WorldlineDirectSigning.rfc1123(host.now())
        let contentType = body == nil ? nil : "application/json"
        var headers = [HTTPHeader("Date", date)]
        if let contentType { headers.append(HTTPHeader("Content-Type", contentType)) }
        headers.append(HTTPHeader("X-GCS-ServerMetaInfo", Self.serverMetaInfo))
        if let idempotenceKey { headers.append(HTTPHeader("X-GCS-Idempotence-Key", idempotenceKey)) }
        let toSign = WorldlineDirectSigning.stringToSign(
            method: method, contentType: contentType, date: date, headers: headers,
            resource: WorldlineDirectSigning.canonicalResource(url: url))
        headers.append(
            HTTPHeader(
                "Authorization",
                WorldlineDirectSigning.authorization(keyId: keyId, secret: secret.reveal(), stringToSign: toSign)))
        return OutboundRequest(method: method, url: url, headers: headers, body: body, redactHeaders: ["Authorization"])
    }
}
