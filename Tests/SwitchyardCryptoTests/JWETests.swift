import Foundation
import SwitchyardCrypto
import Testing

struct JWETests {
    static let sdkHeader = #"{"alg":"RSA-OAEP", "enc":"A256CBC-HS512", "kid":"k1"}"#

    @Test(arguments: ["RSA-OAEP", "RSA-OAEP-256"])
    func roundTrip(_ algorithm: String) throws {
        let key = sharedGeneratedKey
        let plaintext = utf8(
            #"{"clientSessionId":"s1","paymentValues":[{"key":"cardNumber","value":"4111111111111111"}]}"#)
        let token = try JWE.encrypt(plaintext: plaintext, recipient: key.publicKey, keyId: "k1", algorithm: algorithm)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 5)
        #expect(Base64URL.decode(parts[0]) == utf8(#"{"alg":"\#(algorithm)","enc":"A256CBC-HS512","kid":"k1"}"#))
        #expect(Base64URL.decode(parts[1])?.count == 256)
        #expect(Base64URL.decode(parts[2])?.count == 16)
        #expect(Base64URL.decode(parts[4])?.count == 32)
        let (header, decrypted) = try JWE.decrypt(token, privateKey: key)
        #expect(header == JWE.Header(alg: algorithm, enc: "A256CBC-HS512", kid: "k1"))
        #expect(decrypted == plaintext)
    }

    @Test func headerWithoutKeyId() throws {
        let token = try JWE.encrypt(plaintext: utf8("x"), recipient: sharedGeneratedKey.publicKey, keyId: nil)
        let encodedHeader = String(token.prefix { $0 != "." })
        #expect(Base64URL.decode(encodedHeader) == utf8(#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512"}"#))
        let (header, plaintext) = try JWE.decrypt(token, privateKey: sharedGeneratedKey)
        #expect(header.kid == nil)
        #expect(plaintext == utf8("x"))
    }

    @Test func sdkStyleHeaderTextIsKeptAndDecrypts() throws {
        let key = sharedGeneratedKey
        let token = try JWE.encrypt(
            plaintext: utf8("card data"), recipient: key.publicKey, keyId: "k1", headerText: Self.sdkHeader
        )
        let encodedHeader = String(token.prefix { $0 != "." })
        #expect(encodedHeader == Base64URL.encode(Self.sdkHeader))
        let (header, plaintext) = try JWE.decrypt(token, privateKey: key)
        #expect(header == JWE.Header(alg: "RSA-OAEP", enc: "A256CBC-HS512", kid: "k1"))
        #expect(plaintext == utf8("card data"))
    }

    @Test func headerTextMustAgreeWithArguments() {
        let publicKey = sharedGeneratedKey.publicKey
        let mismatch = CryptoError.invalidInput("JWE header text disagrees with the algorithm or key id")
        #expect(throws: mismatch) {
            try JWE.encrypt(plaintext: [1], recipient: publicKey, keyId: "k2", headerText: Self.sdkHeader)
        }
        #expect(throws: mismatch) {
            try JWE.encrypt(
                plaintext: [1], recipient: publicKey, keyId: "k1", algorithm: "RSA-OAEP-256", headerText: Self.sdkHeader
            )
        }
        #expect(throws: CryptoError.invalidInput("JWE header is not a valid JSON object")) {
            try JWE.encrypt(plaintext: [1], recipient: publicKey, keyId: "k1", headerText: "{alg:RSA-OAEP}")
        }
        #expect(throws: CryptoError.invalidInput("unsupported JWE alg")) {
            try JWE.encrypt(plaintext: [1], recipient: publicKey, keyId: "k1", algorithm: "RSA1_5")
        }
    }

    /// A token assembled by hand from the primitives, with the SDK's spaced header, decrypts.
    @Test func handAssembledTokenWithSpacedHeaderDecrypts() throws {
        let key = sharedGeneratedKey
        let encodedHeader = Base64URL.encode(Self.sdkHeader)
        let contentKey = SecureRandom.bytes(64)
        let iv = SecureRandom.bytes(16)
        let encryptedKey = try key.publicKey.encryptOAEP(contentKey, digest: .sha1)
        let (ciphertext, tag) = try A256CBCHS512.encrypt(
            key: contentKey, iv: iv, plaintext: utf8("hello"), aad: utf8(encodedHeader)
        )
        let token = [encodedHeader, encryptedKey.base64URL, iv.base64URL, ciphertext.base64URL, tag.base64URL]
            .joined(separator: ".")
        let (header, plaintext) = try JWE.decrypt(token, privateKey: key)
        #expect(header.kid == "k1")
        #expect(plaintext == utf8("hello"))
    }

    @Test func tamperingAnyPartIsRejected() throws {
        let key = sharedGeneratedKey
        let token = try JWE.encrypt(plaintext: utf8("secret payload"), recipient: key.publicKey, keyId: "k1")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)

        func replacing(_ index: Int, with part: String) -> String {
            var copy = parts
            copy[index] = part
            return copy.joined(separator: ".")
        }
        func flipped(_ index: Int, at byte: Int) throws -> String {
            var bytes = try #require(Base64URL.decode(parts[index]))
            bytes[byte] ^= 0x01
            return replacing(index, with: bytes.base64URL)
        }

        let otherHeader = Base64URL.encode(#"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","kid":"k2"}"#)
        let spacedSameHeader = Base64URL.encode(#"{"alg":"RSA-OAEP", "enc":"A256CBC-HS512", "kid":"k1"}"#)
        let forgeries = [
            replacing(0, with: otherHeader),
            replacing(0, with: spacedSameHeader),
            try flipped(1, at: 5),
            try flipped(2, at: 0),
            try flipped(3, at: 3),
            try flipped(4, at: 31),
            replacing(4, with: Array(try #require(Base64URL.decode(parts[4]))).prefix(16).map { $0 }.base64URL),
        ]
        for forgery in forgeries {
            #expect(throws: CryptoError.authenticationFailed) { try JWE.decrypt(forgery, privateKey: key) }
        }
        let otherKey = try RSAPrivateKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        #expect(throws: CryptoError.authenticationFailed) { try JWE.decrypt(token, privateKey: otherKey) }
        // The untouched token still decrypts.
        #expect(try JWE.decrypt(token, privateKey: key).plaintext == utf8("secret payload"))
    }

    @Test func malformedTokensAreRejected() throws {
        let key = sharedGeneratedKey
        let token = try JWE.encrypt(plaintext: utf8("x"), recipient: key.publicKey, keyId: nil)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func with(header: String) -> String {
            ([Base64URL.encode(header)] + parts.dropFirst()).joined(separator: ".")
        }
        #expect(throws: CryptoError.invalidInput("JWE compact form needs 5 parts")) {
            try JWE.decrypt(parts.dropLast().joined(separator: "."), privateKey: key)
        }
        #expect(throws: CryptoError.invalidInput("JWE part is not base64url")) {
            try JWE.decrypt(token.replacingOccurrences(of: ".", with: ".+", options: [], range: nil), privateKey: key)
        }
        #expect(throws: CryptoError.invalidInput("JWE header is not a valid JSON object")) {
            try JWE.decrypt(with(header: "[1,2]"), privateKey: key)
        }
        #expect(throws: CryptoError.invalidInput("unsupported JWE alg")) {
            try JWE.decrypt(with(header: #"{"alg":"dir","enc":"A256CBC-HS512"}"#), privateKey: key)
        }
        #expect(throws: CryptoError.invalidInput("unsupported JWE enc")) {
            try JWE.decrypt(with(header: #"{"alg":"RSA-OAEP","enc":"A256GCM"}"#), privateKey: key)
        }
        #expect(throws: CryptoError.invalidInput("JWE header uses unsupported zip or crit")) {
            try JWE.decrypt(with(header: #"{"alg":"RSA-OAEP","enc":"A256CBC-HS512","zip":"DEF"}"#), privateKey: key)
        }
    }
}
