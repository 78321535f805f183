#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

extension __Name__Provider {
    /// Sends one request to the account's base URL through the host and classifies the answer.
    ///
    /// The API key goes as a bearer token in `Authorization`, which the host never logs or records; the
    /// exchange logs one line per call, without URL, header or body.
    ///
    /// - Throws: `misconfigured` (nothing sent) when the API key is missing or the base URL is not an
    ///   absolute http(s) URL.
    func exchange<Payload: Decodable & Sendable>(
        _ call: __Name__Call, method: String, path: String, body: Data?, idempotencyKey: String?,
        account: AccountContext, as type: Payload.Type
    ) async throws -> ExchangeResult<Payload> {
        let apiKey = try account.credentials.require(Credential.apiKey)
        let endpoint = try ProviderURL.requireEndpoint(base: account.baseURL, path: path)
        var headers: [HTTPHeader] = [.bearer(apiKey), HTTPHeader("Accept", "application/json")]
        if body != nil { headers.append(.jsonContent) }
        if let idempotencyKey { headers.append(HTTPHeader("Idempotency-Key", idempotencyKey)) }
        let request = OutboundRequest(
            method: method, url: endpoint.url, headers: headers, body: body, redactHeaders: ["Authorization"])
        return await ProviderExchange(host: host, logName: "__name__").send(
            request, call: call.rawValue, account: account
        ) {
            __Name__Mapping.classify($0, call: call, as: type, secrets: account.secretValues)
        }
    }
}
