import SwitchyardCrypto
import Testing

/// RFC 4231 test cases 1–7 for HMAC-SHA256 and HMAC-SHA512.
struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let sha256: String
        let sha512: String
        /// Output length in bytes to compare (test case 5 truncates to 128 bits).
        var truncatedTo: Int? = nil
        var testDescription: String { name }
    }

    static let largeKey = [UInt8](repeating: 0xAA, count: 131)

    static let vectors: [Vector] = [
        Vector(
            name: "4231 case 1",
            key: [UInt8](repeating: 0x0B, count: 20),
            data: utf8("Hi There"),
            sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        Vector(
            name: "4231 case 2",
            key: utf8("Jefe"),
            data: utf8("what do ya want for nothing?"),
            sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
        Vector(
            name: "4231 case 3",
            key: [UInt8](repeating: 0xAA, count: 20),
            data: [UInt8](repeating: 0xDD, count: 50),
            sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            sha512: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
                + "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"
        ),
        Vector(
            name: "4231 case 4",
            key: Array(1...25),
            data: [UInt8](repeating: 0xCD, count: 50),
            sha256: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            sha512: "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
                + "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"
        ),
        Vector(
            name: "4231 case 5 (truncated to 128 bits)",
            key: [UInt8](repeating: 0x0C, count: 20),
            data: utf8("Test With Truncation"),
            sha256: "a3b6167473100ee06e0c796c2955552b",
            sha512: "415fad6271580a531d4179bc891d87a6",
            truncatedTo: 16
        ),
        Vector(
            name: "4231 case 6",
            key: largeKey,
            data: utf8("Test Using Larger Than Block-Size Key - Hash Key First"),
            sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        ),
        Vector(
            name: "4231 case 7",
            key: largeKey,
            data: utf8(
                "This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm."
            ),
            sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
                + "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ]

    @Test(arguments: vectors)
    func hmacSHA256(_ vector: Vector) {
        let mac = HMAC.sha256(key: vector.key, message: vector.data)
        #expect(mac.count == 32)
        #expect(Hex.encode(mac.prefix(vector.truncatedTo ?? mac.count)) == vector.sha256)
    }

    @Test(arguments: vectors)
    func hmacSHA512(_ vector: Vector) {
        let mac = HMAC.sha512(key: vector.key, message: vector.data)
        #expect(mac.count == 64)
        #expect(Hex.encode(mac.prefix(vector.truncatedTo ?? mac.count)) == vector.sha512)
    }

    @Test func stringOverloadsMatchByteOverloads() {
        let expected = HMAC.sha256(key: utf8("Jefe"), message: utf8("what do ya want for nothing?"))
        #expect(HMAC.sha256(key: "Jefe", message: "what do ya want for nothing?") == expected)
        #expect(HMAC.sha256(key: "Jefe", message: utf8("what do ya want for nothing?")) == expected)
        #expect(HMAC.sha256(key: utf8("Jefe"), message: "what do ya want for nothing?") == expected)
        let expected512 = HMAC.sha512(key: utf8("Jefe"), message: utf8("what do ya want for nothing?"))
        #expect(HMAC.sha512(key: "Jefe", message: "what do ya want for nothing?") == expected512)
    }

    @Test func emptyKeyAndMessage() {
        // HMAC-SHA256 with an empty key over an empty message (computed with an independent implementation).
        #expect(
            Hex.encode(HMAC.sha256(key: [UInt8](), message: [UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
