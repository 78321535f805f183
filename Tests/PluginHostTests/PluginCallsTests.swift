import Foundation
import ProviderKit
import Synchronization
import Testing

@testable import PluginHost

/// A clock that moves only when told: wake-ups run when it is advanced past them.
final class ManualPluginTimer: PluginTimer {
    private struct State {
        var reading: Duration = .seconds(100)
        var next = 0
        var wakes: [Int: (at: Duration, work: @Sendable () -> Void)] = [:]
    }

    private let state = Mutex(State())

    var now: Duration { state.withLock { $0.reading } }

    /// Wake-ups scheduled and not run or called off.
    var pending: Int { state.withLock { $0.wakes.count } }

    func wake(at reading: Duration, _ work: @escaping @Sendable () -> Void) -> PluginWake {
        let number = state.withLock { state in
            defer { state.next += 1 }
            state.wakes[state.next] = (reading, work)
            return state.next
        }
        return PluginWake { [self] in _ = self.state.withLock { $0.wakes.removeValue(forKey: number) } }
    }

    /// Moves the clock by `step` and runs the wake-ups now due, earliest first (also those they schedule).
    func advance(by step: Duration) {
        state.withLock { $0.reading += step }
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            guard
                let (number, due) = state.wakes.filter({ $0.value.at <= state.reading }).min(by: {
                    $0.value.at < $1.value.at
                })
            else { return nil }
            state.wakes[number] = nil
            return due.work
        }) {
            work()
        }
    }
}

/// The registry of calls in flight, driven by a manual clock: deadlines, grace, cancellation and owners,
/// without a plugin and without waiting for time.
struct PluginCallsTests {
    final class Recorder: Sendable {
        let cancels = Mutex<[PluginCancelReason]>([])
        let started = AsyncStream.makeStream(of: UInt64.self)
    }

    /// Starts one call on `calls` that is handed over at once and never completed by a plugin; returns the
    /// task awaiting its answer and its id.
    func startCall(
        _ calls: PluginCalls, timer: ManualPluginTimer, ledger: SendLedger, owner: UInt64 = 7,
        recorder: Recorder
    ) async -> (Task<Result<Data, PluginCallError>, Never>, UInt64) {
        let task = Task {
            await calls.call(
                deadline: .seconds(2), grace: .seconds(1), timer: timer, ledger: ledger, owner: owner,
                start: { id in
                    guard calls.begin(id) else { return }
                    calls.invokeReturned(id)
                    recorder.started.continuation.yield(id)
                },
                cancel: { _, reason in recorder.cancels.withLock { $0.append(reason) } })
        }
        var ids = recorder.started.stream.makeAsyncIterator()
        let id = await ids.next() ?? 0
        return (task, id)
    }

    @Test func theDeadlineCancelsAndTheGraceAnswersByWhetherAnythingWasSent() async {
        for sent in [false, true] {
            let calls = PluginCalls()
            let timer = ManualPluginTimer()
            let ledger = SendLedger()
            let recorder = Recorder()
            let (task, id) = await startCall(calls, timer: timer, ledger: ledger, recorder: recorder)
            if sent { ledger.record() }
            timer.advance(by: .milliseconds(1_999))
            #expect(recorder.cancels.withLock { $0 }.isEmpty, "not yet at the deadline")
            timer.advance(by: .milliseconds(1))
            #expect(recorder.cancels.withLock { $0 } == [.deadline])
            #expect(calls.isInFlight(id), "the grace is still running")
            timer.advance(by: .seconds(1))
            let result = await task.value
            #expect(result.failureCode == (sent ? .deadlineExceeded : .deadlineBeforeSend))
            #expect(!calls.isInFlight(id))
            #expect(timer.pending == 0)
        }
    }

    @Test func onlyTheOwnerCompletesACallAndOnlyOnce() async {
        let calls = PluginCalls()
        let timer = ManualPluginTimer()
        let (task, id) = await startCall(calls, timer: timer, ledger: SendLedger(), owner: 7, recorder: Recorder())
        let reply = Data(#"{"result":{}}"#.utf8)
        #expect(!calls.complete(id, reply, owner: 8), "another worker cannot answer this call")
        #expect(!calls.complete(id, reply, owner: PluginCalls.inProcessOwner))
        #expect(calls.isInFlight(id))
        #expect(calls.complete(id, reply, owner: 7))
        #expect(await task.value.successData == reply)
        #expect(!calls.complete(id, reply, owner: 7), "a second completion finds nothing")
        #expect(timer.pending == 0, "the answered call's deadline was called off")
    }

    @Test func aCancelledTaskAsksThePluginOrNeverStartsTheCall() async {
        let calls = PluginCalls()
        let timer = ManualPluginTimer()
        let recorder = Recorder()
        let (task, id) = await startCall(calls, timer: timer, ledger: SendLedger(), recorder: recorder)
        task.cancel()
        #expect(recorder.cancels.withLock { $0 } == [.task])
        #expect(calls.complete(id, PluginCallMachineTests.cancelledReply, owner: 7))
        #expect(await task.value.successData == PluginCallMachineTests.cancelledReply)

        let started = Mutex(false)
        let never = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await calls.call(
                deadline: .seconds(2), grace: .seconds(1), timer: timer, ledger: SendLedger(), owner: 7,
                start: { id in started.withLock { $0 = calls.begin(id) } }, cancel: { _, _ in })
        }
        #expect(await never.value.failureCode == .cancelled)
        #expect(!started.withLock { $0 }, "a call cancelled before it began is never handed to the plugin")
        #expect(timer.pending == 0)
    }

    @Test func aLostWorkerAnswersItsOwnCallsOnly() async {
        let calls = PluginCalls()
        let timer = ManualPluginTimer()
        let ledger = SendLedger()
        let (lost, _) = await startCall(calls, timer: timer, ledger: ledger, owner: 7, recorder: Recorder())
        let (kept, keptID) = await startCall(calls, timer: timer, ledger: ledger, owner: 8, recorder: Recorder())
        calls.lose(owner: 7, sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "the plugin worker died")
        #expect(await lost.value.failureCode == .workerLostBeforeSend)
        #expect(calls.isInFlight(keptID))
        ledger.record()
        calls.lose(owner: 8, sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "the plugin worker died")
        #expect(await kept.value.failureCode == .workerLost)
        #expect(timer.pending == 0)
    }
}

extension Result where Success == Data, Failure == PluginCallError {
    var failureCode: PluginResultCode? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }

    var successData: Data? {
        guard case .success(let data) = self else { return nil }
        return data
    }
}
