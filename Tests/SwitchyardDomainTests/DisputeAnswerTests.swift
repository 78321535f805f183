import Foundation
import ProviderKit
import SwitchyardCore
import SwitchyardDomainTestSupport
import Testing

/// The merchant's answers to a dispute: through the provider's API where its plugin has one, recorded for
/// the merchant to give at the provider otherwise, and refused once the dispute is decided.
struct DisputeAnswerTests {
    /// A world with a succeeded payment and a chargeback of it; the dispute's id.
    func disputed(_ world: DomainWorld) async throws -> String {
        let record = try await world.create(.succeeded())
        world.gateway.scriptDisputeNotification(
            DisputeEvent(
                kind: .opened, providerDisputeId: "D-\(UUID().uuidString.prefix(6))",
                reference: record.lastAttempt?.id, stage: .chargeback, providerStatus: "DISPUTE_CREATED",
                amount: 1_000, currency: "EUR"))
        _ = try await world.service.handleNotification(
            accountId: world.accounts[0],
            request: NotificationRequest(method: "POST", path: "/n", headers: [], body: Data(UUID().uuidString.utf8)),
            log: InMemoryNotificationLog())
        let page = try await world.service.disputes.list(
            tenant: world.tenant, filter: DisputeFilter(paymentId: record.payment.id), page: PageRequest())
        return try #require(page.items.first?.id)
    }

    let pdf = EvidenceFile(type: "application/pdf", name: "receipt.pdf", data: Array("%PDF-1.4".utf8))

    @Test func anAcceptanceThroughTheProvidersAPIClosesTheDisputeAsLost() async throws {
        let world = DomainWorld()
        let id = try await disputed(world)
        world.gateway.scriptDisputeAnswers(.done)
        let accepted = try await world.service.disputes.accept(tenant: world.tenant, id: id)
        #expect(accepted.status == .lost)
        #expect(accepted.response?.channel == .providerAPI)
        #expect(world.gateway.disputeAnswersSent == [.accept])
        #expect(world.disputes.announced.last?.type == "dispute.closed")
        await expectCoreError(.disputeClosed) {
            _ = try await world.service.disputes.accept(tenant: world.tenant, id: id)
        }
    }

    @Test func withoutAProviderAPITheAnswerIsRecordedForTheMerchantToGiveAtTheProvider() async throws {
        let world = DomainWorld()
        let id = try await disputed(world)
        let answered = try await world.service.disputes.accept(tenant: world.tenant, id: id)
        #expect(answered.status == .needsResponse)
        #expect(answered.response?.channel == .respondAtProvider)
        #expect(answered.response?.action == .accept)
        #expect(try await world.service.disputes.get(tenant: world.tenant, id: id).response == answered.response)
    }

    @Test func aRefusalOrAnUnknownAnswerIsAnErrorAndChangesNothing() async throws {
        let world = DomainWorld()
        let id = try await disputed(world)
        world.gateway.scriptDisputeAnswers(
            .refused(code: "TIME_EXCEEDS_LIMIT", message: "past the deadline"), .unknown("timeout"))
        await expectCoreError(.disputeAnswerRefused) {
            _ = try await world.service.disputes.accept(tenant: world.tenant, id: id)
        }
        await expectCoreError(.providerUnreachable) {
            _ = try await world.service.disputes.accept(tenant: world.tenant, id: id)
        }
        let unchanged = try await world.service.disputes.get(tenant: world.tenant, id: id)
        #expect(unchanged.status == .needsResponse)
        #expect(unchanged.response == nil)
    }

    @Test func evidenceIsStagedThenSubmittedTogether() async throws {
        let world = DomainWorld()
        let id = try await disputed(world)
        let photo = EvidenceFile(type: "image/png", name: "parcel.png", data: [0x89, 0x50, 0x4E, 0x47])
        let staged = try await world.service.disputes.submitEvidence(
            tenant: world.tenant, id: id, files: [pdf], submit: false)
        #expect(staged.status == .needsResponse)
        #expect(world.gateway.disputeAnswersSent.isEmpty)
        world.gateway.scriptDisputeAnswers(.done)
        let submitted = try await world.service.disputes.submitEvidence(
            tenant: world.tenant, id: id, files: [photo], submit: true)
        #expect(submitted.status == .underReview)
        #expect(submitted.submissionCount == 1)
        #expect(world.gateway.disputeAnswersSent == [.evidence([pdf, photo])])
        // Submitted documents are no longer staged: a second submission needs new ones.
        await expectCoreError(.missingField) {
            _ = try await world.service.disputes.submitEvidence(tenant: world.tenant, id: id, files: [], submit: true)
        }
    }

    @Test func evidenceOfARefusedTypeOrTooLargeIsRefusedNamingTheLimit() async throws {
        let world = DomainWorld()
        let id = try await disputed(world)
        let exe = EvidenceFile(type: "application/x-msdownload", name: "a.exe", data: [1])
        await expectCoreError(.evidenceTypeRefused) {
            _ = try await world.service.disputes.submitEvidence(
                tenant: world.tenant, id: id, files: [exe], submit: false)
        }
        let big = EvidenceFile(
            type: "application/pdf", name: "big.pdf",
            data: [UInt8](repeating: 0x25, count: world.service.policy.platform.disputes.maxEvidenceBytes + 1))
        do {
            _ = try await world.service.disputes.submitEvidence(
                tenant: world.tenant, id: id, files: [pdf, big], submit: false)
            Issue.record("a document over the limit was accepted")
        } catch let error as CoreError {
            #expect(error.code == .evidenceTooLarge)
            #expect(error.param == "files[1].data")
            #expect(error.message.contains("\(world.service.policy.platform.disputes.maxEvidenceBytes)"))
        }
        // Nothing of the refused request was staged.
        world.gateway.scriptDisputeAnswers(.done)
        await expectCoreError(.missingField) {
            _ = try await world.service.disputes.submitEvidence(tenant: world.tenant, id: id, files: [], submit: true)
        }
    }
}
