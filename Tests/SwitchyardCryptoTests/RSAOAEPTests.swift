import ProviderTestSupport
import SwitchyardCrypto
import Testing

struct RSAOAEPTests {
    @Test(arguments: [OAEPDigest.sha1, .sha256])
    func roundTrip(_ digest: OAEPDigest) throws {
        let key = sharedGeneratedKey
        let plaintext = SecureRandom.bytes(64)
        let ciphertext = try key.publicKey.encryptOAEP(plaintext, digest: digest)
        #expect(ciphertext.count == 256)
        #expect(try key.decryptOAEP(ciphertext, digest: digest) == plaintext)
        // OAEP is randomised.
        #expect(try key.publicKey.encryptOAEP(plaintext, digest: digest) != ciphertext)
        #expect(try key.decryptOAEP(try key.publicKey.encryptOAEP([], digest: digest), digest: digest) == [])
    }

    @Test func digestMismatchFails() throws {
        let key = sharedGeneratedKey
        let sha1Ciphertext = try key.publicKey.encryptOAEP(utf8("cek"), digest: .sha1)
        let sha256Ciphertext = try key.publicKey.encryptOAEP(utf8("cek"), digest: .sha256)
        #expect(throws: CryptoError.authenticationFailed) { try key.decryptOAEP(sha1Ciphertext, digest: .sha256) }
        #expect(throws: CryptoError.authenticationFailed) { try key.decryptOAEP(sha256Ciphertext, digest: .sha1) }
        #expect(try key.decryptOAEP(sha1Ciphertext, digest: .sha1) == utf8("cek"))
    }

    @Test func tamperedOrForeignCiphertextFails() throws {
        let key = sharedGeneratedKey
        var ciphertext = try key.publicKey.encryptOAEP(utf8("cek"), digest: .sha1)
        ciphertext[10] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) { try key.decryptOAEP(ciphertext, digest: .sha1) }
        #expect(throws: CryptoError.authenticationFailed) {
            try key.decryptOAEP(Array(ciphertext.prefix(200)), digest: .sha1)
        }
        let other = try RSAPrivateKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        let forOther = try other.publicKey.encryptOAEP(utf8("cek"), digest: .sha1)
        #expect(throws: CryptoError.authenticationFailed) { try key.decryptOAEP(forOther, digest: .sha1) }
    }

    @Test func plaintextLengthLimits() throws {
        let key = sharedGeneratedKey
        // 2048-bit modulus: 256 - 2·20 - 2 = 214 bytes with SHA-1, 256 - 2·32 - 2 = 190 with SHA-256.
        let longest1 = SecureRandom.bytes(214)
        #expect(try key.decryptOAEP(try key.publicKey.encryptOAEP(longest1, digest: .sha1), digest: .sha1) == longest1)
        let longest256 = SecureRandom.bytes(190)
        #expect(
            try key.decryptOAEP(try key.publicKey.encryptOAEP(longest256, digest: .sha256), digest: .sha256)
                == longest256)
        #expect(throws: CryptoError.invalidInput("plaintext longer than 214 bytes for this RSA-OAEP key")) {
            try key.publicKey.encryptOAEP(SecureRandom.bytes(215), digest: .sha1)
        }
        #expect(throws: CryptoError.invalidInput("plaintext longer than 190 bytes for this RSA-OAEP key")) {
            try key.publicKey.encryptOAEP(SecureRandom.bytes(191), digest: .sha256)
        }
    }

    @Test(arguments: [("sha1", OAEPDigest.sha1), ("sha256", .sha256)])
    func interoperatesWithCLI(_ name: String, _ digest: OAEPDigest) throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        let key = sharedGeneratedKey
        try cli.write("key.pem", key.pkcs8PEM)
        try cli.write("public.pem", key.publicKey.pem)
        let options = [
            "-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(name)", "-pkeyopt", "rsa_mgf1_md:\(name)",
        ]

        let secret = SecureRandom.bytes(64)
        try cli.write("secret.bin", secret)
        let fromCLI = try cli.mustRun(
            ["pkeyutl", "-encrypt", "-pubin", "-inkey", "public.pem", "-in", "secret.bin"] + options)
        #expect(try key.decryptOAEP(fromCLI, digest: digest) == secret)

        try cli.write("ours.bin", try key.publicKey.encryptOAEP(secret, digest: digest))
        let decryptedByCLI = try cli.mustRun(["pkeyutl", "-decrypt", "-inkey", "key.pem", "-in", "ours.bin"] + options)
        #expect(decryptedByCLI == secret)
    }
}
