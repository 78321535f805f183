import ProviderTestSupport
import SwitchyardCrypto
import Testing

/// A key generated once and shared by the RSA tests (keys are immutable and thread-safe).
let sharedGeneratedKey: RSAPrivateKey = {
    do {
        return try RSAPrivateKey.generate()
    } catch {
        fatalError("RSA key generation failed: \(error)")
    }
}()

struct RSASignatureTests {
    @Test func generatedKeySignsAndVerifies() throws {
        let key = sharedGeneratedKey
        #expect(key.bits == 2048)
        #expect(key.publicKey.bits == 2048)
        let message = utf8("POST /v1/charges\nbody")
        let signature = try key.signSHA256(message)
        #expect(signature.count == 256)
        #expect(key.publicKey.verifySHA256(signature: signature, message: message))
        // PKCS#1 v1.5 signatures are deterministic.
        #expect(try key.signSHA256(message) == signature)
        #expect(try key.signSHA256("POST /v1/charges\nbody") == signature)
        #expect(key.publicKey.verifySHA256(signature: signature, message: "POST /v1/charges\nbody"))
    }

    @Test func tamperedMessageOrSignatureIsRejected() throws {
        let key = sharedGeneratedKey
        let message = utf8("amount=1000")
        let signature = try key.signSHA256(message)
        #expect(!key.publicKey.verifySHA256(signature: signature, message: utf8("amount=1001")))
        var badSignature = signature
        badSignature[128] ^= 0x01
        #expect(!key.publicKey.verifySHA256(signature: badSignature, message: message))
        #expect(!key.publicKey.verifySHA256(signature: [], message: message))
        #expect(!key.publicKey.verifySHA256(signature: Array(signature.prefix(255)), message: message))
        let other = try RSAPrivateKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        #expect(!other.publicKey.verifySHA256(signature: signature, message: message))
        // Failures leave nothing behind that breaks the next operation.
        #expect(key.publicKey.verifySHA256(signature: signature, message: message))
    }

    @Test func fixtureSignatureFromCLIVerifiesAndMatches() throws {
        let key = try RSAPrivateKey(pem: RSAFixtures.pkcs1PrivateKeyPEM)
        let publicKey = try RSAPublicKey(pem: RSAFixtures.spkiPEM)
        let cliSignature = try #require([UInt8](base64: RSAFixtures.cliSignatureBase64))
        #expect(publicKey.verifySHA256(signature: cliSignature, message: RSAFixtures.message))
        #expect(try key.signSHA256(RSAFixtures.message) == cliSignature)
    }

    @Test func cliSignatureOfGeneratedKeyVerifies() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        let key = sharedGeneratedKey
        try cli.write("key.pem", key.pkcs8PEM)
        try cli.write("message.txt", "client.requestTime.{\"a\":1}")
        let signature = try cli.mustRun(["dgst", "-sha256", "-sign", "key.pem", "message.txt"])
        #expect(signature.count == 256)
        #expect(key.publicKey.verifySHA256(signature: signature, message: "client.requestTime.{\"a\":1}"))
        #expect(!key.publicKey.verifySHA256(signature: signature, message: "client.requestTime.{\"a\":2}"))
    }

    @Test func ownSignatureVerifiesWithCLI() throws {
        let cli = try OpenSSLCLI()
        defer { cli.cleanUp() }
        let key = sharedGeneratedKey
        try cli.write("public.pem", key.publicKey.pem)
        try cli.write("message.txt", "signed by switchyard")
        try cli.write("good.sig", try key.signSHA256("signed by switchyard"))
        try cli.write("bad.sig", try key.signSHA256("something else"))
        let good = try cli.run(["dgst", "-sha256", "-verify", "public.pem", "-signature", "good.sig", "message.txt"])
        let bad = try cli.run(["dgst", "-sha256", "-verify", "public.pem", "-signature", "bad.sig", "message.txt"])
        #expect(good.status == 0)
        #expect(bad.status != 0)
    }

    @Test func concurrentUseOfOneKey() async throws {
        let key = sharedGeneratedKey
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = utf8("message \(index)")
                    let signature = try key.signSHA256(message)
                    let ciphertext = try key.publicKey.encryptOAEP(message, digest: .sha256)
                    let decrypted = try key.decryptOAEP(ciphertext, digest: .sha256)
                    return key.publicKey.verifySHA256(signature: signature, message: message)
                        && !key.publicKey.verifySHA256(signature: signature, message: utf8("other"))
                        && decrypted == message
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 })
    }
}
