import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's generator: one `getrandom(2)` call per half on Linux,
    /// where `UUID()` opens, reads and closes `/dev/urandom` each time. Used where an id is made per request.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // the RFC 4122 variant
        }
        return UUID(uuid: bytes)
    }
}
