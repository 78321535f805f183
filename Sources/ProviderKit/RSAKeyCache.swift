import SwitchyardCrypto

/// RSA keys read from their text once and kept, found again by the SHA-256 of that text.
///
/// Reading a key is OpenSSL's slowest step for a signed call: decoding the PEM and deriving the public part
/// cost several times the signature itself. A plugin that reads the same credential on every call keeps one
/// cache for its process. The text itself is never kept, only its digest; a changed credential is a new
/// text and is read afresh. At most `capacity` keys of each kind are kept; the oldest goes first. A text
/// that is not a readable key is not kept, so the error is thrown again on every call.
public final class RSAKeyCache: Sendable {
    private final class Entries<Key: Sendable>: @unchecked Sendable {
        private let lock = SDKLock()
        private var keys: [[UInt8]: Key] = [:]
        private var order: [[UInt8]] = []

        var count: Int { locked { keys.count } }

        func key(_ digest: [UInt8]) -> Key? { locked { keys[digest] } }

        /// Keeps `key` unless another caller kept one for `digest` first; returns the one kept.
        func keep(_ key: Key, for digest: [UInt8], capacity: Int) -> Key {
            locked {
                if let kept = keys[digest] { return kept }
                if order.count >= capacity { keys[order.removeFirst()] = nil }
                keys[digest] = key
                order.append(digest)
                return key
            }
        }

        private func locked<Result>(_ body: () -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }

    private let capacity: Int
    private let privateKeys = Entries<RSAPrivateKey>()
    private let publicKeys = Entries<RSAPublicKey>()

    /// A cache of at most `capacity` (at least one) private keys and as many public keys.
    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The private key in `keyText` (as ``RSAPrivateKey/init(keyText:)`` reads it).
    /// - Throws: what ``RSAPrivateKey/init(keyText:)`` throws for unreadable text.
    public func privateKey(keyText: String) throws -> RSAPrivateKey {
        try key(keyText, in: privateKeys, read: RSAPrivateKey.init(keyText:))
    }

    /// The public key in `keyText` (as ``RSAPublicKey/init(keyText:)`` reads it).
    /// - Throws: what ``RSAPublicKey/init(keyText:)`` throws for unreadable text.
    public func publicKey(keyText: String) throws -> RSAPublicKey {
        try key(keyText, in: publicKeys, read: RSAPublicKey.init(keyText:))
    }

    /// How many keys of each kind are kept now.
    public var count: (privateKeys: Int, publicKeys: Int) {
        (privateKeys.count, publicKeys.count)
    }

    private func key<Key: Sendable>(_ text: String, in entries: Entries<Key>, read: (String) throws -> Key) throws
        -> Key
    {
        let digest = SHA2.sha256(text)
        if let key = entries.key(digest) { return key }
        return entries.keep(try read(text), for: digest, capacity: capacity)
    }
}
