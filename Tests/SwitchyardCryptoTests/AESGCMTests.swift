import SwitchyardCrypto
import Testing

/// AES-256-GCM against the 256-bit test cases of the GCM specification (McGrew & Viega, cases 13–16).
struct AESGCMTests {
    static let key = hex("feffe9928665731c6d6a8f9467308308 feffe9928665731c6d6a8f9467308308")
    static let nonce = hex("cafebabefacedbaddecaf888")
    static let plaintext = hex(
        """
        d9313225f88406e5a55909c5aff5269a 86a7a9531534f7da2e4c303d8a318a72
        1c3c0c95956809532fcf0e2449a6b525 b16aedf5aa0de657ba637b391aafd255
        """)
    static let aad = hex("feedfacedeadbeeffeedfacedeadbeef abaddad2")

    @Test func case13EmptyPlaintext() throws {
        let sealed = try AESGCM.seal(
            key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12), plaintext: [])
        #expect(sealed.ciphertext.isEmpty)
        #expect(sealed.tag == hex("530f8afbc74536b9a963b4f1c4cb738b"))
    }

    @Test func case14ZeroKeyOneBlock() throws {
        let zeroKey = [UInt8](repeating: 0, count: 32)
        let zeroNonce = [UInt8](repeating: 0, count: 12)
        let sealed = try AESGCM.seal(key: zeroKey, nonce: zeroNonce, plaintext: [UInt8](repeating: 0, count: 16))
        #expect(sealed.nonce == zeroNonce)
        #expect(sealed.ciphertext == hex("cea7403d4d606b6e074ec5d3baf39d18"))
        #expect(sealed.tag == hex("d0d1c8a799996bf0265b98b5d48ab919"))
        #expect(
            try AESGCM.open(key: zeroKey, nonce: zeroNonce, ciphertext: sealed.ciphertext, tag: sealed.tag)
                == [UInt8](repeating: 0, count: 16))
    }

    @Test func case15NoAAD() throws {
        let sealed = try AESGCM.seal(key: Self.key, nonce: Self.nonce, plaintext: Self.plaintext)
        #expect(
            sealed.ciphertext
                == hex(
                    """
                    522dc1f099567d07f47f37a32a84427d 643a8cdcbfe5c0c97598a2bd2555d1aa
                    8cb08e48590dbb3da7b08b1056828838 c5f61e6393ba7a0abcc9f662898015ad
                    """))
        #expect(sealed.tag == hex("b094dac5d93471bdec1a502270e3cc6c"))
    }

    @Test func case16WithAADAndPartialBlock() throws {
        let plaintext = Array(Self.plaintext.prefix(60))
        let sealed = try AESGCM.seal(key: Self.key, nonce: Self.nonce, plaintext: plaintext, aad: Self.aad)
        let expectedCiphertext = hex(
            """
            522dc1f099567d07f47f37a32a84427d 643a8cdcbfe5c0c97598a2bd2555d1aa
            8cb08e48590dbb3da7b08b1056828838 c5f61e6393ba7a0abcc9f662
            """)
        #expect(sealed.ciphertext == expectedCiphertext)
        #expect(sealed.tag == hex("76fc6ece0f4e1768cddf8853bb2d551b"))
        let opened = try AESGCM.open(
            key: Self.key, nonce: Self.nonce, ciphertext: expectedCiphertext,
            tag: hex("76fc6ece0f4e1768cddf8853bb2d551b"), aad: Self.aad
        )
        #expect(opened == plaintext)
    }

    @Test func tamperingIsRejected() throws {
        let plaintext = utf8("card token 4111")
        let sealed = try AESGCM.seal(key: Self.key, plaintext: plaintext, aad: utf8("tenant-1"))
        #expect(sealed.nonce.count == 12)
        let opened = try AESGCM.open(
            key: Self.key, nonce: sealed.nonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: utf8("tenant-1")
        )
        #expect(opened == plaintext)

        var badCiphertext = sealed.ciphertext
        badCiphertext[0] ^= 0x01
        var badTag = sealed.tag
        badTag[15] ^= 0x80
        var badNonce = sealed.nonce
        badNonce[0] ^= 0x01
        var badKey = Self.key
        badKey[31] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: Self.key, nonce: sealed.nonce, ciphertext: badCiphertext, tag: sealed.tag, aad: utf8("tenant-1"))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: Self.key, nonce: sealed.nonce, ciphertext: sealed.ciphertext, tag: badTag, aad: utf8("tenant-1"))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: Self.key, nonce: badNonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: utf8("tenant-1"))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: badKey, nonce: sealed.nonce, ciphertext: sealed.ciphertext, tag: sealed.tag, aad: utf8("tenant-1"))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: Self.key, nonce: sealed.nonce, ciphertext: sealed.ciphertext, tag: sealed.tag,
                aad: utf8("tenant-2"))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AESGCM.open(
                key: Self.key, nonce: sealed.nonce, ciphertext: sealed.ciphertext, tag: Array(sealed.tag.prefix(12)),
                aad: utf8("tenant-1")
            )
        }
    }

    @Test func randomNoncesDiffer() throws {
        let first = try AESGCM.seal(key: Self.key, plaintext: utf8("same"))
        let second = try AESGCM.seal(key: Self.key, plaintext: utf8("same"))
        #expect(first.nonce != second.nonce)
        #expect(first.ciphertext != second.ciphertext)
    }

    @Test func wrongLengthsAreRejected() {
        #expect(throws: CryptoError.invalidKey("AES-256-GCM key must be 32 bytes")) {
            try AESGCM.seal(key: [UInt8](repeating: 1, count: 16), plaintext: [1])
        }
        #expect(throws: CryptoError.invalidInput("AES-GCM nonce must be 12 bytes")) {
            try AESGCM.seal(key: Self.key, nonce: [UInt8](repeating: 1, count: 16), plaintext: [1])
        }
    }
}
