import Foundation
import SwitchyardCore
import Testing

/// `UUID.random()`: version 4, the RFC 4122 variant, and no two alike.
struct RandomUUIDTests {
    @Test func randomUUIDsAreVersionFourOfTheRFCVariantAndDistinct() {
        let made = (0..<2000).map { _ in UUID.random() }
        #expect(Set(made).count == made.count)
        for uuid in made {
            let text = uuid.uuidString
            #expect(Array(text)[14] == "4", "\(text)")
            #expect("89AB".contains(Array(text)[19]), "\(text)")
            #expect(UUID(uuidString: text) == uuid)
        }
        // Every other bit varies: across 2000 ids each of the 122 random bits takes both values.
        var ones = [Int](repeating: 0, count: 128)
        for uuid in made {
            withUnsafeBytes(of: uuid.uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 { ones[bit] += 1 }
            }
        }
        let fixed: Set<Int> = [48, 49, 50, 51, 64, 65]
        for bit in 0..<128 where !fixed.contains(bit) {
            #expect((1..<made.count).contains(ones[bit]), "bit \(bit)")
        }
    }
}
