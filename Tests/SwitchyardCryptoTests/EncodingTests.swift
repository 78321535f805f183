import SwitchyardCrypto
import Testing

struct EncodingTests {
    @Test func hexRoundTripAndCase() {
        #expect(Hex.encode([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Hex.decode("000fa5ff") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(Hex.decode("000FA5FF") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(Hex.decode("") == [])
        #expect(Hex.encode([UInt8]()) == "")
    }

    @Test(arguments: ["abc", "0g", "0x00", " 00", "éé"])
    func hexRejectsMalformed(_ text: String) {
        #expect(Hex.decode(text) == nil)
    }

    /// RFC 4648 §10 vectors, in both alphabets.
    @Test func base64RFC4648Vectors() {
        let cases: [(String, String)] = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in cases {
            #expect(Base64.encode(utf8(plain)) == encoded)
            #expect(Base64.decode(encoded) == utf8(plain))
            let unpadded = String(encoded.filter { $0 != "=" })
            #expect(Base64URL.encode(utf8(plain)) == unpadded)
            #expect(Base64URL.decode(unpadded) == utf8(plain))
            #expect(Base64URL.decode(encoded) == utf8(plain))
        }
    }

    @Test func base64URLUsesURLSafeAlphabet() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64URL.decode("-_-_") == bytes)
        #expect(Base64URL.decode("+/+/") == nil)
        #expect(Base64.decode("-_-_") == nil)
        #expect(bytes.base64URL == "-_-_")
        #expect([UInt8](base64URL: "-_-_") == bytes)
    }

    @Test(arguments: ["Zg=", "Z", "Zh==", "Zm9v\n", "Zm 9v", "Zg==Zg==", "Z===", "=Zg=", "Zm9v*"])
    func base64RejectsMalformed(_ text: String) {
        #expect(Base64.decode(text) == nil)
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func base64RoundTripsEveryLength() {
        for count in 0..<70 {
            let bytes = SecureRandom.bytes(count)
            #expect([UInt8](base64: bytes.base64) == bytes)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
            #expect(!Base64URL.encode(bytes).contains("="))
        }
    }

    @Test func arrayHexHelpers() {
        #expect([UInt8](hex: "cafe") == [0xCA, 0xFE])
        #expect([UInt8](hex: "caf") == nil)
        #expect([UInt8]([0xCA, 0xFE]).hex == "cafe")
    }
}
