import Foundation
import Testing

@testable import SwitchyardCore

/// Every delivery state against every event: pending → delivering → succeeded / pending until a retry / dead.
struct WebhookDeliveryMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    var policy: PlatformPolicy.Webhooks {
        var p = PlatformPolicy.Webhooks()
        p.retryScheduleMs = [1_000, 60_000]
        return p
    }

    static let states: [WebhookDeliveryMachine.State] = [
        .pending(retryAt: nil), .delivering(attempt: 1), .succeeded, .dead, .canceled,
    ]
    static let events: [WebhookDeliveryMachine.Event] = [
        .claimed(endpointEnabled: true), .claimed(endpointEnabled: false), .attemptFinished(succeeded: true),
        .attemptFinished(succeeded: false), .leaseExpired,
    ]

    /// The state and actions of each move, written out by hand for a delivery with one attempt made
    /// (delivering) or none (pending); nil: refused.
    func expected(_ state: WebhookDeliveryMachine.State, _ event: WebhookDeliveryMachine.Event)
        -> (WebhookDeliveryMachine.State, [WebhookDeliveryMachine.Action])?
    {
        switch (state, event) {
        case (.pending, .claimed(endpointEnabled: true)): return (.delivering(attempt: 1), [.send(attempt: 1)])
        case (.pending, .claimed(endpointEnabled: false)): return (.canceled, [])
        case (.delivering, .attemptFinished(succeeded: true)): return (.succeeded, [])
        case (.delivering, .attemptFinished(succeeded: false)):
            let at = t0.addingTimeInterval(1)
            return (.pending(retryAt: at), [.retry(at: at)])
        case (.delivering, .leaseExpired): return (.pending(retryAt: nil), [])
        default: return nil
        }
    }

    @Test func everyStateAgainstEveryEvent() {
        for state in Self.states {
            for event in Self.events {
                let attempts = state == .pending(retryAt: nil) ? 0 : 1
                var machine = WebhookDeliveryMachine(state: state, attempts: attempts, policy: policy)
                let actions = machine.handle(event, at: t0)
                if let (next, wanted) = expected(state, event) {
                    #expect(machine.state == next, "\(state) × \(event)")
                    #expect(actions == wanted, "\(state) × \(event)")
                } else {
                    #expect(machine.state == state, "\(state) refused \(event)")
                    #expect(machine.attempts == attempts, "\(state) × \(event)")
                    #expect(actions.isEmpty, "\(state) × \(event)")
                }
            }
        }
    }

    @Test func theScheduleEndsInTheDeadLetter() {
        var machine = WebhookDeliveryMachine(state: .pending(retryAt: nil), attempts: 0, policy: policy)
        var retries: [Date] = []
        var now = t0
        while !machine.state.isFinal {
            let sent = machine.handle(.claimed(endpointEnabled: true), at: now)
            #expect(sent == [.send(attempt: machine.attempts)])
            let actions = machine.handle(.attemptFinished(succeeded: false), at: now)
            if let at = actions.compactMap(\.retryAt).first {
                retries.append(at)
                now = at
            } else {
                #expect(actions == [.deadLetter])
            }
        }
        #expect(machine.state == .dead)
        #expect(machine.state.status == .dead)
        #expect(machine.attempts == policy.attemptLimit)
        #expect(retries == [t0.addingTimeInterval(1), t0.addingTimeInterval(61)])
    }

    @Test func aClaimedDeliveryCountsItsAttempt() {
        let claim = ClaimedDelivery(
            id: "whd_1", tenantId: UUID(), eventId: "evt_1", eventType: "payment.succeeded", endpointId: "we_1",
            url: "https://example.com", secret: "s", payload: Data(), attemptNumber: 2)
        var machine = WebhookDeliveryMachine(claim: claim, policy: policy)
        #expect(machine.state == .delivering(attempt: 2))
        #expect(machine.handle(.attemptFinished(succeeded: false), at: t0) == [.retry(at: t0.addingTimeInterval(60))])
        #expect(machine.state.status == .pending)
        var last = WebhookDeliveryMachine(claim: claim, policy: PlatformPolicy.Webhooks())
        #expect(last.handle(.attemptFinished(succeeded: true), at: t0).isEmpty)
        #expect(last.state == .succeeded)
    }
}
