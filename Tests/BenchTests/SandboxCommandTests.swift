import Foundation
import Testing

@testable import switchyard

/// `switchyard sandbox` takes each registered emulator's options beside its own, as it always did, and
/// `demo.json` keeps its keys now that the providers' fields come from the registrations.
struct SandboxCommandTests {
    @Test func theEmulatorsOptionsAreParsedBesideTheCommandsOwn() throws {
        let command = try SandboxCommand.parse([
            "--port", "0", "--citcon-merchant", "m1:pk:ipn", "--port-file", "/tmp/port",
            "--worldline-merchant", "W:K:S:WK:WS", "--citcon-charge-lifetime", "30",
        ])
        #expect(command.port == 0)
        #expect(command.portFile == "/tmp/port")
        let configuration = try command.emulatorConfiguration()
        #expect(configuration.citcon.merchants.map(\.id) == ["m1"])
        #expect(configuration.citcon.pendingChargeLifetime == 30)
        #expect(configuration.worldlineDirect.merchants.map(\.merchantId) == ["W"])
    }

    @Test func aBadEmulatorOptionFailsValidationWithItsMessage() {
        #expect(throws: (any Error).self) {
            _ = try SandboxCommand.parse(["--citcon-merchant", "m1"])
        }
        do {
            _ = try SandboxCommand.parse(["--sips-merchant", "only-id"])
            Issue.record("a malformed Sips merchant was accepted")
        } catch {
            #expect(SandboxCommand.message(for: error).contains("--sips-merchant takes"), "\(error)")
        }
    }

    @Test func theHelpListsEveryEmulatorsOptions() {
        let help = SandboxCommand.helpMessage()
        for option in ["--citcon-merchant", "--worldline-merchant", "--antom-merchant", "--sips-merchant"] {
            #expect(help.contains(option), "\(option)")
        }
    }

    @Test func demoStateKeepsItsKeys() throws {
        var state = DemoState(
            serverURL: "http://s", sandboxURL: "http://b", operatorToken: "op", tenantId: "t", apiKey: "k")
        state.providers = ["citcon_account_id": "a1", "antom_client_id": "c1"]
        let data = try JSONEncoder().encode(state)
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(
            raw == [
                "server_url": "http://s", "sandbox_url": "http://b", "operator_token": "op", "tenant_id": "t",
                "api_key": "k", "citcon_account_id": "a1", "antom_client_id": "c1",
            ])
        let decoded = try JSONDecoder().decode(DemoState.self, from: data)
        #expect(decoded.providers == state.providers)
        #expect(decoded.apiKey == "k")
    }
}
