import Foundation
import SwitchyardCommands

/// CPU time, memory, threads and context switches of a process and its descendants of Switchyard's
/// executables (plugin workers), read from `/proc`.
package struct ProcessSample: Equatable, Sendable {
    /// User + system CPU seconds.
    package var cpuSeconds: Double
    /// Sum of the processes' peak resident set sizes (VmHWM), in KiB.
    package var peakRSSKiB: Int
    /// Sum of the processes' resident set sizes now (VmRSS), in KiB.
    package var rssKiB: Int = 0
    /// The processes' memory now with each page counted once (``GroupMemory``), in KiB.
    package var memoryKiB: Int = 0
    /// Context switches of every thread of the processes (``ThreadSample``), summed; nil when unreadable.
    package var contextSwitches: Int? = nil
    /// The server process's threads; nil when unreadable.
    package var serverThreads: Int? = nil
    /// The plugin workers' threads, summed; nil when unreadable.
    package var workerThreads: Int? = nil

    /// A sample of `pid` and its descendants whose name starts like Switchyard's executables (`switchyard`,
    /// `switchyard-plugin-worker`, truncated to 15 characters by the kernel); nil when the process is gone.
    package static func read(pid: Int32) -> ProcessSample? {
        guard stat(of: pid) != nil else { return nil }
        var sample = ProcessSample(cpuSeconds: 0, peakRSSKiB: 0)
        var group: [GroupMemory] = []
        var threads: [ThreadSample?] = []
        for process in [pid] + descendants(of: pid, namedLike: "switchyard") {
            guard let stat = stat(of: process) else { continue }
            sample.cpuSeconds += stat.cpuSeconds
            let memory = memory(of: process)
            sample.peakRSSKiB += memory?.peak ?? 0
            sample.rssKiB += memory?.now ?? 0
            if let pages = GroupMemory.read(pid: process) { group.append(pages) }
            threads.append(ThreadSample.read(pid: process))
        }
        sample.memoryKiB = GroupMemory.combined(group)
        (sample.contextSwitches, sample.serverThreads, sample.workerThreads) = combinedThreads(threads)
        return sample
    }

    /// The name, parent and CPU seconds of `/proc/<pid>/stat`.
    package static func stat(of pid: Int32) -> (name: String, parent: Int32, cpuSeconds: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parseStat(text, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Parses a `/proc/<pid>/stat` line: `pid (comm) state ppid … utime stime …` (fields 14 and 15).
    package static func parseStat(_ text: String, ticksPerSecond: Double) -> (
        name: String, parent: Int32, cpuSeconds: Double
    )? {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else { return nil }
        let name = String(text[text.index(after: open)..<close])
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let parent = Int32(fields[1]), let user = Double(fields[11]),
            let system = Double(fields[12]), ticksPerSecond > 0
        else { return nil }
        return (name, parent, (user + system) / ticksPerSecond)
    }

    /// VmHWM and VmRSS of `/proc/<pid>/status`, in KiB.
    package static func memory(of pid: Int32) -> (peak: Int, now: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return (parseHighWaterMark(text) ?? 0, parseField("VmRSS:", text) ?? 0)
    }

    /// The `VmHWM:` value (KiB) of a `/proc/<pid>/status` text.
    package static func parseHighWaterMark(_ text: String) -> Int? {
        parseField("VmHWM:", text)
    }

    /// The value (KiB) of the field `name` (with its colon) of a `/proc/<pid>/status` text.
    package static func parseField(_ name: String, _ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Every live descendant of `pid` whose name starts with `prefix`.
    package static func descendants(of pid: Int32, namedLike prefix: String) -> [Int32] {
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
            if names[next]?.hasPrefix(prefix) == true { found.append(next) }
            queue += children[next] ?? []
        }
        return found
    }

    /// The server's threads (the first sample), the workers' threads summed (the rest) and everyone's context
    /// switches summed; each nil when a sample is missing or a sum overflows.
    package static func combinedThreads(_ samples: [ThreadSample?]) -> (
        contextSwitches: Int?, serverThreads: Int?, workerThreads: Int?
    ) {
        guard let server = samples.first else { return (nil, nil, nil) }
        return (
            ThreadSample.checkedSum(samples.map { $0?.contextSwitches }), server?.threads,
            ThreadSample.checkedSum(samples.dropFirst().map { $0?.threads })
        )
    }

    /// The usage between `before` and `after` for `payments` payments, of which `successes` succeeded (all
    /// of them when not given); the sandbox's CPU when its samples are given. Context switches are per
    /// successful payment.
    package static func usage(
        from before: ProcessSample, to after: ProcessSample, payments: Int, successes: Int? = nil,
        sandbox: (ProcessSample, ProcessSample)? = nil
    ) -> ServerUsage {
        func per1000(_ from: ProcessSample, _ to: ProcessSample) -> Double {
            payments > 0 ? (to.cpuSeconds - from.cpuSeconds) * 1000 / Double(payments) : 0
        }
        return ServerUsage(
            peakRSSMiB: Double(after.peakRSSKiB) / 1024, cpuSecondsPer1000: per1000(before, after),
            rssMiB: Double(after.rssKiB) / 1024, sandboxCPUSecondsPer1000: sandbox.map { per1000($0.0, $0.1) },
            memoryMiB: Double(after.memoryKiB) / 1024,
            contextSwitchesPerPayment: before.contextSwitches.flatMap { from in
                after.contextSwitches.flatMap {
                    ThreadSample.perPayment(before: from, after: $0, payments: successes ?? payments)
                }
            },
            serverThreads: after.serverThreads, workerThreads: after.workerThreads)
    }
}
