import Foundation
import SwitchyardCommands

/// The memory a group of processes (the server and its plugin workers) takes, each page counted once:
/// the sum of their private pages plus, for each file they map, the most of its shared pages any one of
/// them has resident. Summing their RSS instead counts the Swift runtime, Foundation and libcrypto pages,
/// which every worker shares with the server, once per process.
package struct GroupMemory: Equatable, Sendable {
    /// Private (clean and dirty) pages of the process, in KiB.
    package var privateKiB = 0
    /// Resident shared pages (clean and dirty) per mapped file, in KiB.
    package var sharedKiB: [String: Int] = [:]

    /// The `/proc/<pid>/smaps` of `pid`, read; nil when the process is gone or its maps are unreadable.
    package static func read(pid: Int32) -> GroupMemory? {
        // A /proc file has no size: read it to its end rather than by its stated length.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
            let data = try? file.readToEnd()
        else { return nil }
        try? file.close()
        return parse(String(decoding: data, as: UTF8.self), process: pid)
    }

    /// Parses a `/proc/<pid>/smaps` text. Shared pages of a mapping without a file (anonymous shared
    /// memory) are kept under a name of their own for `process`, so they are never merged across processes.
    package static func parse(_ text: String, process: Int32) -> GroupMemory {
        var memory = GroupMemory()
        var mapping = ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), !first.hasSuffix(":") {
                // A mapping's header: `start-end perms offset dev inode [path]`.
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                mapping = path.hasPrefix("/") ? path : "\(process):\(first)"
                continue
            }
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            switch first {
            case "Private_Clean:", "Private_Dirty:": memory.privateKiB &+= kib
            case "Shared_Clean:", "Shared_Dirty:": memory.sharedKiB[mapping, default: 0] &+= kib
            default: continue
            }
        }
        return memory
    }

    /// The group's memory in KiB: every process's private pages, and each file's shared pages once (the
    /// most any process of the group has resident, which is at least what the group has of it).
    package static func combined(_ group: [GroupMemory]) -> Int {
        var shared: [String: Int] = [:]
        var total = 0
        for memory in group {
            total &+= memory.privateKiB
            for (file, kib) in memory.sharedKiB { shared[file] = max(shared[file] ?? 0, kib) }
        }
        return shared.values.reduce(total, &+)
    }
}
