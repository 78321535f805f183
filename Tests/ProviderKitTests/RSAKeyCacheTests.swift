import ProviderKit
import SwitchyardCrypto
import Testing

/// Two keys made once for the suite (generating an RSA key takes a while).
private let keys = (first: try! RSAPrivateKey.generate(), second: try! RSAPrivateKey.generate())

struct RSAKeyCacheTests {
    @Test func aKeyIsReadOnceAndFoundAgainByItsText() throws {
        let cache = RSAKeyCache()
        let first = try cache.privateKey(keyText: keys.first.pkcs8PEM)
        let again = try cache.privateKey(keyText: keys.first.pkcs8PEM)
        #expect(first === again)
        let publicKey = try cache.publicKey(keyText: keys.first.publicKey.pem)
        #expect(try cache.publicKey(keyText: keys.first.publicKey.pem) === publicKey)
        #expect(publicKey.spkiDER == keys.first.publicKey.spkiDER)
        #expect(cache.count == (1, 1))
        // The key read from the cache signs as the key it was read from does.
        let signature = try again.signSHA256("message")
        #expect(keys.first.publicKey.verifySHA256(signature: signature, message: "message"))
    }

    @Test func anotherTextIsAnotherKey() throws {
        let cache = RSAKeyCache()
        let first = try cache.privateKey(keyText: keys.first.pkcs8PEM)
        let second = try cache.privateKey(keyText: keys.second.pkcs8PEM)
        #expect(first !== second)
        #expect(second.publicKey.spkiDER == keys.second.publicKey.spkiDER)
        #expect(first.publicKey.spkiDER != second.publicKey.spkiDER)
        #expect(cache.count.privateKeys == 2)
    }

    @Test func unreadableTextIsRefusedEveryTimeAndNotKept() throws {
        let cache = RSAKeyCache()
        for _ in 0..<2 {
            #expect(throws: CryptoError.self) { try cache.privateKey(keyText: "not a key") }
            #expect(throws: CryptoError.self) { try cache.publicKey(keyText: keys.first.pkcs8PEM) }
        }
        #expect(cache.count == (0, 0))
    }

    @Test func theOldestKeyGoesWhenTheCacheIsFull() throws {
        let cache = RSAKeyCache(capacity: 2)
        // Three texts: the same key as PEM and as bare base64 are two texts, so two entries.
        let texts = [keys.first.publicKey.pem, keys.first.publicKey.spkiBase64, keys.second.publicKey.pem]
        let first = try cache.publicKey(keyText: texts[0])
        let second = try cache.publicKey(keyText: texts[1])
        _ = try cache.publicKey(keyText: texts[2])
        #expect(cache.count.publicKeys == 2)
        // The second is still kept; the first was read again, as a new key.
        #expect(try cache.publicKey(keyText: texts[1]) === second)
        #expect(try cache.publicKey(keyText: texts[0]) !== first)
    }
}
