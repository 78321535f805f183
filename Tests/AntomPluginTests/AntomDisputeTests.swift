import Foundation
import ProviderKit
import Testing

@testable import AntomPlugin

/// Antom's disputes: `notifyDispute` verified like every notification and mapped by its type, acknowledged
/// as Antom's dispute reference says; the merchant's answers through `acceptDispute` and
/// `supplyDefenseDocument`.
@Suite struct AntomDisputeTests {
    static let ack = #"{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"Success"}}"#

    static func dispute(_ type: String, extra: String = "") -> String {
        #"{"paymentRequestId":"att_1","disputeId":"D-77","paymentId":"\#(Fixtures.paymentId)","#
            + #""disputeTime":"2025-11-10T10:00:00+08:00","disputeAmount":{"currency":"USD","value":"600"},"#
            + #""disputeNotificationType":"\#(type)","disputeReasonCode":"4853","disputeType":"CHARGEBACK","#
            + #""defenseDueTime":"2025-11-17T10:00:00+08:00"\#(extra)}"#
    }

    func notify(_ body: String) async throws -> NotificationResult {
        try await AntomProvider(host: FakeHost()).notification(Fixtures.notification(body), account: Fixtures.account())
    }

    @Test func aCreatedChargebackIsOpenedAndAcknowledged() async throws {
        let result = try await notify(Self.dispute("DISPUTE_CREATED"))
        #expect(result.verified)
        #expect(result.reply.status == 200)
        #expect(result.reply.body == Self.ack)
        #expect(result.events.isEmpty)
        let event = try #require(result.disputes.first)
        #expect(event.kind == .opened)
        #expect(event.stage == .chargeback)
        #expect(event.providerDisputeId == "D-77")
        #expect(event.reference == "att_1")
        #expect(event.providerPaymentId == Fixtures.paymentId)
        #expect(event.amount == 600 && event.currency == "USD")
        #expect(event.reasonCode == "4853" && event.reason == "product_unacceptable")
        #expect(event.evidenceDueBy == ISO8601DateFormatter().date(from: "2025-11-17T02:00:00Z"))
    }

    @Test func eachTypeHasItsMeaning() async throws {
        let cases: [(String, String, DisputeEvent.Kind)] = [
            ("DEFENSE_SUPPLIED", "", .evidenceSubmitted), ("DISPUTE_SUPPLIED", "", .evidenceSubmitted),
            ("DEFENSE_DUE_ALERT", "", .evidenceRequested), ("DISPUTE_DUE_ALERT", "", .evidenceRequested),
            ("DISPUTE_CANCELLED", "", .withdrawn), ("DISPUTE_ACCEPTED", "", .accepted), ("RDR_RESOLVED", "", .accepted),
            ("DISPUTE_JUDGED", #","disputeJudgedResult":"ACCEPT_BY_CUSTOMER""#, .won),
            ("DISPUTE_JUDGED", #","disputeJudgedResult":"ACCEPT_BY_MERCHANT""#, .lost),
            ("DISPUTE_JUDGED", #","disputeJudgedResult":"VALIDATE_FAIL""#, .lost),
            ("DISPUTE_JUDGED", "", .closed),
        ]
        for (type, extra, kind) in cases {
            let result = try await notify(Self.dispute(type, extra: extra))
            #expect(result.disputes.first?.kind == kind, "\(type)\(extra)")
            #expect(result.reply.body == Self.ack)
        }
        let retrieval = try await notify(
            Self.dispute("DISPUTE_CREATED").replacingOccurrences(of: "CHARGEBACK", with: "RETRIEVAL_REQUEST"))
        #expect(retrieval.disputes.first?.stage == .inquiry)
    }

    @Test func anUnknownTypeIsAcknowledgedWithoutAnEventAndAMalformedAmountCarriesNone() async throws {
        let unknown = try await notify(Self.dispute("DISPUTE_REOPENED"))
        #expect(unknown.verified && unknown.disputes.isEmpty)
        let malformed = try await notify(
            Self.dispute("DISPUTE_CREATED").replacingOccurrences(of: "\"600\"", with: "\"6x0\""))
        #expect(malformed.disputes.first?.amount == nil)
    }

    @Test func anAlteredDisputeNotificationIsRefused() async throws {
        var request = Fixtures.notification(Self.dispute("DISPUTE_CREATED"))
        request.body = Data(Self.dispute("DISPUTE_CREATED").replacingOccurrences(of: "600", with: "900").utf8)
        let result = try await AntomProvider(host: FakeHost()).notification(request, account: Fixtures.account())
        #expect(!result.verified)
        #expect(result.disputes.isEmpty)
    }

    @Test func acceptingSendsTheDisputeIdAndARepeatIsTaken() async throws {
        let host = FakeHost(routes: [
            Fixtures.route("payments/acceptDispute"): Fixtures.signed(
                "payments/acceptDispute", #"{\#(Fixtures.result()),"disputeId":"D-77"}"#)
        ])
        let reply = try await AntomProvider(host: host).answerDispute(
            DisputeAnswerRequest(providerDisputeId: "D-77", answer: .accept), account: Fixtures.account())
        #expect(reply.status == .accepted)
        #expect(try Fixtures.body(host.requests.first) == .object(["disputeId": .string("D-77")]))
        let repeated = FakeHost(routes: [
            Fixtures.route("payments/acceptDispute"): Fixtures.unsigned(
                #"{\#(Fixtures.result("F", "REPEAT_REQUEST"))}"#)
        ])
        #expect(
            try await AntomProvider(host: repeated).answerDispute(
                DisputeAnswerRequest(providerDisputeId: "D-77", answer: .accept), account: Fixtures.account()
            ).status == .accepted)
    }

    @Test func aLateOrUnknownAnswerIsRefusedOrUnknown() async throws {
        let late = FakeHost(routes: [
            Fixtures.route("payments/acceptDispute"): Fixtures.unsigned(
                #"{\#(Fixtures.result("F", "TIME_EXCEEDS_LIMIT"))}"#)
        ])
        let refused = try await AntomProvider(host: late).answerDispute(
            DisputeAnswerRequest(providerDisputeId: "D-77", answer: .accept), account: Fixtures.account())
        #expect(refused.status == .refused && refused.code == "TIME_EXCEEDS_LIMIT")
        let unsure = FakeHost(routes: [
            Fixtures.route("payments/acceptDispute"): Fixtures.unsigned(
                #"{\#(Fixtures.result("U", "UNKNOWN_EXCEPTION"))}"#)
        ])
        #expect(
            try await AntomProvider(host: unsure).answerDispute(
                DisputeAnswerRequest(providerDisputeId: "D-77", answer: .accept), account: Fixtures.account()
            ).status == .unknown)
    }

    @Test func evidenceIsSuppliedOneDocumentAtATimeAndATooLargeOneIsRefusedUnsent() async throws {
        let host = FakeHost(routes: [
            Fixtures.route("payments/supplyDefenseDocument"): Fixtures.signed(
                "payments/supplyDefenseDocument", #"{\#(Fixtures.result()),"disputeId":"D-77"}"#)
        ])
        let documents = [
            DisputeAnswerRequest.Document(type: "application/pdf", name: "a.pdf", data: "JVBERi0="),
            DisputeAnswerRequest.Document(type: "image/png", name: "b.png", data: "iVBORw=="),
        ]
        let reply = try await AntomProvider(host: host).answerDispute(
            DisputeAnswerRequest(providerDisputeId: "D-77", answer: .evidence, documents: documents),
            account: Fixtures.account())
        #expect(reply.status == .accepted)
        #expect(host.requests.count == 2)
        #expect(
            try Fixtures.body(host.requests.last)
                == .object(["disputeId": .string("D-77"), "disputeEvidence": .string("iVBORw==")]))
        let big = DisputeAnswerRequest.Document(
            type: "application/pdf", name: "big.pdf", data: String(repeating: "A", count: 1_000_004))
        let untouched = FakeHost()
        let tooLarge = try await AntomProvider(host: untouched).answerDispute(
            DisputeAnswerRequest(providerDisputeId: "D-77", answer: .evidence, documents: [big]),
            account: Fixtures.account())
        #expect(tooLarge.status == .refused && tooLarge.code == "DOCUMENT_TOO_LARGE")
        #expect(untouched.requests.isEmpty)
    }

    @Test func theManifestOffersDisputeAnswersWithoutListingTheFlow() {
        #expect(AntomProvider.manifest.answersDisputes == true)
        #expect(!AntomProvider.manifest.flows.contains(.answerDispute))
        #expect(AntomProvider.manifest.offers(.answerDispute))
    }
}
