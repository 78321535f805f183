import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension UUID {
    /// A random (version 4) UUID: its 16 bytes from one `getrandom(2)` call on Linux, where `UUID()` opens,
    /// reads and closes `/dev/urandom` each time. Used where an id is made per request.
    public static func random() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            fillRandom(raw)
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // the RFC 4122 variant
        }
        return UUID(uuid: bytes)
    }

    /// Fills `buffer` with 16 random bytes: glibc's `arc4random_buf` (one `getrandom(2)` per call) where
    /// the C library has it, the standard library's generator elsewhere.
    private static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
            arc4random_buf(buffer.baseAddress!, buffer.count)
        #else
            var generator = SystemRandomNumberGenerator()
            for index in buffer.indices { buffer[index] = generator.next() }
        #endif
    }
}
