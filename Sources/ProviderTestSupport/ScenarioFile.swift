import Foundation
import ProviderKit

/// A plugin's scenario file (`scenario.json`, what `switchyard plugins check --scenario` certifies the plugin
/// with), run against the plugin's `Provider` type in process, so that a unit test keeps the scenario true to
/// the plugin:
///
/// ```swift
/// let scenario = try ScenarioFile(contentsOf: url)
/// #expect(await scenario.check(AcmeProvider.self) == [])
/// ```
///
/// Each flow runs on a `ScriptedProviderHost` answering the flow's `responses` (by `match.method` and the exact
/// `match.path`), with the request the checker generates (`<n>` = 1) and the flow's `request` merged over it,
/// for the scenario's account at `baseURL`. The notification is sent as it is, then with its body altered at
/// each character and, when `forge.header` names the signature header, with that header altered. Beyond the
/// checker's format the file may give `now` (ISO 8601, the host's clock) and, in a flow's `expect`, `event`
/// (`syncVaulting`: the vaulting event's kind) and `status` (`revokeCredential`: the revocation status).
public struct ScenarioFile: Sendable {
    /// The base URL of the scenario's account; the host strips it from a request's URL to look the request up.
    public static let baseURL = "http://127.0.0.1:48080"
    /// The notification URL of the scenario's account.
    public static let notificationURL = "https://switchyard.example/v1/notifications/acct_check"

    /// The file's top-level object.
    public let json: [String: JSONValue]
    /// The host's clock: the file's `now`; nil when it names none, and the host then answers the real time.
    public let now: Date?

    /// Reads the scenario file at `url`.
    /// - Throws: when the file cannot be read, is not a JSON object, or its `now` is not an ISO 8601 time.
    public init(contentsOf url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    /// Reads a scenario file's contents.
    /// - Throws: `ScenarioProblem` when `data` is not a JSON object or its `now` is not an ISO 8601 time.
    public init(data: Data) throws {
        guard let json = try JSONDecoder().decode(JSONValue.self, from: data).objectValue else {
            throw ScenarioProblem("the scenario is not a JSON object")
        }
        self.json = json
        if let value = json["now"] {
            guard let text = value.stringValue, let date = ISO8601DateFormatter().date(from: text) else {
                throw ScenarioProblem("now \(Self.text(value)) is not an ISO 8601 time")
            }
            now = date
        } else {
            now = nil
        }
    }

    /// The flows `check(_:of:)` runs for `provider`: every flow of its manifest but `notification`.
    public static func flows<P: Provider>(of provider: P.Type) -> [Flow] {
        P.manifest.flows.filter { $0 != .notification }
    }

    /// Every check: `checkScriptedFlows(of:)`, `check(_:of:)` for each of `flows(of:)`, and
    /// `checkNotification(of:)`. Empty when the scenario and the plugin agree.
    public func check<P: Provider>(_ provider: P.Type) async -> [ScenarioProblem] {
        var problems = checkScriptedFlows(of: provider)
        for flow in Self.flows(of: provider) {
            problems += await check(flow, of: provider)
        }
        return problems + (await checkNotification(of: provider))
    }

    /// That `flows` scripts exactly the flows of `flows(of:)`: none of the manifest missing, none it lacks.
    public func checkScriptedFlows<P: Provider>(of provider: P.Type) -> [ScenarioProblem] {
        let scripted = Set(json["flows"]?.objectValue?.keys.map { $0 } ?? [])
        let declared = Set(Self.flows(of: provider).map(\.rawValue))
        var problems: [ScenarioProblem] = []
        for name in declared.subtracting(scripted).sorted() {
            problems.append(ScenarioProblem("the manifest's flow \(name) is not scripted"))
        }
        for name in scripted.subtracting(declared).sorted() {
            problems.append(ScenarioProblem("the scripted flow \(name) is not a flow of the manifest"))
        }
        return problems
    }

    /// Runs `flow` on a new `provider` and checks its result against the flow's `expect` (every key known and
    /// met, at least one), that the responses give one answer per route, and that the plugin asked for every
    /// scripted answer and nothing else. An error the plugin throws is a problem too.
    public func check<P: Provider>(_ flow: Flow, of provider: P.Type) async -> [ScenarioProblem] {
        var findings = Findings(flow: flow)
        do {
            let script = try findings.require(json["flows"]?[flow.rawValue]?.objectValue, "the flow is not scripted")
            let routes = try makeRoutes(flow, &findings)
            let host = ScriptedProviderHost(baseURL: Self.baseURL, routes: routes, now: now ?? Date())
            let result = try await FlowResult(
                of: flow, on: P(host: host), request: makeRequest(flow, provider), account: account)
            let expect = try findings.require(script["expect"]?.objectValue, "the flow expects nothing")
            findings.expect(!expect.isEmpty, "the flow's expect is empty")
            for (key, value) in expect.sorted(by: { $0.key < $1.key }) {
                guard let matches = result.matches(key, value) else {
                    findings.record("unknown expectation \(key)")
                    continue
                }
                findings.expect(matches, "expected \(key) \(Self.text(value)), got \(result)")
            }
            let asked = host.requests.map { "\($0.method) " + String($0.url.dropFirst(Self.baseURL.count)) }
            findings.expect(Set(asked) == Set(routes.keys), "asked \(asked), scripted \(routes.keys.sorted())")
        } catch {
            findings.record(error)
        }
        return findings.problems
    }

    /// Checks the notification on one `provider`: the genuine one verifies with exactly one event of the
    /// `expect`ed `subject` and `kind` (and `reference` and `providerPaymentId` when given); the body altered at
    /// any one character does not verify and gives no event, nor does the notification with its `forge.header`
    /// altered at its middle or last character. A scenario without a notification is right only for a plugin
    /// whose manifest has no notification flow.
    public func checkNotification<P: Provider>(of provider: P.Type) async -> [ScenarioProblem] {
        var findings = Findings(flow: .notification)
        guard let notification = json["notification"] else {
            findings.expect(
                !P.manifest.flows.contains(.notification), "the plugin has notifications, the scenario none")
            return findings.problems
        }
        do {
            let plugin = P(host: ScriptedProviderHost(baseURL: Self.baseURL, now: now ?? Date()))
            let sent = try makeNotification(notification)
            let genuine = try await plugin.notification(sent, account: account)
            findings.expect(
                genuine.verified, "the genuine notification does not verify: \(genuine.failureReason ?? "")")
            findings.expect(genuine.events.count == 1, "the genuine notification gives \(genuine.events.count) events")
            if let event = genuine.events.first {
                let expect = notification["expect"]?.objectValue ?? [:]
                let given: [(key: String, value: String?, always: Bool)] = [
                    ("subject", event.subject.rawValue, true), ("kind", event.outcome.kind.rawValue, true),
                    ("reference", event.reference, false), ("providerPaymentId", event.providerPaymentId, false),
                ]
                for (key, value, always) in given where always || expect[key] != nil {
                    findings.expect(
                        value == expect[key]?.stringValue,
                        "the event's \(key) is \(value ?? "none"), expected \(expect[key].map(Self.text) ?? "none")")
                }
            }

            for index in sent.body.indices {
                var altered = sent
                altered.body = Data(Self.altered(Array(sent.body), at: index))
                let answer = try await plugin.notification(altered, account: account)
                findings.expect(!answer.verified && answer.events.isEmpty, "body altered at \(index) still verifies")
            }

            guard let name = notification["forge"]?["header"]?.stringValue else { return findings.problems }
            let value = try findings.require(sent.header(name), "no \(name) header")
            let forgeable = try findings.require(value.isEmpty ? nil : Array(value.utf8), "the \(name) header is empty")
            for index in [forgeable.count / 2, forgeable.count - 1] {
                var forged = sent
                for position in forged.headers.indices
                where forged.headers[position].name.lowercased() == name.lowercased() {
                    forged.headers[position].value = String(
                        decoding: Self.altered(Array(forged.headers[position].value.utf8), at: index), as: UTF8.self)
                }
                let answer = try await plugin.notification(forged, account: account)
                findings.expect(!answer.verified && answer.events.isEmpty, "\(name) altered at \(index) still verifies")
            }
        } catch {
            findings.record(error)
        }
        return findings.problems
    }
}

/// One way a scenario file and its plugin disagree, or why a scenario file could not be read.
public struct ScenarioProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The flow the problem is in (`notification` for the notification's); nil for the file as a whole.
    public var flow: Flow?
    /// What is wrong.
    public var message: String

    /// A problem of `flow`, or of the whole file when `flow` is nil.
    public init(_ message: String, flow: Flow? = nil) {
        self.message = message
        self.flow = flow
    }

    /// `flow: message`, or the message alone.
    public var description: String {
        flow.map { "\($0.rawValue): \(message)" } ?? message
    }
}

/// The problems one check found so far.
struct Findings {
    let flow: Flow
    private(set) var problems: [ScenarioProblem] = []

    init(flow: Flow) {
        self.flow = flow
    }

    mutating func record(_ message: String) {
        problems.append(ScenarioProblem(message, flow: flow))
    }

    /// An error a check ends with: a problem as it is, anything else (a plugin's, a decoder's) as a problem.
    mutating func record(_ error: any Error) {
        if let problem = error as? ScenarioProblem {
            problems.append(ScenarioProblem(problem.message, flow: problem.flow ?? flow))
        } else {
            record("\(error)")
        }
    }

    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { record(message()) }
    }

    /// `value`, or a problem thrown that ends the check.
    func require<T>(_ value: T?, _ message: @autoclosure () -> String) throws -> T {
        guard let value else { throw ScenarioProblem(message(), flow: flow) }
        return value
    }
}
