import Foundation
import SwitchyardCore
import Testing

/// A new event is rendered once; ``WebhookEvent/versionSlot`` names where its API version's name sits.
struct WebhookEventVersionSlotTests {
    @Test func theSlotHoldsTheEnvelopesVersionNotAnEqualPairInsideTheObject() throws {
        var payment = Payment(
            id: "pay_1", tenantId: UUID(), amount: 1250, currency: "EUR", country: "DE", method: "card",
            reference: "order-1", captureMode: .automatic, customerId: nil, returnURL: nil, paymentData: [:],
            status: .succeeded, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        // A merchant's metadata may hold the very pair the envelope writes.
        payment.metadata = Metadata(unchecked: ["api_version": APIVersion.oldest.name, "note": #"say "hi""#])
        let event = try #require(
            try WebhookEvent.statusChanged(from: "pending", to: payment, id: "evt_1", at: Date()))
        let slot = try #require(event.versionSlot)
        let bytes = Array(event.payload)
        #expect(String(decoding: bytes[slot], as: UTF8.self) == APIVersion.oldest.name)
        for version in APIVersion.all {
            let rendered = Data(bytes[..<slot.lowerBound] + Array(version.name.utf8) + bytes[slot.upperBound...])
            let object = try #require(try JSONSerialization.jsonObject(with: rendered) as? [String: Any])
            #expect(object["api_version"] as? String == version.name)
            #expect(object["id"] as? String == "evt_1")
            let data = try #require(object["data"] as? [String: Any])
            let snapshot = try #require(data["object"] as? [String: Any])
            let metadata = try #require(snapshot["metadata"] as? [String: String])
            #expect(metadata == ["api_version": APIVersion.oldest.name, "note": #"say "hi""#])
        }
    }

    @Test func aPayloadWithoutTheVersionHasNoSlot() {
        let payload = Data(#"{"id":"evt_1","object":"event","type":"ping"}"#.utf8)
        #expect(WebhookEvent.versionSlot(in: payload, version: APIVersion.oldest.name) == nil)
        let truncated = Data(#"{"id":"evt_1","api_version":"2026-06"#.utf8)
        #expect(WebhookEvent.versionSlot(in: truncated, version: APIVersion.oldest.name) == nil)
    }
}
