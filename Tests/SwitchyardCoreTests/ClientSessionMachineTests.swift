import Foundation
import ProviderKit
import Testing

@testable import SwitchyardCore

/// A client session's life against every event, at each point of its time line: issued, past half its
/// life, expired, swept, swept again within the horizon, swept a last time past it, closed.
struct ClientSessionMachineTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// Expires 1000 s after the start: half-life at 500 s.
    var expiresAt: Date { start.addingTimeInterval(1000) }

    func action(renewable: Bool = true, expires: Date? = nil) -> NextAction {
        NextAction(type: "sdk", data: ["session": .string("s1")], expiresAt: expires ?? expiresAt, renewable: renewable)
    }

    func machine(syncedAt: Date? = nil, waiting: Bool = true, renewable: Bool = true) -> ClientSessionMachine {
        ClientSessionMachine(
            start: start, action: action(renewable: renewable), syncedAt: syncedAt, waiting: waiting, retryAfter: 5,
            horizon: 100)
    }

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    @Test func theStateAlongTheTimeLine() {
        #expect(machine().state(at: at(100)) == .issued)
        #expect(machine().state(at: at(500)) == .halfLifeDue)
        #expect(machine(syncedAt: at(600)).state(at: at(700)) == .issued)
        #expect(machine(syncedAt: at(400)).state(at: at(700)) == .halfLifeDue, "a sync before half-life does not count")
        #expect(machine().state(at: at(1000)) == .expired)
        #expect(machine(syncedAt: at(600)).state(at: at(1000)) == .expired, "a half-life sync is no sweep")
        #expect(machine(syncedAt: at(1000)).state(at: at(1004)) == .swept)
        #expect(machine(syncedAt: at(1000)).state(at: at(1005)) == .expired, "swept again after retryAfter")
        #expect(machine(syncedAt: at(1096)).state(at: at(1099)) == .swept)
        #expect(machine(syncedAt: at(1096)).state(at: at(1100)) == .horizonReached, "a last sweep at the horizon")
        #expect(machine().state(at: at(5000)) == .horizonReached, "never swept: the last sweep is still due")
        #expect(machine(syncedAt: at(1100)).state(at: at(1_000_000)) == .swept, "nothing after the last sweep")
        #expect(machine(waiting: false).state(at: at(100)) == .closed)
        let open = ClientSessionMachine(start: start, action: NextAction(type: "sdk", data: [:]))
        #expect(open.state(at: at(1_000_000)) == .issued, "a session without expiry lives while its owner waits")
    }

    /// (time, synced at, waiting) for each state.
    var points: [(ClientSessionMachine.State, TimeInterval, Date?, Bool)] {
        [
            (.issued, 100, nil, true), (.halfLifeDue, 600, nil, true), (.expired, 1001, nil, true),
            (.swept, 1002, at(1001), true), (.horizonReached, 1100, at(1096), true), (.closed, 100, nil, false),
        ]
    }

    @Test func everyStateAgainstEveryEvent() {
        let renewal = action(expires: at(5000))
        let events: [ClientSessionMachine.Event] = [.opened, .swept, .renewed(nil), .renewed(renewal), .ownerSettled]
        for (state, time, synced, waiting) in points {
            for event in events {
                var m = machine(syncedAt: synced, waiting: waiting)
                #expect(m.state(at: at(time)) == state)
                let actions = m.handle(event, at: at(time))
                let wanted: [ClientSessionMachine.Action]
                switch (state, event) {
                case (.closed, .opened), (.closed, .renewed): wanted = [.refuse(.noSession)]
                case (.expired, .opened), (.swept, .opened), (.horizonReached, .opened):
                    wanted = [.refuse(.expired(renewable: true))]
                case (_, .opened): wanted = [.handOut(action())]
                case (.halfLifeDue, .swept), (.expired, .swept): wanted = [.sync]
                case (.horizonReached, .swept): wanted = [.sync, .flagForReview]
                case (_, .renewed(nil)): wanted = [.requestRenewal]
                case (_, .renewed(let new?)): wanted = [.handOut(new)]
                default: wanted = []
                }
                #expect(actions == wanted, "\(state) × \(event)")
                switch event {
                case .swept where wanted.first == .sync:
                    #expect(m.syncedAt == at(time))
                    #expect(m.state(at: at(time)) == (state == .halfLifeDue ? .issued : .swept), "synced once")
                case .renewed(let new?) where state != .closed:
                    #expect(m.action == new)
                    #expect(m.state(at: at(time)) == .issued, "a renewed session starts over")
                case .ownerSettled:
                    #expect(m.state(at: at(time)) == .closed)
                default:
                    #expect(m.syncedAt == synced && m.action == action() && m.waiting == waiting, "\(state) × \(event)")
                }
            }
        }
    }

    @Test func theLastSweepPastTheHorizonFlagsTheOwnerOnce() {
        var m = machine(syncedAt: at(1096))
        #expect(m.handle(.swept, at: at(1099)) == [], "within the horizon no retry is due yet")
        #expect(m.handle(.swept, at: at(1101)) == [.sync, .flagForReview])
        #expect(m.handle(.swept, at: at(1102)) == [])
        #expect(m.handle(.swept, at: at(1_000_000)) == [], "flagged once, never swept again")
        var settled = machine(syncedAt: at(1096))
        _ = settled.handle(.ownerSettled, at: at(1050))
        #expect(settled.handle(.swept, at: at(1101)) == [], "an owner that moved on is never flagged")
        var renewed = machine(syncedAt: at(1096))
        _ = renewed.handle(.renewed(action(expires: at(5000))), at: at(1099))
        #expect(renewed.handle(.swept, at: at(1101)) == [], "a renewed session has a horizon of its own")
    }

    @Test func aSessionBoundToAnOrderIsNeverRenewed() {
        var m = machine(renewable: false)
        #expect(m.handle(.renewed(action(expires: at(5000))), at: at(100)) == [.refuse(.notRenewable)])
        #expect(m.action == action(renewable: false))
        #expect(m.handle(.opened, at: at(2000)) == [.refuse(.expired(renewable: false))])
    }

    @Test func aPaymentsSessionLivesWhileItWaitsForTheApp() {
        var payment = Payment(
            id: "pay_1", tenantId: UUID(), amount: 100, currency: "USD", country: "US", method: "alipay",
            reference: "r", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: .requiresAction, createdAt: start)
        payment.nextAction = action()
        #expect(ClientSession.of(payment, pluginId: "antom", now: at(999))?.status == .live)
        #expect(ClientSession.of(payment, pluginId: "antom", now: at(1000))?.status == .expired)
        payment.status = .succeeded
        #expect(ClientSession.of(payment, pluginId: "antom", now: at(100)) == nil)
        #expect(ClientSessionMachine(payment: payment)?.state(at: at(100)) == .closed)
    }
}
