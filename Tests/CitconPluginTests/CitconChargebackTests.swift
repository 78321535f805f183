import Foundation
import ProviderKit
import Testing

@testable import CitconPlugin

/// Citcon's chargeback IPNs (`transaction_type` `chargeback`): verified like every IPN, mapped onto dispute
/// events by Citcon's documented statuses, acknowledged with `success`.
@Suite struct CitconChargebackTests {
    /// Signed with `printf '%s' 'amount=1250&currency=USD&due_date=2026-12-20 12:00:00&fields=id,transaction_type,
    /// reference,amount,currency,status,due_date&id=2025110912345678901234&reference=att_01&status=<status>
    /// &transaction_type=chargeback&secret=ipn_SECRET_0002' | sha256sum` (one line).
    static func body(status: String, sign: String) -> String {
        "id=2025110912345678901234&transaction_type=chargeback&reference=att_01&amount=1250&currency=USD&status="
            + status.replacingOccurrences(of: " ", with: "+")
            + "&due_date=2026-12-20+12%3A00%3A00&fields=id%2Ctransaction_type%2Creference%2Camount%2Ccurrency%2Cstatus"
            + "%2Cdue_date&sign=" + sign
    }
    static let claim = body(
        status: "Notification of Claim", sign: "a9122d62ef94f9fa43ca463ec485a480e42aebb543dfd2164a673981ae6baf04")
    static let won = body(status: "Won", sign: "f45cfd7c7e76640f69261735340bb779167574dfc8b1f21aeac4148ef56c33ed")

    func notify(_ body: String) async throws -> NotificationResult {
        let request = NotificationRequest(
            method: "POST", path: "/notifications/acct_citcon_1",
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
        return try await CitconProvider(host: FakeHost()).notification(request, account: Fixtures.account())
    }

    @Test func aNotificationOfClaimOpensAChargeback() async throws {
        let result = try await notify(Self.claim)
        #expect(result.verified)
        #expect(result.reply.status == 200)
        #expect(result.reply.body == "success")
        #expect(result.events.isEmpty)
        let dispute = try #require(result.disputes.first)
        #expect(result.disputes.count == 1)
        #expect(dispute.kind == .opened)
        #expect(dispute.stage == .chargeback)
        #expect(dispute.providerDisputeId == "2025110912345678901234")
        #expect(dispute.reference == "att_01")
        #expect(dispute.providerStatus == "Notification of Claim")
        #expect(dispute.amount == 1250)
        #expect(dispute.currency == "USD")
        #expect(dispute.evidenceDueBy == Date(timeIntervalSince1970: 1_797_768_000))
    }

    @Test func aWonChargebackIsWonAndEachStatusHasItsMeaning() async throws {
        let result = try await notify(Self.won)
        #expect(result.disputes.first?.kind == .won)
        #expect(CitconMapping.chargebackStatuses["Request For Information"]?.kind == .evidenceRequested)
        #expect(CitconMapping.chargebackStatuses["Information Supplied"]?.kind == .evidenceSubmitted)
        #expect(CitconMapping.chargebackStatuses["Lost"]?.kind == .lost)
        #expect(CitconMapping.chargebackStatuses["Case Closed"]?.kind == .closed)
        #expect(CitconMapping.chargebackStatuses.count == 6)
    }

    @Test func anAlteredChargebackIsRefusedAndCarriesNothing() async throws {
        let altered = Self.claim.replacingOccurrences(of: "amount=1250", with: "amount=9250")
        let result = try await notify(altered)
        #expect(!result.verified)
        #expect(result.reply.status == 401)
        #expect(result.disputes.isEmpty)
        #expect(result.events.isEmpty)
    }

    @Test func anUndocumentedStatusIsRefused() async throws {
        #expect(
            CitconMapping.chargebackEvent(signed: ["id": "1", "transaction_type": "chargeback", "status": "won"]) == nil
        )
    }

    @Test func bothTimeFormatsAreRead() {
        #expect(CitconMapping.time("2026-12-20 12:00:00") == Date(timeIntervalSince1970: 1_797_768_000))
        #expect(CitconMapping.time("2026-12-20T12:00:00Z") == Date(timeIntervalSince1970: 1_797_768_000))
        #expect(CitconMapping.time("1797768000") == Date(timeIntervalSince1970: 1_797_768_000))
        #expect(CitconMapping.time("soon") == nil)
    }
}
