import ArgumentParser
import Foundation
import SwitchyardBench
import SwitchyardCommands

/// `switchyard bench routing`: the adaptive-routing experiment. Two Worldline Direct accounts A and B on
/// two sandbox merchants, the sandbox declining a share of each merchant's payments; an ordered rule
/// (A first), then an adaptive one, then A recovers, then A is much cheaper at an equal decline rate.
/// Prints each account's share per window of payments and the authorisation rate of every phase.
/// Then a replay of a draft over payments a 1:1 weighted rule routed, set against the rate the draft
/// achieves once live; and a bad and a good draft under guarded rollout, which the platform must roll back
/// and promote. `--experiments` picks among the three.
///
/// Its options are named apart from `switchyard bench`'s (`--server`, `--phase-payments`, `--in-flight`,
/// `--json-report`, `--server-data-dir`): the parent command reads its own options wherever they appear.
struct BenchRoutingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routing",
        abstract: "Compare ordered and adaptive routing, a replay's prediction and guarded rollouts on the sandbox.")

    @Option(help: "A running server's URL (default: start the embedded default in a child process).")
    var server: String?

    @Option(help: "The operator token for --server.")
    var operatorToken: String?

    @Option(help: "A running sandbox serving merchants A and B (default: a sandbox inside this process).")
    var sandboxURL: String?

    @Option(
        help: """
            With --sandbox-url: Worldline Direct merchant A as \
            merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret.
            """)
    var merchantA: String?

    @Option(help: "With --sandbox-url: Worldline Direct merchant B, in the form of --merchant-a.")
    var merchantB: String?

    @Option(help: "Payments in the ordered phase, the adaptive phase and the fee phase.")
    var phasePayments: Int = 2000

    @Option(help: "Payments per reported window.")
    var window: Int = 200

    @Option(help: "Most payments the recovery phase sends while waiting for A's share to return.")
    var recoveryLimit: Int = 4000

    @Option(help: "Share of A's payments the sandbox declines (ordered and adaptive phases).")
    var declineA: Double = 0.30

    @Option(help: "Share of B's payments the sandbox declines (and A's in the fee phase).")
    var declineB: Double = 0.05

    @Option(
        help:
            "Share of A's payments the sandbox declines in the fee phase: a little more than B's, within max_rate_loss."
    )
    var feeDeclineA: Double = 0.07

    @Option(help: "Seed of the sandbox's decline draws (the same seed and references give the same declines).")
    var seed: Int = 19

    @Option(help: "The fee phase's max_rate_loss, in percentage points.")
    var maxRateLoss: Double = 3

    @Option(help: "The tenant's exploration share (default: the platform's).")
    var explorationShare: Double?

    @Option(help: "The experiments to run, comma-separated: adaptive, replay, rollout.")
    var experiments: String = BenchRoutingExperiment.Experiment.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Replay: payments under the live rule before the replay.")
    var replayPayments: Int = 600

    @Option(help: "Replay: fresh payments under the draft after it (default: twice --replay-payments).")
    var replayFreshPayments: Int?

    @Option(help: "Replay: the z of the server's intervals (its adaptive_routing.confidence_z).")
    var confidenceZ: Double = 1.96

    @Option(help: "Rollouts: the draft's share of the payments (0.01 to 0.5).")
    var rolloutShare: Double = 0.5

    @Option(help: "Rollouts: the guardrail, in percentage points.")
    var guardrailPp: Double = 3

    @Option(help: "Rollouts: the answers each arm needs before a draft may be promoted.")
    var rolloutMinSamples: Int = 2000

    @Option(help: "Rollouts: the most payments a rollout may take before it is stopped undecided.")
    var rolloutLimit: Int = 10_000

    @Option(help: "Payments in flight at once.")
    var inFlight: Int = 4

    @Option(help: "Write the phases and windows to this JSON file.")
    var jsonReport: String?

    @Option(help: "Data directory of the embedded server (default: a new temporary directory, removed after).")
    var serverDataDir: String?

    func validate() throws {
        guard phasePayments > 0, window > 0, recoveryLimit > 0 else {
            throw ValidationError("--phase-payments, --window and --recovery-limit must be positive")
        }
        guard (1...256).contains(inFlight) else { throw ValidationError("--in-flight must be 1 to 256") }
        guard (0...1).contains(declineA), (0...1).contains(declineB), (0...1).contains(feeDeclineA) else {
            throw ValidationError("--decline-a, --decline-b and --fee-decline-a are shares between 0 and 1")
        }
        guard (1...1_000_000).contains(replayPayments), (1...1_000_000).contains(replayFreshPayments ?? 1) else {
            throw ValidationError("--replay-payments and --replay-fresh-payments are 1 to 1000000")
        }
        guard rolloutMinSamples > 0, rolloutLimit > 0 else {
            throw ValidationError("--rollout-min-samples and --rollout-limit must be positive")
        }
        guard confidenceZ > 0, confidenceZ <= 10 else {
            throw ValidationError("--confidence-z is above 0 and at most 10")
        }
        guard (0.01...0.5).contains(rolloutShare), (0.1...50).contains(guardrailPp) else {
            throw ValidationError("--rollout-share is 0.01 to 0.5 and --guardrail-pp 0.1 to 50")
        }
        guard selected != nil else {
            throw ValidationError("--experiments is a comma-separated list of adaptive, replay and rollout")
        }
        if server != nil && operatorToken == nil { throw ValidationError("--server needs --operator-token") }
        if sandboxURL != nil && (merchantA == nil || merchantB == nil) {
            throw ValidationError("--sandbox-url needs --merchant-a and --merchant-b")
        }
        for spec in [merchantA, merchantB].compactMap({ $0 }) where BenchRoutingSandbox.merchant(spec) == nil {
            throw ValidationError("a merchant is merchant_id:api_key_id:secret_api_key:webhook_key_id:webhook_secret")
        }
    }

    func run() async throws {
        let workDirectory = NSTemporaryDirectory() + "switchyard-bench-routing-" + UUID().uuidString.prefix(8)
        defer { try? FileManager.default.removeItem(atPath: workDirectory) }
        var embedded: BenchServer?
        defer { embedded?.stop() }
        let serverURL: String
        let token: String
        if let server, let operatorToken {
            serverURL = server
            token = operatorToken
        } else {
            let directory = serverDataDir.map(CommandSupport.absolute) ?? workDirectory + "/data"
            BenchProgress.write("starting the embedded default in \(directory) …\n")
            let started = try await BenchServer(dataDirectory: directory)
            embedded = started
            serverURL = started.url
            token = try started.demo().operatorToken
        }
        let sandbox = try await BenchRoutingSandbox.start(
            url: sandboxURL, merchantA: merchantA.flatMap(BenchRoutingSandbox.merchant),
            merchantB: merchantB.flatMap(BenchRoutingSandbox.merchant))
        defer { sandbox.stop() }
        let http = BenchHTTP(connections: inFlight)
        let experiment = BenchRoutingExperiment(
            http: http, serverURL: serverURL, operatorToken: token, sandbox: sandbox,
            settings: .init(
                payments: phasePayments, window: window, recoveryLimit: recoveryLimit, declineA: declineA,
                declineB: declineB, feeDeclineA: feeDeclineA, seed: seed, maxRateLoss: maxRateLoss,
                explorationShare: explorationShare, concurrency: inFlight, experiments: selected ?? [],
                replayPayments: replayPayments, replayFreshPayments: replayFreshPayments ?? replayPayments * 2,
                confidenceZ: confidenceZ, rolloutShare: rolloutShare, guardrailPP: guardrailPp,
                rolloutMinSamples: rolloutMinSamples, rolloutLimit: rolloutLimit))
        let report: BenchRoutingReport
        do {
            report = try await experiment.run()
        } catch {
            await http.shutdown()
            throw error
        }
        await http.shutdown()
        print(BenchRoutingTable(report: report).render(), terminator: "")
        if let jsonReport {
            try report.json().write(to: URL(fileURLWithPath: CommandSupport.absolute(jsonReport)))
        }
        if report.phases.isEmpty && report.replay == nil && report.rollouts.isEmpty { throw ExitCode.failure }
    }

    /// The experiments `--experiments` names (nil: an unknown name, or none).
    var selected: Set<BenchRoutingExperiment.Experiment>? {
        let names = experiments.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let chosen = names.compactMap(BenchRoutingExperiment.Experiment.init(rawValue:))
        return chosen.isEmpty || chosen.count != names.count ? nil : Set(chosen)
    }
}
