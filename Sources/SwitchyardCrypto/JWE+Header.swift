#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JWE {
    /// The JWE protected header members SwitchyardCrypto reads; other members are ignored.
    public struct Header: Codable, Sendable, Equatable {
        /// Key management algorithm: `RSA-OAEP` or `RSA-OAEP-256`.
        public var alg: String
        /// Content encryption algorithm: `A256CBC-HS512`.
        public var enc: String
        /// Identifier of the recipient's key, when present.
        public var kid: String?

        /// Creates a header from its members.
        public init(alg: String, enc: String, kid: String? = nil) {
            self.alg = alg
            self.enc = enc
            self.kid = kid
        }

        /// Compact JSON with sorted keys and no spaces, e.g. `{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"k1"}`.
        func compactJSON() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(self) else {
                throw CryptoError.invalidInput("JWE header not encodable")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
