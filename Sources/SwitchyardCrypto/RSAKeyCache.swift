import Synchronization

/// RSA keys read from their text once and kept, found again by the SHA-256 of that text.
///
/// Reading a key is OpenSSL's slowest step for a signed call: decoding the PEM and deriving the public part
/// cost several times the signature itself. A plugin that reads the same credential on every call keeps one
/// cache for its process. The text itself is never kept, only its digest; a changed credential is a new
/// text and is read afresh. At most `capacity` keys of each kind are kept; the oldest goes first. A text
/// that is not a readable key is not kept, so the error is thrown again on every call.
public final class RSAKeyCache: Sendable {
    private struct Entries<Key: Sendable>: Sendable {
        var keys: [[UInt8]: Key] = [:]
        var order: [[UInt8]] = []
    }

    private let capacity: Int
    private let privateKeys = Mutex(Entries<RSAPrivateKey>())
    private let publicKeys = Mutex(Entries<RSAPublicKey>())

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
        (privateKeys.withLock { $0.keys.count }, publicKeys.withLock { $0.keys.count })
    }

    private func key<Key: Sendable>(
        _ text: String, in entries: borrowing Mutex<Entries<Key>>, read: (String) throws -> Key
    ) throws -> Key {
        let digest = SHA2.sha256(text)
        if let key = entries.withLock({ $0.keys[digest] }) { return key }
        let key = try read(text)
        return entries.withLock { entries in
            if let kept = entries.keys[digest] { return kept }
            if entries.order.count >= capacity {
                entries.keys[entries.order.removeFirst()] = nil
            }
            entries.keys[digest] = key
            entries.order.append(digest)
            return key
        }
    }
}
