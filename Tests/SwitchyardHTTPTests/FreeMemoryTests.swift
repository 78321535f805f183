import Foundation
import SwitchyardApp
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FreeMemory")
struct FreeMemoryTests {
    /// 64 MiB freed below a block still in use stay resident (the heap cannot shrink past that block);
    /// released, most of them leave the process's resident anonymous memory.
    @Test func memoryFreedBelowABlockInUseIsGivenBack() throws {
        let blockSize = 16 << 10
        let blocks = (0..<4096).map { _ -> UnsafeMutableRawPointer? in
            guard let block = malloc(blockSize) else { return nil }
            memset(block, 0x5A, blockSize)
            return block
        }
        let guardBlock = malloc(blockSize)
        defer { free(guardBlock) }
        blocks.forEach { free($0) }
        let before = try Self.residentAnonymousKiB()
        #expect(FreeMemory.release())
        let after = try Self.residentAnonymousKiB()
        #expect(before - after >= 32 << 10, "RssAnon \(before) KiB before, \(after) KiB after")
    }

    /// `RssAnon` of this process, from `/proc/self/status`.
    static func residentAnonymousKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
