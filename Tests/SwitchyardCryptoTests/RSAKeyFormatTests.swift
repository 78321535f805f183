import ProviderTestSupport
import SwitchyardCrypto
import Testing

struct RSAKeyFormatTests {
    @Test func pkcs8RoundTrip() throws {
        let key = sharedGeneratedKey
        let pem = key.pkcs8PEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try RSAPrivateKey(pem: pem)
        #expect(reloaded.publicKey.spkiDER == key.publicKey.spkiDER)
        #expect(reloaded.pkcs8PEM == pem)
        #expect(key.publicKey.verifySHA256(signature: try reloaded.signSHA256("x"), message: "x"))
    }

    @Test func spkiRoundTrip() throws {
        let publicKey = sharedGeneratedKey.publicKey
        let pem = publicKey.pem
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        let fromPEM = try RSAPublicKey(pem: pem)
        let fromDER = try RSAPublicKey(spkiDER: publicKey.spkiDER)
        #expect(fromPEM.spkiDER == publicKey.spkiDER)
        #expect(fromDER.pem == pem)
        // The PEM body is the base64 of the DER.
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect([UInt8](base64: body) == publicKey.spkiDER)
    }

    @Test func pkcs1FixturesLoad() throws {
        let privateKey = try RSAPrivateKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        let spki = try RSAPublicKey(pem: RSAFixtures.spkiPEM)
        let pkcs1Public = try RSAPublicKey(pem: RSAFixtures.pkcs1PublicKeyPEM)
        #expect(privateKey.bits == 2048)
        #expect(privateKey.publicKey.spkiDER == spki.spkiDER)
        #expect(pkcs1Public.spkiDER == spki.spkiDER)
        #expect(privateKey.publicKey.pem == RSAFixtures.spkiPEM + "\n")
        // Re-exported as PKCS#8, the key still loads and matches.
        let pkcs8 = privateKey.pkcs8PEM
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try RSAPrivateKey(pem: pkcs8).publicKey.spkiDER == spki.spkiDER)
    }

    @Test func pkcs1PublicKeyFromCLIMatchesSPKI() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        try cli.write("key.pem", sharedGeneratedKey.pkcs8PEM)
        let pkcs1 = try cli.mustRun(["rsa", "-in", "key.pem", "-RSAPublicKey_out"])
        let text = String(decoding: pkcs1, as: UTF8.self)
        #expect(text.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        #expect(try RSAPublicKey(pem: text).spkiDER == sharedGeneratedKey.publicKey.spkiDER)
        let traditional = try cli.mustRun(["rsa", "-in", "key.pem", "-traditional"])
        let traditionalText = String(decoding: traditional, as: UTF8.self)
        #expect(traditionalText.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(try RSAPrivateKey(pem: traditionalText).publicKey.spkiDER == sharedGeneratedKey.publicKey.spkiDER)
    }

    @Test func wrongPEMTypesAreRejected() throws {
        #expect(throws: CryptoError.invalidKey("expected a PUBLIC KEY or RSA PUBLIC KEY PEM block")) {
            try RSAPublicKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        }
        #expect(throws: CryptoError.self) { try RSAPrivateKey(pem: RSAFixtures.spkiPEM) }
        #expect(throws: CryptoError.self) { try RSAPrivateKey(pem: "not a key") }
        #expect(throws: CryptoError.invalidKey("no PEM block found")) { try RSAPublicKey(pem: "") }
        let der = sharedGeneratedKey.publicKey.spkiDER
        #expect(throws: CryptoError.invalidKey("trailing bytes after SubjectPublicKeyInfo")) {
            try RSAPublicKey(spkiDER: der + [0])
        }
        #expect(throws: CryptoError.invalidKey("unreadable SubjectPublicKeyInfo")) {
            try RSAPublicKey(spkiDER: Array(der.dropLast(10)))
        }
        #expect(throws: CryptoError.invalidKey("empty SubjectPublicKeyInfo")) { try RSAPublicKey(spkiDER: []) }
    }

    @Test func encryptedAndNonRSAKeysAreRejected() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        try cli.write("key.pem", sharedGeneratedKey.pkcs8PEM)
        let encrypted = try cli.mustRun(["pkey", "-in", "key.pem", "-aes256", "-passout", "pass:secret"])
        let encryptedText = String(decoding: encrypted, as: UTF8.self)
        #expect(encryptedText.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(throws: CryptoError.invalidKey("unreadable or encrypted RSA private key PEM")) {
            try RSAPrivateKey(pem: encryptedText)
        }
        let ecKey = try cli.mustRun(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        #expect(throws: CryptoError.invalidKey("not an RSA key")) {
            try RSAPrivateKey(pem: String(decoding: ecKey, as: UTF8.self))
        }
        try cli.write("ec.pem", ecKey)
        let ecPublic = try cli.mustRun(["pkey", "-in", "ec.pem", "-pubout"])
        #expect(throws: CryptoError.invalidKey("not an RSA key")) {
            try RSAPublicKey(pem: String(decoding: ecPublic, as: UTF8.self))
        }
    }

    @Test func generateRejectsUnsafeSizes() {
        #expect(throws: CryptoError.invalidInput("RSA key size must be 2048 to 8192 bits")) {
            try RSAPrivateKey.generate(bits: 1024)
        }
    }

    @Test func keyTextLoadsFromPEMAndBareBase64() throws {
        let key = try RSAPrivateKey.generate()
        let bare = key.pkcs8PEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(try RSAPrivateKey(keyText: bare).publicKey.spkiDER == key.publicKey.spkiDER)
        #expect(try RSAPrivateKey(keyText: key.pkcs8PEM).publicKey.spkiDER == key.publicKey.spkiDER)
        let wrapped = bare.enumerated().map { $0.offset % 50 == 49 ? "\($0.element)\n" : "\($0.element)" }.joined()
        #expect(try RSAPrivateKey(keyText: wrapped).publicKey.spkiDER == key.publicKey.spkiDER)
        let spki = key.publicKey.spkiDER
        #expect(key.publicKey.spkiBase64 == Base64.encode(spki))
        #expect(try RSAPublicKey(keyText: key.publicKey.spkiBase64).spkiDER == spki)
        #expect(try RSAPublicKey(keyText: key.publicKey.pem).spkiDER == spki)
        #expect(throws: (any Error).self) { try RSAPublicKey(keyText: "not a key") }
        #expect(throws: (any Error).self) { try RSAPrivateKey(keyText: "bm90IGEga2V5") }
    }
}
