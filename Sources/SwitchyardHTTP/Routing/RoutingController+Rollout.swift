import Foundation
import Hummingbird
import SwitchyardCore

/// Guarded rollouts: `PUT …/routing` with a `rollout` object stores the rules as a draft next to the live
/// routing; the draft takes its share of the traffic until the janitor promotes or rolls it back, or
/// `POST …/routing/rollout/stop` stops it. `GET …/routing` shows the running rollout with its figures.
extension RoutingController {
    /// A routing as read and written back: the live rules and version, the warnings of a write, and the
    /// running rollout when there is one.
    struct RoutingView: Encodable {
        var rules: [AdminBodies.RuleBody]
        var version: Int
        var warnings: [APIError.Issue]?
        var rollout: RolloutSnapshot?
    }

    /// The tenant's routing with its running rollout's current figures. The figures are read after the
    /// routing; when the rollout ended in between, the routing is read again, so the version and rules
    /// shown always belong with the rollout shown (or its absence).
    func view(tenant: UUID) async throws -> RoutingView {
        var configuration = try await routing.configuration(tenant: tenant)
        for _ in 0..<3 {
            guard let rollout = configuration.rollout else { break }
            if let running = try await routing.rollout(tenant: tenant), running.rollout.id == rollout.id {
                var view = Self.body(configuration)
                view.rollout = RolloutSnapshot(running.rollout, figures: running.decision.figures, status: .running)
                return view
            }
            configuration = try await routing.configuration(tenant: tenant)
        }
        return Self.body(configuration)
    }

    /// Validates the rollout settings and the draft's rules, then starts the rollout (409
    /// `rollout_running` when one runs).
    func startRollout(tenant: UUID, actor: String, body: AdminBodies.Routing, rollout: AdminBodies.RolloutBody)
        async throws -> Response
    {
        let settings = try RolloutSettings.validated(
            share: rollout.share.fraction, guardrailPP: rollout.guardrailPP ?? 3,
            minSamples: rollout.minSamples ?? 5_000,
            maxDurationSeconds: rollout.maxDurationSeconds ?? 7 * 86_400)
        let started: RoutingAdminService.Started
        do {
            started = try await routing.startRollout(
                tenant: tenant, rules: Self.rules(body), settings: settings, expectedVersion: body.version, actor: actor
            )
        } catch let rejection as RoutingAdminService.Rejection {
            throw Self.invalidRouting(rejection)
        }
        var response = try await view(tenant: tenant)
        if !started.warnings.isEmpty { response.warnings = started.warnings.map(APIError.Issue.init) }
        return JSONIO.response(.ok, response)
    }

    /// Stops the running rollout, live routing unchanged; answers the ended rollout.
    func stopRollout(tenant: UUID, actor: String) async throws -> Response {
        let end = try await routing.stopRollout(tenant: tenant, actor: actor, at: service.now())
        return JSONIO.response(.ok, RolloutSnapshot(end))
    }
}
