import Foundation
import ProviderKit
import SwitchyardCrypto

/// An account's Antom credentials, parsed for one call.
struct AntomAccountKeys: Sendable {
    var clientId: String
    var keyVersion: String
    var privateKey: RSAPrivateKey
    var publicKey: RSAPublicKey
}

extension AntomProvider {
    /// Signs and sends one call through the host, and classifies the answer (signature checked).
    func exchange<Payload: Decodable & Sendable>(
        _ call: AntomCall, body: some Encodable, account: AccountContext, as type: Payload.Type
    ) async throws -> AntomExchange<Payload> {
        let keys = try keys(of: account)
        guard let endpoint = AntomMapping.endpoint(base: account.baseURL, call: call, clientId: keys.clientId) else {
            throw ProviderError.misconfigured("the account's base URL is not an absolute http(s) URL")
        }
        let bytes = try AntomMapping.encode(body)
        let request = try signedRequest(url: endpoint.url, path: endpoint.path, body: bytes, keys: keys)
        let result = await host.send(request)
        let exchange = AntomMapping.classify(
            result, call: call, path: endpoint.path, clientId: keys.clientId, publicKey: keys.publicKey, as: type)
        var fields = ["provider.account": account.accountId, "antom.call": call.logName]
        fields["http.status"] = result.status.map(String.init) ?? result.kind.rawValue
        switch exchange {
        case .success:
            host.log(.debug, "antom call done", metadata: fields)
        case .outcome(let outcome):
            fields["outcome.kind"] = outcome.kind.rawValue
            fields["outcome.code"] = outcome.code ?? ""
            host.log(outcome.kind == .declined ? .info : .warning, "antom call not completed", metadata: fields)
        }
        return exchange
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
            throw ProviderError.misconfigured("credential \(Credential.privateKey) cannot sign")
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
        let clientId = try credential(Credential.clientId, of: account).trimmingCharacters(in: .whitespaces)
        let privateText = try credential(Credential.privateKey, of: account)
        let publicText = try credential(Credential.antomPublicKey, of: account)
        let version = account.credentials[Credential.keyVersion]?.trimmingCharacters(in: .whitespaces)
        guard let privateKey = try? RSAPrivateKey(keyText: privateText) else {
            throw ProviderError.misconfigured("credential \(Credential.privateKey) is not a readable RSA private key")
        }
        return AntomAccountKeys(
            clientId: clientId, keyVersion: version.flatMap { $0.isEmpty ? nil : $0 } ?? "1", privateKey: privateKey,
            publicKey: try antomPublicKey(publicText))
    }

    /// Antom's public key from the credential text.
    func antomPublicKey(_ text: String) throws -> RSAPublicKey {
        guard let key = try? RSAPublicKey(keyText: text) else {
            throw ProviderError.misconfigured(
                "credential \(Credential.antomPublicKey) is not a readable RSA public key")
        }
        return key
    }

    /// A required credential, or a `misconfigured` error naming (only) the field.
    func credential(_ name: String, of account: AccountContext) throws -> String {
        guard let value = account.credentials[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ProviderError.misconfigured("credential \(name) is missing")
        }
        return value
    }
}
