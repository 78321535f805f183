import Foundation
import SwitchyardCore
import Testing

/// The life of one request's `Idempotency-Key` as a value: events in, actions out, no I/O.
struct IdempotencyMachineTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func running(resuming resourceId: String? = nil) -> IdempotencyMachine {
        var key = IdempotencyMachine(lease: 60)
        let claim: IdempotencyClaim = resourceId.map { .resume(resourceId: $0) } ?? .proceed
        _ = key.apply(.claimed(claim, at: now))
        return key
    }

    @Test func aNewKeyRunsAndStoresWhatTheWorkAnswered() {
        var key = IdempotencyMachine(lease: 60)
        #expect(key.apply(.claimed(.proceed, at: now)) == .run(takeover: nil))
        #expect(key.state == .running)
        #expect(key.apply(.finished(.createdPayment("pay_1"))) == .answer(.createdPayment("pay_1")))
        #expect(key.state == .answered)
        #expect(key.isFinal)
    }

    @Test func aKeyAnsweredInTheWorksOwnTransactionLeavesNothingToWrite() {
        var key = running()
        #expect(key.apply(.linked(resourceId: "pay_1")) == .none)
        #expect(key.apply(.answeredWithWork) == .none)
        #expect(key.state == .answered)
        // Whatever comes after a final state changes nothing.
        #expect(key.apply(.finished(.createdPayment("pay_1"))) == .none)
        #expect(key.apply(.failed(IdempotentFailure(answer: nil))) == .none)
        #expect(key.state == .answered)
    }

    @Test func aClaimThatDoesNotLetTheRequestRunTurnsItAway() {
        var replayed = IdempotencyMachine(lease: 60)
        #expect(
            replayed.apply(.claimed(.replay(.createdPayment("pay_1")), at: now))
                == .replay(.createdPayment("pay_1")))
        #expect(replayed.state == .turnedAway(.replay(.createdPayment("pay_1"))))

        var reused = IdempotencyMachine(lease: 60)
        guard case .refuse(let error, let retryAfter) = reused.apply(.claimed(.mismatch, at: now)) else {
            Issue.record("another body was not refused")
            return
        }
        #expect(error.code == .idempotencyKeyReused)
        #expect(retryAfter == nil)
    }

    @Test func aHeldKeyIsRefusedWithWhenItMayBeFreeWithinTheLease() {
        func retryAfter(_ until: Date?) -> Int? {
            var key = IdempotencyMachine(lease: 60)
            guard case .refuse(let error, let seconds) = key.apply(.claimed(.held(until: until), at: now)) else {
                return nil
            }
            #expect(error.code == .idempotencyInProgress)
            return seconds
        }
        #expect(retryAfter(now.addingTimeInterval(12.2)) == 13)
        #expect(retryAfter(now.addingTimeInterval(-5)) == 1)
        #expect(retryAfter(now.addingTimeInterval(600)) == 60)
        #expect(retryAfter(nil) == 60)
    }

    @Test func aTakeoverResumesWhatTheEarlierOwnerLinked() {
        var key = IdempotencyMachine(lease: 60)
        #expect(
            key.apply(.claimed(.resume(resourceId: "pay_1"), at: now))
                == .run(takeover: IdempotencyTakeover(resourceId: "pay_1")))
        #expect(key.linked == "pay_1")
        #expect(key.claim == .resume(resourceId: "pay_1"))
        // Taken over from an owner that linked nothing: still a takeover (it may have acted), each route
        // resumes as it must.
        var empty = IdempotencyMachine(lease: 60)
        #expect(
            empty.apply(.claimed(.resume(resourceId: nil), at: now))
                == .run(takeover: IdempotencyTakeover(resourceId: nil)))
    }

    @Test func theMerchantsErrorIsStoredAnyOtherFailureReleasesTheKey() {
        var declined = running()
        let decline = CoreError(.providerDeclined, "declined")
        #expect(declined.apply(.failed(IdempotentFailure(decline))) == .answer(.failure(decline)))

        var unreachable = running()
        let failure = IdempotentFailure(CoreError(.providerUnreachable, "nothing was sent"))
        #expect(failure.answer == nil)
        #expect(unreachable.apply(.failed(failure)) == .release(linking: nil))
        #expect(unreachable.state == .released)
    }

    @Test func aFailureAfterTheProviderMayHaveActedKeepsTheKeyLinkedToWhatItActedOn() {
        var key = running()
        let failure = IdempotentFailure(answer: nil, contact: .possible(resourceId: "pay_1"), storageLost: true)
        #expect(key.apply(.failed(failure)) == .release(linking: "pay_1"))
        // Already linked under the key (an earlier owner's payment): the store has it, nothing to link again.
        var resumed = running(resuming: "pay_1")
        #expect(resumed.apply(.failed(failure)) == .release(linking: nil))
    }

    @Test func aFailureBeforeAnyClaimIsClaimedToBeStoredOrReleasedWhenItsCommitMayHaveLanded() {
        var invalid = IdempotencyMachine(lease: 60)
        let error = CoreError(.invalidField, "bad", param: "amount")
        #expect(invalid.apply(.failed(IdempotentFailure(error))) == .claim)
        #expect(invalid.apply(.claimed(.proceed, at: now)) == .answer(.failure(error)))
        #expect(invalid.state == .answered)

        // The key was taken over from an owner that created a payment: resume it, do not store this error.
        var takenOver = IdempotencyMachine(lease: 60)
        _ = takenOver.apply(.failed(IdempotentFailure(error)))
        #expect(
            takenOver.apply(.claimed(.resume(resourceId: "pay_9"), at: now))
                == .run(takeover: IdempotencyTakeover(resourceId: "pay_9")))
        var nothingCreated = IdempotencyMachine(lease: 60)
        _ = nothingCreated.apply(.failed(IdempotentFailure(error)))
        #expect(nothingCreated.apply(.claimed(.resume(resourceId: nil), at: now)) == .answer(.failure(error)))

        var lost = IdempotencyMachine(lease: 60)
        #expect(
            lost.apply(.failed(IdempotentFailure(answer: nil, storageLost: true))) == .release(linking: nil))
        var other = IdempotencyMachine(lease: 60)
        #expect(other.apply(.failed(IdempotentFailure(answer: nil))) == .none)
        #expect(other.state == .unclaimed)
    }

    @Test func anAnswerThatCouldNotBeStoredReleasesTheKeyLinkedToWhatItAnswered() {
        var key = running()
        let reply = IdempotentOutcome.resource(IdempotentResource(kind: .payment, id: "pay_3", created: false))
        #expect(key.apply(.finished(reply)) == .answer(reply))
        #expect(key.apply(.writeFailed) == .release(linking: "pay_3"))
        #expect(key.state == .released)

        var failed = running()
        _ = failed.apply(.failed(IdempotentFailure(CoreError(.invalidState, "no"))))
        #expect(failed.apply(.writeFailed) == .release(linking: nil))

        var claim = IdempotencyMachine(lease: 60)
        #expect(claim.apply(.writeFailed) == .release(linking: nil))
    }
}
