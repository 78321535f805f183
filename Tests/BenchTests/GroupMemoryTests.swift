import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

struct GroupMemoryTests {
    static func smaps(_ mappings: [(header: String, privateKiB: Int, sharedKiB: Int)]) -> String {
        mappings.map { m in
            """
            \(m.header)
            Size:               9000 kB
            Rss:                \(m.privateKiB + m.sharedKiB) kB
            Pss:                1 kB
            Shared_Clean:       \(m.sharedKiB) kB
            Shared_Dirty:          0 kB
            Private_Clean:      \(m.privateKiB / 2) kB
            Private_Dirty:      \(m.privateKiB - m.privateKiB / 2) kB
            Referenced:         \(m.privateKiB + m.sharedKiB) kB
            VmFlags: rd ex mr mw me
            """
        }.joined(separator: "\n") + "\n"
    }

    static let library = "7f00a0000000-7f00a0200000 r-xp 00000000 08:01 1234 /opt/swift/usr/lib/libswiftCore.so"
    static let crypto = "7f00b0000000-7f00b0100000 r-xp 00000000 08:01 99 /usr/lib/libcrypto.so.3"
    static let heap = "55f98a228000-55f98a328000 rw-p 00000000 00:00 0                          [heap]"
    static let anonymousShared = "7f00c0000000-7f00c0001000 rw-s 00000000 00:01 7 "

    @Test func aProcessSplitsIntoPrivatePagesAndSharedPagesPerFile() {
        let memory = GroupMemory.parse(
            Self.smaps([(Self.library, 100, 4000), (Self.heap, 3000, 0), (Self.crypto, 0, 1500)]), process: 42)
        #expect(memory.privateKiB == 3100)
        #expect(memory.sharedKiB["/opt/swift/usr/lib/libswiftCore.so"] == 4000)
        #expect(memory.sharedKiB["/usr/lib/libcrypto.so.3"] == 1500)
    }

    @Test func sharedPagesOfAFileCountOnceForTheGroupAndPrivatePagesForEach() {
        let server = GroupMemory.parse(
            Self.smaps([(Self.library, 100, 4000), (Self.heap, 30_000, 0), (Self.crypto, 0, 1500)]), process: 1)
        let worker = GroupMemory.parse(Self.smaps([(Self.library, 0, 3500), (Self.heap, 2000, 0)]), process: 2)
        // RSS would sum to 4100 + 30000 + 1500 + 3500 + 2000 = 41100.
        #expect(GroupMemory.combined([server, worker]) == 100 + 30_000 + 2000 + 4000 + 1500)
        #expect(GroupMemory.combined([]) == 0)
    }

    @Test func anonymousSharedMemoryIsNeverMergedAcrossProcesses() {
        let one = GroupMemory.parse(Self.smaps([(Self.anonymousShared, 0, 4)]), process: 1)
        let two = GroupMemory.parse(Self.smaps([(Self.anonymousShared, 0, 4)]), process: 2)
        #expect(GroupMemory.combined([one, two]) == 8)
    }

    @Test func thisProcessIsReadWholeAndGarbageHasNothing() throws {
        let mine = try #require(GroupMemory.read(pid: getpid()))
        // The kernel's own sum of every mapping's private pages: the whole file was read.
        let rollup = try String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)
        let kernel =
            try #require(ProcessSample.parseField("Private_Clean:", rollup))
            + (try #require(ProcessSample.parseField("Private_Dirty:", rollup)))
        #expect(mine.privateKiB > 1024)
        #expect(abs(mine.privateKiB - kernel) < kernel / 10)
        #expect(GroupMemory.parse("not a smaps file\n\n:::\n", process: 1) == GroupMemory())
    }
}
