import Foundation

/// Generates public object ids: a type prefix and 24 random lowercase base-32 characters (`pay_…`).
public struct IdentifierGenerator: Sendable {
    private let randomBytes: @Sendable (Int) -> [UInt8]

    /// - Parameter randomBytes: a source of random bytes (cryptographically secure in production).
    public init(randomBytes: @escaping @Sendable (Int) -> [UInt8]) {
        self.randomBytes = randomBytes
    }

    /// A new id with the given prefix, e.g. `make("pay")` → `pay_k3…`.
    public func make(_ prefix: String) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let bytes = randomBytes(24)
        let body = String(bytes.map { alphabet[Int($0) % 32] })
        return "\(prefix)_\(body)"
    }
}
