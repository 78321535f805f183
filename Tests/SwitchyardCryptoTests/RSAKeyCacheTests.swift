import ProviderTestSupport
import SwitchyardCrypto
import Testing

struct RSAKeyCacheTests {
    @Test func aKeyIsReadOnceAndFoundAgainByItsText() throws {
        let cache = RSAKeyCache()
        let first = try cache.privateKey(keyText: RSAFixtures.pkcs1PrivateKeyPEM)
        let again = try cache.privateKey(keyText: RSAFixtures.pkcs1PrivateKeyPEM)
        #expect(first === again)
        let publicKey = try cache.publicKey(keyText: RSAFixtures.spkiPEM)
        #expect(try cache.publicKey(keyText: RSAFixtures.spkiPEM) === publicKey)
        #expect(publicKey.spkiDER == first.publicKey.spkiDER)
        #expect(cache.count == (1, 1))
        // The key read from the cache signs as the key read from the text does.
        let signature = try again.signSHA256(RSAFixtures.message)
        #expect(
            try RSAPublicKey(pem: RSAFixtures.spkiPEM).verifySHA256(signature: signature, message: RSAFixtures.message))
    }

    @Test func anotherTextIsAnotherKey() throws {
        let cache = RSAKeyCache()
        let fixture = try cache.privateKey(keyText: RSAFixtures.pkcs1PrivateKeyPEM)
        let generated = try cache.privateKey(keyText: sharedGeneratedKey.pkcs8PEM)
        #expect(fixture !== generated)
        #expect(generated.publicKey.spkiDER == sharedGeneratedKey.publicKey.spkiDER)
        #expect(fixture.publicKey.spkiDER != generated.publicKey.spkiDER)
        #expect(cache.count.privateKeys == 2)
    }

    @Test func unreadableTextIsRefusedEveryTimeAndNotKept() throws {
        let cache = RSAKeyCache()
        for _ in 0..<2 {
            #expect(throws: CryptoError.self) { try cache.privateKey(keyText: "not a key") }
            #expect(throws: CryptoError.self) { try cache.publicKey(keyText: RSAFixtures.pkcs1PrivateKeyPEM) }
        }
        #expect(cache.count == (0, 0))
    }

    @Test func theOldestKeyGoesWhenTheCacheIsFull() throws {
        let cache = RSAKeyCache(capacity: 2)
        let texts = [RSAFixtures.spkiPEM, RSAFixtures.pkcs1PublicKeyPEM, sharedGeneratedKey.publicKey.pem]
        let first = try cache.publicKey(keyText: texts[0])
        _ = try cache.publicKey(keyText: texts[1])
        let second = try cache.publicKey(keyText: texts[1])
        _ = try cache.publicKey(keyText: texts[2])
        #expect(cache.count.publicKeys == 2)
        // The second is still kept; the first was read again, as a new key.
        #expect(try cache.publicKey(keyText: texts[1]) === second)
        #expect(try cache.publicKey(keyText: texts[0]) !== first)
    }
}
