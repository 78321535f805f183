import Foundation
import ProviderKit
import Testing

@testable import PluginHost

/// The plugin call's life without I/O: events in, actions out, times as plain readings.
struct PluginCallMachineTests {
    typealias Machine = PluginCallMachine
    static let cancelledReply = Data(#"{"error":{"code":"cancelled","message":"the call was cancelled"}}"#.utf8)
    static let reply = Data(#"{"result":{"kind":"succeeded"}}"#.utf8)

    /// A call begun at 10 s with a 2 s deadline and a 1 s grace, the plugin's sends at 5.
    func machine() -> Machine {
        Machine(now: .seconds(10), deadline: .seconds(2), grace: .seconds(1), sends: 5)
    }

    func code(_ action: Machine.Action) -> PluginResultCode? {
        guard case .answer(.failure(let error)) = action else { return nil }
        return error.code
    }

    @Test func aCallThatIsAnsweredInTimeGetsThePluginsReplyAndNothingLater() {
        var call = machine()
        #expect(call.wakeAt == .seconds(12))
        let begunCall = call.begin()
        #expect(begunCall)
        #expect(call.invokeReturned() == .none)
        #expect(call.tick(now: .seconds(11), sends: 5) == .none, "before the deadline nothing happens")
        #expect(call.completed(Self.reply, sends: 6) == .answer(.success(Self.reply)))
        #expect(call.stage == .answered)
        #expect(call.wakeAt == nil)
        #expect(call.completed(Self.reply, sends: 6) == .ignoreLate, "a second completion is ignored")
        #expect(call.tick(now: .seconds(20), sends: 6) == .none)
        let begunAgain = call.begin()
        #expect(!begunAgain)
    }

    @Test func theDeadlineAsksThePluginToCancelAndTheGraceEndsTheWait() {
        for (sends, expected) in [(UInt64(5), PluginResultCode.deadlineBeforeSend), (7, .deadlineExceeded)] {
            var call = machine()
            let begunCall = call.begin()
            #expect(begunCall)
            _ = call.invokeReturned()
            #expect(call.tick(now: .seconds(12), sends: 5) == .cancelPlugin(.deadline))
            #expect(call.deadlinePassed)
            #expect(call.wakeAt == .seconds(13), "the next tick is at the end of the grace")
            #expect(call.tick(now: .milliseconds(12_999), sends: sends) == .none)
            #expect(code(call.tick(now: .seconds(13), sends: sends)) == expected, "\(sends) sends")
            #expect(call.completed(Self.reply, sends: sends) == .ignoreLate)
        }
    }

    @Test func aCancelledReplyAfterTheDeadlineIsAnsweredAsTheDeadlineSooner() {
        var call = machine()
        _ = call.begin()
        _ = call.invokeReturned()
        _ = call.tick(now: .seconds(12), sends: 5)
        #expect(code(call.completed(Self.cancelledReply, sends: 5)) == .deadlineBeforeSend)

        var sent = machine()
        _ = sent.begin()
        _ = sent.invokeReturned()
        _ = sent.tick(now: .seconds(12), sends: 5)
        #expect(code(sent.completed(Self.cancelledReply, sends: 6)) == .deadlineExceeded)

        // Before the deadline the plugin's own `cancelled` is its answer.
        var early = machine()
        _ = early.begin()
        _ = early.invokeReturned()
        #expect(early.completed(Self.cancelledReply, sends: 5) == .answer(.success(Self.cancelledReply)))
    }

    @Test func aCallStillQueuedWhenCancelledOrAtItsDeadlineNeverStarts() {
        var atDeadline = machine()
        #expect(code(atDeadline.tick(now: .seconds(12), sends: 9)) == .deadlineBeforeSend)
        let begunAtdeadline = atDeadline.begin()
        #expect(!begunAtdeadline, "the plugin thread that reaches it later skips it")

        var cancelled = machine()
        #expect(code(cancelled.cancel(.task)) == .cancelled)
        let begunCancelled = cancelled.begin()
        #expect(!begunCancelled)
    }

    @Test func aCancellationDuringInvokeWaitsUntilInvokeReturns() {
        var call = machine()
        _ = call.begin()
        #expect(call.cancel(.task) == .none, "invoke is running: the plugin cannot be asked yet")
        #expect(call.tick(now: .seconds(12), sends: 5) == .none, "the deadline too waits")
        #expect(call.invokeReturned() == .cancelPlugin(.task), "the first reason is the one sent")
        #expect(call.cancel(.task) == .cancelPlugin(.task), "after invoke a cancellation goes at once")
    }

    @Test func aLostWorkerAnswersByWhetherThePluginSentAnything() {
        var unsent = machine()
        _ = unsent.begin()
        _ = unsent.invokeReturned()
        let lostUnsent = unsent.lost(sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "gone", sends: 5)
        #expect(code(lostUnsent) == .workerLostBeforeSend)

        var sent = machine()
        _ = sent.begin()
        _ = sent.invokeReturned()
        #expect(
            code(sent.lost(sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "gone", sends: 6)) == .workerLost)
        #expect(sent.lost(sentCode: .workerLost, unsentCode: .workerLostBeforeSend, "again", sends: 6) == .none)
        #expect(sent.fail(PluginCallError(.workerLostBeforeSend, message: "late")) == .none)
    }
}
