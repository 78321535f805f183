import ProviderTestSupport
import SwitchyardCrypto
import Testing

/// JWE tokens built and opened with the `openssl` CLI alone (pkeyutl, enc, dgst), independent of `JWE`.
struct JWEInteropTests {
    static let header = #"{"alg":"RSA-OAEP", "enc":"A256CBC-HS512", "kid":"k1"}"#
    static let oaepOptions = [
        "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:sha1", "-pkeyopt", "rsa_mgf1_md:sha1",
    ]

    /// AAD ‖ IV ‖ ciphertext ‖ AL, the input of the A256CBC-HS512 tag.
    static func macInput(aad: [UInt8], iv: [UInt8], ciphertext: [UInt8]) -> [UInt8] {
        let bits = UInt64(aad.count * 8)
        return aad + iv + ciphertext + (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
    }

    @Test func tokenBuiltWithCLIDecrypts() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        let key = sharedGeneratedKey
        try cli.write("public.pem", key.publicKey.pem)
        let contentKey = SecureRandom.bytes(64)
        let iv = SecureRandom.bytes(16)
        let plaintext = utf8(#"{"paymentProductId":1,"paymentValues":[{"key":"cvv","value":"123"}]}"#)
        try cli.write("cek.bin", contentKey)
        try cli.write("plain.bin", plaintext)
        let encryptedKey = try cli.mustRun(
            ["pkeyutl", "-encrypt", "-pubin", "-inkey", "public.pem", "-in", "cek.bin"] + Self.oaepOptions
        )
        let ciphertext = try cli.mustRun([
            "enc", "-aes-256-cbc", "-K", Hex.encode(contentKey[32...]), "-iv", Hex.encode(iv), "-in", "plain.bin",
        ])
        let encodedHeader = Base64URL.encode(Self.header)
        try cli.write("mac.bin", Self.macInput(aad: utf8(encodedHeader), iv: iv, ciphertext: ciphertext))
        let mac = try cli.mustRun([
            "dgst", "-sha512", "-mac", "HMAC", "-macopt", "hexkey:\(Hex.encode(contentKey[..<32]))", "-binary",
            "mac.bin",
        ])
        #expect(mac.count == 64)
        let token = [
            encodedHeader, encryptedKey.base64URL, iv.base64URL, ciphertext.base64URL, Array(mac.prefix(32)).base64URL,
        ].joined(separator: ".")
        let (header, decrypted) = try JWE.decrypt(token, privateKey: key)
        #expect(header == JWE.Header(alg: "RSA-OAEP", enc: "A256CBC-HS512", kid: "k1"))
        #expect(decrypted == plaintext)
    }

    @Test func ownTokenOpensWithCLI() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        let key = sharedGeneratedKey
        try cli.write("key.pem", key.pkcs8PEM)
        let plaintext = utf8("opened by the openssl tool")
        let token = try JWE.encrypt(plaintext: plaintext, recipient: key.publicKey, keyId: "k9", headerText: nil)
        let parts = token.split(separator: ".").map { String($0) }
        let encryptedKey = try #require(Base64URL.decode(parts[1]))
        let iv = try #require(Base64URL.decode(parts[2]))
        let ciphertext = try #require(Base64URL.decode(parts[3]))
        let tag = try #require(Base64URL.decode(parts[4]))

        try cli.write("ek.bin", encryptedKey)
        let contentKey = try cli.mustRun(
            ["pkeyutl", "-decrypt", "-inkey", "key.pem", "-in", "ek.bin"] + Self.oaepOptions)
        #expect(contentKey.count == 64)
        try cli.write("mac.bin", Self.macInput(aad: utf8(parts[0]), iv: iv, ciphertext: ciphertext))
        let mac = try cli.mustRun([
            "dgst", "-sha512", "-mac", "HMAC", "-macopt", "hexkey:\(Hex.encode(contentKey[..<32]))", "-binary",
            "mac.bin",
        ])
        #expect(Array(mac.prefix(32)) == tag)
        try cli.write("ct.bin", ciphertext)
        let decrypted = try cli.mustRun([
            "enc", "-d", "-aes-256-cbc", "-K", Hex.encode(contentKey[32...]), "-iv", Hex.encode(iv), "-in", "ct.bin",
        ])
        #expect(decrypted == plaintext)
    }
}
