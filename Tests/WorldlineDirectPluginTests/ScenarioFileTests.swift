import Foundation
import ProviderKit
import ProviderTestSupport
import Testing

@testable import WorldlineDirectPlugin

/// `Plugins/WorldlineDirect/scenario.json`, the scenario `switchyard plugins check --scenario` certifies the
/// plugin with, run against the plugin itself (`ScenarioFile`): every flow of the manifest with the scenario's
/// account and requests and a host answering the scenario's responses, and the scenario's notification genuine,
/// with its body altered and (when the scenario names the signature header) with its signature altered. Keeps
/// the scenario true to the plugin.
@Suite struct WorldlineDirectScenarioFileTests {
    let scenario = URL(
        fileURLWithPath: "../../Plugins/WorldlineDirect/scenario.json", relativeTo: URL(fileURLWithPath: #filePath))

    @Test func everyFlowOfTheManifestIsScripted() throws {
        let problems = try ScenarioFile(contentsOf: scenario).checkScriptedFlows(of: WorldlineDirectProvider.self)
        #expect(problems == [])
    }

    @Test(arguments: ScenarioFile.flows(of: WorldlineDirectProvider.self))
    func flowGivesTheExpectedResult(flow: Flow) async throws {
        let problems = try await ScenarioFile(contentsOf: scenario).check(flow, of: WorldlineDirectProvider.self)
        #expect(problems == [])
    }

    @Test func notificationIsVerifiedOnlyAsSent() async throws {
        let problems = try await ScenarioFile(contentsOf: scenario).checkNotification(of: WorldlineDirectProvider.self)
        #expect(problems == [])
    }
}
