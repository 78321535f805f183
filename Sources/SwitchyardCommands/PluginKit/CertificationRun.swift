import Foundation
import PluginHost
import ProviderKit

/// One certification run over a loaded plugin: the calls it made, what came back, and the checks.
struct CertificationRun: Sendable {
    /// What one call gave.
    struct Answer: Sendable {
        /// The plugin's result, or nil for an error.
        var result: JSONValue?
        /// The error code (the plugin's, or the host's when the plugin gave no answer) and message.
        var errorCode: String?
        var errorMessage: String?
        var duration: Duration

        /// The outcome class: the result's kind (`token`, `event` or `revoked` for the flows that carry
        /// no outcome on success), or nil for an error.
        func kind(of flow: Flow) -> String? {
            guard let result else { return nil }
            switch flow {
            case .accessToken:
                if let token = result["token"], token != .null { return "token" }
                return result["failure"]?["kind"]?.stringValue
            case .vaultingSession:
                return result["outcome"]?["kind"]?.stringValue
            case .syncVaulting:
                if let event = result["event"], event != .null { return "event" }
                return result["failure"]?["kind"]?.stringValue
            case .revokeCredential:
                let status = result["status"]?.stringValue ?? ""
                return ["not_sent": "notSent", "auth_expired": "authExpired", "not_supported": "notSupported"][status]
                    ?? status
            default:
                return result["kind"]?.stringValue
            }
        }

        /// How a detail names it.
        func summary(of flow: Flow) -> String {
            if let kind = kind(of: flow) { return kind }
            if let errorCode { return "error \(errorCode)" }
            return "a result without a kind"
        }
    }

    /// One call and where it went, for the contract checks.
    struct Call: Sendable {
        var flow: Flow
        var label: String
        var answer: Answer
        var prompt: Bool
    }

    let plugin: LoadedPlugin
    let host: RecordingHostServices
    let stub: StubProvider
    let requests: CertificationRequests
    let cancelGrace: Duration
    let promptLimit: Duration
    var checks: [CertificationReport.Check] = []
    var calls: [Call] = []
    private var number = 0

    init(
        plugin: LoadedPlugin, host: RecordingHostServices, stub: StubProvider, requests: CertificationRequests,
        cancelGrace: Duration, promptLimit: Duration
    ) {
        self.plugin = plugin
        self.host = host
        self.stub = stub
        self.requests = requests
        self.cancelGrace = cancelGrace
        self.promptLimit = promptLimit
    }

    /// Calls `flow` for an account at `baseURL`, recording the call.
    mutating func call(_ flow: Flow, label: String, baseURL: String, prompt: Bool = true) async -> Answer {
        number += 1
        let request = requests.request(flow, number: number)
        let answer = await Self.invoke(plugin, flow, request, account: account(baseURL, for: flow))
        calls.append(Call(flow: flow, label: label, answer: answer, prompt: prompt))
        return answer
    }

    /// The account the plugin is given for a call of `flow`, at `baseURL`.
    func account(_ baseURL: String, for flow: Flow) -> AccountContext {
        host.use(baseURL: baseURL, flow: flow)
        return requests.account(baseURL: baseURL, credentials: requests.credentials)
    }

    /// The next request number (for a call made outside ``call(_:label:baseURL:prompt:)``).
    mutating func nextNumber() -> Int {
        number += 1
        return number
    }

    static func invoke(_ plugin: LoadedPlugin, _ flow: Flow, _ request: JSONValue, account: AccountContext) async
        -> Answer
    {
        let started = ContinuousClock.now
        do {
            let result = try await plugin.call(flow, account: account, request: request, as: JSONValue.self)
            return Answer(result: result, duration: ContinuousClock.now - started)
        } catch let error as PluginCallError {
            return Answer(
                errorCode: error.code.rawValue, errorMessage: error.message, duration: ContinuousClock.now - started)
        } catch {
            return Answer(
                errorCode: "cancelled", errorMessage: "the call was cancelled", duration: ContinuousClock.now - started)
        }
    }

    /// Drives every flow: the scenario's script where it has one, then each fault.
    mutating func driveFlows() async {
        for flow in requests.drivenFlows {
            if let script = requests.scenario?.flows?[flow.rawValue], script.responses != nil || script.expect != nil {
                await scripted(flow, script)
            }
            await faults(flow)
        }
        if let scripts = requests.scenario?.flows {
            for name in scripts.keys.sorted() {
                if let flow = Flow(rawValue: name), !requests.drivenFlows.contains(flow) {
                    checks.append(
                        .fail("\(name): scenario", "the scenario scripts \(name), which the manifest does not declare"))
                }
            }
        }
    }

    private mutating func scripted(_ flow: Flow, _ script: CertificationScenario.FlowScript) async {
        let responses = script.responses ?? []
        stub.script { request in
            responses.first { $0.match?.matches(request) ?? true }?.answer
                ?? .respond(
                    status: 404, headers: [HTTPHeader("content-type", "application/json")],
                    body: Data(#"{"error":"the scenario has no response for this request"}"#.utf8), delayMs: 0)
        }
        let answer = await call(flow, label: "scenario", baseURL: stub.baseURL)
        let unanswered = stub.requests.filter { request in !responses.contains { $0.match?.matches(request) ?? true } }
        let name = "\(flow.rawValue): scenario"
        if let first = unanswered.first {
            checks.append(
                .fail(
                    name, "the plugin sent \(first.method) \(first.path), which the scenario answers with no response"))
            return
        }
        guard let expect = script.expect else {
            checks.append(.pass(name, "answered \(answer.summary(of: flow))"))
            return
        }
        var problems: [String] = []
        let kind = answer.kind(of: flow)
        if let expected = expect.kind, kind != expected {
            problems.append("expected \(expected), got \(answer.summary(of: flow))\(Self.message(answer))")
        }
        if expect.token == true, kind != "token" {
            problems.append("expected a token, got \(answer.summary(of: flow))")
        }
        if let id = expect.providerPaymentId, answer.result?["providerPaymentId"]?.stringValue != id {
            problems.append(
                "expected providerPaymentId \(id), got \(answer.result?["providerPaymentId"]?.stringValue ?? "none")")
        }
        if let amount = expect.amount, answer.result?["amount"]?.integerValue != amount {
            problems.append("expected amount \(amount)")
        }
        if let event = expect.event, answer.result?["event"]?["kind"]?.stringValue != event {
            problems.append("expected a credential event \(event), got \(answer.summary(of: flow))")
        }
        if let status = expect.status, answer.result?["status"]?.stringValue != status {
            problems.append("expected status \(status), got \(answer.result?["status"]?.stringValue ?? "none")")
        }
        if let code = expect.code, answer.result?["code"]?.stringValue != code, answer.errorCode != code {
            problems.append("expected code \(code)")
        }
        checks.append(
            problems.isEmpty
                ? .pass(name, "answered \(answer.summary(of: flow))") : .fail(name, problems.joined(separator: "; ")))
    }

    /// `: message` of an answer, for a detail (messages are the plugin's own and carry no secret by contract;
    /// the secrets check looks at them too).
    static func message(_ answer: Answer) -> String {
        let text = answer.errorMessage ?? answer.result?["message"]?.stringValue
        return text.map { " (\($0.prefix(120)))" } ?? ""
    }
}
