import SwitchyardCrypto
import Testing

struct RandomAndCompareTests {
    @Test func randomBytesHaveRequestedLengthAndDiffer() {
        #expect(SecureRandom.bytes(0) == [])
        #expect(SecureRandom.bytes(-3) == [])
        let a = SecureRandom.bytes(32)
        let b = SecureRandom.bytes(32)
        #expect(a.count == 32)
        #expect(a != b)
        // 4096 random bytes should not be all one value.
        #expect(Set(SecureRandom.bytes(4096)).count > 200)
    }

    @Test func tokenIsUnpaddedBase64URL() throws {
        let token = SecureRandom.token(bytes: 32)
        #expect(token.count == 43)
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let decoded = try #require(Base64URL.decode(token))
        #expect(decoded.count == 32)
        #expect(SecureRandom.token(bytes: 32) != token)
    }

    @Test func constantTimeEqualsComparesContentAndLength() {
        #expect(constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!constantTimeEquals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(!constantTimeEquals([UInt8](), [0] as [UInt8]))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        #expect(constantTimeEquals("abc".utf8, [0x61, 0x62, 0x63] as [UInt8]))
        #expect(constantTimeEquals("token", "token"))
        #expect(!constantTimeEquals("token", "tokem"))
        let bytes: [UInt8] = [9, 1, 2, 3, 9]
        #expect(constantTimeEquals(bytes[1..<4], [1, 2, 3] as [UInt8]))
    }
}
