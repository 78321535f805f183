import SwitchyardCrypto
import Testing

struct DigestTests {
    @Test func sha256OfABCMatchesFIPS180() {
        #expect(
            Hex.encode(SHA2.sha256(utf8("abc")))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA2.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha512OfABCMatchesFIPS180() {
        #expect(
            Hex.encode(SHA2.sha512("abc")) == """
                ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
                2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
                """)
    }

    @Test func sha1OfABCMatchesFIPS180() {
        #expect(Hex.encode(SHA2.sha1("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func digestOfEmptyInput() {
        #expect(
            Hex.encode(SHA2.sha256([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func digestOfSliceEqualsDigestOfArray() {
        let bytes = utf8("xxabcxx")
        #expect(SHA2.sha256(bytes[2..<5]) == SHA2.sha256(utf8("abc")))
        #expect(SHA2.sha256(bytes.lazy.map { $0 }.dropFirst(2).dropLast(2)) == SHA2.sha256(utf8("abc")))
    }

    @Test func sha256OfMillionAs() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            Hex.encode(SHA2.sha256(input))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
