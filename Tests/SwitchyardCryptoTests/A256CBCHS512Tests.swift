import SwitchyardCrypto
import Testing

/// RFC 7518 appendix B.3 (AES_256_CBC_HMAC_SHA_512).
struct A256CBCHS512Tests {
    static let key = Array(UInt8(0)...UInt8(63))
    static let plaintext = utf8(
        "A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience"
    )
    static let iv = hex("1af38c2dc2b96ffdd86694092341bc04")
    static let aad = utf8("The second principle of Auguste Kerckhoffs")
    static let ciphertext = hex(
        """
        4a ff aa ad b7 8c 31 c5 da 4b 1b 59 0d 10 ff bd 3d d8 d5 d3 02 42 35 26 91 2d a0 37 ec bc c7 bd
        82 2c 30 1d d6 7c 37 3b cc b5 84 ad 3e 92 79 c2 e6 d1 2a 13 74 b7 7f 07 75 53 df 82 94 10 44 6b
        36 eb d9 70 66 29 6a e6 42 7e a7 5c 2e 08 46 a1 1a 09 cc f5 37 0d c8 0b fe cb ad 28 c7 3f 09 b3
        a3 b7 5e 66 2a 25 94 41 0a e4 96 b2 e2 e6 60 9e 31 e6 e0 2c c8 37 f0 53 d2 1f 37 ff 4f 51 95 0b
        be 26 38 d0 9d d7 a4 93 09 30 80 6d 07 03 b1 f6
        """)
    static let tag = hex(
        """
        4d d3 b4 c0 88 a7 f4 5c 21 68 39 64 5b 20 12 bf 2e 62 69 a8 c5 6a 81 6d bc 1b 26 77 61 95 5b c5
        """)

    @Test func encryptMatchesRFC7518B3() throws {
        let (ciphertext, tag) = try A256CBCHS512.encrypt(
            key: Self.key, iv: Self.iv, plaintext: Self.plaintext, aad: Self.aad)
        #expect(ciphertext == Self.ciphertext)
        #expect(tag == Self.tag)
    }

    @Test func decryptMatchesRFC7518B3() throws {
        let plaintext = try A256CBCHS512.decrypt(
            key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, tag: Self.tag, aad: Self.aad
        )
        #expect(plaintext == Self.plaintext)
    }

    @Test func tamperedTagIsRejected() {
        var tag = Self.tag
        tag[31] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) {
            try A256CBCHS512.decrypt(key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, tag: tag, aad: Self.aad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try A256CBCHS512.decrypt(
                key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, tag: Array(Self.tag.prefix(16)), aad: Self.aad
            )
        }
    }

    @Test func tamperedCiphertextIVOrAADIsRejected() {
        var ciphertext = Self.ciphertext
        ciphertext[100] ^= 0x01
        var iv = Self.iv
        iv[0] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) {
            try A256CBCHS512.decrypt(key: Self.key, iv: Self.iv, ciphertext: ciphertext, tag: Self.tag, aad: Self.aad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try A256CBCHS512.decrypt(key: Self.key, iv: iv, ciphertext: Self.ciphertext, tag: Self.tag, aad: Self.aad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try A256CBCHS512.decrypt(key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, tag: Self.tag, aad: [])
        }
    }

    @Test func roundTripsEveryPaddingLength() throws {
        let key = SecureRandom.bytes(64)
        for count in 0...33 {
            let plaintext = SecureRandom.bytes(count)
            let iv = SecureRandom.bytes(16)
            let (ciphertext, tag) = try A256CBCHS512.encrypt(key: key, iv: iv, plaintext: plaintext, aad: utf8("h"))
            #expect(ciphertext.count == (count / 16 + 1) * 16)
            #expect(
                try A256CBCHS512.decrypt(key: key, iv: iv, ciphertext: ciphertext, tag: tag, aad: utf8("h"))
                    == plaintext)
        }
    }

    @Test func wrongLengthsAreRejected() {
        #expect(throws: CryptoError.invalidKey("A256CBC-HS512 key must be 64 bytes")) {
            try A256CBCHS512.encrypt(key: Array(Self.key.prefix(32)), iv: Self.iv, plaintext: [1], aad: [])
        }
        #expect(throws: CryptoError.invalidInput("A256CBC-HS512 IV must be 16 bytes")) {
            try A256CBCHS512.encrypt(key: Self.key, iv: Array(Self.iv.prefix(12)), plaintext: [1], aad: [])
        }
    }
}
