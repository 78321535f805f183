import ProviderKit
import SwitchyardCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An account's Antom credentials for one call, the keys from ``AntomProvider/keyCache``.
struct AntomAccountKeys: Sendable {
    var clientId: String
    var keyVersion: String
    var privateKey: RSAPrivateKey
    var publicKey: RSAPublicKey
}

extension AntomProvider {
    /// The accounts' keys, read once per credential text for the life of the plugin's process.
    static let keyCache = RSAKeyCache(capacity: 64)

    /// Signs and sends one call through the host, and classifies the answer (signature checked).
    func exchange<Payload: Decodable & Sendable>(
        _ call: AntomCall, body: some Encodable, account: AccountContext, as type: Payload.Type
    ) async throws -> ExchangeResult<Payload> {
        let keys = try keys(of: account)
        guard let endpoint = AntomMapping.endpoint(base: account.baseURL, call: call, clientId: keys.clientId) else {
            throw ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")
        }
        let bytes = try ProviderJSON.standard.encode(body)
        let request = try signedRequest(url: endpoint.url, path: endpoint.path, body: bytes, keys: keys)
        return await ProviderExchange(host: host, logName: "antom").send(request, call: call.logName, account: account)
        {
            AntomMapping.classify(
                $0, call: call, path: endpoint.path, clientId: keys.clientId, publicKey: keys.publicKey, as: type)
        }
    }

    /// The signed `POST`: `Content-Type`, `client-id`, `request-time` (epoch milliseconds from the host's
    /// clock) and `signature` over the path as sent and the exact body.
    func signedRequest(url: String, path: String, body: Data, keys: AntomAccountKeys) throws -> OutboundRequest {
        let time = AntomSigning.requestTime(host.now())
        let content = AntomSigning.content(path: path, clientId: keys.clientId, time: time, body: body)
        let signature: String
        do {
            signature = try AntomSigning.sign(content, with: keys.privateKey)
        } catch {
            throw ProviderError.misconfigured("credential \(Credential.privateKey.name) cannot sign")
        }
        let headers = [
            HTTPHeader("Content-Type", "application/json; charset=UTF-8"),
            HTTPHeader("client-id", keys.clientId),
            HTTPHeader("request-time", time),
            HTTPHeader("signature", AntomSigning.header(keyVersion: keys.keyVersion, encodedSignature: signature)),
        ]
        return OutboundRequest(method: "POST", url: url, headers: headers, body: body)
    }

    /// The account's client id, key version and keys; `misconfigured` naming only the field when one is
    /// missing or unreadable.
    func keys(of account: AccountContext) throws -> AntomAccountKeys {
        let clientId = try account.credentials.requireIdentifier(Credential.clientId)
        let privateText = try account.credentials.require(Credential.privateKey)
        let publicText = try account.credentials.require(Credential.antomPublicKey)
        guard let privateKey = try? privateText.withValue(Self.keyCache.privateKey(keyText:)) else {
            throw ProviderError.misconfigured(
                "credential \(Credential.privateKey.name) is not a readable RSA private key")
        }
        return AntomAccountKeys(
            clientId: clientId, keyVersion: account.credentials.nonBlank(Credential.keyVersion) ?? "1",
            privateKey: privateKey, publicKey: try antomPublicKey(publicText))
    }

    /// Antom's public key from the credential text.
    func antomPublicKey(_ text: Secret) throws -> RSAPublicKey {
        guard let key = try? text.withValue(Self.keyCache.publicKey(keyText:)) else {
            throw ProviderError.misconfigured(
                "credential \(Credential.antomPublicKey.name) is not a readable RSA public key")
        }
        return key
    }
}
