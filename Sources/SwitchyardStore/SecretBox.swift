import Foundation
import SwitchyardCrypto

/// Encrypts secrets at rest with AES-256-GCM under a key-encryption key (KEK).
///
/// Ciphertexts are `v1:<base64(nonce ‖ ciphertext ‖ tag)>` and bound to a context string (e.g. the
/// account id and field name) through the AAD, so a value cannot be moved to another row.
public struct SecretBox: Sendable {
    private let key: [UInt8]

    /// - Parameter key: 32 bytes.
    public init(key: [UInt8]) throws {
        guard key.count == 32 else { throw StoreError.invalidKey("the key-encryption key must be 32 bytes") }
        self.key = key
    }

    /// Reads a KEK given as base64 (44 characters) or hex (64 characters).
    public init(encoded: String) throws {
        let text = encoded.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 64, let bytes = Hex.decode(text) {
            try self.init(key: bytes)
        } else if let data = Data(base64Encoded: text) {
            try self.init(key: [UInt8](data))
        } else {
            throw StoreError.invalidKey("the key-encryption key must be 32 bytes in base64 or hex")
        }
    }

    /// Encrypts `plaintext` for `context`.
    public func seal(_ plaintext: String, context: String) throws -> String {
        let sealed = try AESGCM.seal(key: key, plaintext: Array(plaintext.utf8), aad: Array(context.utf8))
        return "v1:" + Data(sealed.nonce + sealed.ciphertext + sealed.tag).base64EncodedString()
    }

    /// Decrypts a value sealed for `context`.
    public func open(_ sealed: String, context: String) throws -> String {
        guard sealed.hasPrefix("v1:"), let data = Data(base64Encoded: String(sealed.dropFirst(3))), data.count >= 28
        else { throw StoreError.corrupt("sealed value has an unknown format") }
        let bytes = [UInt8](data)
        let nonce = Array(bytes[0..<12])
        let tag = Array(bytes[(bytes.count - 16)...])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        do {
            let plain = try AESGCM.open(
                key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, aad: Array(context.utf8))
            return String(decoding: plain, as: UTF8.self)
        } catch {
            throw StoreError.corrupt("sealed value does not decrypt under this key")
        }
    }
}

/// Failures of the store that are ours, with stable codes.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidKey(String)
    case corrupt(String)

    public var description: String {
        switch self {
        case .invalidKey(let message): return "invalid_key: \(message)"
        case .corrupt(let message): return "corrupt: \(message)"
        }
    }
}
