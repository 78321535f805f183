import Foundation
import SwitchyardCore
import Testing

@testable import SwitchyardHTTP

extension OpenAPIExampleTests {
    /// The document's `webhooks` section describes exactly the event types the code emits, and `ping`.
    @Test func theWebhooksSectionNamesEveryEventType() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.load()) as? [String: Any])
        let webhooks = try #require(document["webhooks"] as? [String: [String: Any]])
        #expect(Set(webhooks.keys) == Set(WebhookEventType.all + [WebhookEventType.ping]))
        for (type, operations) in webhooks {
            let post = operations["post"] as? [String: Any]
            let body = (post?["requestBody"] as? [String: Any])?["content"] as? [String: [String: Any]]
            let schema = body?["application/json"]?["schema"] as? [String: Any]
            let typeField = (schema?["properties"] as? [String: [String: Any]])?["type"]
            #expect(typeField?["const"] as? String == type, "\(type)")
        }
    }
}
