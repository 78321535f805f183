import Foundation
import ProviderKit
import Testing

@testable import __Name__Plugin

/// `scenario.json` (what `switchyard plugins check --scenario` uses) stays in step with the plugin: its
/// notification is signed with its own `webhook_secret` and reports what it expects.
@Suite struct __Name__ScenarioTests {
    static let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenario.json")

    @Test func scenarioNotificationVerifies() async throws {
        let scenario = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.file))
        let notification = try #require(scenario["notification"]?["request"])
        let body = try #require(notification["body"]?.stringValue)
        let headers = (notification["headers"]?.objectValue ?? [:]).compactMap { name, value in
            value.stringValue.map { HTTPHeader(name, $0) }
        }
        var account = Fixtures.account()
        for (name, value) in scenario["account"]?["credentials"]?.objectValue ?? [:] {
            account.credentials[name] = value.stringValue
        }
        let request = NotificationRequest(method: "POST", path: "/", headers: headers, body: Data(body.utf8))
        let result = try await __Name__Provider(host: FakeHost()).notification(request, account: account)
        #expect(result.verified)
        let expect = try #require(scenario["notification"]?["expect"])
        let event = try #require(result.events.first)
        #expect(event.subject.rawValue == expect["subject"]?.stringValue)
        #expect(event.reference == expect["reference"]?.stringValue)
        #expect(event.providerPaymentId == expect["providerPaymentId"]?.stringValue)
        #expect(event.outcome.kind.rawValue == expect["kind"]?.stringValue)
    }
}
