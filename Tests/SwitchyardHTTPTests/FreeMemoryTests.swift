import Foundation
import SwitchyardApp
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FreeMemory")
struct FreeMemoryTests {
    /// 64 MiB freed below a block still in use cannot shrink the heap by itself; released, it goes back.
    @Test func memoryFreedBelowABlockInUseIsGivenBack() throws {
        let blocks = (0..<4096).map { _ -> UnsafeMutableRawPointer? in
            let block = malloc(16 << 10)
            block.map { memset($0, 0x5A, 16 << 10) }
            return block
        }
        let guardBlock = malloc(16 << 10)
        defer { free(guardBlock) }
        blocks.forEach { free($0) }
        #expect(FreeMemory.release())
    }
}
