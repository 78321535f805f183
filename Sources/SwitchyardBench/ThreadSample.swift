import Foundation
import SwitchyardCommands

/// The threads of a process and the context switches they have made, read from `/proc/<pid>/task`.
///
/// A thread's switches are the `voluntary_ctxt_switches` and `nonvoluntary_ctxt_switches` of its
/// `/proc/<pid>/task/<tid>/status`. A thread that exits takes its count with it, so a difference between two
/// samples counts only the threads alive at the second.
package struct ThreadSample: Equatable, Sendable {
    /// The process's threads when it was read.
    package var threads: Int
    /// The context switches (voluntary and involuntary) of those threads, summed.
    package var contextSwitches: Int

    package init(threads: Int, contextSwitches: Int) {
        self.threads = threads
        self.contextSwitches = contextSwitches
    }

    /// The threads of `pid` and their context switches; nil when the process is gone or a sum overflows.
    /// A thread that ends between the listing and its read is left out.
    package static func read(pid: Int32) -> ThreadSample? {
        let directory = "/proc/\(pid)/task"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var statuses: [String] = []
        for entry in entries where Int32(entry) != nil {
            if let text = try? String(contentsOfFile: "\(directory)/\(entry)/status", encoding: .utf8) {
                statuses.append(text)
            }
        }
        return combined(statuses)
    }

    /// The sample of a process whose threads' `status` texts are `statuses`: one thread per text, their
    /// switches summed; nil when a text has no switch counts or a sum overflows.
    package static func combined(_ statuses: [String]) -> ThreadSample? {
        guard let total = checkedSum(statuses.map(contextSwitches(inStatus:))) else { return nil }
        return ThreadSample(threads: statuses.count, contextSwitches: total)
    }

    /// The sum of `values`; nil when one is missing or the sum overflows.
    package static func checkedSum(_ values: [Int?]) -> Int? {
        var total = 0
        for value in values {
            guard let value else { return nil }
            let (next, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return nil }
            total = next
        }
        return total
    }

    /// `voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` of one `/proc/…/status` text; nil when
    /// either is missing or their sum overflows.
    package static func contextSwitches(inStatus text: String) -> Int? {
        guard let voluntary = ProcessSample.parseField("voluntary_ctxt_switches:", text),
            let involuntary = ProcessSample.parseField("nonvoluntary_ctxt_switches:", text)
        else { return nil }
        let (sum, overflow) = voluntary.addingReportingOverflow(involuntary)
        return overflow ? nil : sum
    }

    /// The context switches per payment between two sums: (`after` − `before`) ÷ `payments`; nil without a
    /// successful payment, when the difference is negative (threads that made the switches have exited) or
    /// when it overflows.
    package static func perPayment(before: Int, after: Int, payments: Int) -> Double? {
        guard payments > 0 else { return nil }
        let (difference, overflow) = after.subtractingReportingOverflow(before)
        guard !overflow, difference >= 0 else { return nil }
        return Double(difference) / Double(payments)
    }
}
