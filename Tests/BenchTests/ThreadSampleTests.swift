import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

struct ThreadSampleTests {
    static func status(voluntary: Int, involuntary: Int) -> String {
        """
        Name:\tswitchyard
        State:\tS (sleeping)
        Threads:\t9
        voluntary_ctxt_switches:\t\(voluntary)
        nonvoluntary_ctxt_switches:\t\(involuntary)

        """
    }

    @Test func aThreadsSwitchesAreItsVoluntaryAndInvoluntaryOnes() {
        #expect(ThreadSample.contextSwitches(inStatus: Self.status(voluntary: 120, involuntary: 7)) == 127)
        #expect(ThreadSample.contextSwitches(inStatus: "Name:\tx\nvoluntary_ctxt_switches:\t3\n") == nil)
        #expect(ThreadSample.contextSwitches(inStatus: Self.status(voluntary: Int.max, involuntary: 1)) == nil)
    }

    @Test func aProcessSumsEveryThreadAndCountsThem() {
        let sample = ThreadSample.combined([
            Self.status(voluntary: 100, involuntary: 5), Self.status(voluntary: 40, involuntary: 0),
            Self.status(voluntary: 0, involuntary: 2),
        ])
        #expect(sample == ThreadSample(threads: 3, contextSwitches: 147))
        #expect(ThreadSample.combined([]) == ThreadSample(threads: 0, contextSwitches: 0))
        #expect(
            ThreadSample.combined([
                Self.status(voluntary: Int.max - 1, involuntary: 0), Self.status(voluntary: 2, involuntary: 0),
            ]) == nil)
        #expect(ThreadSample.combined([Self.status(voluntary: 1, involuntary: 1), "garbage"]) == nil)
    }

    @Test func theServerIsTheFirstProcessAndTheWorkersTheRest() {
        let threads = ProcessSample.combinedThreads([
            ThreadSample(threads: 12, contextSwitches: 1000), ThreadSample(threads: 8, contextSwitches: 300),
            ThreadSample(threads: 9, contextSwitches: 200),
        ])
        #expect(threads.contextSwitches == 1500)
        #expect(threads.serverThreads == 12)
        #expect(threads.workerThreads == 17)
        // A worker that could not be read leaves the sums unknown, not short.
        let partial = ProcessSample.combinedThreads([ThreadSample(threads: 12, contextSwitches: 1000), nil])
        #expect(partial.contextSwitches == nil && partial.serverThreads == 12 && partial.workerThreads == nil)
        let alone = ProcessSample.combinedThreads([ThreadSample(threads: 12, contextSwitches: 1000)])
        #expect(alone.workerThreads == 0)
        #expect(ProcessSample.combinedThreads([]) == (nil, nil, nil))
        #expect(
            ProcessSample.combinedThreads([
                ThreadSample(threads: 1, contextSwitches: Int.max), ThreadSample(threads: 1, contextSwitches: 1),
            ]).contextSwitches == nil)
    }

    @Test func switchesPerPaymentAreTheDifferenceOverTheSuccessfulPayments() {
        #expect(ThreadSample.perPayment(before: 1000, after: 5000, payments: 400) == 10)
        #expect(ThreadSample.perPayment(before: 1000, after: 1000, payments: 400) == 0)
        #expect(ThreadSample.perPayment(before: 1000, after: 5000, payments: 0) == nil)
        // Fewer switches after than before: threads that made them have exited; no figure.
        #expect(ThreadSample.perPayment(before: 5000, after: 1000, payments: 400) == nil)
        #expect(ThreadSample.perPayment(before: Int.min, after: Int.max, payments: 1) == nil)
    }

    @Test func theUsageDividesSwitchesBySuccessesAndCPUByPayments() {
        let before = ProcessSample(
            cpuSeconds: 10, peakRSSKiB: 0, contextSwitches: 2000, serverThreads: 11, workerThreads: 30)
        let after = ProcessSample(
            cpuSeconds: 15, peakRSSKiB: 1024, contextSwitches: 6000, serverThreads: 13, workerThreads: 32)
        let usage = ProcessSample.usage(from: before, to: after, payments: 500, successes: 400)
        #expect(usage.cpuSecondsPer1000 == 10)
        #expect(usage.contextSwitchesPerPayment == 10)
        #expect(usage.serverThreads == 13 && usage.workerThreads == 32)
        let unread = ProcessSample.usage(
            from: ProcessSample(cpuSeconds: 10, peakRSSKiB: 0), to: after, payments: 500, successes: 400)
        #expect(unread.contextSwitchesPerPayment == nil)
    }

    @Test func thisProcessThreadsAndSwitchesCanBeRead() throws {
        let sample = try #require(ThreadSample.read(pid: getpid()))
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let stated = try #require(ProcessSample.parseField("Threads:", status))
        // Threads come and go in a test process; the listing and the kernel's count are close.
        #expect(sample.threads >= 1)
        #expect(abs(sample.threads - stated) <= 4)
        #expect(sample.contextSwitches > 0)
        let full = try #require(ProcessSample.read(pid: getpid()))
        #expect(full.serverThreads != nil && full.workerThreads != nil && full.contextSwitches != nil)
    }

    @Test func aStepCountsOnlySuccessfulPayments() {
        let measure = LoadMeasure(latencies: [0.1, 0.1, 0.1, 0.1], statuses: [201, 201, 503, 0], seconds: 1)
        #expect(measure.successes == 2)
    }
}
