import Foundation
import ProviderKit

/// An account's Sips credentials, read for one call.
struct SipsAccountKeys: Sendable {
    var merchantId: String
    var secretKey: String
    var keyVersion: Int
}

extension WorldlineSipsProvider {
    /// Seals and sends one call through the host, and classifies the answer (seal checked).
    func exchange<Payload: Decodable & Sendable>(
        _ service: SipsService, body: some SipsSealedRequest, keys: SipsAccountKeys, account: AccountContext,
        as type: Payload.Type
    ) async throws -> SipsExchange<Payload> {
        guard let url = SipsMapping.endpoint(base: account.baseURL, service: service) else {
            throw ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")
        }
        var body = body
        body.seal = try SipsSeal.seal(of: body, secret: keys.secretKey)
        let bytes: Data
        do {
            bytes = try SipsMapping.encode(body)
        } catch {
            throw ProviderError(code: "bad_request", message: "the Sips request cannot be encoded")
        }
        let request = OutboundRequest(
            method: "POST", url: url,
            headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")],
            body: bytes)
        let result = await host.send(request)
        let exchange = SipsMapping.classify(result, secret: keys.secretKey, as: type)
        var fields = ["provider.account": account.accountId, "sips.service": service.logName]
        fields["http.status"] = result.status.map(String.init) ?? result.kind.rawValue
        switch exchange {
        case .answer:
            host.log(.debug, "sips call answered", metadata: fields)
        case .outcome(let outcome):
            fields["outcome.kind"] = outcome.kind.rawValue
            fields["outcome.code"] = outcome.code ?? ""
            host.log(.warning, "sips call not answered", metadata: fields)
        }
        return exchange
    }

    /// `diagnostic/getTransactionData` for one transaction reference.
    func transactionData(_ reference: String, keys: SipsAccountKeys, account: AccountContext) async throws
        -> SipsExchange<SipsTransactionDataResponse>
    {
        let body = SipsMapping.transactionDataRequest(reference: reference, keys: keys, account: account)
        return try await exchange(
            .getTransactionData, body: body, keys: keys, account: account, as: SipsTransactionDataResponse.self)
    }

    /// The account's merchant id, secret key and key version (default 1); `misconfigured` naming only the field
    /// when one is missing or unusable.
    func keys(of account: AccountContext) throws -> SipsAccountKeys {
        let merchantId = try credential(Credential.merchantId, of: account).trimmingCharacters(in: .whitespaces)
        let secretKey = try credential(Credential.secretKey, of: account)
        let versionText = account.credentials[Credential.keyVersion]?.trimmingCharacters(in: .whitespaces) ?? ""
        let keyVersion: Int
        if versionText.isEmpty {
            keyVersion = 1
        } else if let version = Int(versionText), version >= 0, versionText.allSatisfy(\.isNumber) {
            keyVersion = version
        } else {
            throw ProviderError.misconfigured("credential \(Credential.keyVersion) is not an integer")
        }
        return SipsAccountKeys(merchantId: merchantId, secretKey: secretKey, keyVersion: keyVersion)
    }

    /// A required credential, or a `misconfigured` error naming (only) the field.
    func credential(_ name: String, of account: AccountContext) throws -> String {
        guard let value = account.credentials[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ProviderError.misconfigured("credential \(name) is missing")
        }
        return value
    }
}
