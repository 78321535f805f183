import Foundation
import SwitchyardCrypto

/// Encrypts secrets at rest with AES-256-GCM under a keyring of key-encryption keys (KEKs).
///
/// Values are sealed under the current key as `v2:<key id>:<base64(nonce ‖ ciphertext ‖ tag)>`; the key id
/// (``keyId(of:)``) names the key without revealing it, so a value opens with the key that sealed it while
/// older keys are still configured as previous ones. Values sealed before key ids existed
/// (`v1:<base64(…)>`) open with whichever configured key sealed them. Every value is bound to a context
/// string (e.g. the account id and field name) through the AAD, so it cannot be moved to another row.
public struct SecretBox: Sendable {
    /// One key of the keyring with its id.
    struct Key: Sendable {
        let id: String
        let bytes: [UInt8]
    }

    private let current: Key
    private let previous: [Key]

    /// - Parameters:
    ///   - key: the current key, 32 bytes; every value is sealed under it.
    ///   - previous: older keys (32 bytes each) that still open what they sealed.
    public init(key: [UInt8], previous: [[UInt8]] = []) throws {
        current = try Self.key(key)
        var older: [Key] = []
        for bytes in previous {
            let key = try Self.key(bytes)
            if key.id != current.id, !older.contains(where: { $0.id == key.id }) { older.append(key) }
        }
        self.previous = older
    }

    /// Reads the current key and the previous ones, each given as base64 (44 characters) or hex (64
    /// characters).
    public init(encoded: String, previous: [String] = []) throws {
        try self.init(key: try Self.decode(encoded), previous: try previous.map(Self.decode))
    }

    /// The id of the key every value is sealed under now.
    public var currentKeyId: String { current.id }

    /// The ids of the previous keys, in the order they were given.
    public var previousKeyIds: [String] { previous.map(\.id) }

    /// The id of a key: the first 8 bytes of HMAC-SHA256 keyed by it over a fixed label, in hex. It tells
    /// keys apart and cannot be turned back into the key.
    public static func keyId(of key: [UInt8]) -> String {
        Hex.encode(HMAC.sha256(key: key, message: "switchyard key-encryption key id").prefix(8))
    }

    /// The id of the key that sealed `sealed`; nil for a value sealed before key ids existed (or one that is
    /// not a sealed value).
    public static func keyId(ofSealed sealed: String) -> String? {
        let parts = sealed.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v2" else { return nil }
        return String(parts[1])
    }

    /// Whether `sealed` is sealed under the current key (so rotation leaves it as it is).
    public func isSealedByCurrentKey(_ sealed: String) -> Bool {
        Self.keyId(ofSealed: sealed) == current.id
    }

    /// Encrypts `plaintext` for `context` under the current key.
    public func seal(_ plaintext: String, context: String) throws -> String {
        let sealed = try AESGCM.seal(key: current.bytes, plaintext: Array(plaintext.utf8), aad: Array(context.utf8))
        return "v2:\(current.id):" + Data(sealed.nonce + sealed.ciphertext + sealed.tag).base64EncodedString()
    }

    /// Decrypts a value sealed for `context` with the key whose id it records (a legacy value: with the
    /// configured key that opens it). A key id the keyring does not have is ``StoreError/unknownKey(_:)``.
    public func open(_ sealed: String, context: String) throws -> String {
        let parts = sealed.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        let keys: [Key]
        let body: Substring
        if parts.count == 2, parts[0] == "v1" {
            keys = [current] + previous
            body = parts[1]
        } else if parts.count == 3, parts[0] == "v2" {
            let id = String(parts[1])
            guard let key = ([current] + previous).first(where: { $0.id == id }) else {
                throw StoreError.unknownKey(id)
            }
            keys = [key]
            body = parts[2]
        } else {
            throw StoreError.corrupt("sealed value has an unknown format")
        }
        guard let data = Data(base64Encoded: String(body)), data.count >= 28 else {
            throw StoreError.corrupt("sealed value has an unknown format")
        }
        let bytes = [UInt8](data)
        let nonce = Array(bytes[0..<12])
        let tag = Array(bytes[(bytes.count - 16)...])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        for key in keys {
            if let plain = try? AESGCM.open(
                key: key.bytes, nonce: nonce, ciphertext: ciphertext, tag: tag, aad: Array(context.utf8))
            {
                return String(decoding: plain, as: UTF8.self)
            }
        }
        throw StoreError.corrupt(
            parts.count == 3
                ? "sealed value does not decrypt under key \(keys[0].id)"
                : "sealed value does not decrypt under any configured key")
    }

    /// Opens `sealed` and seals it again under the current key; a value already sealed by it is returned as
    /// it is.
    public func reseal(_ sealed: String, context: String) throws -> String {
        if isSealedByCurrentKey(sealed) { return sealed }
        return try seal(try open(sealed, context: context), context: context)
    }

    private static func key(_ bytes: [UInt8]) throws -> Key {
        guard bytes.count == 32 else { throw StoreError.invalidKey("the key-encryption key must be 32 bytes") }
        return Key(id: keyId(of: bytes), bytes: bytes)
    }

    private static func decode(_ encoded: String) throws -> [UInt8] {
        let text = encoded.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count == 64, let bytes = Hex.decode(text) { return bytes }
        if let data = Data(base64Encoded: text) { return [UInt8](data) }
        throw StoreError.invalidKey("the key-encryption key must be 32 bytes in base64 or hex")
    }
}
