import Foundation
import PluginHost

/// CPU time and peak memory of a process and its descendants of the same executable or of the plugin
/// worker executable, read from `/proc`.
struct ProcessSample: Equatable, Sendable {
    /// User + system CPU seconds.
    var cpuSeconds: Double
    /// Sum of the processes' peak resident set sizes (VmHWM), in KiB.
    var peakRSSKiB: Int

    /// A sample of `pid` and its descendants named like it or like a plugin worker; nil when the process
    /// is gone.
    static func read(pid: Int32) -> ProcessSample? {
        guard let root = stat(of: pid) else { return nil }
        var sample = ProcessSample(cpuSeconds: 0, peakRSSKiB: 0)
        // The kernel keeps the first 15 bytes of an executable's name.
        let names: Set = [root.name, String(PluginExecutable.workerName.prefix(15))]
        for process in [pid] + descendants(of: pid, named: names) {
            guard let stat = stat(of: process) else { continue }
            sample.cpuSeconds += stat.cpuSeconds
            sample.peakRSSKiB += peakRSS(of: process) ?? 0
        }
        return sample
    }

    /// The name, parent and CPU seconds of `/proc/<pid>/stat`.
    static func stat(of pid: Int32) -> (name: String, parent: Int32, cpuSeconds: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parseStat(text, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Parses a `/proc/<pid>/stat` line: `pid (comm) state ppid … utime stime …` (fields 14 and 15).
    static func parseStat(_ text: String, ticksPerSecond: Double) -> (name: String, parent: Int32, cpuSeconds: Double)?
    {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return nil }
        let name = String(text[text.index(after: open)..<close])
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let parent = Int32(fields[1]), let user = Double(fields[11]),
            let system = Double(fields[12]), ticksPerSecond > 0
        else { return nil }
        return (name, parent, (user + system) / ticksPerSecond)
    }

    /// VmHWM of `/proc/<pid>/status`, in KiB.
    static func peakRSS(of pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return parseHighWaterMark(text)
    }

    /// The `VmHWM:` value (KiB) of a `/proc/<pid>/status` text.
    static func parseHighWaterMark(_ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Every live descendant of `pid` whose name is one of `wanted`.
    static func descendants(of pid: Int32, named wanted: Set<String>) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var children: [Int32: [Int32]] = [:]
        var names: [Int32: String] = [:]
        for entry in entries {
            guard let child = Int32(entry), let stat = stat(of: child) else { continue }
            children[stat.parent, default: []].append(child)
            names[child] = stat.name
        }
        var found: [Int32] = []
        var queue = children[pid] ?? []
        while let next = queue.popLast() {
            if let name = names[next], wanted.contains(name) { found.append(next) }
            queue += children[next] ?? []
        }
        return found
    }

    /// The usage between `before` and `after` for `payments` payments.
    static func usage(from before: ProcessSample, to after: ProcessSample, payments: Int) -> ServerUsage {
        ServerUsage(
            peakRSSMiB: Double(after.peakRSSKiB) / 1024,
            cpuSecondsPer1000: payments > 0 ? (after.cpuSeconds - before.cpuSeconds) * 1000 / Double(payments) : 0)
    }
}
