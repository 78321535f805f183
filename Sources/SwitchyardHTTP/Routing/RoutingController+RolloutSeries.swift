import Foundation
import Hummingbird
import SwitchyardCore

/// `GET …/routing/rollout/series`: a guarded rollout (the running one, else the last started; or
/// `?rollout=` an id, `running` or `last_ended`) with its figures and its two curves: per time bucket, each
/// arm's cumulative answers and authorisation rate and the interval for draft − control at that point, in
/// at most `?buckets=` (1-200, default 60) buckets whose width follows from the elapsed time.
extension RoutingController {
    /// The answer: the rollout as `GET …/routing` shows it (the figures that decided it once ended), the
    /// bucket width and the points, oldest first.
    struct SeriesBody: Encodable {
        struct Point: Encodable {
            var at: Date
            var elapsedSeconds: Double
            var control: RolloutSnapshot.Arm
            var draft: RolloutSnapshot.Arm
            var interval: RolloutSnapshot.IntervalPP?

            enum CodingKeys: String, CodingKey {
                case at, control, draft, interval
                case elapsedSeconds = "elapsed_seconds"
            }

            /// `interval` is written as `null` until both arms have answers, so every point has every key.
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(at, forKey: .at)
                try c.encode(elapsedSeconds, forKey: .elapsedSeconds)
                try c.encode(control, forKey: .control)
                try c.encode(draft, forKey: .draft)
                try c.encode(interval, forKey: .interval)
            }
        }

        var object = "routing_rollout_series"
        var rollout: RolloutSnapshot
        var endedAt: Date?
        var bucketSeconds: Int
        var points: [Point]

        enum CodingKeys: String, CodingKey {
            case object, rollout, points
            case endedAt = "ended_at"
            case bucketSeconds = "bucket_seconds"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(object, forKey: .object)
            try c.encode(rollout, forKey: .rollout)
            try c.encode(endedAt, forKey: .endedAt)
            try c.encode(bucketSeconds, forKey: .bucketSeconds)
            try c.encode(points, forKey: .points)
        }

        init(_ history: RolloutHistory) {
            rollout = RolloutSnapshot(
                history.rollout, figures: history.figures, status: history.status, reason: history.reason)
            endedAt = history.endedAt
            bucketSeconds = history.series.bucketSeconds
            points = history.series.points.map {
                Point(
                    at: $0.at, elapsedSeconds: $0.elapsedSeconds, control: RolloutSnapshot.Arm($0.control),
                    draft: RolloutSnapshot.Arm($0.draft), interval: $0.interval.map(RolloutSnapshot.IntervalPP.init))
            }
        }
    }

    /// The rollout `?rollout=` selects (default: the running one, else the last started); `400
    /// invalid_parameter` naming `rollout` for anything but an id, `running` or `last_ended`.
    static func rolloutSelection(_ text: String?) throws -> RolloutSelection {
        switch text {
        case nil: return .current
        case "running": return .running
        case "last_ended": return .lastEnded
        case let text?:
            guard let id = UUID(uuidString: text) else {
                throw APIError(
                    .invalidParameter, "rollout must be the id of a rollout, running or last_ended", param: "rollout")
            }
            return .id(id)
        }
    }

    /// `?buckets=`: 1-200, default 60; `400 invalid_parameter` naming `buckets` otherwise.
    static func seriesBuckets(_ text: String?) throws -> Int {
        guard let text else { return RolloutSeries.defaultBuckets }
        guard let buckets = Int(text), (1...RolloutSeries.maximumBuckets).contains(buckets) else {
            throw APIError(
                .invalidParameter, "buckets must be an integer between 1 and \(RolloutSeries.maximumBuckets)",
                param: "buckets")
        }
        return buckets
    }

    /// Answers the selected rollout with its curves; `404 not_found` when there is none.
    func rolloutSeries(tenant: UUID, request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let selection = try Self.rolloutSelection(query.get("rollout"))
        let buckets = try Self.seriesBuckets(query.get("buckets"))
        guard
            let history = try await routing.rolloutHistory(
                tenant: tenant, selection, buckets: buckets, at: service.now())
        else { throw APIError(.notFound, "no such guarded rollout of the routing") }
        return JSONIO.response(.ok, SeriesBody(history))
    }
}
