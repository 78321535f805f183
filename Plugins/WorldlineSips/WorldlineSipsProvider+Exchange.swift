#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import ProviderKit

/// An account's Sips credentials, read for one call.
struct SipsAccountKeys: Sendable {
    var merchantId: String
    var secretKey: Secret
    var keyVersion: Int
}

extension WorldlineSipsProvider {
    /// Seals and sends one call through the host, and classifies the answer (seal checked).
    func exchange<Payload: Decodable & Sendable>(
        _ service: SipsService, body: some SipsSealedRequest, keys: SipsAccountKeys, account: AccountContext,
        as type: Payload.Type
    ) async throws -> ExchangeResult<Payload> {
        guard let url = SipsMapping.endpoint(base: account.baseURL, service: service) else {
            throw ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")
        }
        var body = body
        body.seal = try SipsSeal.seal(of: body, secret: keys.secretKey.reveal())
        let request = OutboundRequest(
            method: "POST", url: url, headers: [.jsonContent, HTTPHeader("Accept", "application/json")],
            body: try ProviderJSON.standard.encode(body))
        let exchange = ProviderExchange(host: host, logName: "sips", callKey: "sips.service")
        return await exchange.send(request, call: service.logName, account: account) {
            SipsMapping.classify($0, secret: keys.secretKey.reveal(), as: type)
        }
    }

    /// `diagnostic/getTransactionData` for one transaction reference.
    func transactionData(_ reference: String, keys: SipsAccountKeys, account: AccountContext) async throws
        -> ExchangeResult<SipsTransactionDataResponse>
    {
        let body = SipsMapping.transactionDataRequest(reference: reference, keys: keys, account: account)
        return try await exchange(
            .getTransactionData, body: body, keys: keys, account: account, as: SipsTransactionDataResponse.self)
    }

    /// The account's merchant id, secret key and key version (default 1); `misconfigured` naming only the field
    /// when one is missing or unusable.
    func keys(of account: AccountContext) throws -> SipsAccountKeys {
        let merchantId = try account.credentials.requireIdentifier(Credential.merchantId)
        let secretKey = try account.credentials.require(Credential.secretKey)
        let versionText = account.credentials.nonBlank(Credential.keyVersion) ?? "1"
        guard let keyVersion = Int(versionText), keyVersion >= 0, versionText.allSatisfy(\.isNumber) else {
            throw ProviderError.misconfigured("credential \(Credential.keyVersion.name) is not an integer")
        }
        return SipsAccountKeys(merchantId: merchantId, secretKey: secretKey, keyVersion: keyVersion)
    }
}
